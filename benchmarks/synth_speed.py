"""Documents per second of `docextract synth` for digital PDFs and for scan-like images.

Run: PYTHONPATH=. python benchmarks/synth_speed.py [--count 60] ; writes benchmarks/results/synth_speed.json.
Single process, as the command runs. Pages per document follow the command's defaults (--pages-max 3).
Besides wall-clock rates it reports the process's CPU time: on the shared machine other jobs stretch the
wall clock by up to 2x between runs, CPU time far less.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import tempfile
import time
from pathlib import Path

from docextract.synth.generate import SynthOptions, generate_invoice
from docextract.synth.layouts import FAMILY_NAMES

RESULTS = Path(__file__).parent / "results" / "synth_speed.json"


def measure(options: SynthOptions, count: int, seed: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        start, cpu_start = time.perf_counter(), time.process_time()
        pages = 0
        for index in range(count):
            pages += generate_invoice(seed, index, options, Path(tmp))["synth"]["page_count"]
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    return {"documents": count, "pages": pages, "seconds": round(seconds, 2),
            "documents_per_second": round(count / seconds, 2), "pages_per_second": round(pages / seconds, 2),
            "cpu_seconds": round(cpu, 2), "documents_per_cpu_second": round(count / cpu, 2),
            "pages_per_cpu_second": round(pages / cpu, 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--count", type=int, default=60)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    results = {
        "machine": {"cpu_count": os.cpu_count(), "python": platform.python_version(), "processor": platform.processor()},
        "command": f"PYTHONPATH=. python benchmarks/synth_speed.py --count {args.count} --seed {args.seed}",
        "digital_pdf": measure(SynthOptions(FAMILY_NAMES, pages_max=3), args.count, args.seed),
        "scan_150dpi": measure(SynthOptions(FAMILY_NAMES, pages_max=3, scan_fraction=1.0, scan_dpi=150),
                               args.count, args.seed),
        "digital_pdf_one_page": measure(SynthOptions(FAMILY_NAMES, pages_max=1), args.count, args.seed),
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2) + "\n")
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
