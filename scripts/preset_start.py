"""Write a preset's untrained starting point (MiniLM weights, fresh layout parameters and a head for the data's
labels, drawn with the seed `finetune` uses) as a compact model folder, so that training can start from it on a
machine that lacks the MiniLM package: a lent GPU machine takes 64 MB of files, and MiniLM's fp32 weights are 91 MB.

    .venv/bin/python scripts/preset_start.py lagabi train.jsonl val.jsonl /tmp/lagabi-start --seed 42
    docextract finetune train.jsonl --eval val.jsonl --model /tmp/lagabi-start --seed 42 ...

`finetune --model /tmp/lagabi-start` then keeps this head and starts from these weights: those of `--model lagabi`
with the same seed, up to the compact file's rounding (fp16, int8 word-embedding rows; the rounding every shipped
model takes). `finetune` still reads the tokenizer from the MiniLM package, so its small files must travel too.
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

import torch

from docextract.data.labelled import load_documents
from docextract.evaluation.evaluate import prepare_for_model
from docextract.modeling.compact import save_compact
from docextract.modeling.presets import PRESETS
from docextract.modeling.tokenizer import minilm_dir
from docextract.training.finetune import build_model, label_set_of
from docextract.training.heads import plan_labels

TOKENIZER_FILES = ("tokenizer.json", "tokenizer_config.json")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("preset", choices=sorted(PRESETS))
    parser.add_argument("data", type=Path, nargs="+", help="the training and --eval files (their labels make the head)")
    parser.add_argument("output", type=Path)
    parser.add_argument("--seed", type=int, default=42, help="finetune's --seed")
    parser.add_argument("--scheme", default="BIO", help="finetune's tagging scheme for a preset (BIO)")
    args = parser.parse_args()
    documents = [prepare_for_model(d) for d in load_documents(args.data)]
    plan = plan_labels(None, label_set_of(documents), args.scheme, False, args.preset)
    torch.manual_seed(args.seed)  # as finetune does just before it builds the model
    model = build_model(args.preset, plan.labels, {})
    save_compact(model, args.output)
    for name in TOKENIZER_FILES:
        shutil.copy2(minilm_dir() / name, args.output / name)
    print(f"{args.output}: {args.preset} untrained, head for {', '.join(plan.labels)} (seed {args.seed})")


if __name__ == "__main__":
    main()
