"""Run the converters on the full FUNSD, SROIE and Kleister-NDA sets and write benchmarks/results/convert_report.json.

    PYTHONPATH=$PWD python benchmarks/convert_report.py [--data ../shared/data] [--out-dir /tmp/converted]

With --out-dir the converted JSONL files are written there too (never into the repo). Kleister-NDA is
measured on its own text columns until docextract.readers can read its PDFs (then also from the PDFs).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from docextract.data.funsd import convert_funsd
from docextract.data.kleister import TEXT_COLUMNS, text_match_report
from docextract.data.labelled import write_jsonl
from docextract.data.sroie import convert_sroie
from docextract.data.validate import ERROR, validate_files

RESULTS = Path(__file__).parent / "results" / "convert_report.json"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", type=Path, default=Path(__file__).resolve().parent.parent.parent / "shared" / "data")
    parser.add_argument("--out-dir", type=Path, default=None)
    args = parser.parse_args()
    report: dict = {"command": "PYTHONPATH=$PWD python benchmarks/convert_report.py", "funsd": {}, "sroie": {}}
    for name, convert in (("funsd", convert_funsd), ("sroie", convert_sroie)):
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
    report["kleister"] = {"text_columns": {c: text_match_report(args.data / "kleister-nda", c) for c in TEXT_COLUMNS}}
    try:
        import docextract.readers  # noqa: F401
    except ImportError:
        report["kleister"]["from_pdfs"] = "not measured: docextract.readers is not in this build yet"
    else:
        from docextract.data.kleister import convert_kleister
        _, result = convert_kleister(args.data / "kleister-nda")
        report["kleister"]["from_pdfs"] = result.to_dict()
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {RESULTS}")


if __name__ == "__main__":
    main()
