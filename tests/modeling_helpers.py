"""Tiny random-init layout models and toy documents for the modeling tests (no MiniLM load: fast)."""

from __future__ import annotations

import torch

from docextract.modeling import preset_config

TINY = dict(
    vocab_size=120, hidden_size=64, num_hidden_layers=2, num_attention_heads=4, intermediate_size=128,
    max_position_embeddings=256, lspe_ffn_dim=96, linformer_k=16, max_pages=8, hidden_dropout_prob=0.1,
)
ATOL = 1e-5  # fp32 tolerance for "the same output" comparisons


def tiny_config(name: str, **overrides):
    return preset_config(name, **{**TINY, **overrides})


def toy_document(length: int, seed: int = 0, pages: int = 1) -> dict[str, torch.Tensor]:
    """One document of ``length`` tokens with real (non-point) boxes in reading order, batch of 1."""
    generator = torch.Generator().manual_seed(seed)
    ids = torch.randint(5, TINY["vocab_size"], (1, length), generator=generator)
    x0 = torch.randint(0, 800, (1, length), generator=generator)
    y0 = torch.randint(0, 900, (1, length), generator=generator)
    w = torch.randint(10, 150, (1, length), generator=generator)
    h = torch.randint(8, 60, (1, length), generator=generator)
    bbox = torch.stack((x0, y0, (x0 + w).clamp(max=1000), (y0 + h).clamp(max=1000)), -1)  # (1, S, 4)
    page_ids = (torch.arange(length) * pages // length).unsqueeze(0)
    return dict(input_ids=ids, attention_mask=torch.ones_like(ids), bbox=bbox, page_ids=page_ids)


def pad_batch(documents: list[dict[str, torch.Tensor]], length: int) -> dict[str, torch.Tensor]:
    """Right-pad documents to ``length`` (pad id 0, box [0,0,0,0], mask 0) and stack them into one batch."""
    batch = {}
    for key in documents[0]:
        rows = []
        for doc in documents:
            value = doc[key][0]
            pad_shape = (length - value.shape[0],) + tuple(value.shape[1:])
            rows.append(torch.cat((value, torch.zeros(pad_shape, dtype=value.dtype))))
        batch[key] = torch.stack(rows)
    return batch
