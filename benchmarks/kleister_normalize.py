"""How often the contract normalisers turn a located Kleister-NDA mention into expected.tsv's value.

    PYTHONPATH=$PWD python benchmarks/kleister_normalize.py [--data ../shared/data] [--column text_best]

For every train document, every expected value is located in the text column with
``kleister.locate_value`` and each located span is normalised (``docextract.extraction.contract_values``);
a span counts as right when its normalised form equals the expected value in the Kleister metric's form
(upper-cased, spaces as underscores). Jurisdictions are also normalised with the
``JURISDICTION_CONTEXT_WORDS`` words before the span ("the laws of the State of ..."). Writes
benchmarks/results/kleister_normalize.json with the shares and the mismatches.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from docextract.data.kleister import locate_value, read_records, split_dir
from docextract.extraction.contract_values import kleister_form
from docextract.extraction.values import KLEISTER_NDA_POLICY

RESULTS = Path(__file__).parent / "results" / "kleister_normalize.json"
JURISDICTION_CONTEXT_WORDS = 5


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", type=Path, default=Path(__file__).resolve().parent.parent.parent / "shared" / "data")
    parser.add_argument("--column", default="text_best")
    args = parser.parse_args()
    records = read_records(split_dir(args.data / "kleister-nda"))
    located, matched, context_matched = Counter(), Counter(), Counter()
    mismatches: Counter = Counter()
    for record in records:
        words = record.texts[args.column].split()
        for key, value in record.expected:
            normalize = KLEISTER_NDA_POLICY[key].normalize
            spans, _ = locate_value(words, key, value)
            for start, end in spans:
                located[key] += 1
                text = " ".join(words[start:end])
                got = normalize(text)
                if got is not None and kleister_form(got) == kleister_form(value):
                    matched[key] += 1
                else:
                    mismatches[f"{key}: expected {value!r}, printed {text!r} -> {got!r}"] += 1
                if key == "jurisdiction":
                    wide = normalize(" ".join(words[max(0, start - JURISDICTION_CONTEXT_WORDS):end]))
                    context_matched[key] += wide == value
    report = {
        "command": f"PYTHONPATH=$PWD python benchmarks/kleister_normalize.py --column {args.column}",
        "documents": len(records),
        "per_key": {k: {"located_mentions": located[k], "normalised_right": matched[k],
                        "share": round(matched[k] / located[k], 4)} for k in sorted(located)},
        "jurisdiction_with_context": {"words_before": JURISDICTION_CONTEXT_WORDS, "right": context_matched["jurisdiction"],
                                      "share": round(context_matched["jurisdiction"] / located["jurisdiction"], 4)},
        "mismatches": dict(mismatches.most_common()),
    }
    RESULTS.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    print(json.dumps({k: report[k] for k in ("per_key", "jurisdiction_with_context")}, indent=2))


if __name__ == "__main__":
    main()
