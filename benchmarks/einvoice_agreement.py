"""How often `docextract run`'s model reading agrees with the e-invoices' embedded XML, per field.

    PYTHONPATH=$PWD python benchmarks/einvoice_agreement.py [--data ../shared/data] [--model invoice]

Runs every PDF of einvoices/ and einvoices-more/ through `extract_file` (the embedded values beside the
model's) and counts, for each embedded value that is printed on the page (located by the converter's
matching), whether the model read that field and agreed (`model_agrees`), disagreed, or did not read it;
and how many files get a disagreement flagged for review. Writes benchmarks/results/einvoice_agreement.json.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from docextract.pipeline import RunOptions, extract_file

RESULTS = Path(__file__).parent / "results" / "einvoice_agreement.json"
FOLDERS = ("einvoices", "einvoices-more")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", type=Path, default=Path(__file__).resolve().parent.parent.parent / "shared" / "data")
    parser.add_argument("--model", default="invoice")
    args = parser.parse_args()
    counts = {"agree": Counter(), "disagree": Counter(), "not_read": Counter()}
    flagged = 0
    pdfs = sorted(p for folder in FOLDERS for p in (args.data / folder).rglob("*.pdf"))
    for pdf in pdfs:
        document = extract_file(str(pdf), RunOptions(model=args.model))["documents"][0]
        flagged += any(r.startswith("page disagrees") for r in document["validation"]["review_reasons"])
        for name, field in document["fields"].items():
            if field.get("method") != "embedded" or "page" not in field:
                continue  # only embedded values the page prints
            outcome = "not_read" if "model_agrees" not in field else "agree" if field["model_agrees"] else "disagree"
            counts[outcome][name] += 1
    totals = {k: sum(c.values()) for k, c in counts.items()}
    report = {
        "command": f"PYTHONPATH=$PWD python benchmarks/einvoice_agreement.py --model {args.model}",
        "files": len(pdfs), "files_flagged": flagged, "totals": totals,
        "agreement_of_read": round(totals["agree"] / max(1, totals["agree"] + totals["disagree"]), 3),
        "per_field": {name: {k: counts[k][name] for k in counts}
                      for name in sorted(set().union(*(c.keys() for c in counts.values())))},
    }
    RESULTS.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print(json.dumps({k: report[k] for k in ("files", "files_flagged", "totals", "agreement_of_read")}))


if __name__ == "__main__":
    main()
