"""Does a short `pretrain` on unlabelled FUNSD forms move FUNSD entity F1 after `finetune`?

Two finetunes with identical data, recipe and seed: one from the preset (MiniLM text weights, fresh
layout tables), one from the preset after MLM + 1-LOP pre-training on the first ``--pretrain-docs``
FUNSD training forms (labels ignored; the test split is never pre-trained on). Each is evaluated on
the first ``--eval-docs`` FUNSD test forms after every epoch (seqeval entity F1, BIO).

    PYTHONPATH=$PWD python benchmarks/pretrain_funsd.py --threads 1
writes benchmarks/results/pretrain_funsd.json. The defaults are a CPU smoke-sized budget (minutes);
a real answer needs all 149 forms, more epochs and several seeds.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

import torch

from docextract.data.funsd import convert_funsd
from docextract.data.labelled import write_jsonl
from docextract.training.finetune import FinetuneOptions, finetune
from docextract.training.pretrain import PretrainOptions, pretrain

FUNSD = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "funsd"
RESULTS = Path(__file__).resolve().parent / "results" / "pretrain_funsd.json"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="layoutlm")
    parser.add_argument("--pretrain-docs", type=int, default=40)
    parser.add_argument("--pretrain-epochs", type=int, default=2)
    parser.add_argument("--finetune-docs", type=int, default=20)
    parser.add_argument("--eval-docs", type=int, default=20)
    parser.add_argument("--finetune-epochs", type=int, default=3)
    parser.add_argument("--max-tokens", type=int, default=254)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)

    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        train_docs, _ = convert_funsd(FUNSD, "train", limit=max(args.pretrain_docs, args.finetune_docs))
        test_docs, _ = convert_funsd(FUNSD, "test", limit=args.eval_docs)
        write_jsonl(train_docs[:args.pretrain_docs], work / "unlabelled.jsonl")
        write_jsonl(train_docs[:args.finetune_docs], work / "train.jsonl")
        write_jsonl(test_docs, work / "test.jsonl")

        start = time.perf_counter()
        pre = pretrain(PretrainOptions(sources=(work / "unlabelled.jsonl",), output_dir=work / "pre", model=args.preset,
                                       max_tokens=args.max_tokens, stride=64, epochs=args.pretrain_epochs,
                                       batch_size=8, seed=args.seed))
        pretrain_seconds = time.perf_counter() - start
        runs = {}
        for name, model in (("from_preset", args.preset), ("from_pretrained", str(work / "pre" / "model"))):
            start = time.perf_counter()
            record = finetune(FinetuneOptions(train_files=(work / "train.jsonl",), eval_files=(work / "test.jsonl",),
                                              output_dir=work / name, model=model, max_tokens=args.max_tokens,
                                              stride=64, epochs=args.finetune_epochs, batch_size=8, seed=args.seed))
            runs[name] = {"epochs": record["history"]["epochs"], "best_f1": record["history"]["best"]["f1"],
                          "seconds": round(time.perf_counter() - start, 1)}
            print(name, runs[name]["best_f1"], flush=True)

    result = {
        "question": "does a short MLM + 1-LOP pretrain on unlabelled FUNSD training forms move FUNSD test entity F1?",
        "command": "PYTHONPATH=$PWD python benchmarks/pretrain_funsd.py " + " ".join(
            f"--{k.replace('_', '-')} {v}" for k, v in vars(args).items() if k != "out"),
        "settings": {k: v for k, v in vars(args).items() if k != "out"},
        "pretrain": {"epochs": pre["history"]["epochs"], "windows": pre["train_windows"],
                     "seconds": round(pretrain_seconds, 1)},
        "finetune": runs,
        "f1_delta": runs["from_pretrained"]["best_f1"] - runs["from_preset"]["best_f1"],
        "caveat": "one seed, few documents, few epochs on a shared 2-core CPU: a smoke-sized measurement, not a result",
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps({k: result[k] for k in ("f1_delta",)}))


if __name__ == "__main__":
    main()
