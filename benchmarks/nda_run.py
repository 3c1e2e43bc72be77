"""Kleister-NDA contracts read as a user reads them: `docextract run FOLDER --model auto`, then the output scored.

    PYTHONPATH=$PWD python benchmarks/nda_run.py VAL.jsonl [--model auto] [--name nda_run]

The hidden-contracts protocol of issue 32: every labelled contract's PDF (the record's ``source``) is copied into
one folder and run in one batch through the command line with the shipped models; each output's ``values`` are
scored against the record's fields with Kleister's metric (F1 over (key, value) pairs, upper-cased) and with its
true-case F1 (the case kept: Kleister writes "Nike_Inc." for a contract's "NIKE, Inc."), per key. The
``documents[0].fields`` part of each output (one value per key, its ``normalized`` form) is scored the same way, for
a reader who takes the fields instead. Writes benchmarks/results/NAME.{json,md}.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

from docextract.data.labelled import load_documents
from docextract.evaluation.evaluate import count_pairs, pair_report
from docextract.extraction.contract_values import kleister_form

RESULTS = Path(__file__).parent / "results"
DOCEXTRACT = Path(sys.executable).with_name("docextract")


def predicted_pairs(output: dict, part: str) -> list[tuple[str, str]]:
    """(key, value) pairs of one output: every kept value of ``values``, or each field's normalised value."""
    if part == "values":
        return [(key, value["value"]) for key, values in output.get("values", {}).items() for value in values]
    pairs = []
    for document in output.get("documents", [])[:1]:
        for key, field in document["fields"].items():
            normalized = field.get("normalized")
            pairs.append((key, normalized if isinstance(normalized, str) else field["value"]))
    return pairs


def score(records, outputs: dict[str, dict], part: str, upper: bool) -> dict:
    counts: dict[str, Counter] = {}
    for record in records:
        expected = [(k, kleister_form(v, upper)) for k, vs in record.fields.items() for v in vs if v.strip()]
        predicted = [(k, kleister_form(v, upper)) for k, v in predicted_pairs(outputs.get(record.id, {}), part)]
        count_pairs(counts, expected, predicted)
    return pair_report(counts, len(records))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data", type=Path, help="labelled Kleister-NDA JSONL (docextract convert kleister + split)")
    parser.add_argument("--model", default="auto")
    parser.add_argument("--name", default="nda_run")
    args = parser.parse_args()
    records = load_documents([args.data])
    with tempfile.TemporaryDirectory(prefix="nda_run_") as tmp:
        inputs, out = Path(tmp, "in"), Path(tmp, "out")
        inputs.mkdir()
        names = {}
        for record in records:
            source = Path(record.document.source)
            shutil.copy(source, inputs / source.name)
            names[source.name] = record.id
        # exit code 4: some file failed; it is scored as an empty output and named in the report
        subprocess.run([str(DOCEXTRACT), "run", str(inputs), "--model", args.model, "-o", str(out)], check=False)
        outputs = {names[f.name[:-len(".json")]]: json.loads(f.read_text()) for f in out.glob("*.pdf.json")}
        failed = [json.loads(line) for line in (out / "manifest.jsonl").read_text().splitlines()]
        failed = {row["input"]: row.get("error") for row in failed if row["status"] != "ok"}
        routed = Counter(o["run"]["model"].get("name") for o in outputs.values())
    report = {
        "command": f"PYTHONPATH=$PWD python benchmarks/nda_run.py {args.data} --model {args.model} --name {args.name}",
        "documents": len(records), "outputs": len(outputs), "failed": failed, "models_chosen": dict(routed),
        **{f"{part}_{case}": score(records, outputs, part, upper)
           for part in ("values", "fields") for case, upper in (("upper", True), ("true_case", False))},
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"{args.name}.json").write_text(json.dumps(report, indent=1) + "\n")
    keys = sorted(report["values_upper"]["per_key"])
    columns = [c for c in report if c.startswith(("values_", "fields_"))]
    lines = [f"# {args.name}", "", f"`{report['command']}`", "",
             f"{len(outputs)} of {len(records)} contracts read; models chosen: {dict(routed)}; failed: {failed or 'none'}",
             "",
             "| Kleister F1 % | " + " | ".join(columns) + " |", "|---" * (len(columns) + 1) + "|",
             "| **all keys** | " + " | ".join(f"**{100 * report[c]['micro']['f1']:.1f}**" for c in columns) + " |"]
    lines += [f"| {key} | " + " | ".join(f"{100 * report[c]['per_key'].get(key, {}).get('f1', 0):.1f}" for c in columns)
              + " |" for key in keys]
    (RESULTS / f"{args.name}.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
