"""Named presets (what users pick with ``--arch``) and their initialisation from MiniLM-L6.

Every preset is a :class:`LayoutConfig` over MiniLM's dimensions; :func:`from_preset` builds the model and
copies MiniLM's text-encoder weights in by name. Layout parameters start fresh (``docextract pretrain``
adapts them). Learned 1D tables longer than MiniLM's 512 rows are filled by repeating the pretrained
rows (Longformer's copy initialisation): position p starts as MiniLM's position p mod 512.
Sinusoidal and LSPE positions have no table and extrapolate to any length.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import torch
from safetensors import safe_open

from docextract.modeling.config import LayoutConfig
from docextract.modeling.distillation import LayoutForDistillation
from docextract.modeling.encoder import LayoutEncoder, LayoutPreTrainedModel
from docextract.modeling.heads import LayoutForPretraining, LayoutForTokenClassification
from docextract.modeling.positions import sinusoid
from docextract.modeling.tokenizer import minilm_dir

LONG_SEQUENCE_POSITIONS = 4096  # learned-table / Linformer length of the long-range presets (tokens)

PRESETS: dict[str, dict] = {
    # LSPE paper (LSPE FFN over sinusoids for 1D and each of x, y, w, h): extrapolates past 512.
    "lspe-layoutlm": dict(position_1d="lspe", position_2d="lspe"),
    # DocPolarBERT: 1D learned, no absolute 2D (its Table 7), polar Shaw key term, per-document quantiles.
    "docpolarbert": dict(position_1d="learned", position_2d="none", layout_bias="polar"),
    # Long-range paper: LayoutLM embeddings + pages, cosFormer attention with 1D cos re-weighting.
    "layout-cosformer": dict(
        position_1d="learned", position_2d="learned", page_embeddings=True, attention="cosformer",
        cosformer_reweight="cos1d", max_position_embeddings=LONG_SEQUENCE_POSITIONS,
    ),
    # The same with softmax inside 512-token blocks plus a gated global cosFormer term (attention.py): starts as
    # MiniLM reading blocks, so it needs no adaptation of linear attention before finetuning [A].
    "layout-cosformer-local": dict(
        position_1d="learned", position_2d="learned", page_embeddings=True, attention="local_cosformer",
        cosformer_reweight="cos1d", max_position_embeddings=LONG_SEQUENCE_POSITIONS,
    ),
    # LayoutLM v1 baseline: learned 1D + learned 2D tables.
    "layoutlm": dict(position_1d="learned", position_2d="learned"),
    # LAGaBi on a BERT backbone: no 2D embedding, Gaussian polar bias.
    "lagabi": dict(position_1d="learned", position_2d="none", layout_bias="gaussian"),
    # Long-range paper: fixed sinusoidal 1D (official code), learned 2D, pages, Linformer k=256.
    "layout-linformer": dict(
        position_1d="sinusoidal", position_2d="learned", page_embeddings=True, attention="linformer",
        max_position_embeddings=LONG_SEQUENCE_POSITIONS,
    ),
}

TASK_CLASSES: dict[str, type[LayoutPreTrainedModel]] = {
    "encoder": LayoutEncoder,
    "token-classification": LayoutForTokenClassification,
    "pretraining": LayoutForPretraining,
    "distillation": LayoutForDistillation,
}

MINILM_SKIPPED_PREFIXES = ("pooler.", "embeddings.position_ids")  # not part of the encoder we build


def minilm_dimensions() -> dict:
    """MiniLM-L6's architecture numbers from the packaged config.json."""
    raw = json.loads((minilm_dir() / "config.json").read_text(encoding="utf-8"))
    keys = ("vocab_size", "hidden_size", "num_hidden_layers", "num_attention_heads", "intermediate_size",
            "hidden_act", "layer_norm_eps", "max_position_embeddings", "type_vocab_size", "pad_token_id")
    return {key: raw[key] for key in keys}


def preset_config(name: str, **overrides) -> LayoutConfig:
    """The preset's configuration; dimensions are LayoutConfig's defaults (MiniLM's) unless overridden."""
    if name not in PRESETS:
        raise ValueError(f"unknown model preset {name!r}; choose one of {', '.join(PRESETS)}")
    return LayoutConfig(**{**PRESETS[name], "preset": name, **overrides})


