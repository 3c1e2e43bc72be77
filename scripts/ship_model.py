"""Copy a trained model folder into models/NAME for shipping: compact safetensors (fp16, word
embeddings int8; see docextract/modeling/compact.py), config, tokenizer, training record. The model card
(models/NAME/README.md) is written by hand from the measured numbers.

    .venv/bin/python scripts/ship_model.py RUN/model models/invoice [--compute bfloat16]

``--compute`` records the arithmetic `run` uses for the model (config.json ``docextract_compute``: float32,
bfloat16 where the CPU has it natively, or int8-linear); only after benchmarks/arithmetic_gate.py passed for it
(fields within 0.5 points of float32 on the held-out invoices and the real e-invoices).
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

import torch

from docextract.modeling import LayoutForTokenClassification
from docextract.modeling.compact import is_compact, load_compact, save_compact
from docextract.modeling.loading import check_loadable_folder
from docextract.modeling.model_folder import COMPUTE_KEY
from docextract.modeling.runtime import COMPUTES

KEEP = ("tokenizer.json", "tokenizer_config.json", "training.json")


def ship(src: Path, dst: Path, compute: str | None = None) -> None:
    check_loadable_folder(src)
    if is_compact(src):  # an already shipped folder (to record its --compute): its weights as they are
        model = load_compact(src, LayoutForTokenClassification)
    else:
        model = LayoutForTokenClassification.from_pretrained(str(src), dtype=torch.float32)
    if compute is not None:
        if compute not in COMPUTES:
            raise SystemExit(f"--compute must be one of {', '.join(COMPUTES)}")
        setattr(model.config, COMPUTE_KEY, compute)
    dst = dst.resolve()
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
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("src", type=Path, help="a trained model folder (finetune's RUN/model)")
    parser.add_argument("dst", type=Path, help="the shipped folder to write (replaced whole)")
    parser.add_argument("--compute", choices=COMPUTES, default=None,
                        help="the arithmetic run uses for this model (after benchmarks/arithmetic_gate.py passed)")
    args = parser.parse_args()
    ship(args.src, args.dst, args.compute)
