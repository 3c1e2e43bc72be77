"""The hostile suite: generated broken/hostile files and the real odd PDFs, through the real readers.

Per case: the expected status and error code; for the run: it finishes, one manifest record per
input, no worker left behind. The shared-data run takes files up to SHARED_MAX_BYTES by default
(seconds); DOCEXTRACT_FULL_SHARED_PDFS=1 runs every file (~100 s on 2 cores).
"""

from __future__ import annotations

import os

from hostile import EMPTY, OK, UNSUPPORTED, write_hostile_cases
from test_batch import manifest, no_workers_left

from docextract.batch.engine import run_batch

READ = "docextract.batch.engine:read_summary"
HOSTILE_TIMEOUT_S = 30  # seconds per file (the hostile suite's budget for one file)
HOSTILE_MEMORY_MB = 512  # per-worker cap: the 1 GiB Flate bomb must hit it
SHARED_MAX_BYTES = 64 * 1024  # default run: the small files (70 of 121, a few seconds)
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".tif", ".tiff")


def outcome(record: dict) -> tuple[str, str | None]:
    return record["status"], record["error"] and record["error"]["code"]


def test_generated_hostile_cases_end_with_their_expected_status_and_code(tmp_path):
    cases = write_hostile_cases(tmp_path / "in")
    out = tmp_path / "out"
    summary = run_batch(tmp_path / "in", out, process=READ, options={"ocr": "auto", "dpi": 72}, workers=2,
                        timeout_s=HOSTILE_TIMEOUT_S, max_memory_mb=HOSTILE_MEMORY_MB, progress=False)

    records = manifest(out)
    assert sorted(records) == sorted(cases) and summary.inputs == len(cases)
    wrong = {name: outcome(records[name]) for name, case in cases.items() if outcome(records[name]) not in case.expected}
    assert not wrong, wrong
    assert "INTERNAL_ERROR" not in summary.by_code
    assert no_workers_left(str(out.resolve()))


def expected_for_shared_file(rel: str, size: int) -> tuple[str, str | None]:
    """What the readers must say about a file of ../shared/data/pdfs (checked on all 121 files)."""
    if size == 0:
        return EMPTY
    suffix = os.path.splitext(rel)[1].lower()
    if suffix == ".pdf":
        return ("failed", "PDF_ENCRYPTED") if "password" in rel or "encrypt" in rel else OK
    if suffix in IMAGE_SUFFIXES:
        return OK
    if suffix == ".json":  # JSON that is not the words format
        return ("failed", "INPUT_UNREADABLE")
    return UNSUPPORTED  # .tex, .md, .odt, .zip, .html, LICENSE


def test_every_shared_odd_pdf_gets_its_expected_record(tmp_path, shared_data):
    root = shared_data("pdfs")
    full = os.environ.get("DOCEXTRACT_FULL_SHARED_PDFS") == "1"
    inputs = tmp_path / "in"  # a tree of links to the real files, so the batch walks only the chosen ones
    chosen = {}
    for path in sorted(root.rglob("*")):
        if path.is_file() and (full or path.stat().st_size <= SHARED_MAX_BYTES):
            rel = path.relative_to(root).as_posix()
            chosen[rel] = path.stat().st_size
            (inputs / rel).parent.mkdir(parents=True, exist_ok=True)
            os.symlink(path, inputs / rel)
    out = tmp_path / "out"
    summary = run_batch(inputs, out, process=READ, options={"ocr": "never"}, workers=2, timeout_s=120,
                        follow_symlinks=True, progress=False)

    records = manifest(out)
    assert sorted(records) == sorted(chosen) and summary.inputs == len(chosen)
    wrong = {rel: outcome(records[rel]) for rel, size in chosen.items()
             if outcome(records[rel]) != expected_for_shared_file(rel, size)}
    assert not wrong, wrong
    assert no_workers_left(str(out.resolve()))