@dataclass(frozen=True)
class WeightTransfer:
    """Which MiniLM tensors went where: ``loaded`` by name, ``tiled`` (copy-extended), ``unused`` (no target),
    ``fresh`` (parameters of the model MiniLM has nothing for: the new layout parts)."""

    loaded: tuple[str, ...]
    tiled: tuple[str, ...]
    unused: tuple[str, ...]
    fresh: tuple[str, ...]


def tile_rows(pretrained: torch.Tensor, rows: int) -> torch.Tensor:
    """Longformer copy-init: a (rows, D) table whose row p is ``pretrained[p mod len(pretrained)]``."""
    repeats = -(-rows // pretrained.shape[0])
    return pretrained.repeat(repeats, 1)[:rows]


@torch.no_grad()
def load_minilm_weights(encoder: LayoutEncoder, folder=None) -> WeightTransfer:
    """Copy MiniLM's safetensors weights into ``encoder`` by name (HF BERT names on both sides)."""
    params = dict(encoder.named_parameters())
    loaded, tiled, unused = [], [], []
    with safe_open(str((folder or minilm_dir()) / "model.safetensors"), framework="pt") as weights:
        for name in weights.keys():
            if name.startswith(MINILM_SKIPPED_PREFIXES):
                continue
            if name not in params:
                unused.append(name)  # e.g. the learned 1D table of a sinusoidal/LSPE preset
                continue
            tensor = weights.get_tensor(name)
            target = params[name]
            if target.shape == tensor.shape:
                target.copy_(tensor)
                loaded.append(name)
            elif name == "embeddings.position_embeddings.weight" and target.shape[1] == tensor.shape[1]:
                target.copy_(tile_rows(tensor, target.shape[0]))
                tiled.append(name)
            else:
                raise ValueError(f"MiniLM tensor {name} {tuple(tensor.shape)} does not fit {tuple(target.shape)}")
    done = set(loaded) | set(tiled)
    fresh = tuple(name for name in params if name not in done)
    return WeightTransfer(tuple(loaded), tuple(tiled), tuple(unused), fresh)


LSPE_FIT_RIDGE = 1e-4  # relative ridge strength of the least-squares fit below


@torch.no_grad()
def fit_lspe_to_table(lspe, table: torch.Tensor) -> float:
    """Set the LSPE FFN's output layer so that ``lspe(p) ~= table[p]``; returns the relative error.

    Why: MiniLM learned its 512 position vectors over a long pre-training that docextract cannot redo
    on a CPU. A freshly initialised LSPE FFN adds vectors several times larger than MiniLM's word
    embeddings, which drowns the text signal and stalled finetuning (FUNSD loss flat for 3 epochs).
    The first layer keeps its random init (random features of the sinusoid, eq. 2); the second is
    solved by ridge regression in closed form (dual form, a 512 x 512 solve: instant), so the model
    starts where MiniLM was and keeps LSPE's form, which extrapolates past 512 positions.
    """
    positions = torch.arange(table.shape[0])
    base = sinusoid(positions, lspe.dim).to(lspe.fc1.weight.dtype)  # (P, D)
    if lspe.skip:
        table = table - base  # eq. 3 adds the sinusoid back
    features = lspe.act(lspe.fc1(base))  # (P, F)
    mean_f, mean_t = features.mean(0, keepdim=True), table.mean(0, keepdim=True)
    centred_f, centred_t = features - mean_f, table - mean_t
    gram = centred_f @ centred_f.T  # (P, P)
    ridge = LSPE_FIT_RIDGE * gram.diagonal().mean() * torch.eye(gram.shape[0])
    dual = torch.linalg.solve(gram + ridge, centred_t)  # (P, D)
    weight = (centred_f.T @ dual).T  # (D, F)
    lspe.fc2.weight.copy_(weight)
    lspe.fc2.bias.copy_((mean_t - mean_f @ weight.T).squeeze(0))
    fitted = lspe(positions) - (base if lspe.skip else 0)
    return float((fitted - table).norm() / table.norm())


@torch.no_grad()
def start_layout_as_no_op(encoder: LayoutEncoder) -> None:
    """Zero the output layer of every 2D LSPE FFN: the fresh layout encodings start at 0 and grow in
    training instead of adding large random vectors to MiniLM's pretrained embeddings."""
    layout = getattr(encoder.embeddings, "layout_2d", None)
    if layout is None:
        return
    for axis in (layout.x, layout.y, getattr(layout, "w", None), getattr(layout, "h", None)):
        if axis is not None and hasattr(axis, "lspe"):
            axis.lspe.fc2.weight.zero_()
            axis.lspe.fc2.bias.zero_()


def _minilm_position_table(folder=None) -> torch.Tensor:
    with safe_open(str((folder or minilm_dir()) / "model.safetensors"), framework="pt") as weights:
        return weights.get_tensor("embeddings.position_embeddings.weight")


def minilm_preset_config(name: str, **overrides) -> LayoutConfig:
    """The configuration :func:`from_preset` builds: MiniLM-L6's dimensions, the preset's switches, then
    ``overrides``. A ``max_position_embeddings`` override (e.g. 16384) sizes the learned 1D table, which
    :func:`load_minilm_weights` fills by tiling MiniLM's 512 rows, and the Linformer projections."""
    dimensions = minilm_dimensions()
    if "max_position_embeddings" in PRESETS.get(name, {}):
        del dimensions["max_position_embeddings"]  # long presets keep their own length (tiled from MiniLM's 512)
    return preset_config(name, **{**dimensions, **overrides})


def with_max_positions(model: str, max_positions: int | None, overrides: dict) -> dict:
    """``overrides`` plus ``max_position_embeddings`` when ``max_positions`` is given; a UsageError when ``model`` is a
    folder, whose trained position table `finetune` and `pretrain` keep."""
    from docextract.errors import UsageError

    if max_positions is None:
        return dict(overrides)
    if model not in PRESETS:
        raise UsageError(
            f"--max-positions applies to presets only: {model} already has a trained position table "
            "(finetune keeps it; start from a preset, or pretrain one with more positions)", path=model)
    return {**overrides, "max_position_embeddings": max_positions}


def from_preset(name: str, num_labels: int | None = None, task: str = "token-classification", **overrides):
    """A model of preset ``name`` with MiniLM-L6's pretrained text encoder; ``overrides`` change config fields.

    ``task`` is ``token-classification`` (needs ``num_labels``), ``pretraining``, ``distillation`` or ``encoder``.
    """
    if task not in TASK_CLASSES:
        raise ValueError(f"unknown task {task!r}; choose one of {', '.join(TASK_CLASSES)}")
    if num_labels is not None:
        overrides["num_labels"] = num_labels
    config = minilm_preset_config(name, **overrides)
    model = TASK_CLASSES[task](config)
    encoder = model if isinstance(model, LayoutEncoder) else model.layout
    load_minilm_weights(encoder)
    start_layout_as_no_op(encoder)
    position_encoder = getattr(encoder.embeddings, "position_encoder", None)
    if position_encoder is not None and hasattr(position_encoder, "lspe"):
        table = _minilm_position_table()
        if table.shape[1] == config.hidden_size:
            fit_lspe_to_table(position_encoder.lspe, table)
    return model


def long_range_from(model: LayoutForTokenClassification) -> LayoutForTokenClassification:
    """A whole-document model that starts as ``model`` (a windowed tagger, e.g. ``models/nda``) reading each
    512-token block: its weights and head, softmax inside blocks plus the gated global cosFormer term (gate 0),
    page embeddings (zero), and 1D positions restarting in each block, the only positions it was trained on.
    Finetuning with ``--cross-pages`` then teaches the global term what the windows could not see."""
    import copy

    from docextract.modeling.model_folder import COMPACT_KEY, FITTED_KEYS

    config = copy.deepcopy(model.config)
    if config.attention != "softmax" or config.layout_bias != "none":
        raise ValueError(f"long_range_from needs a softmax model without a pairwise bias (got {config.attention}, "
                         f"layout_bias={config.layout_bias})")
    config.attention = "local_cosformer"
    config.page_embeddings = True
    config.position_1d_period = config.local_window
    config.preset = f"{getattr(config, 'preset', None) or 'model'}+local-cosformer"  # what `run` reports it as
    for key in (*FITTED_KEYS, COMPACT_KEY):
        if hasattr(config, key):
            delattr(config, key)
    long_range = LayoutForTokenClassification(config)
    missing, unexpected = long_range.load_state_dict(model.state_dict(), strict=False)
    fresh = [name for name in missing if ".global_" not in name and "page_embeddings" not in name]
    if unexpected or fresh:
        raise ValueError(f"weights do not carry over: unexpected {unexpected}, missing {fresh}")
    with torch.no_grad():
        long_range.layout.embeddings.page_embeddings.weight.zero_()
    return long_range
