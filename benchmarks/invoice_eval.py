"""Invoice extraction accuracy of a model through the whole `docextract run` pipeline.

(a) Held-out layouts: synthetic invoices of four families never used in training (statement, sidebar,
    window_right, quantity_first; seed 3, 15 % scans, up to 3 pages), exactly what
    ``docextract synth OUT --count N --seed 3 --families statement,sidebar,window_right,quantity_first
    --scan-fraction 0.15 --pages-max 3`` writes. Every file goes through ``extract_file`` (digital PDFs by
    their text layer, scans through real Tesseract OCR) and each output field's ``normalized`` value is
    compared with the truth in labels.jsonl ``fields`` (rules: docextract/evaluation/extraction_eval.py).
    Per-field accuracy = share of the documents that have the field whose extracted value is right;
    reported for all documents, digital only and scans only, and per family.
(b) Calibration: (confidence, correct) of every extracted field, expected calibration error over
    10 equal-width bins and the reliability table.
(c) SROIE test receipts: the model's vendor_name / invoice_date / vendor_address / total against SROIE's
    company / date / address / total on the 347 test receipts (their provided OCR words), through
    `docextract evaluate --label-map` (entity F1 and field F1/accuracy). The test split is never trained on; the
    default model trains on SROIE's training receipts (examples/train_invoice.sh), earlier ones on none (transfer).

    PYTHONPATH=$PWD .venv/bin/python benchmarks/invoice_eval.py --model models/invoice \
        [--count 200] [--sroie-limit N] [--skip-sroie] [--keep-data DIR] [--families a,b] [--pdf-text auto]

``--families`` evaluates other families than the four held-out ones (e.g. the families added for issue 13,
which are in the training pool but which the shipped model never saw). The report also gives the micro
accuracy per document trait (labels.jsonl ``synth.traits``: credit notes, several VAT rates, ...).

Writes benchmarks/results/invoice_eval.json and benchmarks/results/invoice_eval.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

RESULTS = REPO / "benchmarks" / "results"
HELD_OUT_FAMILIES = ("statement", "sidebar", "window_right", "quantity_first")  # never in training
SYNTH_SEED = 3
SCAN_FRACTION = 0.15
PAGES_MAX = 3
SROIE_LABEL_MAP = "company=vendor_name,date=invoice_date,address=vendor_address,total=total"
SROIE_DEFAULT = REPO.parent / "shared" / "data" / "sroie"
# What a user checks first on any invoice (and what the hidden real sets of issue 13 score): number, date,
# total, currency and issuer.
CORE_FIELDS = ("invoice_number", "invoice_date", "total", "currency", "vendor_name")
PDF_TEXT = "pdfplumber"  # --pdf-text: how `run` reads PDF text layers (pdfplumber, or auto: PDFium where it agrees)


def generate(out_dir: Path, count: int, families: tuple[str, ...] = HELD_OUT_FAMILIES) -> list[dict]:
    """The held-out invoices (same files and labels as the `docextract synth` command in the docstring)."""
    from docextract.synth.generate import SynthOptions, generate_invoice

    options = SynthOptions(families=families, pages_max=PAGES_MAX, scan_fraction=SCAN_FRACTION)
    records = [generate_invoice(SYNTH_SEED, index, options, out_dir) for index in range(count)]
    with open(out_dir / "labels.jsonl", "w", encoding="utf-8") as f:
        for record in records:
            f.write(json.dumps(record) + "\n")
    return records


def extract_all(records: list[dict], data_dir: Path, model: str, lang: str, **run_options) -> list[dict]:
    """Per document: its kind, family, pages, the field judgements, seconds, and an error if the run failed.
    A record's ``source`` is read relative to ``data_dir``; ``run_options`` go to RunOptions."""
    from docextract.errors import DocextractError
    from docextract.pipeline import RunOptions, extract_file
    from docextract.evaluation.extraction_eval import judge_output

    options = RunOptions(model=model, lang=lang, pdf_text=PDF_TEXT, **run_options)
    results = []
    for n, record in enumerate(records, 1):
        start = time.perf_counter()
        try:
            output, error = extract_file(str(data_dir / record["source"]), options), None
        except DocextractError as exc:  # a failed file counts with every field wrong
            output, error = {"documents": []}, exc.one_line()
        judgements = judge_output(output, record["fields"])
        fields = output["documents"][0]["fields"] if output["documents"] else {}
        accepted = {key for key, field in fields.items() if field.get("status") == "accepted"}
        synth = record.get("synth") or {}
        results.append({"id": record["id"], "kind": synth.get("kind", "digital"), "family": synth.get("family", record.get("group")),
                        "traits": synth.get("traits", []), "pages": synth.get("page_count", len(record.get("pages", []))),
                        "seconds": time.perf_counter() - start, "error": error, "judgements": judgements,
                        "accepted": accepted})
        print(f"\r{n}/{len(records)} documents", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return results


def accuracy_summary(results: list[dict]) -> dict:
    """Per-field and micro accuracy over the documents that have each field."""
    per_key: dict[str, Counter] = defaultdict(Counter)
    for result in results:
        for j in result["judgements"]:
            if j.in_truth:
                per_key[j.key]["documents"] += 1
                per_key[j.key]["correct"] += j.correct
    total = sum(per_key.values(), Counter())
    return {
        "documents": len(results),
        "pages": sum(r["pages"] for r in results),
        "failed": sum(r["error"] is not None for r in results),
        "micro_accuracy": total["correct"] / total["documents"] if total["documents"] else None,
        "extra_fields": sum(not j.in_truth for r in results for j in r["judgements"]),
        "per_field": {k: {"accuracy": c["correct"] / c["documents"], "documents": c["documents"]}
                      for k, c in sorted(per_key.items())},
    }


def calibration(results: list[dict]) -> dict:
    from docextract.evaluation.extraction_eval import CALIBRATION_BINS, expected_calibration_error, reliability_table

    pairs = [(j.confidence, j.correct) for r in results for j in r["judgements"] if j.confidence is not None]
    table = reliability_table(pairs)
    true = sum(j.in_truth for r in results for j in r["judgements"])
    # the fields the truth has (as leave-one-producer-out counts them), and apart those it lacks (often printed but
    # not in the e-invoice's XML: an amount due equal to the total, a due date; judged wrong here)
    accepted = [j for r in results for j in r["judgements"] if j.key in r["accepted"] and j.in_truth]
    extra = sum(1 for r in results for j in r["judgements"] if j.key in r["accepted"] and not j.in_truth)
    return {"bins": CALIBRATION_BINS, "extracted_fields": len(pairs),
            "ece": expected_calibration_error(table), "reliability": table,
            "review_policy": {"true_fields": true, "accepted": len(accepted), "accepted_right": sum(j.correct for j in accepted),
                              "coverage": len(accepted) / true if true else None,
                              "precision": sum(j.correct for j in accepted) / len(accepted) if accepted else None,
                              "accepted_not_in_truth": extra}}


def _policy_line(policy: dict) -> str:
    precision = "-" if policy["precision"] is None else f"{100 * policy['precision']:.1f}%"
    return (f"Review policy: {policy['accepted']} of the {policy['true_fields']} true fields accepted "
            f"({100 * policy['coverage']:.1f}%), {policy['accepted_right']} of them right ({precision}); "
            f"{policy['accepted_not_in_truth']} fields the truth lacks accepted too.")


def synthetic_section(model: str, count: int, lang: str, keep_data: Path | None,
                      families: tuple[str, ...] = HELD_OUT_FAMILIES) -> dict:
    from docextract.evaluation.field_rules import COMPARISON_RULES

    with tempfile.TemporaryDirectory(prefix="invoice-eval-") as tmp:
        data_dir = keep_data or Path(tmp)
        data_dir.mkdir(parents=True, exist_ok=True)
        start = time.perf_counter()
        records = generate(data_dir, count, families)
        generate_s = time.perf_counter() - start
        start = time.perf_counter()
        results = extract_all(records, data_dir, model, lang)
        extract_s = time.perf_counter() - start
    by_family, by_trait = defaultdict(list), defaultdict(list)
    for r in results:
        by_family[r["family"]].append(r)
        for trait in r["traits"]:
            by_trait[trait].append(r)
    return {
        "synth_command": (f"docextract synth OUT --count {count} --seed {SYNTH_SEED} --families {','.join(families)} "
                          f"--scan-fraction {SCAN_FRACTION} --pages-max {PAGES_MAX}"),
        "ocr_lang": lang,
        "comparison_rules": COMPARISON_RULES,
        "accuracy_rule": "per field: share of the documents whose truth has the field where the extracted field's "
                         "normalized value equals the truth; not extracted counts as wrong",
        "all": accuracy_summary(results),
        "digital": accuracy_summary([r for r in results if r["kind"] == "digital"]),
        "scan": accuracy_summary([r for r in results if r["kind"] == "scan"]),
        "per_family_micro_accuracy": {f: accuracy_summary(rs)["micro_accuracy"] for f, rs in sorted(by_family.items())},
        "per_trait": {t: {"documents": len(rs), "micro_accuracy": accuracy_summary(rs)["micro_accuracy"]}
                      for t, rs in sorted(by_trait.items())},
        "calibration": calibration(results),
        "errors": [{"id": r["id"], "error": r["error"]} for r in results if r["error"]],
        "seconds": {"generate": round(generate_s, 1), "extract": round(extract_s, 1)},
    }


def real_section(model: str, labelled: Path, lang: str) -> dict:
    """Real documents with field truth (e.g. `docextract convert einvoice` output): every file through `run`
    reading the page only (an e-invoice's embedded XML is ignored, so the model is what is measured)."""
    from docextract.evaluation.field_rules import COMPARISON_RULES

    records = [json.loads(line) for line in labelled.read_text(encoding="utf-8").splitlines() if line.strip()]
    records = [r for r in records if r.get("fields")]
    start = time.perf_counter()
    results = extract_all(records, labelled.parent, model, lang, ignore_embedded=True)
    groups = defaultdict(list)
    for r in results:
        groups[r["family"]].append(r)
    return {
        "data": str(labelled), "comparison_rules": COMPARISON_RULES,
        "accuracy_rule": "per field: share of the documents whose truth has the field (located on the page) where "
                         "the extracted field's normalized value equals the truth; not extracted counts as wrong",
        "all": accuracy_summary(results),
        "core_fields": list(CORE_FIELDS),
        "core": accuracy_summary([{**r, "judgements": [j for j in r["judgements"] if j.key in CORE_FIELDS]}
                                  for r in results]),
        "per_group_micro_accuracy": {g: accuracy_summary(rs)["micro_accuracy"] for g, rs in sorted(groups.items())},
        "calibration": calibration(results),
        "pairs": [[j.confidence, j.correct, j.key, r["id"]] for r in results for j in r["judgements"]
                  if j.confidence is not None and j.in_truth],
        "errors": [{"id": r["id"], "error": r["error"]} for r in results if r["error"]],
        "seconds": round(time.perf_counter() - start, 1),
    }


def sroie_section(model: str, src: Path, limit: int | None) -> dict:
    from docextract.data.sroie import convert_sroie
    from docextract.pipeline import load_model
    from docextract.evaluation.evaluate import evaluate_model, parse_label_map, settings_for_model

    start = time.perf_counter()
    net, tokenizer = load_model(model)
    documents, _ = convert_sroie(src, "test", limit)
    settings = settings_for_model(net, label_map=parse_label_map(SROIE_LABEL_MAP))
    report = evaluate_model(net, tokenizer, documents, settings)
    return {"command": f"docextract evaluate {model} SROIE_TEST.jsonl --label-map {SROIE_LABEL_MAP}",
            "source": str(src), "split": "test", "report": report, "seconds": round(time.perf_counter() - start, 1)}


def _pct(value) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}"


