"""What a converter tells its caller: counts of what it wrote and of what it could not label."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from docextract.data.labelled import OUTSIDE, LabelledDocument

# A converter's progress: called with (documents done, documents in all) after each one (`convert`'s progress bar).
DocumentProgress = Callable[[int, int], None]

MAX_EXAMPLES = 5  # unmatched examples kept per key (enough to see why, small enough to read)


@dataclass(frozen=True)
class ConvertReport:
    """Counts for one converted split. ``unmatched`` is per key: expected values no words were found for;
    ``expected`` is per key: how many values there were to find; ``notes`` explain any repairs made."""

    dataset: str
    split: str
    documents: int
    words: int
    entities_per_label: dict[str, int]
    expected: dict[str, int] = field(default_factory=dict)
    unmatched: dict[str, int] = field(default_factory=dict)
    unmatched_reasons: dict[str, int] = field(default_factory=dict)
    unmatched_examples: dict[str, list[str]] = field(default_factory=dict)
    notes: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "dataset": self.dataset, "split": self.split, "documents": self.documents, "words": self.words,
            "entities_per_label": self.entities_per_label, "expected": self.expected,
            "unmatched": self.unmatched, "unmatched_reasons": self.unmatched_reasons,
            "unmatched_examples": self.unmatched_examples, "notes": self.notes,
        }


def count_entities(docs: Iterable[LabelledDocument]) -> Counter:
    """Entities per label: distinct (label, entity id) per document, or runs of a label where ids are absent."""
    from docextract.data.tagging import entity_spans

    counts: Counter = Counter()
    for doc in docs:
        for span in entity_spans(doc):
            counts[span.label] += 1
    return counts


@dataclass
class MatchTally:
    """Accumulates, while converting, which expected values were located and why the others were not."""

    expected: Counter = field(default_factory=Counter)
    unmatched: Counter = field(default_factory=Counter)
    reasons: Counter = field(default_factory=Counter)
    examples: dict[str, list[str]] = field(default_factory=dict)

    def found(self, key: str) -> None:
        self.expected[key] += 1

    def missed(self, key: str, reason: str, example: str) -> None:
        self.expected[key] += 1
        self.unmatched[key] += 1
        self.reasons[f"{key}: {reason}"] += 1
        shown = self.examples.setdefault(key, [])
        if len(shown) < MAX_EXAMPLES:
            shown.append(example)


def build_report(dataset: str, split: str, docs: list[LabelledDocument], tally: MatchTally | None = None,
                 notes: Counter | None = None) -> ConvertReport:
    tally = tally or MatchTally()
    entities = count_entities(docs)
    label_set = docs[0].label_set if docs else ()
    return ConvertReport(
        dataset=dataset, split=split, documents=len(docs),
        words=sum(d.document.word_count for d in docs),
        entities_per_label={label: entities.get(label, 0) for label in label_set if label != OUTSIDE},
        expected=dict(sorted(tally.expected.items())),
        unmatched={key: tally.unmatched.get(key, 0) for key in sorted(tally.expected)},
        unmatched_reasons=dict(sorted(tally.reasons.items())),
        unmatched_examples=tally.examples,
        notes=dict(sorted((notes or Counter()).items())),
    )
