"""Every PDF under ../shared/data/pdfs through read_document(ocr="never"): the result each must give.

The expectations live in tests/readers/readers_corpus_expected.json, keyed by the path under data/pdfs:
``{"pages": N}`` (reads, N pages) or ``{"error": CODE}`` (a clean InputError with that code), plus
``password``/``pages_with_password`` for encrypted samples (passwords from the samples' own docs).
Any other exception, or a file taking longer than the guard, fails the test.
"""

from __future__ import annotations

import json
import signal
from pathlib import Path

import pytest

from conftest import SHARED_DATA
from docextract.errors import InputError
from docextract.readers import read_document

EXPECTED = json.loads((Path(__file__).parent / "readers_corpus_expected.json").read_text())
PDF_ROOT = SHARED_DATA / "pdfs"
FILE_TIME_GUARD = 120  # seconds; the slowest file (117 pages) takes ~10-20 s on a busy 2-core machine
SLOW_PAGES = 10  # files with more pages are marked slow (deselect with -m "not slow")


def _cases():
    on_disk = sorted(p.relative_to(PDF_ROOT).as_posix() for p in PDF_ROOT.rglob("*.pdf")) if PDF_ROOT.exists() else []
    names = sorted(set(on_disk) | set(EXPECTED))
    return [pytest.param(name, marks=[pytest.mark.slow] if EXPECTED.get(name, {}).get("pages", 0) > SLOW_PAGES else [])
            for name in names]


class FileTookTooLong(Exception):
    pass


def _guarded_read(path: Path, **options):
    def alarm(signum, frame):
        raise FileTookTooLong(f"{path} took longer than {FILE_TIME_GUARD} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(FILE_TIME_GUARD)
    try:
        return read_document(path, ocr="never", **options)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def test_every_sample_pdf_has_an_expectation(shared_data):
    root = shared_data("pdfs")
    on_disk = {p.relative_to(root).as_posix() for p in root.rglob("*.pdf")}
    assert on_disk == set(EXPECTED)


@pytest.mark.parametrize("name", _cases())
def test_sample_pdf(shared_data, name):
    path = shared_data("pdfs", *name.split("/"))
    expected = EXPECTED[name]
    if "error" in expected:
        with pytest.raises(InputError) as info:
            _guarded_read(path)
        assert info.value.code == expected["error"] and info.value.path == str(path)
    else:
        document = _guarded_read(path)
        assert len(document.pages) == expected["pages"]
        assert [p.number for p in document.pages] == list(range(1, expected["pages"] + 1))
        for page in document.pages:
            assert page.width > 0 and page.height > 0
            assert all(w.text.strip() and w.box.x0 <= w.box.x1 and w.box.top <= w.box.bottom for w in page.words)
    if "password" in expected:
        document = _guarded_read(path, password=expected["password"])
        assert len(document.pages) == expected["pages_with_password"] and document.word_count > 0