def markdown(result: dict) -> str:
    lines = [f"# Invoice extraction: `{result['model']}`", ""]
    synth = result.get("synthetic")
    if synth:
        lines += ["## Held-out layout families (synthetic, through `docextract run`)", "",
                  f"`{synth['synth_command']}`; OCR language `{synth['ocr_lang']}`. "
                  f"Documents: {synth['all']['documents']} ({synth['digital']['documents']} digital, "
                  f"{synth['scan']['documents']} scans), failed: {synth['all']['failed']}.", "",
                  "| field | all % | digital % | scans % | documents |", "|---|---:|---:|---:|---:|"]
        for key, v in synth["all"]["per_field"].items():
            digital = synth["digital"]["per_field"].get(key, {}).get("accuracy")
            scan = synth["scan"]["per_field"].get(key, {}).get("accuracy")
            lines.append(f"| {key} | {_pct(v['accuracy'])} | {_pct(digital)} | {_pct(scan)} | {v['documents']} |")
        lines.append(f"| **micro** | **{_pct(synth['all']['micro_accuracy'])}** | {_pct(synth['digital']['micro_accuracy'])} "
                     f"| {_pct(synth['scan']['micro_accuracy'])} | |")
        lines += ["", "Per family (micro accuracy %): " + ", ".join(
            f"{f} {_pct(a)}" for f, a in synth["per_family_micro_accuracy"].items()), ""]
        if synth.get("per_trait"):
            lines += ["Per document trait (micro accuracy %, documents): " + ", ".join(
                f"{t} {_pct(v['micro_accuracy'])} ({v['documents']})" for t, v in synth["per_trait"].items()), ""]
        cal = synth["calibration"]
        lines += [_policy_line(cal["review_policy"]), ""]
        lines += [f"### Calibration: ECE {cal['ece']:.4f} over {cal['extracted_fields']} extracted fields ({cal['bins']} bins)"
                  if cal["ece"] is not None else "### Calibration: no extracted fields", "",
                  "| confidence | fields | mean confidence | accuracy |", "|---|---:|---:|---:|"]
        for row in cal["reliability"]:
            mean = "" if row["mean_confidence"] is None else f"{row['mean_confidence']:.3f}"
            acc = "" if row["accuracy"] is None else f"{row['accuracy']:.3f}"
            lines.append(f"| {row['low']:.1f}-{row['high']:.1f} | {row['count']} | {mean} | {acc} |")
        lines.append("")
    for name, real in result.get("real", {}).items():
        lines += [f"## Real documents: {name} (page only, through `docextract run --ignore-embedded`)", "",
                  f"`{real['data']}`: {real['all']['documents']} documents, failed: {real['all']['failed']}.", "",
                  "| field | accuracy % | documents |", "|---|---:|---:|"]
        for key, v in real["all"]["per_field"].items():
            lines.append(f"| {key} | {_pct(v['accuracy'])} | {v['documents']} |")
        lines.append(f"| **micro** | **{_pct(real['all']['micro_accuracy'])}** | |")
        lines.append(f"| **micro, {', '.join(real['core_fields'])}** | **{_pct(real['core']['micro_accuracy'])}** | |")
        cal = real["calibration"]
        if cal["ece"] is not None:
            lines += ["", f"ECE {cal['ece']:.4f} over {cal['extracted_fields']} extracted fields."]
        lines += ["", _policy_line(cal["review_policy"]), ""]
    sroie = result.get("sroie")
    if sroie:
        r = sroie["report"]
        lines += ["## SROIE test receipts (provided OCR words; the test split is never trained on)", "",
                  f"`{sroie['command']}`; {r['documents']} receipts. Entity F1 (seqeval) {r['f1']:.4f}.", "",
                  "| SROIE field | model label | field F1 | accuracy % | entity F1 |", "|---|---|---:|---:|---:|"]
        model_label = {v: k for k, v in r["label_map"].items()}
        for key, v in r.get("fields", {}).get("per_key", {}).items():
            entity = r["per_label"].get(key, {}).get("f1", 0.0)
            lines.append(f"| {key} | {model_label.get(key, '')} | {v['f1']:.4f} | {_pct(v['accuracy'])} | {entity:.4f} |")
        if "fields" in r:
            m = r["fields"]["micro"]
            lines.append(f"| **micro** | | **{m['f1']:.4f}** | **{_pct(m['accuracy'])}** | {r['f1']:.4f} |")
        lines.append("")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default="models/invoice", help="model folder or shipped model name")
    parser.add_argument("--count", type=int, default=200, help="held-out synthetic invoices")
    parser.add_argument("--lang", default="auto", help="Tesseract language for the scans (what `run` uses by default)")
    parser.add_argument("--sroie", type=Path, default=SROIE_DEFAULT, help="SROIE root folder")
    parser.add_argument("--sroie-limit", type=int, default=None, help="only the first N SROIE test receipts")
    parser.add_argument("--skip-sroie", action="store_true")
    parser.add_argument("--skip-synthetic", action="store_true")
    parser.add_argument("--real", action="append", default=[], metavar="NAME=LABELS.jsonl",
                        help="real documents with field truth (e.g. `docextract convert einvoice` output, sources "
                             "relative to the file's folder or absolute), read page only; repeatable")
    parser.add_argument("--keep-data", type=Path, default=None, help="write the generated invoices here and keep them")
    parser.add_argument("--families", default=",".join(HELD_OUT_FAMILIES),
                        help="synthetic families to evaluate (default: the four held-out ones)")
    parser.add_argument("--output", type=Path, default=RESULTS / "invoice_eval.json")
    parser.add_argument("--pdf-text", default="pdfplumber", choices=("pdfplumber", "auto"),
                        help="how `run` reads PDF text layers (docextract run --pdf-text)")
    args = parser.parse_args()
    global PDF_TEXT
    PDF_TEXT = args.pdf_text

    import torch

    from docextract.pipeline import load_model

    start = time.perf_counter()
    load_model(args.model)  # fails early on a bad model path; cached for both sections
    result = {"model": args.model, "pdf_text": args.pdf_text, "load_model_seconds": round(time.perf_counter() - start, 2),
              "machine": {"cpus": os.cpu_count(), "torch_threads": torch.get_num_threads(),
                          "python": platform.python_version(), "platform": platform.platform()}}
    if not args.skip_synthetic:
        families = tuple(f.strip() for f in args.families.split(",") if f.strip())
        result["synthetic"] = synthetic_section(args.model, args.count, args.lang, args.keep_data, families)
    for spec in args.real:
        name, _, path = spec.rpartition("=")
        result.setdefault("real", {})[name or Path(path).stem] = real_section(args.model, Path(path), args.lang)
    if not args.skip_sroie:
        result["sroie"] = sroie_section(args.model, args.sroie, args.sroie_limit)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(result, indent=2) + "\n")
    args.output.with_suffix(".md").write_text(markdown(result))
    print(markdown(result))
    print(f"written: {args.output} and {args.output.with_suffix('.md')}", file=sys.stderr)


if __name__ == "__main__":
    main()
