"""Teach it your supplier: `docextract finetune` from a shipped model on a few of one producer's e-invoices.

For each producer (who designed the page's layout: docextract.data.producers, the leave-one-producer-out unit)
the documents the model never trained on are its pool. The pool is cut in two by the product's own rule
(``docextract split --train 0.5``: whole invoices, the same group or true invoice number never on both sides):
the training half and the producer's other invoices. The obvious command

    docextract finetune FEW.jsonl --model MODEL -o RUN --threads 1 [EXTRA]

runs on 1, 2, ... documents of the training half (one rendering of each of its invoices in turn, then the others;
``half``: all of it), and the finetuned model is measured, as the shipped one was, on

* the producer's other invoices (``target``): field accuracy as `run` prints the fields (evaluate's field rule on
  each true field; a field not output is wrong), and the fields the model's review policy accepted, how many were
  right;
* every other producer's documents (``others``), per producer and pooled: those the model never trained on
  (``unseen``) and all of them (``all``); documents of an invoice on the training side are left out.

The shipped model's training split is the one examples/train_invoice.sh makes (factur-x-kit held out, every 3rd
invoice group of the rest to validation): its training side is never a pool or an ``unseen`` document.

    docextract convert einvoice ../shared/data /tmp/einvoices.jsonl
    PYTHONPATH=$PWD .venv/bin/python benchmarks/finetune_supplier.py --data /tmp/einvoices.jsonl \\
        [--producers factur-x-kit,zugferd-stylesheet] [--sizes 1,2,5,half] [--threads 1] [--extra "--epochs 2"] \\
        [--name NAME]

Writes benchmarks/results/finetune_supplier[_NAME].json and .md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shlex
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

RESULTS = REPO / "benchmarks" / "results"
# The shipped model's held-out producer and its split rule (examples/train_invoice.sh)
SHIPPED_HELD_OUT = "factur-x-kit"
SHIPPED_EVERY = 3


def producer_of(doc) -> str:
    """The producer of a labelled document: the leave-one-producer-out yardstick's (docextract.data.producers)."""
    from docextract.data.producers import producer_of as of_record

    return of_record({"id": doc.id, "source": doc.document.source, "producer": doc.producer})


def shipped_training_ids(documents) -> set[str]:
    """The documents examples/train_invoice.sh trains the shipped model on."""
    from docextract.data.splitting import split_every

    rest = [d for d in documents if producer_of(d) != SHIPPED_HELD_OUT]
    train, _ = split_every(rest, SHIPPED_EVERY)
    return {d.id for d in train}


def first_documents(invoices: list[list], count: int) -> list:
    """``count`` documents of ``invoices`` (lists of renderings): the first rendering of each invoice in turn, then
    the second, ..."""
    chosen, depth = [], 0
    while len(chosen) < count and any(depth < len(inv) for inv in invoices):
        chosen += [inv[depth] for inv in invoices if depth < len(inv)][: count - len(chosen)]
        depth += 1
    return chosen


def measure(model: str, documents, threads: int) -> dict:
    """Field accuracy as `run` prints the fields, and what the review policy accepted, on ``documents``."""
    from docextract.pipeline import load_model
    from docextract.evaluation.evaluate import evaluate_model, settings_for_model

    if not documents:
        return {"documents": 0}
    import torch

    torch.set_num_threads(threads)
    net, tokenizer = load_model(model)
    report = evaluate_model(net, tokenizer, documents, settings_for_model(net))
    overall = report["confidence"]["overall"]
    policy = overall.get("policy") or {}
    accepted = policy.get("accepted") or 0
    precision = policy.get("precision") if accepted else None
    return {"documents": len(documents), "fields": overall["fields"], "correct": overall["correct"],
            "accuracy": overall["accuracy"], "field_rule_accuracy": report["fields"]["micro"]["accuracy"],
            "accepted": accepted, "accepted_right": round(precision * accepted) if accepted else 0,
            "accepted_precision": precision, "review_source": report["confidence"]["review"]["source"]}


def measure_others(model: str, others: dict[str, list], threads: int) -> dict:
    """Per other producer and pooled (micro over their fields)."""
    per = {name: measure(model, docs, threads) for name, docs in sorted(others.items()) if docs}
    fields = sum(m["fields"] for m in per.values())
    correct = sum(m["correct"] for m in per.values())
    return {"pooled": {"documents": sum(m["documents"] for m in per.values()), "fields": fields, "correct": correct,
                       "accuracy": correct / fields if fields else None}, "per_producer": per}


