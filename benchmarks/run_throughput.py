"""End-to-end `docextract run` speed: pages/s of ``extract_file`` in one process, and where the time goes.

Generates N digital synthetic invoices (PDF text layer) and M scan-like ones (images read by real
Tesseract OCR) with `docextract synth` (all layout families, up to 3 pages, fixed seeds), loads the
model once (its load time is reported, not counted), runs one warm-up file, then times every file
with ``RunOptions(include_timings=True)``. Each repeat runs all files once; pages/s of a set is its
pages divided by its wall time, and the reported value is the median over ``--repeats``. The stage
shares come from the outputs' ``run.timings_ms`` (read: text layer or OCR, layout, model: windows +
inference), summed over all files and repeats. The issue's first bar: at least 5 digital pages/s.

``--decoding`` also times the decoding alone (``document_output``: keys, candidates, parties, review, the output
object) on the digital files, each read and tagged once beforehand and decoded from a fresh copy of its document each
repeat (answers kept per document would otherwise serve the next repeat): its ms per page, which the whole-run
figure hides behind the model's time and the machine's noise.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/run_throughput.py --model models/invoice \
        [--digital 30] [--scans 5] [--repeats 3] [--threads N] [--decoding]

Writes benchmarks/results/run_throughput.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

RESULTS = REPO / "benchmarks" / "results" / "run_throughput.json"
DIGITAL_SEED = 11  # seeds of the generated sets (any fixed values: the sets stay the same between runs)
SCAN_SEED = 12
PAGES_MAX = 3
DIGITAL_PAGES_PER_SECOND_BAR = 5.0  # the first bar


def generate(out_dir: Path, seed: int, count: int, scan_fraction: float) -> list[tuple[Path, int]]:
    """(file, pages) of ``count`` invoices from every layout family."""
    from docextract.synth.generate import SynthOptions, generate_invoice
    from docextract.synth.layouts import FAMILY_NAMES

    out_dir.mkdir(parents=True, exist_ok=True)
    options = SynthOptions(families=tuple(FAMILY_NAMES), pages_max=PAGES_MAX, scan_fraction=scan_fraction)
    records = [generate_invoice(seed, index, options, out_dir) for index in range(count)]
    return [(out_dir / r["source"], r["synth"]["page_count"]) for r in records]


def time_set(files: list[tuple[Path, int]], options, repeats: int) -> dict:
    from docextract.pipeline import extract_file

    stage_ms: Counter = Counter()
    walls = []
    for _ in range(repeats):
        start = time.perf_counter()
        for path, _pages in files:
            output = extract_file(str(path), options)
            stage_ms.update(output["run"]["timings_ms"])
        walls.append(time.perf_counter() - start)
    pages = sum(p for _, p in files)
    stage_ms.pop("load_model", None)  # the cached model: ~0 ms after the first load
    stage_total = sum(stage_ms.values())
    median_wall = statistics.median(walls)
    return {
        "files": len(files), "pages": pages, "repeats": repeats,
        "wall_seconds": [round(w, 3) for w in walls],
        "pages_per_second": round(pages / median_wall, 3),
        "files_per_second": round(len(files) / median_wall, 3),
        "seconds_per_page": round(median_wall / pages, 4),
        "stage_share": {k: round(v / stage_total, 4) for k, v in sorted(stage_ms.items())} if stage_total else {},
        "stage_ms_per_page": {k: round(v / (pages * repeats), 1) for k, v in sorted(stage_ms.items())},
    }


def time_decoding(files: list[tuple[Path, int]], options, repeats: int) -> dict:
    """ms per page of the decoding alone: each file read and tagged once, then decoded ``repeats`` times."""
    import copy

    from docextract.pipeline import document_output, read_and_analyze, tag_document

    tagged = []
    for path, _pages in files:
        doc, _ = read_and_analyze(str(path), options)
        tagged.append((doc, *tag_document(doc, options, {})))
    pages = sum(p for _, p in files)
    for doc, name, routing, model, words in tagged:  # warm-up, not timed: lazy imports, first-call tables
        document_output(copy.deepcopy(doc), words, model, name, routing, {}, options)
    per_page = []
    for _ in range(repeats):
        fresh = [copy.deepcopy(doc) for doc, *_ in tagged]  # not timed
        spent = 0.0
        for doc, (_, name, routing, model, words) in zip(fresh, tagged):
            start = time.perf_counter()
            document_output(doc, words, model, name, routing, {}, options)
            spent += time.perf_counter() - start
        per_page.append(1000 * spent / pages)
    return {"pages": pages, "repeats": repeats, "ms_per_page_each_repeat": [round(v, 1) for v in per_page],
            "median_ms_per_page": round(statistics.median(per_page), 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default="models/invoice", help="model folder or shipped model name")
    parser.add_argument("--digital", type=int, default=30, help="digital invoice PDFs")
    parser.add_argument("--scans", type=int, default=5, help="scan-like invoice images (OCR)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--threads", type=int, default=None, help="torch CPU threads (default: torch's choice)")
    parser.add_argument("--decoding", action="store_true", help="also time the decoding alone (ms per digital page)")
    parser.add_argument("--output", type=Path, default=RESULTS)
    args = parser.parse_args()

    import torch

    from docextract.pipeline import RunOptions, extract_file, load_model

    if args.threads:
        torch.set_num_threads(args.threads)
    with tempfile.TemporaryDirectory(prefix="run-throughput-") as tmp:
        digital = generate(Path(tmp) / "digital", DIGITAL_SEED, args.digital, 0.0)
        scans = generate(Path(tmp) / "scans", SCAN_SEED, args.scans, 1.0) if args.scans else []
        start = time.perf_counter()
        load_model(args.model)
        load_seconds = time.perf_counter() - start
        options = RunOptions(model=args.model, include_timings=True)
        extract_file(str(digital[0][0]), options)  # warm-up: first-call allocations and lazy imports
        result = {
            "model": args.model, "load_model_seconds": round(load_seconds, 3),
            "pages_max": PAGES_MAX, "digital": time_set(digital, options, args.repeats),
        }
        if scans:
            result["scans"] = time_set(scans, options, args.repeats)
        if args.decoding:
            result["decoding"] = time_decoding(digital, options, args.repeats)
    rate = result["digital"]["pages_per_second"]
    result["bar"] = {"digital_pages_per_second_at_least": DIGITAL_PAGES_PER_SECOND_BAR,
                     "met": rate >= DIGITAL_PAGES_PER_SECOND_BAR}
    result["machine"] = {"cpus": os.cpu_count(), "torch_threads": torch.get_num_threads(),
                         "load_average": [round(v, 2) for v in os.getloadavg()],
                         "python": platform.python_version(), "platform": platform.platform()}
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))
    print(f"written: {args.output}", file=sys.stderr)


if __name__ == "__main__":
    main()
