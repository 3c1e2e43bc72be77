"""`pretrain --objective distill`: the pieces that differ from masked-LM pre-training.

The windows are the same unlabelled windows (no masks); the model is :class:`LayoutForDistillation` with
the softmax twin of its starting weights as teacher (see :mod:`docextract.modeling.distillation`); held-out
windows measure how close the student's layers are to the teacher's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

import torch

from docextract.errors import UsageError
from docextract.modeling.batching import collate

EVAL_BATCH_SIZE = 4  # windows per forward pass when measuring held-out agreement


def distillation_windows(encoded: Sequence[dict[str, list]]) -> list[dict[str, list]]:
    """The encoded windows with ``labels`` 0 on every token: nothing is predicted, but the training loop counts
    labelled tokens to weigh each process's share of a batch under torchrun."""
    keep = ("input_ids", "attention_mask", "bbox", "page_ids")
    return [{**{k: w[k] for k in keep}, "labels": [0] * len(w["input_ids"])} for w in encoded]


def build_distillation_model(name_or_folder: str, overrides: dict[str, Any]):
    """The student (a preset from MiniLM, or a model folder's encoder) with its softmax twin attached."""
    from docextract.modeling.distillation import LayoutForDistillation, softmax_twin
    from docextract.modeling.loading import check_loadable_folder
    from docextract.modeling.presets import PRESETS, from_preset

    if name_or_folder in PRESETS:
        model = from_preset(name_or_folder, task="distillation", **overrides)
    else:
        folder = Path(name_or_folder)
        if not folder.is_dir():
            raise UsageError(f"--model {name_or_folder!r} is neither a preset ({', '.join(PRESETS)}) nor a model folder")
        check_loadable_folder(folder)
        model = LayoutForDistillation.from_pretrained(str(folder))
    if model.config.attention == "softmax":
        raise UsageError(f"--objective distill adapts a linear-attention model to its softmax twin; {name_or_folder!r} "
                         "already uses softmax attention (choose layout-cosformer or layout-linformer)")
    model.attach_teacher(softmax_twin(model.layout))
    return model


@torch.no_grad()
def heldout_agreement(model, windows: Sequence[dict[str, list]]) -> dict[str, Any]:
    """Held-out relative error (mean over layers, and per layer) and last-layer cosine with the teacher."""
    was_training = model.training
    model.eval()
    device = next(model.parameters()).device
    loss_sum, cosine_sum, layer_sum, tokens = 0.0, 0.0, None, 0
    for start in range(0, len(windows), EVAL_BATCH_SIZE):
        batch = collate(list(windows[start:start + EVAL_BATCH_SIZE]))
        batch = {k: v.to(device) for k, v in batch.items() if k != "labels"}
        output = model(**batch)
        n = int(batch["attention_mask"].sum())
        loss_sum += float(output.loss) * n
        cosine_sum += float(output.cosine) * n
        layer_sum = output.layer_errors * n if layer_sum is None else layer_sum + output.layer_errors * n
        tokens += n
    model.train(was_training)
    tokens = max(tokens, 1)
    return {"heldout_distill_error": loss_sum / tokens, "heldout_cosine": cosine_sum / tokens,
            "heldout_layer_errors": [round(float(v) / tokens, 4) for v in (layer_sum if layer_sum is not None else [])]}