def finetune(train_file: Path, model: str, run_dir: Path, threads: int, extra: list[str]) -> dict:
    """Run the command (or, when ``run_dir`` holds its finished model from an earlier run, read what it did)."""
    command = [str(REPO / ".venv" / "bin" / "docextract"), "finetune", str(train_file), "--model", model,
               "-o", str(run_dir), "--threads", str(threads), *extra]
    done_file = run_dir / "benchmark-run.json"
    if done_file.is_file() and json.loads(done_file.read_text())["command"] == command:
        return json.loads(done_file.read_text())["result"]
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"finetune failed ({done.returncode}): {' '.join(command)}\n{done.stderr[-3000:]}")
    record = json.loads((run_dir / "model" / "training.json").read_text())
    shown = ["docextract", *command[1:]]
    result = {"command": " ".join(shlex.quote(c) for c in shown), "seconds": round(seconds, 1),
            "log": done.stderr.splitlines()[-12:], "train_windows": record["train_windows"],
            "steps": record["history"]["epochs"][-1]["step"],
            "size_mb": round((run_dir / "model" / "model.safetensors").stat().st_size / 1e6, 1)}
    done_file.write_text(json.dumps({"command": command, "result": result}))
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, required=True, help="`docextract convert einvoice` of the shared data")
    parser.add_argument("--model", default="models/invoice")
    parser.add_argument("--producers", default="factur-x-kit,zugferd-stylesheet")
    parser.add_argument("--sizes", default="1,2,5,half", help="documents of the training half to finetune on")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--extra", default="", help="more finetune options (the levers), e.g. '--epochs 2'")
    parser.add_argument("--others", choices=("unseen", "all"), default="all",
                        help="measure other producers on their unseen documents only, or on unseen and all")
    parser.add_argument("--work", type=Path, default=None, help="where the runs go (default: a temporary folder)")
    parser.add_argument("--name", default="", help="results file suffix")
    args = parser.parse_args()

    from docextract.data.labelled import read_jsonl, write_jsonl
    from docextract.data.producers import EINVOICE_PRODUCERS
    from docextract.data.splitting import invoice_keys, split_train

    documents = [d for d in read_jsonl(args.data) if d.fields and producer_of(d) in EINVOICE_PRODUCERS]
    seen = shipped_training_ids(documents)
    all_keys = invoice_keys(documents)
    extra = shlex.split(args.extra)
    work = args.work or Path(tempfile.mkdtemp(prefix="finetune-supplier-"))
    work.mkdir(parents=True, exist_ok=True)
    result = {"model": args.model, "data": str(args.data), "extra": args.extra, "threads": args.threads,
              "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform()},
              "producers": {}}
    for producer in [p.strip() for p in args.producers.split(",") if p.strip()]:
        pool = [d for d in documents if producer_of(d) == producer and d.id not in seen]
        half, target = split_train(pool, 0.5)
        keys = dict(zip([d.id for d in pool], invoice_keys(pool)))
        invoices: dict[str, list] = defaultdict(list)
        for doc in half:
            invoices[keys[doc.id]].append(doc)
        # the training half's invoices, also as other producers render them, are left out of "others"
        half_ids = {d.id for d in half}
        on_train_side = {key for doc, key in zip(documents, all_keys) if doc.id in half_ids}
        others_unseen, others_all = defaultdict(list), defaultdict(list)
        for doc, key in zip(documents, all_keys):
            if producer_of(doc) == producer or key in on_train_side:
                continue
            others_all[producer_of(doc)].append(doc)
            if doc.id not in seen:
                others_unseen[producer_of(doc)].append(doc)
        entry = {"pool_documents": len(pool), "pool_invoices": len(set(keys.values())),
                 "half": [d.id for d in half], "target": [d.id for d in target], "runs": []}
        print(f"{producer}: pool {len(pool)} documents, training half {len(half)}, target {len(target)}",
              file=sys.stderr, flush=True)
        entry["before"] = {"target": measure(args.model, target, args.threads),
                           "others_unseen": measure_others(args.model, others_unseen, args.threads)}
        if args.others == "all":
            entry["before"]["others_all"] = measure_others(args.model, others_all, args.threads)
        counts_done = set()
        for size in [s.strip() for s in args.sizes.split(",") if s.strip()]:
            count = len(half) if size == "half" else int(size)
            if count > len(half) or count in counts_done:  # more than the half holds, or measured already
                continue
            counts_done.add(count)
            few = first_documents(list(invoices.values()), count)
            run_dir = work / f"{producer}-{size}"
            train_file = work / f"{producer}-{size}.jsonl"
            write_jsonl(few, train_file)
            print(f"  finetune on {count} documents ({size})", file=sys.stderr, flush=True)
            run = {"size": size, "documents": [d.id for d in few], "invoices": len({keys[d.id] for d in few}),
                   "finetune": finetune(train_file, args.model, run_dir, args.threads, extra)}
            model = str(run_dir / "model")
            run["after"] = {"target": measure(model, target, args.threads),
                            "others_unseen": measure_others(model, others_unseen, args.threads)}
            if args.others == "all":
                run["after"]["others_all"] = measure_others(model, others_all, args.threads)
            entry["runs"].append(run)
            print("  " + row(producer, run, entry["before"]), file=sys.stderr, flush=True)
        result["producers"][producer] = entry
    out = RESULTS / f"finetune_supplier{'_' + args.name if args.name else ''}.json"
    out.write_text(json.dumps(result, indent=2) + "\n")
    out.with_suffix(".md").write_text(markdown(result))
    print(markdown(result))
    print(f"written: {out} and {out.with_suffix('.md')}", file=sys.stderr)


