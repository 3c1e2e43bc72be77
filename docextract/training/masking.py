"""Pre-training inputs: masked-LM and 1D local-order (1-LOP) labels on encoded windows (docs/models.md §2a).

* **MLM:** ``mask_rate`` of a window's word sub-tokens (never [CLS]/[SEP]) are chosen; BERT's 80/10/10 rule
  replaces 80% of them by [MASK], 10% by a random ordinary token and leaves 10% unchanged. ``labels`` holds
  the original id at chosen tokens, -100 elsewhere.
* **1-LOP (ReLayout, DocPolarBERT):** ``lop_rate`` of the window's *words* have the 1D position of all
  their sub-tokens hidden (``position_mask``: the encoder zeroes their 1D position embedding, i.e. position
  id 0's zero row). Each hidden token must predict its local order inside its text segment (the layout's
  line): 0 for the line's first unit in the window, 1 for the next, ..., clipped to ``lop_max_order``.
  The unit is the sub-token (default) or the word (``lop_unit``); the authors' collator is not published (docs/models.md §2a).

Masks are a pure function of (seed, epoch, window index): the same run gives the same batches, and each
epoch sees fresh masks, as with a dynamic masking collator.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import torch

from docextract.modeling.batching import IGNORE_INDEX, SPECIAL_WORD_INDEX

LOP_UNITS = ("token", "word")
NO_LINE = -1  # line id of [CLS]/[SEP]


@dataclass(frozen=True)
class MaskingSettings:
    mask_rate: float = 0.3  # MLM: share of word sub-tokens predicted (DocPolarBERT: 30%)
    lop_rate: float = 0.3  # 1-LOP: share of words whose 1D position is hidden (DocPolarBERT: 30%)
    mask_token_share: float = 0.8  # BERT 80/10/10: chosen tokens shown as [MASK] ...
    random_token_share: float = 0.1  # ... as a random token; the rest stay unchanged
    lop_unit: str = "token"  # what local order counts inside a line: sub-tokens or words
    lop_max_order: int = 10  # orders above this are clipped (an 11-way head: classes 0..10)

    def __post_init__(self) -> None:
        for name in ("mask_rate", "lop_rate", "mask_token_share", "random_token_share"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ValueError(f"{name} must be in 0..1, got {getattr(self, name)}")
        if self.mask_token_share + self.random_token_share > 1.0:
            raise ValueError("mask_token_share + random_token_share must not exceed 1")
        if self.lop_unit not in LOP_UNITS:
            raise ValueError(f"lop_unit must be one of {LOP_UNITS}, got {self.lop_unit!r}")


@dataclass(frozen=True)
class MaskVocabulary:
    """What masking needs from the tokenizer: the [MASK] id and the ids a random replacement may take."""

    mask_id: int
    replacements: torch.Tensor  # (R,) ordinary token ids (every id but the special ones)

    @staticmethod
    def from_tokenizer(tokenizer: Any, vocab_size: int) -> MaskVocabulary:
        special = torch.tensor(sorted(set(tokenizer.all_special_ids)))
        ids = torch.arange(vocab_size)
        return MaskVocabulary(tokenizer.mask_token_id, ids[~torch.isin(ids, special)])


def local_orders(line_ids: Sequence[int], word_index: Sequence[int], unit: str = "token") -> list[int]:
    """Each token's order inside its line's run of tokens in the window (0 first), unclipped.

    A line is a run of consecutive tokens with the same line id (reading order keeps a line's words
    together). With ``unit="word"`` all sub-tokens of a word share the word's order.
    """
    orders: list[int] = []
    for t, (line, word) in enumerate(zip(line_ids, word_index)):
        if t == 0 or line == NO_LINE or line != line_ids[t - 1]:
            orders.append(0)
        elif unit == "token":
            orders.append(orders[-1] + 1)
        else:
            orders.append(orders[-1] + (word != word_index[t - 1]))
    return orders


def window_generator(seed: int, epoch: int, index: int) -> torch.Generator:
    """The random source of one window's masks in one epoch."""
    mixed = ((seed * 1_000_003 + epoch) * 1_000_003 + index) % (2**63 - 1)
    return torch.Generator().manual_seed(mixed)


def _choose(count: int, rate: float, generator: torch.Generator) -> torch.Tensor:
    """``round(rate * count)`` distinct indices in 0..count-1 (at least one when rate > 0 and count > 0)."""
    k = min(count, max(1, round(rate * count))) if rate > 0 and count > 0 else 0
    return torch.randperm(count, generator=generator)[:k]


def mask_window(example: dict[str, list], settings: MaskingSettings, vocabulary: MaskVocabulary,
                generator: torch.Generator) -> dict[str, list]:
    """The model input of one pre-training window: masked ``input_ids`` with ``labels``, ``position_mask``
    and ``lop_labels``. ``example`` is :func:`encode_for_pretraining`'s output (with ``line_ids``)."""
    ids = torch.tensor(example["input_ids"])  # (S,)
    word_index = torch.tensor(example["word_index"])  # (S,)
    maskable = (word_index != SPECIAL_WORD_INDEX).nonzero().squeeze(1)  # (M,) positions of word sub-tokens

    chosen = maskable[_choose(len(maskable), settings.mask_rate, generator)]  # (K,)
    labels = torch.full_like(ids, IGNORE_INDEX)
    labels[chosen] = ids[chosen]
    draw = torch.rand(len(chosen), generator=generator)  # (K,) which BERT replacement each chosen token gets
    masked_ids = ids.clone()
    to_mask = chosen[draw < settings.mask_token_share]
    to_random = chosen[(draw >= settings.mask_token_share)
                       & (draw < settings.mask_token_share + settings.random_token_share)]
    masked_ids[to_mask] = vocabulary.mask_id
    picks = torch.randint(len(vocabulary.replacements), (len(to_random),), generator=generator)
    masked_ids[to_random] = vocabulary.replacements[picks]

    words = torch.unique(word_index[maskable])  # (W,) the window's words
    hidden_words = words[_choose(len(words), settings.lop_rate, generator)]
    position_mask = torch.isin(word_index, hidden_words) & (word_index != SPECIAL_WORD_INDEX)  # (S,)
    orders = torch.tensor(local_orders(example["line_ids"], example["word_index"], settings.lop_unit))  # (S,)
    lop_labels = torch.where(position_mask, orders.clamp(max=settings.lop_max_order), IGNORE_INDEX)

    out = {key: example[key] for key in ("attention_mask", "bbox", "page_ids") if key in example}
    out.update(input_ids=masked_ids.tolist(), labels=labels.tolist(), position_mask=position_mask.long().tolist(),
               lop_labels=lop_labels.tolist())
    return out


class MaskedWindows(Sequence):
    """Encoded windows seen through fresh masks each epoch: ``windows[i]`` masks window i for ``epoch``.

    The training loop indexes it like a list; :meth:`set_epoch` moves it to the next epoch's masks.
    """

    def __init__(self, encoded: Sequence[dict[str, list]], settings: MaskingSettings, vocabulary: MaskVocabulary,
                 seed: int, epoch: int = 0):
        self.encoded, self.settings, self.vocabulary, self.seed, self.epoch = encoded, settings, vocabulary, seed, epoch

    def set_epoch(self, epoch: int) -> None:
        self.epoch = epoch

    def __len__(self) -> int:
        return len(self.encoded)

    def __getitem__(self, index):  # type: ignore[override]
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        return mask_window(self.encoded[index], self.settings, self.vocabulary,
                           window_generator(self.seed, self.epoch, index))
