"""The fixed train/validation rules of `docextract split`, by document or by invoice.

A split never puts one invoice on both sides.

* :func:`split_every`: every N-th group to validation. Records that carry a ``group`` (the same invoice in several
  renderings or profiles, see ``docextract convert einvoice``) move as whole groups, sorted by name; a record
  without a group is a group of its own, named by its id, so a file without groups splits as sorted ids.
* :func:`split_train`: a small training side of N documents (or a share of them), for finetuning on a few of one
  supplier's invoices with the rest left to measure and calibrate on. Here two records are also one invoice when
  they share a true invoice number (``fields["invoice_number"]``), the rule `calibrate` folds by
  (``training.field_judgements.document_group``): the rest never holds a number the training side has, so
  `calibrate` on it measures invoices the model did not train on. (``split_every`` keeps the group rule alone:
  the FeRD samples reuse one number for different invoices, and the shipped model's split was made without it.)
"""

from __future__ import annotations

import random
from typing import Sequence

from docextract.data.labelled import LabelledDocument

INVOICE_NUMBER = "invoice_number"


def invoice_keys(docs: Sequence[LabelledDocument], by_number: bool = True) -> list[str]:
    """Per document, the name of the invoice it shows: its ``group`` when it has one, else (``by_number``) its true
    invoice number, else its id; documents linked by a shared group or (``by_number``) a shared invoice number get
    the same name (the smallest)."""
    parent = list(range(len(docs)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    first_of: dict[str, int] = {}
    for i, doc in enumerate(docs):
        links = [f"group:{doc.group}"] if doc.group is not None else []
        links += [f"{INVOICE_NUMBER}:{number}" for number in _invoice_numbers(doc)] if by_number else []
        for link in links:
            j = first_of.setdefault(link, i)
            parent[find(i)] = find(j)
    own = [f"group:{d.group}" if d.group is not None else
           (f"{INVOICE_NUMBER}:{'|'.join(_invoice_numbers(d))}" if by_number and _invoice_numbers(d) else f"id:{d.id}")
           for d in docs]
    names: dict[int, str] = {}
    for i in range(len(docs)):
        root = find(i)
        names[root] = min(names.get(root, own[i]), own[i])
    return [names[find(i)] for i in range(len(docs))]


def _invoice_numbers(doc: LabelledDocument) -> list[str]:
    """The document's true invoice numbers, compared as `calibrate` compares them (spaces out, case folded)."""
    return sorted({"".join(v.split()).casefold() for v in doc.fields.get(INVOICE_NUMBER, ()) if v.strip()})


def _invoices(docs: Sequence[LabelledDocument], by_number: bool) -> dict[str, list[LabelledDocument]]:
    invoices: dict[str, list[LabelledDocument]] = {}
    for doc, key in zip(docs, invoice_keys(docs, by_number)):
        invoices.setdefault(key, []).append(doc)
    return invoices


def _sort_key(key: str, members: Sequence[LabelledDocument]) -> str:
    """Groups sort by name; a document without a group by its id (so plain files split as ids sort)."""
    return key.split(":", 1)[1] if key.startswith("group:") else min(d.id for d in members)


def split_every(docs: Sequence[LabelledDocument], every: int) -> tuple[list[LabelledDocument], list[LabelledDocument]]:
    """(train, validation): every ``every``-th group (sorted) to validation; each side sorted by id."""
    if every < 2:
        raise ValueError(f"every must be at least 2, got {every}")
    invoices = _invoices(docs, by_number=False)
    ordered = sorted(invoices, key=lambda key: _sort_key(key, invoices[key]))
    train: list[LabelledDocument] = []
    val: list[LabelledDocument] = []
    for index, key in enumerate(ordered):
        (val if index % every == every - 1 else train).extend(invoices[key])
    return sorted(train, key=lambda d: d.id), sorted(val, key=lambda d: d.id)


def split_train(docs: Sequence[LabelledDocument], size: float, seed: int | None = None
                ) -> tuple[list[LabelledDocument], list[LabelledDocument]]:
    """(train, rest): whole invoices, taken in order (sorted by name, or shuffled with ``seed``) while they fit, until
    the training side holds ``size`` documents (``size`` below 1: that share of them, rounded, at least one). An
    invoice larger than what is left is skipped for a later, smaller one; when none fits at all, the first invoice
    alone is taken. Each side sorted by id."""
    if size <= 0:
        raise ValueError(f"the training side needs a positive size, got {size}")
    target = max(1, round(size * len(docs))) if size < 1 else int(size)
    invoices = _invoices(docs, by_number=True)
    ordered = sorted(invoices, key=lambda key: _sort_key(key, invoices[key]))
    if seed is not None:
        random.Random(seed).shuffle(ordered)
    chosen: list[str] = []
    count = 0
    for key in ordered:
        if count + len(invoices[key]) <= target:
            chosen.append(key)
            count += len(invoices[key])
        if count == target:
            break
    if not chosen and ordered:
        chosen = [ordered[0]]
    taken = set(chosen)
    train = [d for key in chosen for d in invoices[key]]
    rest = [d for key in ordered if key not in taken for d in invoices[key]]
    return sorted(train, key=lambda d: d.id), sorted(rest, key=lambda d: d.id)
