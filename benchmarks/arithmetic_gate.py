"""May a model run in cheaper arithmetic? Its fields in float32, bfloat16 and int8 side by side, and the verdict.

Runs benchmarks/invoice_eval.py once per arithmetic (a fresh process each, ``DOCEXTRACT_COMPUTE`` set: see
docextract/modeling/runtime.py) on the same held-out synthetic invoices and, with ``--real``, the same real
labelled documents (e.g. the e-invoice validation split, `docextract convert einvoice` + `docextract split`).
An arithmetic **passes** when its micro field accuracy on every set is within ``--tolerance`` points (0.5, the
issue's bar) of float32's. Only then should the model be shipped with it
(``scripts/ship_model.py RUN/model models/NAME --compute bfloat16``). bfloat16 runs as float32 on a CPU
without native bfloat16 (the verdict then says nothing: the script refuses).

    PYTHONPATH=$PWD .venv/bin/python benchmarks/arithmetic_gate.py --model models/invoice \
        [--count 40] [--real einvoice=VAL.jsonl] [--computes bfloat16,int8-linear] [--name arithmetic_gate]

Writes benchmarks/results/NAME.json (and each run's invoice_eval output beside it, NAME_<compute>.json).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

RESULTS = REPO / "benchmarks" / "results"
TOLERANCE_POINTS = 0.5


def micro(result: dict) -> dict[str, float]:
    """Micro field accuracy (%) per set of an invoice_eval result."""
    sets = {}
    if "synthetic" in result:
        sets["held_out_synthetic"] = 100 * result["synthetic"]["all"]["micro_accuracy"]
    for name, real in result.get("real", {}).items():
        sets[f"real_{name}"] = 100 * real["all"]["micro_accuracy"]
    return sets


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default="models/invoice")
    parser.add_argument("--count", type=int, default=40, help="held-out synthetic invoices")
    parser.add_argument("--real", action="append", default=[], metavar="NAME=LABELS.jsonl")
    parser.add_argument("--computes", default="bfloat16,int8-linear")
    parser.add_argument("--tolerance", type=float, default=TOLERANCE_POINTS, help="points of micro accuracy")
    parser.add_argument("--name", default="arithmetic_gate")
    args = parser.parse_args()
    from docextract.modeling.runtime import BFLOAT16, COMPUTES, native_bfloat16

    computes = ["float32"] + [c.strip() for c in args.computes.split(",") if c.strip() and c.strip() != "float32"]
    unknown = [c for c in computes if c not in COMPUTES]
    if unknown:
        raise SystemExit(f"unknown compute {unknown}; choose from {', '.join(COMPUTES)}")
    if BFLOAT16 in computes and not native_bfloat16():
        raise SystemExit("this CPU has no native bfloat16: bfloat16 would run as float32 here; drop it from --computes")
    report = {"command": "PYTHONPATH=$PWD .venv/bin/python benchmarks/arithmetic_gate.py " + " ".join(sys.argv[1:]),
              "model": args.model, "tolerance_points": args.tolerance, "runs": {}}
    for compute in computes:
        output = RESULTS / f"{args.name}_{compute}.json"
        command = [sys.executable, str(REPO / "benchmarks" / "invoice_eval.py"), "--model", args.model,
                   "--count", str(args.count), "--skip-sroie", "--output", str(output)]
        for spec in args.real:
            command += ["--real", spec]
        start = time.perf_counter()
        subprocess.run(command, check=True, env={**os.environ, "DOCEXTRACT_COMPUTE": compute},
                       stdout=subprocess.DEVNULL)
        result = json.loads(output.read_text())
        report["runs"][compute] = {"micro_accuracy_pct": {k: round(v, 2) for k, v in micro(result).items()},
                                   "seconds": round(time.perf_counter() - start, 1), "result": output.name}
    baseline = report["runs"]["float32"]["micro_accuracy_pct"]
    for compute in computes[1:]:
        run = report["runs"][compute]
        run["delta_points"] = {k: round(v - baseline[k], 2) for k, v in run["micro_accuracy_pct"].items()}
        run["passes"] = all(d >= -args.tolerance for d in run["delta_points"].values())
    path = RESULTS / f"{args.name}.json"
    path.write_text(json.dumps(report, indent=2) + "\n")
    for compute, run in report["runs"].items():
        print(compute, run["micro_accuracy_pct"], run.get("delta_points", ""), "PASS" if run.get("passes") else
              ("" if compute == "float32" else "FAIL"))
    print(f"written: {path}")


if __name__ == "__main__":
    main()
