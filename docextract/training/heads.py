"""Which tags a finetuned model predicts: the starting model's head, kept and grown, or a new one.

A model folder with a trained token-classification head (a shipped model, a finetune's output) keeps its tags in
their order and their classifier rows: labels the new documents do not annotate are masked in the loss for them
(``open_tags``, the partial-label loss of :mod:`docextract.modeling.heads`), never taught as O, so the model keeps
reading them. A label the head lacks is appended (its rows start untrained) and said. Only ``new_head`` (or a
start without a head: a preset, a pretrained encoder) builds the head from the data's labels.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from docextract.data.tagging import labels_for
from docextract.errors import UsageError
from docextract.extraction.entities import split_tag


@dataclass(frozen=True)
class LabelPlan:
    labels: list[str]  # the tags the finetuned model predicts, in the head's order
    kept: int  # leading tags whose classifier rows come from the starting model (0: a new head)
    added: list[str]  # entity labels appended to a kept head
    message: str  # one line for the log: what happened to the head


def head_tags(config: Any, scheme: str) -> list[str] | None:
    """The tags of a trained token-classification head in ``config`` (O first, then ``scheme`` tags), or None for
    a model without one (a pretrained encoder's placeholder labels)."""
    id2label: Mapping[Any, str] = getattr(config, "id2label", None) or {}
    tags = [id2label.get(i, id2label.get(str(i))) for i in range(len(id2label))]
    if not tags or tags[0] != "O" or any(tag is None for tag in tags):
        return None
    prefixes = "BI" if scheme == "BIO" else "BIES"
    for tag in tags[1:]:
        prefix, label = split_tag(tag)
        if label is None or prefix not in prefixes:
            return None
    return list(tags)


def entity_labels(tags: Sequence[str]) -> list[str]:
    """The entity labels of a tag list, in first-seen order."""
    return list(dict.fromkeys(label for label in (split_tag(t)[1] for t in tags) if label is not None))


def plan_labels(model_tags: Sequence[str] | None, data_labels: Sequence[str], scheme: str, new_head: bool,
                model_name: str, new_labels: Sequence[str] | None = None) -> LabelPlan:
    """The tags to train: ``model_tags`` (the starting head, None: none) kept and grown by the labels of
    ``data_labels`` it lacks, or, with ``new_head`` or without a head, the data's own. ``new_labels``: the labels
    the new documents annotate (default ``data_labels``; a replay may annotate more), for the log."""
    data_tags = labels_for(data_labels, scheme)
    if model_tags is None or new_head:
        why = "--new-head" if model_tags is not None else f"{model_name} has no trained head"
        return LabelPlan(data_tags, 0, [], f"a new head for the data's {len(data_labels)} labels ({why})")
    known = entity_labels(model_tags)
    added = [label for label in data_labels if label not in known]
    if not set(data_labels) & set(known):
        raise UsageError(
            f"the training data shares no label with {model_name} (its labels: {', '.join(known)}; the data's: "
            f"{', '.join(data_labels)}): rename them with --label-map, or start a head for the data's labels with "
            "--new-head (the model's own head is then replaced)")
    labels = list(model_tags) + labels_for(added, scheme)[1:]
    message = f"keeping {model_name}'s head ({len(known)} labels)"
    annotated = set(data_labels if new_labels is None else new_labels)
    unannotated = [label for label in known if label not in annotated]
    if unannotated:
        message += (f"; {len(unannotated)} labels the new documents do not annotate are masked for them, not taught "
                    f"as O: {', '.join(unannotated)}")
    if added:
        message += f"; the head grows by {len(added)} label(s) it lacks, untrained so far: {', '.join(added)}"
    return LabelPlan(labels, len(model_tags), added, message)


def grow_classifier(model, labels: Sequence[str], kept: int) -> None:
    """Give ``model`` a classifier for ``labels`` whose first ``kept`` rows are its current ones (the rest start
    as a fresh layer of the model's initialisation would); ``kept`` 0 replaces it whole."""
    import torch

    old = model.classifier
    if kept == old.out_features == len(labels):
        pass
    else:
        fresh = torch.nn.Linear(old.in_features, len(labels))
        model._init_weights(fresh)
        with torch.no_grad():
            fresh.weight[:kept] = old.weight[:kept]
            fresh.bias[:kept] = old.bias[:kept]
        model.classifier = fresh
    model.num_labels = model.config.num_labels = len(labels)
    model.config.id2label = dict(enumerate(labels))
    model.config.label2id = {tag: i for i, tag in enumerate(labels)}
