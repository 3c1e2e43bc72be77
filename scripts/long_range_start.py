"""Write a whole-document starting point made from a windowed model (presets.long_range_from): the same weights,
softmax inside 512-token blocks plus a gated global cosFormer term that starts at 0, page embeddings at 0.
Finetune it on whole documents (examples/train_nda.sh hybrid):

    .venv/bin/python scripts/long_range_start.py models/nda /tmp/nda-hybrid-start
    docextract finetune train.jsonl --model /tmp/nda-hybrid-start --cross-pages ...
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

from docextract.modeling import LayoutForTokenClassification
from docextract.modeling.compact import is_compact, load_compact
from docextract.modeling.loading import check_loadable_folder
from docextract.modeling.presets import long_range_from

TOKENIZER_FILES = ("tokenizer.json", "tokenizer_config.json")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("model", type=Path, help="a windowed model folder (e.g. models/nda)")
    parser.add_argument("output", type=Path, help="folder to write the whole-document starting point to")
    args = parser.parse_args()
    folder = check_loadable_folder(args.model)
    model = (load_compact(folder, LayoutForTokenClassification) if is_compact(folder)
             else LayoutForTokenClassification.from_pretrained(str(folder)))
    long_range_from(model).save_pretrained(str(args.output))
    for name in TOKENIZER_FILES:
        shutil.copy2(folder / name, args.output / name)
    print(f"{args.output}: {args.model} as a whole-document local+global model (gate 0, positions per block)")


if __name__ == "__main__":
    main()
