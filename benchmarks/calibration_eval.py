"""Temperature calibration of a model, fitted on one held-out set and judged on another.

1. Calibration set: ``docextract synth CAL --count N --seed 4 --families statement,sidebar,window_right,quantity_first
   --scan-fraction 0.15 --pages-max 3``: the held-out layout families of benchmarks/invoice_eval.py (never in
   the invoice model's training, which used seeds 1 and 2 of the other 17 families) with a different seed
   from its evaluation set (seed 3), so no document is shared.
2. T is fitted on the calibration set's labelled words (``docextract calibrate MODEL CAL/labels.jsonl``) and
   written into a temporary copy of the model.
3. The calibration part of benchmarks/invoice_eval.py (every extracted field's confidence against whether
   its value is right, through the whole `docextract run` pipeline, OCR for the scans; ECE over 10 bins)
   on its evaluation set (seed 3, ``--eval-count`` invoices), once with the model as it is, once with T.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/calibration_eval.py --model models/invoice [--count 60] [--eval-count 40]

Writes benchmarks/results/calibration_eval.json and .md. The model itself is never modified.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

import invoice_eval  # noqa: E402  (the held-out families, generation and calibration measure are shared)

RESULTS = REPO / "benchmarks" / "results"
CALIBRATION_SEED = 4  # != invoice_eval.SYNTH_SEED (3): a disjoint set of documents


def generate_calibration_set(out_dir: Path, count: int) -> Path:
    from docextract.synth.generate import SynthOptions, generate_invoice

    options = SynthOptions(families=invoice_eval.HELD_OUT_FAMILIES, pages_max=invoice_eval.PAGES_MAX,
                           scan_fraction=invoice_eval.SCAN_FRACTION)
    records = [generate_invoice(CALIBRATION_SEED, index, options, out_dir) for index in range(count)]
    path = out_dir / "labels.jsonl"
    with open(path, "w", encoding="utf-8") as f:
        for record in records:
            f.write(json.dumps(record) + "\n")
    return path


def field_calibration(model: str, records: list[dict], data_dir: Path, lang: str) -> dict:
    results = invoice_eval.extract_all(records, data_dir, model, lang)
    summary = invoice_eval.calibration(results)
    summary["micro_accuracy"] = invoice_eval.accuracy_summary(results)["micro_accuracy"]
    return summary


def markdown(result: dict) -> str:
    fit = result["fit"]
    lines = [f"# Temperature calibration: `{result['model']}`", "",
             f"Fitted on `{result['calibration_set']}` ({fit['documents']} documents, {fit['words']} words): "
             f"**T = {fit['temperature']:.4f}**.", "",
             "| measured on | measure | T = 1 | fitted T |", "|---|---|---:|---:|",
             f"| calibration set, words | NLL (nats) | {fit['nll_before']:.4f} | {fit['nll_after']:.4f} |",
             f"| calibration set, words | ECE | {fit['ece_before']:.4f} | {fit['ece_after']:.4f} |"]
    if fit["field_ece_before"] is not None:
        lines.append(f"| calibration set, {fit['fields']} fields (labelled words) | ECE | {fit['field_ece_before']:.4f} "
                     f"| {fit['field_ece_after']:.4f} |")
    before, after = result["evaluation"]["before"], result["evaluation"]["after"]
    lines += [f"| evaluation set, {after['extracted_fields']} fields (`docextract run`) | ECE | **{before['ece']:.4f}** "
              f"| **{after['ece']:.4f}** |",
              f"| evaluation set | field accuracy (T keeps every tag but can change which entity of a label is the most confident) | {before['micro_accuracy']:.4f} | {after['micro_accuracy']:.4f} |",
              "", f"Evaluation set: `{result['evaluation']['synth_command']}`.", "",
              "Reliability on the evaluation set (fields per bin, mean confidence, accuracy):", "",
              "| confidence | T = 1 fields | mean conf. | accuracy | fitted T fields | mean conf. | accuracy |",
              "|---|---:|---:|---:|---:|---:|---:|"]

    def cells(row: dict) -> str:
        mean = "" if row["mean_confidence"] is None else f"{row['mean_confidence']:.3f}"
        acc = "" if row["accuracy"] is None else f"{row['accuracy']:.3f}"
        return f"{row['count']} | {mean} | {acc}"

    for a, b in zip(before["reliability"], after["reliability"]):
        lines.append(f"| {a['low']:.1f}-{a['high']:.1f} | {cells(a)} | {cells(b)} |")
    lines += ["", f"Apply it: `{result['apply_command']}`", ""]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default="models/invoice")
    parser.add_argument("--count", type=int, default=60, help="calibration invoices (seed 4)")
    parser.add_argument("--eval-count", type=int, default=40, help="evaluation invoices (seed 3, as invoice_eval.py)")
    parser.add_argument("--lang", default="eng")
    parser.add_argument("--output", type=Path, default=RESULTS / "calibration_eval.json")
    args = parser.parse_args()

    from docextract.calibration import calibrate, write_temperature
    from docextract.data.labelled import read_jsonl
    from docextract.model_store import resolve_model
    from docextract.pipeline import load_model

    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="calibration-eval-") as tmp:
        tmp = Path(tmp)
        (tmp / "cal").mkdir()
        cal_labels = generate_calibration_set(tmp / "cal", args.count)
        net, tokenizer = load_model(args.model)
        report = calibrate(net, tokenizer, list(read_jsonl(cal_labels)),
                           on_document=lambda n: print(f"\rlogits {n}/{args.count}", end="", file=sys.stderr, flush=True))
        print(file=sys.stderr)
        calibrated = write_temperature(resolve_model(args.model), report.temperature, tmp / "calibrated")
        (tmp / "eval").mkdir()
        records = invoice_eval.generate(tmp / "eval", args.eval_count)
        before = field_calibration(args.model, records, tmp / "eval", args.lang)
        after = field_calibration(str(calibrated), records, tmp / "eval", args.lang)
    held_out = ",".join(invoice_eval.HELD_OUT_FAMILIES)
    synth = (f"docextract synth OUT --count {{n}} --seed {{seed}} --families {held_out} "
             f"--scan-fraction {invoice_eval.SCAN_FRACTION} --pages-max {invoice_eval.PAGES_MAX}")
    result = {
        "model": args.model,
        "calibration_set": synth.format(n=args.count, seed=CALIBRATION_SEED),
        "fit": report.to_dict(),
        "evaluation": {"synth_command": synth.format(n=args.eval_count, seed=invoice_eval.SYNTH_SEED),
                       "before": before, "after": after},
        "apply_command": f"docextract calibrate {args.model} CAL/labels.jsonl  "
                         f"(CAL from: {synth.format(n=args.count, seed=CALIBRATION_SEED).replace('OUT', 'CAL')})",
        "seconds": round(time.perf_counter() - start, 1),
    }
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(result, indent=2) + "\n")
    args.output.with_suffix(".md").write_text(markdown(result))
    print(markdown(result))


if __name__ == "__main__":
    main()
