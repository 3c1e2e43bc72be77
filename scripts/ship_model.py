"""Copy a trained model folder into models/NAME for shipping: compact safetensors (fp16, word
embeddings int8; see docextract/modeling/compact.py), config, tokenizer, training record. The model card
(models/NAME/README.md) is written by hand from the measured numbers.

    .venv/bin/python scripts/ship_model.py RUN/model models/invoice
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import torch

from docextract.modeling import LayoutForTokenClassification
from docextract.modeling.compact import save_compact
from docextract.modeling.loading import check_loadable_folder

KEEP = ("tokenizer.json", "tokenizer_config.json", "training.json")


def ship(src: Path, dst: Path) -> None:
    check_loadable_folder(src)
    model = LayoutForTokenClassification.from_pretrained(str(src), dtype=torch.float32)
    tmp = dst.with_name(dst.name + ".tmp")
    if tmp.exists():
        shutil.rmtree(tmp)
    save_compact(model, tmp)
    for name in KEEP:
        if (src / name).is_file():
            shutil.copy2(src / name, tmp / name)
    card = dst / "README.md"
    if card.is_file():
        shutil.copy2(card, tmp / "README.md")
    if dst.exists():
        shutil.rmtree(dst)
    tmp.rename(dst)
    size = sum(f.stat().st_size for f in dst.iterdir()) / 2**20
    print(f"{dst}: {size:.1f} MB")


if __name__ == "__main__":
    ship(Path(sys.argv[1]), Path(sys.argv[2]))
