"""Kleister-NDA: long-range whole-document model against SplitPage windows, per key and by document length.

    PYTHONPATH=$PWD python benchmarks/nda_compare.py VAL.jsonl long=RUN1/model split=RUN2/model \
        [--threads 2] [--name nda_compare]

Each model reads every validation contract the way `run` and `evaluate` do (its own window size and
cross-page setting); each document's (key, value) pairs are scored with the Kleister metric
(docextract.evaluation.evaluate: F1 over upper-cased pairs). Reported: micro and per-key F1 over all
documents, F1 by length bucket (subword tokens) and for contracts over 10 pages (the issue's
comparison), and model seconds per document. Writes benchmarks/results/NAME.{json,md}.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from pathlib import Path

RESULTS = Path(__file__).parent / "results"
TOKEN_BUCKETS = ((0, 3000), (3000, 6000), (6000, 10**9))  # subword tokens
LONG_DOCUMENT_PAGES = 10  # the "documents over 10 pages"


def f1(c: Counter) -> float:
    precision = c["tp"] / (c["tp"] + c["fp"]) if c["tp"] + c["fp"] else 0.0
    recall = c["tp"] / (c["tp"] + c["fn"]) if c["tp"] + c["fn"] else 0.0
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


def score_documents(model_dir: str, documents) -> list[dict]:
    """Per document: pages, tokens, model seconds and per-key tp/fp/fn."""
    from docextract.modeling.routing import document_tokens
    from docextract.pipeline import load_model
    from docextract.evaluation.evaluate import evaluate_model, settings_for_model

    net, tokenizer = load_model(model_dir)
    settings = settings_for_model(net)
    rows = []
    for ldoc in documents:
        start = time.perf_counter()
        report = evaluate_model(net, tokenizer, [ldoc], settings)
        seconds = time.perf_counter() - start
        per_key = {k: {"tp": v["tp"], "fp": v["fp"], "fn": v["fn"]} for k, v in report["kleister"]["per_key"].items()}
        rows.append({"id": ldoc.id, "pages": len(ldoc.document.pages), "tokens": document_tokens(ldoc.document, tokenizer),
                     "seconds": round(seconds, 2), "per_key": per_key})
    return rows


def summarise(rows: list[dict]) -> dict:
    def counts(selected) -> tuple[Counter, dict[str, Counter]]:
        total, per_key = Counter(), {}
        for row in selected:
            for key, c in row["per_key"].items():
                total.update(c)
                per_key.setdefault(key, Counter()).update(c)
        return total, per_key

    total, per_key = counts(rows)
    buckets = {}
    for low, high in TOKEN_BUCKETS:
        selected = [r for r in rows if low <= r["tokens"] < high]
        buckets[f"{low}-{high if high < 10**9 else 'inf'} tokens"] = {"documents": len(selected), "f1": f1(counts(selected)[0])}
    long_docs = [r for r in rows if r["pages"] > LONG_DOCUMENT_PAGES]
    return {
        "f1": f1(total), "per_key_f1": {k: f1(c) for k, c in sorted(per_key.items())},
        "by_length": buckets,
        f"over_{LONG_DOCUMENT_PAGES}_pages": {"documents": len(long_docs), "f1": f1(counts(long_docs)[0])},
        "seconds_per_document": sum(r["seconds"] for r in rows) / max(1, len(rows)),
    }


def markdown(name: str, summaries: dict[str, dict], command: str) -> str:
    models = list(summaries)
    keys = sorted({k for s in summaries.values() for k in s["per_key_f1"]})
    lines = [f"# {name}", "", f"`{command}`", "", "| | " + " | ".join(models) + " |", "|---" * (len(models) + 1) + "|"]
    lines.append("| **Kleister F1 (all)** | " + " | ".join(f"**{100 * summaries[m]['f1']:.1f}**" for m in models) + " |")
    for key in keys:
        lines.append(f"| {key} | " + " | ".join(f"{100 * summaries[m]['per_key_f1'].get(key, 0):.1f}" for m in models) + " |")
    for bucket in summaries[models[0]]["by_length"]:
        n = summaries[models[0]]["by_length"][bucket]["documents"]
        lines.append(f"| {bucket} ({n} docs) | " + " | ".join(
            f"{100 * summaries[m]['by_length'][bucket]['f1']:.1f}" for m in models) + " |")
    over = f"over_{LONG_DOCUMENT_PAGES}_pages"
    lines.append(f"| over {LONG_DOCUMENT_PAGES} pages ({summaries[models[0]][over]['documents']} docs) | " + " | ".join(
        f"{100 * summaries[m][over]['f1']:.1f}" for m in models) + " |")
    lines.append("| model seconds / document | " + " | ".join(
        f"{summaries[m]['seconds_per_document']:.2f}" for m in models) + " |")
    return "\n".join(lines) + "\n"


def main() -> None:
    import sys

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data", type=Path)
    parser.add_argument("models", nargs="+", help="LABEL=MODEL_DIR")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--limit", type=int)
    parser.add_argument("--name", default="nda_compare")
    args = parser.parse_args()

    import torch

    from docextract.data.labelled import load_documents

    torch.set_num_threads(args.threads)
    documents = load_documents([args.data], args.limit)
    results = {"data": str(args.data), "documents": len(documents), "command": " ".join(sys.argv), "models": {}}
    summaries = {}
    for spec in args.models:
        label, model_dir = spec.split("=", 1)
        rows = score_documents(model_dir, documents)
        summaries[label] = summarise(rows)
        results["models"][label] = {"model": model_dir, "summary": summaries[label], "documents": rows}
        print(label, json.dumps(summaries[label]), flush=True)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"{args.name}.json").write_text(json.dumps(results, indent=1) + "\n")
    (RESULTS / f"{args.name}.md").write_text(markdown(args.name, summaries, "python " + " ".join(sys.argv)))


if __name__ == "__main__":
    main()