def _pct(value) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}"


def row(producer: str, run: dict, before: dict) -> str:
    b, a = before, run["after"]
    change_unseen = a["others_unseen"]["pooled"]["accuracy"] - b["others_unseen"]["pooled"]["accuracy"]
    cells = [producer, f"{len(run['documents'])} ({run['invoices']} inv.)",
             f"{_pct(b['target']['accuracy'])} -> {_pct(a['target']['accuracy'])}",
             f"{100 * (a['target']['accuracy'] - b['target']['accuracy']):+.1f}",
             f"{100 * change_unseen:+.1f}"]
    if "others_all" in a:
        cells.append(f"{100 * (a['others_all']['pooled']['accuracy'] - b['others_all']['pooled']['accuracy']):+.1f}")
    else:
        cells.append("")
    t = a["target"]
    cells += [f"{t['accepted']} ({_pct(t['accepted_precision'])})", t["review_source"],
              f"{run['finetune']['seconds'] / 60:.1f}", each_producer(b, a)]
    return " | ".join(cells)


def each_producer(before: dict, after: dict) -> str:
    """The change on each other producer: on all its documents (on those the shipped model never trained on)."""
    key = "others_all" if "others_all" in after else "others_unseen"
    parts = []
    for name, was in before[key]["per_producer"].items():
        change = f"{100 * (after[key]['per_producer'][name]['accuracy'] - was['accuracy']):+.1f}"
        if key == "others_all" and name in before["others_unseen"]["per_producer"]:
            unseen = before["others_unseen"]["per_producer"][name]
            change += f" ({100 * (after['others_unseen']['per_producer'][name]['accuracy'] - unseen['accuracy']):+.1f})"
        parts.append(f"{name} {change}")
    return ", ".join(parts)


def markdown(result: dict) -> str:
    lines = [f"# Finetuning {result['model']} on a few invoices of one producer",
             "", f"finetune options beyond the defaults: `{result['extra'] or 'none'}`, {result['threads']} thread(s)", "",
             "| producer | documents used | its other invoices, before -> after | change | other producers, unseen | "
             "other producers, all | accepted on its other invoices (% right) | review policy | finetune minutes | "
             "each other producer, all (unseen) |",
             "|---|---|---|---:|---:|---:|---|---|---:|---|"]
    for producer, entry in result["producers"].items():
        b = entry["before"]["target"]
        lines.append(f"| {producer} | 0 (shipped) | {_pct(b['accuracy'])} | | | | {b['accepted']} "
                     f"({_pct(b['accepted_precision'])}) | {b['review_source']} | | |")
        for run in entry["runs"]:
            lines.append("| " + row(producer, run, entry["before"]) + " |")
    lines += ["", "Accuracy: true fields of the producer's other invoices as `run` prints them (evaluate's field rule; "
              "a field not output is wrong). Other producers: pooled over their true fields; unseen = documents "
              "the shipped model did not train on. Per producer and the commands: the JSON beside this file."]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
