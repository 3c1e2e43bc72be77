"""Batch throughput: files/s with 1 and 2 isolated workers, isolation overhead vs in-process, parent peak RSS.

Generates two folders (deterministic): digital invoices (fpdf2, text layer) and scans of the
same invoices (pages rendered by pypdfium2 to grey PNGs, read by OCR). Each configuration runs
in a fresh subprocess so that the parent's peak RSS belongs to that configuration alone:

* ``in-process``: ``run_batch(..., isolate=False)`` (no timeout, no memory cap);
* ``isolated-1`` / ``isolated-2``: 1 or 2 long-lived worker processes.

Overhead = (isolated-1 wall time - in-process wall time) / in-process wall time, medians of
``--repeats`` runs (target G18: under 15 %). Wall time includes starting the workers (importing
the processing function), so it is the cost a user sees for a folder of that size.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/batch_throughput.py \
        [--digital 60] [--scans 6] [--repeats 3] [--process docextract.batch.engine:read_summary]

Writes benchmarks/results/batch_throughput.json.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
RESULTS = REPO / "benchmarks" / "results" / "batch_throughput.json"
SCAN_DPI = 150  # dots per inch of the rendered "scans"
OCR_DPI = 150  # what the readers are told (only used for PDFs that need OCR)
CONFIGS = {"in-process": (False, 1), "isolated-1": (True, 1), "isolated-2": (True, 2)}
ITEMS = [("Consulting services", 12, 95.0), ("Licence, annual", 1, 1200.0), ("Support hours", 7, 80.0),
         ("Travel expenses", 1, 342.5), ("Training day", 2, 650.0), ("Hardware", 3, 210.0)]


def make_invoice(index: int) -> bytes:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_creation_date(datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc))
    pdf.add_page()
    pdf.set_font("helvetica", "B", 16)
    pdf.cell(0, 10, f"INVOICE No. 2024-{index:04d}", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("helvetica", size=11)
    for line in (f"Date: {1 + index % 28:02d}.03.2024", "Acme Supplies GmbH, Hauptstr. 5, 10115 Berlin",
                 f"Bill to: Customer {index}, 12 High Street, London", ""):
        pdf.cell(0, 7, line, new_x="LMARGIN", new_y="NEXT")
    total = 0.0
    for offset in range(len(ITEMS)):
        name, quantity, price = ITEMS[(index + offset) % len(ITEMS)]
        amount = quantity * price
        total += amount
        pdf.cell(100, 7, name)
        pdf.cell(20, 7, str(quantity), align="R")
        pdf.cell(30, 7, f"{price:,.2f}", align="R")
        pdf.cell(30, 7, f"{amount:,.2f}", align="R", new_x="LMARGIN", new_y="NEXT")
    pdf.cell(150, 9, "Total EUR", align="R")
    pdf.cell(30, 9, f"{total:,.2f}", align="R", new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())


def make_folders(root: Path, digital: int, scans: int) -> dict[str, Path]:
    import pypdfium2

    folders = {"digital": root / "digital", "scans": root / "scans"}
    for folder in folders.values():
        folder.mkdir(parents=True)
    for index in range(digital):
        (folders["digital"] / f"invoice-{index:04d}.pdf").write_bytes(make_invoice(index))
    for index in range(scans):
        document = pypdfium2.PdfDocument(make_invoice(index))
        image = document[0].render(scale=SCAN_DPI / 72).to_pil().convert("L")
        image.save(folders["scans"] / f"scan-{index:04d}.png")
        document.close()
    return folders


def run_one(folder: str, out: str, process: str, options: dict, isolate: bool, workers: int) -> dict:
    """One configuration in a fresh interpreter; returns its summary.json."""
    code = (
        "import json, sys; from docextract.batch.engine import run_batch; "
        f"s = run_batch({folder!r}, {out!r}, process={process!r}, options={options!r}, isolate={isolate}, "
        f"workers={workers}, progress=False, overwrite=True); print(json.dumps(s.to_dict()))"
    )
    # cwd outside the checkout: the package comes from PYTHONPATH (default: this checkout) only.
    # OMP_THREAD_LIMIT=1 in every configuration, as `docextract` sets it: the workers get it anyway,
    # and without it the in-process run would compare multi-threaded Tesseract against single-threaded.
    env = {**os.environ, "PYTHONPATH": os.environ.get("PYTHONPATH", str(REPO)), "OMP_THREAD_LIMIT": "1"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=folder, env=env)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--digital", type=int, default=60, help="digital invoices to generate")
    parser.add_argument("--scans", type=int, default=6, help="scanned pages (PNG, OCR) to generate")
    parser.add_argument("--repeats", type=int, default=3, help="runs per configuration (median reported)")
    parser.add_argument("--process", default="docextract.batch.engine:read_summary", help="module:function to run per file")
    args = parser.parse_args()

    options = {"ocr": "auto", "dpi": OCR_DPI}
    results: dict = {"process": args.process, "options": options, "repeats": args.repeats,
                     "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform()},
                     "date": datetime.date.today().isoformat(), "sets": {}}
    with tempfile.TemporaryDirectory(prefix="docextract-bench-") as scratch:
        folders = make_folders(Path(scratch), args.digital, args.scans)
        for set_name, folder in folders.items():
            files = len(list(folder.iterdir()))
            rows = {}
            for config, (isolate, workers) in CONFIGS.items():
                runs = []
                for repeat in range(args.repeats):
                    out = Path(scratch, f"out-{set_name}-{config}-{repeat}")
                    summary = run_one(str(folder), str(out), args.process, options, isolate, workers)
                    assert summary["by_status"] == {"ok": files}, summary["by_status"]
                    runs.append(summary)
                    shutil.rmtree(out)
                wall = statistics.median(run["elapsed_s"] for run in runs)
                rows[config] = {
                    "wall_s_median": round(wall, 3),
                    "wall_s_runs": [run["elapsed_s"] for run in runs],
                    "files_per_s": round(files / wall, 3),
                    "parent_peak_rss_mb": max(run["parent_peak_rss_mb"] for run in runs),
                }
                print(f"{set_name:8s} {config:11s} {files} files  {wall:7.2f} s  {files / wall:6.2f} files/s  "
                      f"parent peak RSS {rows[config]['parent_peak_rss_mb']:.0f} MB", flush=True)
            base = rows["in-process"]["wall_s_median"]
            results["sets"][set_name] = {
                "files": files, "configs": rows,
                "isolation_overhead": round((rows["isolated-1"]["wall_s_median"] - base) / base, 4),
            }
            print(f"{set_name:8s} isolation overhead (isolated-1 vs in-process): "
                  f"{100 * results['sets'][set_name]['isolation_overhead']:+.1f} %", flush=True)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2, sort_keys=True) + "\n")
    print(f"wrote {RESULTS.relative_to(REPO)}")


if __name__ == "__main__":
    main()
