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

With ``--fields``, the field calibration instead (docextract/extraction/confidence.py): a Platt map (and, for
comparison, an isotonic one) from a field's raw confidence to P(value right) is fitted on the same
calibration set's (raw field confidence, correct) pairs at the model's own temperature
(``docextract calibrate MODEL CAL/labels.jsonl --fields``), written into a temporary copy, and the
evaluation set goes once through `docextract run` with that copy: "before" is every field's
``raw_confidence`` (exactly the uncalibrated model's confidence), "after" its ``confidence``; the isotonic
map is applied to the same raw confidences. The result is added to the same files under
``field_calibration`` (the temperature section is kept as it was measured).

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


def with_raw_confidences(output: dict) -> dict:
    """A copy of a calibrated run output whose fields carry their raw confidences (what an uncalibrated model gives)."""
    documents = []
    for document in output.get("documents") or []:
        fields = {k: {**f, "confidence": f.get("raw_confidence", f["confidence"])} for k, f in document["fields"].items()}
        documents.append({**document, "fields": fields})
    return {**output, "documents": documents}


def judged_pairs(records: list[dict], data_dir: Path, model: str, lang: str) -> tuple[list, list]:
    """Per extracted field of every document through `docextract run` with ``model``: (raw, calibrated) judgements."""
    from docextract.errors import DocextractError
    from docextract.pipeline import RunOptions, extract_file
    from docextract.evaluation.extraction_eval import judge_output

    options = RunOptions(model=model, lang=lang)
    raw, calibrated = [], []
    for n, record in enumerate(records, 1):
        try:
            output = extract_file(str(data_dir / record["source"]), options)
        except DocextractError:  # no fields: nothing to judge for calibration
            output = {"documents": []}
        calibrated += judge_output(output, record["fields"])
        raw += judge_output(with_raw_confidences(output), record["fields"])
        print(f"\r{n}/{len(records)} documents", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return raw, calibrated


def reliability(confidences: list[float], correct: list[bool]) -> dict:
    from docextract.extraction.confidence import binary_nll
    from docextract.evaluation.extraction_eval import CALIBRATION_BINS, expected_calibration_error, reliability_table

    table = reliability_table(zip(confidences, correct))
    return {"bins": CALIBRATION_BINS, "extracted_fields": len(confidences), "ece": expected_calibration_error(table),
            "nll": binary_nll(confidences, correct), "accuracy": sum(correct) / len(correct), "reliability": table}


def _fit_summary(report: dict) -> dict:
    """The figures this benchmark prints from `calibrate --fields`'s report ("after" is cross-fitted by invoice)."""
    return {"calibration": report["calibration"], "documents": report["documents"], "fields": report["extracted"],
            "fields_correct": report["fields_correct"], "temperature": report["temperature"],
            "nll_before": report["before"]["nll"], "nll_after": report["after"]["nll"],
            "ece_before": report["before"]["ece"], "ece_after": report["after"]["ece"]}


def field_calibration_section(args, synth: str) -> dict:
    from docextract.data.labelled import read_jsonl
    from docextract.modeling.store import resolve_model
    from docextract.pipeline import load_model
    from docextract.evaluation.calibration import collect_logits, fit_field_calibration_on, write_field_calibration

    with tempfile.TemporaryDirectory(prefix="field-calibration-eval-") as tmp:
        tmp = Path(tmp)
        (tmp / "cal").mkdir()
        cal_labels = generate_calibration_set(tmp / "cal", args.count)
        net, tokenizer = load_model(args.model)
        documents = list(read_jsonl(cal_labels))
        collected = collect_logits(net, tokenizer, documents,
                                   on_document=lambda n: print(f"\rlogits {n}/{args.count}", end="", file=sys.stderr, flush=True))
        print(file=sys.stderr)
        platt, _, report = fit_field_calibration_on(net, collected, "platt")
        _, _, isotonic_report = fit_field_calibration_on(net, collected, "isotonic")  # the same pairs
        report, isotonic_report = _fit_summary(report), _fit_summary(isotonic_report)
        calibrated = write_field_calibration(resolve_model(args.model), platt, tmp / "calibrated")
        (tmp / "eval").mkdir()
        records = invoice_eval.generate(tmp / "eval", args.eval_count)
        raw, mapped = judged_pairs(records, tmp / "eval", str(calibrated), args.lang)
    raw = [j for j in raw if j.confidence is not None]
    mapped = [j for j in mapped if j.confidence is not None]
    assert [(j.key, j.correct) for j in raw] == [(j.key, j.correct) for j in mapped]  # a map never changes a value
    correct = [j.correct for j in raw]
    from docextract.extraction.confidence import calibration_from_config

    isotonic = calibration_from_config(isotonic_report["calibration"])
    return {
        "calibration_set": synth.format(n=args.count, seed=CALIBRATION_SEED),
        "fit": {"platt": report, "isotonic": isotonic_report},
        "evaluation": {
            "synth_command": synth.format(n=args.eval_count, seed=invoice_eval.SYNTH_SEED),
            "raw": reliability([j.confidence for j in raw], correct),
            "platt": reliability([j.confidence for j in mapped], correct),
            "isotonic": reliability([isotonic(j.confidence) for j in raw], correct),
        },
        "apply_command": f"docextract calibrate {args.model} CAL/labels.jsonl --fields --method platt  "
                         f"(CAL from: {synth.format(n=args.count, seed=CALIBRATION_SEED).replace('OUT', 'CAL')})",
    }


def field_markdown(section: dict, model: str) -> str:
    platt, isotonic = section["fit"]["platt"], section["fit"]["isotonic"]
    ev = section["evaluation"]
    c = platt["calibration"]
    lines = [f"# Field calibration: `{model}`", "",
             f"Fitted on `{section['calibration_set']}`: {platt['fields']} extracted fields of {platt['documents']} documents "
             f"({platt['fields_correct']} right), raw confidences at temperature {platt['temperature']:g}: "
             f"**Platt a = {c['a']:.4f}, b = {c['b']:.4f}** (p = sigmoid(a * logit(c) + b)); isotonic: "
             f"{len(isotonic['calibration']['x'])} pooled blocks.", "",
             "| measured on | measure | raw | Platt | isotonic |", "|---|---|---:|---:|---:|",
             f"| calibration set, {platt['fields']} fields (labelled words) | NLL (nats) | {platt['nll_before']:.4f} "
             f"| {platt['nll_after']:.4f} | {isotonic['nll_after']:.4f} |",
             f"| calibration set | ECE | {platt['ece_before']:.4f} | {platt['ece_after']:.4f} | {isotonic['ece_after']:.4f} |",
             f"| evaluation set, {ev['raw']['extracted_fields']} fields (`docextract run`) | NLL (nats) | {ev['raw']['nll']:.4f} "
             f"| {ev['platt']['nll']:.4f} | {ev['isotonic']['nll']:.4f} |",
             f"| evaluation set | ECE | **{ev['raw']['ece']:.4f}** | **{ev['platt']['ece']:.4f}** | {ev['isotonic']['ece']:.4f} |",
             "", f"Evaluation set: `{ev['synth_command']}`; {ev['raw']['accuracy']:.3f} of its extracted fields are right "
             "(a map never changes a value). Raw = each field's `raw_confidence`, the uncalibrated model's confidence.", "",
             "Reliability on the evaluation set (fields per bin, mean confidence, accuracy):", "",
             "| confidence | raw fields | mean conf. | accuracy | Platt fields | mean conf. | accuracy |",
             "|---|---:|---:|---:|---:|---:|---:|"]

    for a, b in zip(ev["raw"]["reliability"], ev["platt"]["reliability"]):
        lines.append(f"| {a['low']:.1f}-{a['high']:.1f} | {_reliability_cells(a)} | {_reliability_cells(b)} |")
    lines += ["", f"Apply it: `{section['apply_command']}`", ""]
    return "\n".join(lines)


def _reliability_cells(row: dict) -> str:
    """One reliability bin as markdown cells: fields, mean confidence, accuracy (blank for an empty bin)."""
    mean = "" if row["mean_confidence"] is None else f"{row['mean_confidence']:.3f}"
    acc = "" if row["accuracy"] is None else f"{row['accuracy']:.3f}"
    return f"{row['count']} | {mean} | {acc}"


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

    for a, b in zip(before["reliability"], after["reliability"]):
        lines.append(f"| {a['low']:.1f}-{a['high']:.1f} | {_reliability_cells(a)} | {_reliability_cells(b)} |")
    lines += ["", f"Apply it: `{result['apply_command']}`", ""]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default="models/invoice")
    parser.add_argument("--count", type=int, default=60, help="calibration invoices (seed 4)")
    parser.add_argument("--eval-count", type=int, default=40, help="evaluation invoices (seed 3, as invoice_eval.py)")
    parser.add_argument("--lang", default="eng")
    parser.add_argument("--output", type=Path, default=RESULTS / "calibration_eval.json")
    parser.add_argument("--fields", action="store_true", help="measure the field calibration (added to --output)")
    args = parser.parse_args()
    held_out = ",".join(invoice_eval.HELD_OUT_FAMILIES)
    synth = (f"docextract synth OUT --count {{n}} --seed {{seed}} --families {held_out} "
             f"--scan-fraction {invoice_eval.SCAN_FRACTION} --pages-max {invoice_eval.PAGES_MAX}")
    if args.fields:
        start = time.perf_counter()
        section = field_calibration_section(args, synth)
        section["seconds"] = round(time.perf_counter() - start, 1)
        result = json.loads(args.output.read_text()) if args.output.is_file() else {"model": args.model}
        result["field_calibration"] = section
        write_results(args.output, result)
        return

    from docextract.data.labelled import read_jsonl
    from docextract.modeling.store import resolve_model
    from docextract.pipeline import load_model
    from docextract.evaluation.calibration import calibrate, write_temperature

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
    previous = json.loads(args.output.read_text()) if args.output.is_file() else {}
    result = {
        "model": args.model,
        "calibration_set": synth.format(n=args.count, seed=CALIBRATION_SEED),
        "fit": report.to_dict(),
        "evaluation": {"synth_command": synth.format(n=args.eval_count, seed=invoice_eval.SYNTH_SEED),
                       "before": before, "after": after},
        "apply_command": f"docextract calibrate {args.model} CAL/labels.jsonl  "
                         f"(CAL from: {synth.format(n=args.count, seed=CALIBRATION_SEED).replace('OUT', 'CAL')})",
        "seconds": round(time.perf_counter() - start, 1),
        **({"field_calibration": previous["field_calibration"]} if "field_calibration" in previous else {}),
    }
    write_results(args.output, result)


def write_results(path: Path, result: dict) -> None:
    """The JSON and its markdown: the temperature section (when measured), then the field calibration one."""
    parts = []
    if "fit" in result:
        parts.append(markdown(result))
    if "field_calibration" in result:
        parts.append(field_markdown(result["field_calibration"], result["model"]))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result, indent=2) + "\n")
    path.with_suffix(".md").write_text("\n".join(parts))
    print("\n".join(parts))


if __name__ == "__main__":
    main()
