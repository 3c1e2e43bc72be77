"""Model inputs: a window of words encoded as sub-word tokens with aligned layout, and batches of them.

Inference and training both encode through :func:`encode_words` and pad through :func:`collate`, so the
model sees identical inputs in `run` and in `finetune`. Nothing here imports the training code, nor torch unless a torch batch is asked for (:func:`collate`): a model
run by ONNX Runtime takes :func:`pad_arrays`' numpy arrays, and `run` then never imports torch.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

import numpy

from docextract.document import MODEL_GRID, Document, Window

if TYPE_CHECKING:
    import torch

IGNORE_INDEX = -100  # cross-entropy's ignore_index: no loss on this token
CLS_BOX = (0, 0, 0, 0)
SEP_BOX = (MODEL_GRID, MODEL_GRID, MODEL_GRID, MODEL_GRID)
SPECIAL_WORD_INDEX = -1  # word_index of [CLS]/[SEP]
# The value each encoded key is right-padded with; keys not listed (word_index) stay out of the batch.
PAD_VALUES = {"input_ids": 0, "attention_mask": 0, "labels": IGNORE_INDEX, "bbox": [0, 0, 0, 0], "page_ids": 0,
              "position_ids": 0, "lop_labels": IGNORE_INDEX, "position_mask": 0, "token_type_ids": 0}
# Per-window vectors that are not per token, stacked as they are: ``open_tags`` (one 0/1 per tag) marks the
# tags that a word labelled O may also be, because the window's document does not annotate their labels.
WINDOW_KEYS = ("open_tags",)


def encode_words(document: Document, window: Window, tokenizer: Any) -> dict[str, list]:
    """One unlabelled model input: ``[CLS] sub-tokens of window.words [SEP]`` with aligned layout.

    Returns lists of equal length (the token count): ``input_ids``, ``attention_mask``, ``bbox`` (0..1000
    grid of the word's page, [CLS] at 0,0,0,0 and [SEP] at 1000 x4), ``page_ids`` (index of the word's
    page in the document, 0 for special tokens) and ``word_index`` (index into ``window.words`` for
    merging predictions back, -1 for special tokens). A word the tokenizer turns into nothing gets one [UNK].
    """
    texts = [document.word(ref).text for ref in window.words]
    pieces = tokenizer(texts, add_special_tokens=False)["input_ids"] if texts else []
    out: dict[str, list] = {"input_ids": [tokenizer.cls_token_id], "bbox": [list(CLS_BOX)], "page_ids": [0],
                            "word_index": [SPECIAL_WORD_INDEX]}
    for index, (ref, ids) in enumerate(zip(window.words, pieces)):
        ids = ids or [tokenizer.unk_token_id]
        page = document.pages[ref.page_index]
        box = list(document.word(ref).box.to_grid(page.width, page.height))
        out["input_ids"].extend(ids)
        out["bbox"].extend([box] * len(ids))
        out["page_ids"].extend([ref.page_index] * len(ids))
        out["word_index"].extend([index] * len(ids))
    out["input_ids"].append(tokenizer.sep_token_id)
    out["bbox"].append(list(SEP_BOX))
    out["page_ids"].append(0)
    out["word_index"].append(SPECIAL_WORD_INDEX)
    out["attention_mask"] = [1] * len(out["input_ids"])
    return out


def pad_arrays(examples: Sequence[dict[str, list]]) -> dict[str, numpy.ndarray]:
    """Right-pad a list of encoded windows into a batch of numpy arrays (int64; ``WINDOW_KEYS`` bool)."""
    length = max(len(e["input_ids"]) for e in examples)
    batch = {}
    for key in examples[0]:
        if key in WINDOW_KEYS:
            batch[key] = numpy.array([e[key] for e in examples], dtype=bool)
            continue
        if key not in PAD_VALUES:
            continue
        pad = PAD_VALUES[key]
        rows = [list(e[key]) + [pad] * (length - len(e[key])) for e in examples]
        batch[key] = numpy.array(rows, dtype=numpy.int64)
    return batch


def collate(examples: Sequence[dict[str, list]]) -> dict[str, "torch.Tensor"]:
    """Right-pad a list of encoded windows into a batch of tensors."""
    import torch

    return {key: torch.from_numpy(value) for key, value in pad_arrays(examples).items()}
