"""Compact shipped checkpoints: fp16 weights, with the word-embedding matrix in int8.

The shipped-model budget is 50 MB. MiniLM-L6 plus LSPE's position FFNs is ~29M parameters: 57 MB in
fp16. The word embeddings (30522 x 384, 40% of the model) are stored as int8 with one fp16 scale per
row (symmetric, per-row absmax), which brings the file under budget; so is a long-range model's learned 1D
position table when it is tall (16384 x 384 for whole-document layout-cosformer: 12.6 MB in fp16). Both are
lookup tables: a row's rounding error stays in that row. Everything else stays fp16.
A compact folder is still plain safetensors; ``load_compact`` turns it back into an fp32 model.
The quantisation error is tested (tags of a real document unchanged, logits within tolerance).
"""

from __future__ import annotations

import json
from pathlib import Path

import torch
from safetensors.torch import load_file, save

from docextract.files import write_bytes_atomic
from docextract.modeling.model_folder import COMPACT_KEY

COMPACT_MARKER = COMPACT_KEY  # config.json key saying which tensors are int8
INT8_SUFFIX, SCALE_SUFFIX = ".int8", ".scale"
INT8_TENSORS = ("layout.embeddings.word_embeddings.weight", "layout.embeddings.position_embeddings.weight")
INT8_MIN_ROWS = 4096  # shorter tables (MiniLM's 512 positions) stay fp16: they are small
INT8_MAX = 127


def quantize_rows(weight: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Per-row symmetric int8: ``weight ~= q * scale[:, None]``; (V, D) -> (V, D) int8, (V,) fp16."""
    scale = weight.abs().amax(dim=1).clamp(min=1e-8) / INT8_MAX  # (V,)
    q = torch.round(weight / scale[:, None]).clamp(-INT8_MAX, INT8_MAX).to(torch.int8)
    return q, scale.to(torch.float16)


def save_compact(model, folder: Path) -> None:
    """``save_pretrained`` for shipping: config + safetensors with fp16 / int8 tensors."""
    folder.mkdir(parents=True, exist_ok=True)
    state, quantized = {}, []
    for name, tensor in model.state_dict().items():
        tensor = tensor.detach().to(torch.float32).contiguous()
        if name in INT8_TENSORS and tensor.shape[0] >= INT8_MIN_ROWS:
            q, scale = quantize_rows(tensor)
            state[name + INT8_SUFFIX], state[name + SCALE_SUFFIX] = q, scale
            quantized.append(name)
        else:
            state[name] = tensor.to(torch.float16)
    # Both files through the atomic writer: a kill leaves the previous ones whole, never half a model.
    write_bytes_atomic(folder / "model.safetensors", save(state, metadata={"format": "pt"}))
    config = json.loads(model.config.to_json_string())  # what config.save_pretrained writes
    config[COMPACT_MARKER] = quantized
    write_bytes_atomic(folder / "config.json", (json.dumps(config, indent=2, sort_keys=True) + "\n").encode("utf-8"))


def is_compact(folder: Path) -> bool:
    config = json.loads((Path(folder) / "config.json").read_text())
    return COMPACT_MARKER in config


def widen(state: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """A compact checkpoint's tensors as fp32 weights under their model names (int8 rows times their scales)."""
    weights = {}
    for name, tensor in state.items():
        if name.endswith(INT8_SUFFIX):
            base = name[: -len(INT8_SUFFIX)]
            weights[base] = tensor.to(torch.float32) * state[base + SCALE_SUFFIX].to(torch.float32)[:, None]
        elif not name.endswith(SCALE_SUFFIX):
            weights[name] = tensor.to(torch.float32)
    return weights


def load_compact(folder: Path, model_class):
    """An fp32 model from a compact folder (the folder must already have passed ``check_loadable_folder``)."""
    config = model_class.config_class.from_pretrained(str(folder))
    model = model_class(config)
    weights = widen(load_file(str(Path(folder) / "model.safetensors")))
    missing, unexpected = model.load_state_dict(weights, strict=False)
    missing = [m for m in missing if not _tied(model, m)]
    if missing or unexpected:
        raise ValueError(f"compact checkpoint does not match the model: missing {missing}, unexpected {unexpected}")
    model.eval()
    return model


def _tied(model, name: str) -> bool:
    """Parameters that share storage with a saved one (tied MLM decoder) are not saved twice."""
    return name.endswith("decoder.weight")
