"""The Python API's warm calls against a cold `docextract run`: what an integration gains by keeping an Extractor.

In one fresh interpreter: ``import docextract`` (no torch), ``Extractor(MODEL)`` (torch and the model load), then
``extract`` on the same file ``--calls`` times (the first call also pays for the readers' and the model's first-use
costs), then ``extract`` on its bytes. Beside it, ``--runs`` times ``docextract run FILE`` as a new process (what a
shell integration pays per document). Every figure is the median wall time of its repeats; one torch thread.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/python_api.py [--file examples/invoice.pdf] [--model invoice] \
        [--calls 10] [--runs 3]

Writes benchmarks/results/python_api.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
RESULTS = REPO / "benchmarks" / "results" / "python_api.json"
ENV = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONPATH": str(REPO)}

# Runs in its own interpreter so that the import and the model load are measured cold.
WARM = """
import json, sys, time
from pathlib import Path
start = time.perf_counter()
import docextract
imported = time.perf_counter()
torch_at_import = "torch" in sys.modules
extractor = docextract.Extractor(sys.argv[2])
made = time.perf_counter()
path, calls = sys.argv[1], int(sys.argv[3])
seconds = []
for _ in range(calls):
    t = time.perf_counter()
    result = extractor.extract(path)
    seconds.append(time.perf_counter() - t)
data = Path(path).read_bytes()
bytes_seconds = []
for _ in range(calls):
    t = time.perf_counter()
    same = extractor.extract(data, name=path)
    bytes_seconds.append(time.perf_counter() - t)
assert same.to_json() == result.to_json()
print(json.dumps({"import_s": imported - start, "torch_at_import": torch_at_import, "extractor_s": made - imported,
                  "extract_s": seconds, "extract_bytes_s": bytes_seconds, "json": result.to_json()}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", default="examples/invoice.pdf")
    parser.add_argument("--model", default="invoice")
    parser.add_argument("--calls", type=int, default=10)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()

    done = subprocess.run([sys.executable, "-c", WARM, args.file, args.model, str(args.calls)], cwd=REPO, env=ENV,
                          capture_output=True, text=True, check=True)
    warm = json.loads(done.stdout)
    runs, printed = [], set()
    for _ in range(args.runs):
        start = time.perf_counter()
        run = subprocess.run([sys.executable, "-m", "docextract", "run", args.file, "--model", args.model], cwd=REPO,
                             env=ENV, capture_output=True, text=True, check=True)
        runs.append(time.perf_counter() - start)
        printed.add(run.stdout)
    later = warm["extract_s"][1:]
    result = {
        "file": args.file, "model": args.model, "calls": args.calls, "runs": args.runs,
        "import_docextract_s": round(warm["import_s"], 4), "torch_imported_by_import_docextract": warm["torch_at_import"],
        "extractor_s": round(warm["extractor_s"], 3),
        "first_extract_s": round(warm["extract_s"][0], 3),
        "later_extract_median_s": round(statistics.median(later), 3) if later else None,
        "extract_bytes_median_s": round(statistics.median(warm["extract_bytes_s"]), 3),
        "docextract_run_process_median_s": round(statistics.median(runs), 3),
        "same_json_as_run": printed == {warm["json"] + "\n"},
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count(), "torch_threads": 1,
                    "load_average": [round(x, 2) for x in os.getloadavg()]},
    }
    if later:
        result["first_call_with_extractor_over_later_call"] = round(
            (result["extractor_s"] + result["first_extract_s"]) / result["later_extract_median_s"], 1)
        result["run_process_over_later_call"] = round(
            result["docextract_run_process_median_s"] / result["later_extract_median_s"], 1)
    RESULTS.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
