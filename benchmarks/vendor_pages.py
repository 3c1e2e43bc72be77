"""Field accuracy and accepted precision of a model through `run` on the vendor-style pages of tests/vendor_pages.py.

Eleven one-page invoices written the way telephone and electricity companies, hosting providers, hotels, web shops
and a marketplace print theirs (made-up parties and numbers; see that module: the decoding was changed after reading
its errors on them, so they flatter it). Judged as `docextract evaluate` judges a labelled document's fields
(docextract.evaluation.extraction_eval.judge_output).

    PYTHONPATH=$PWD .venv/bin/python benchmarks/vendor_pages.py [--model invoice] [--name NAME]

Writes benchmarks/results/vendor_pages[_NAME].json and .md.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

RESULTS = REPO / "benchmarks" / "results"


def measure(model: str) -> dict:
    from docextract.evaluation.extraction_eval import judge_output
    from docextract.pipeline import RunOptions, extract_file
    from tests.vendor_pages import PAGES, TRUTH, WHAT, draw, truth

    options = RunOptions(model=model)
    pages = {}
    with tempfile.TemporaryDirectory() as folder:
        for name in PAGES:
            output = extract_file(str(draw(name, Path(folder) / f"{name}.pdf")), options)
            fields = output["documents"][0]["fields"]
            judged = [j for j in judge_output(output, truth(name)) if j.in_truth]
            pages[name] = {
                "what": WHAT[name],
                "fields": {j.key: {"truth": TRUTH[name][j.key], "value": (fields.get(j.key) or {}).get("value"),
                                   "right": j.correct, "status": (fields.get(j.key) or {}).get("status")}
                           for j in judged},
            }
    every = [f for page in pages.values() for f in page["fields"].values()]
    accepted = [f for f in every if f["status"] == "accepted"]
    return {
        "model": model,
        "fields": len(every), "right": sum(f["right"] for f in every),
        "accuracy": sum(f["right"] for f in every) / len(every),
        "accepted": len(accepted), "accepted_right": sum(f["right"] for f in accepted),
        "pages": pages,
    }


def markdown(report: dict) -> str:
    lines = [f"# Vendor-style pages: `{report['model']}`", "", f"Command: `{report['command']}`", "",
             f"**{report['right']} of {report['fields']} fields right ({100 * report['accuracy']:.1f}%)**; "
             f"{report['accepted']} accepted, {report['accepted_right']} of them right.", "",
             "| page | right | wrong (value read / truth) |", "|---|---:|---|"]
    for name, page in report["pages"].items():
        wrong = [f"{key}: {f['value']!r} / {f['truth']!r}" for key, f in page["fields"].items() if not f["right"]]
        right = sum(f["right"] for f in page["fields"].values())
        lines.append(f"| {name} | {right}/{len(page['fields'])} | {'; '.join(wrong)} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default="invoice")
    parser.add_argument("--name", help="results file suffix")
    args = parser.parse_args()
    report = measure(args.model)
    report["command"] = "PYTHONPATH=$PWD .venv/bin/python " + shlex.join(["benchmarks/vendor_pages.py", *sys.argv[1:]])
    stem = "vendor_pages" + (f"_{args.name}" if args.name else "")
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / f"{stem}.json").write_text(json.dumps(report, indent=1, ensure_ascii=False), encoding="utf-8")
    (RESULTS / f"{stem}.md").write_text(markdown(report), encoding="utf-8")
    print(markdown(report))


if __name__ == "__main__":
    main()
