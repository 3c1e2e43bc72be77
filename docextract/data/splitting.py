"""The fixed train/validation rule of `docextract split`, by document or by group of documents.

Documents sorted by id, every N-th to validation. Records that carry a ``group`` (the same invoice in
several renderings or profiles, see ``docextract convert einvoice``) are split as whole groups: groups are
sorted by name and every N-th group goes to validation, so no rendering of a validation invoice is trained
on. A record without a group is a group of its own (named by its id), so a file without groups splits
exactly as before.
"""

from __future__ import annotations

from typing import Sequence

from docextract.data.labelled import LabelledDocument


def split_every(docs: Sequence[LabelledDocument], every: int) -> tuple[list[LabelledDocument], list[LabelledDocument]]:
    """(train, validation): every ``every``-th group (sorted) to validation; each side sorted by id."""
    if every < 2:
        raise ValueError(f"every must be at least 2, got {every}")
    groups: dict[str, list[LabelledDocument]] = {}
    for doc in docs:
        # A record without a group is its own group; its id keys it so that it sorts as plain ids do.
        key = f"group:{doc.group}" if doc.group is not None else f"id:{doc.id}"
        groups.setdefault(key, []).append(doc)
    if all(key.startswith("id:") for key in groups):
        ordered = sorted(groups, key=lambda key: key[3:])  # the former rule: documents sorted by id
    else:
        ordered = sorted(groups, key=lambda key: min(d.id for d in groups[key]) if key.startswith("id:") else key[6:])
    train: list[LabelledDocument] = []
    val: list[LabelledDocument] = []
    for index, key in enumerate(ordered):
        (val if index % every == every - 1 else train).extend(groups[key])
    return sorted(train, key=lambda d: d.id), sorted(val, key=lambda d: d.id)
