"""Run the converters on the full FUNSD, SROIE, Kleister-NDA and e-invoice sets and write benchmarks/results/convert_report.json.

    PYTHONPATH=$PWD python benchmarks/convert_report.py [--data ../shared/data] [--out-dir /tmp/converted] [--only einvoice]

With --out-dir the converted JSONL files are written there too (never into the repo). Kleister-NDA is
measured on its own text columns until docextract.readers can read its PDFs (then also from the PDFs).
E-invoices: every PDF of einvoices/ and einvoices-more/ converted together (so that renderings of one
invoice in both folders share a group), per field the values the XMLs state and how many were located on
the page, and the number of invoice groups. --only re-measures some data sets and keeps the others' entries.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from pathlib import Path

from docextract.data.einvoice import convert_einvoices
from docextract.data.funsd import convert_funsd
from docextract.data.kleister import TEXT_COLUMNS, text_match_report
from docextract.data.labelled import write_jsonl
from docextract.data.sroie import convert_sroie
from docextract.data.validate import ERROR, validate_files

RESULTS = Path(__file__).parent / "results" / "convert_report.json"
DATA_SETS = ("funsd", "sroie", "kleister", "einvoice")
EINVOICE_FOLDERS = ("einvoices", "einvoices-more")


def einvoice_entry(data: Path, out_dir: Path | None) -> dict:
    """The e-invoice converter over both folders: per field located / stated, reasons, groups, validation."""
    started = time.perf_counter()
    docs, result = convert_einvoices([data / folder for folder in EINVOICE_FOLDERS])
    entry = result.to_dict()
    entry["seconds"] = round(time.perf_counter() - started, 2)
    entry["located"] = {k: n - entry["unmatched"].get(k, 0) for k, n in entry["expected"].items()}
    entry["groups"] = len({d.group for d in docs})
    entry["documents_per_group"] = dict(sorted(Counter(d.group for d in docs).items()))
    if out_dir:
        out_dir.mkdir(parents=True, exist_ok=True)
        path = out_dir / "einvoice.jsonl"
        write_jsonl(docs, path)
        issues = validate_files([path])
        entry["validation"] = {"errors": sum(i.severity == ERROR for i in issues),
                               "warnings": sum(i.severity != ERROR for i in issues)}
    return entry


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", type=Path, default=Path(__file__).resolve().parent.parent.parent / "shared" / "data")
    parser.add_argument("--out-dir", type=Path, default=None)
    parser.add_argument("--only", nargs="+", choices=DATA_SETS, default=list(DATA_SETS))
    args = parser.parse_args()
    report: dict = json.loads(RESULTS.read_text(encoding="utf-8")) if RESULTS.exists() else {}
    report["command"] = "PYTHONPATH=$PWD python benchmarks/convert_report.py"
    for name, convert in (("funsd", convert_funsd), ("sroie", convert_sroie)):
        if name not in args.only:
            continue
        report[name] = {}
        paths = {}
        for split in ("train", "test"):
            started = time.perf_counter()
            docs, result = convert(args.data / name, split)
            entry = result.to_dict()
            entry["seconds"] = round(time.perf_counter() - started, 2)
            if args.out_dir:
                args.out_dir.mkdir(parents=True, exist_ok=True)
                paths[split] = args.out_dir / f"{name}_{split}.jsonl"
                write_jsonl(docs, paths[split])
            report[name][split] = entry
        if paths:
            issues = validate_files([paths["train"]], [paths["test"]])
            report[name]["validation"] = {"errors": sum(i.severity == ERROR for i in issues),
                                          "warnings": sum(i.severity != ERROR for i in issues),
                                          "first_issues": [str(i) for i in issues[:5]]}
    if "kleister" in args.only:
        report["kleister"] = {"text_columns": {c: text_match_report(args.data / "kleister-nda", c) for c in TEXT_COLUMNS}}
        try:
            import docextract.readers  # noqa: F401
        except ImportError:
            report["kleister"]["from_pdfs"] = "not measured: docextract.readers is not in this build yet"
        else:
            from docextract.data.kleister import convert_kleister
            _, result = convert_kleister(args.data / "kleister-nda")
            report["kleister"]["from_pdfs"] = result.to_dict()
    if "einvoice" in args.only:
        report["einvoice"] = einvoice_entry(args.data, args.out_dir)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {RESULTS}")


if __name__ == "__main__":
    main()
