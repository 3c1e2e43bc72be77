"""Which parties to keep, chosen by cross-validation over contracts: the party rule of the Kleister-NDA policy.

    PYTHONPATH=$PWD python benchmarks/nda_party_rules.py VAL.jsonl [--model models/nda] [--folds 5]
        [--threads 2] [--name nda_party_rules]

The model tags every contract once (as `evaluate` does); then, for each fold, the party rule (minimum
confidence, at most N parties, minimum mention count, named within the first P pages) is picked on the other
folds by all-key Kleister F1 and scored on the fold. Reported: the cross-validated F1 (every contract scored
by a rule chosen without it), the rule each fold picked, and the fixed rules (the earlier one, and the
shipped one) on all contracts. Writes benchmarks/results/NAME.{json,md}.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

RESULTS = Path(__file__).parent / "results"
GRID = {"min_confidence": (0.5, 0.6, 0.7, 0.8, 0.9, 0.95), "max_values": (2, 3, 4, None),
        "min_mentions": (1, 2, 3), "within_pages": (1, 2, None)}
EARLIER = {"min_confidence": 0.5, "max_values": None, "min_mentions": 1, "within_pages": None}


def tag_contracts(model_dir: str, path: str):
    from docextract.data.labelled import read_jsonl
    from docextract.modeling.inference import tag_words
    from docextract.pipeline import document_windows, load_model
    from docextract.evaluation.evaluate import prepare_for_model, settings_for_model

    net, tokenizer = load_model(model_dir)
    settings = settings_for_model(net)
    out = []
    for record in read_jsonl(path):
        ldoc = prepare_for_model(record)
        windows = document_windows(ldoc.document, tokenizer, max_tokens=settings.max_tokens, stride=settings.stride,
                                   cross_pages=settings.cross_pages)
        out.append((ldoc, tag_words(net, tokenizer, ldoc.document, windows)))
        print(f"tagged {len(out)}", end="\r", file=sys.stderr)
    return out


def candidates(tagged_contracts):
    """Per contract: expected pairs, the other keys' predicted pairs, and every party value the policy's
    normaliser and merging give (before the party rule), with its confidence, mention count and first page."""
    from docextract.extraction.contract_values import kleister_form
    from docextract.extraction.entities import decode_entities
    from docextract.extraction.values import KLEISTER_NDA_POLICY, document_values

    open_policy = dict(KLEISTER_NDA_POLICY)
    open_policy["party"] = replace(open_policy["party"], min_confidence=0.0, max_values=None, within_pages=None)
    rows = []
    for ldoc, tagged in tagged_contracts:
        values = document_values(ldoc.document, decode_entities(tagged), open_policy)
        rows.append({
            "id": ldoc.id,
            "expected": [(k, kleister_form(v)) for k, vs in ldoc.fields.items() if k in open_policy for v in vs if v.strip()],
            "others": [(k, kleister_form(v.value)) for k, vs in values.items() if k != "party" for v in vs],
            "parties": [{"form": kleister_form(v.value), "confidence": v.confidence, "mentions": len(v.evidence),
                         "first_page": v.pages[0]} for v in values.get("party", [])],
        })
    return rows


def kept_parties(parties, rule):
    kept = [p for p in parties if p["confidence"] >= rule["min_confidence"] and p["mentions"] >= rule["min_mentions"]
            and (rule["within_pages"] is None or p["first_page"] <= rule["within_pages"])]
    return kept[:rule["max_values"]]  # already most confident first


def counts(rows, rule) -> Counter:
    c = Counter()
    for row in rows:
        predicted = Counter(row["others"] + [("party", p["form"]) for p in kept_parties(row["parties"], rule)])
        expected = Counter(row["expected"])
        for prefix, keep in (("", lambda key: True), ("party_", lambda key: key == "party")):
            e = Counter({k: n for k, n in expected.items() if keep(k[0])})
            p = Counter({k: n for k, n in predicted.items() if keep(k[0])})
            tp = sum((e & p).values())
            c[prefix + "tp"] += tp
            c[prefix + "fp"] += sum(p.values()) - tp
            c[prefix + "fn"] += sum(e.values()) - tp
    return c


def f1(c: Counter, prefix: str = "") -> float:
    tp, fp, fn = c[prefix + "tp"], c[prefix + "fp"], c[prefix + "fn"]
    return 2 * tp / (2 * tp + fp + fn) if tp else 0.0


def grid_rules():
    keys = list(GRID)
    return [dict(zip(keys, values)) for values in itertools.product(*(GRID[k] for k in keys))]


def best_rule(rows):
    rules = grid_rules()
    return max(rules, key=lambda r: (round(f1(counts(rows, r)), 6), -rules.index(r)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data")
    parser.add_argument("--model", default="models/nda")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--name", default="nda_party_rules")
    args = parser.parse_args()
    import torch

    from docextract.extraction.values import KLEISTER_NDA_POLICY

    torch.set_num_threads(args.threads)
    rows = candidates(tag_contracts(args.model, args.data))
    order = list(range(len(rows)))
    random.Random(args.seed).shuffle(order)
    folds = [order[i::args.folds] for i in range(args.folds)]
    cross_validated, picked = Counter(), []
    for fold in folds:
        held = set(fold)
        rule = best_rule([rows[i] for i in order if i not in held])
        c = counts([rows[i] for i in fold], rule)
        cross_validated.update(c)
        picked.append({"rule": rule, "contracts": len(fold), "f1": round(f1(c), 4), "party_f1": round(f1(c, "party_"), 4)})
    party = KLEISTER_NDA_POLICY["party"]
    shipped = {"min_confidence": party.min_confidence, "max_values": party.max_values, "min_mentions": 1,
               "within_pages": party.within_pages}
    fixed = {name: {"rule": rule, "f1": round(f1(counts(rows, rule)), 4), "party_f1": round(f1(counts(rows, rule), "party_"), 4)}
             for name, rule in (("earlier", EARLIER), ("shipped", shipped))}
    truth_parties = Counter(sum(1 for k, _ in r["expected"] if k == "party") for r in rows)
    result = {
        "command": "PYTHONPATH=$PWD python benchmarks/nda_party_rules.py " + " ".join(sys.argv[1:]),
        "data": args.data, "model": args.model, "contracts": len(rows), "folds": args.folds, "grid": GRID,
        "cross_validated": {"f1": round(f1(cross_validated), 4), "party_f1": round(f1(cross_validated, "party_"), 4),
                            "earlier_rule_f1": fixed["earlier"]["f1"], "earlier_rule_party_f1": fixed["earlier"]["party_f1"]},
        "per_fold": picked, "fixed_rules_on_all_contracts": fixed,
        "expected_parties_per_contract": {str(k): v for k, v in sorted(truth_parties.items())},
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"{args.name}.json").write_text(json.dumps(result, indent=2) + "\n")
    lines = [f"Party rule by {args.folds}-fold cross-validation over {len(rows)} contracts ({args.data}, model "
             f"{args.model}). `{result['command']}`", "",
             f"Cross-validated all-key F1 **{100 * result['cross_validated']['f1']:.1f}** (party "
             f"{100 * result['cross_validated']['party_f1']:.1f}) against {100 * fixed['earlier']['f1']:.1f} (party "
             f"{100 * fixed['earlier']['party_f1']:.1f}) for the earlier rule (every party >= 0.5).", "",
             "| fold | contracts | rule picked on the other folds | F1 | party F1 |", "|---:|---:|---|---:|---:|"]
    for i, p in enumerate(picked, 1):
        lines.append(f"| {i} | {p['contracts']} | {p['rule']} | {100 * p['f1']:.1f} | {100 * p['party_f1']:.1f} |")
    lines += ["", "| fixed rule on all contracts | F1 | party F1 |", "|---|---:|---:|"]
    for name, r in fixed.items():
        lines.append(f"| {name}: {r['rule']} | {100 * r['f1']:.1f} | {100 * r['party_f1']:.1f} |")
    (RESULTS / f"{args.name}.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
