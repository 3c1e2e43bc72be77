"""A document with word-level entity labels, and the JSONL file format that stores them.

The format is documented in ``docs/labelled-format.md``: ``Document.to_dict()`` plus, on each word, an
optional ``label`` (entity type) and ``entity`` (an integer grouping the words of one entity), and on
the record ``id``, ``label_set`` and ``fields``. Writing then reading gives back an equal object.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping, Sequence

from docextract.data.jsonl import jsonl_lines
from docextract.document import Document, WordRef
from docextract.errors import InputError
from docextract.files import atomic_writer

OUTSIDE = "O"  # the label of a word outside every entity


@dataclass(frozen=True)
class LabelledDocument:
    """A document and, for every word of every page (aligned with ``Page.words``), its label and entity id.

    ``labels[p][w]`` is the entity type of word ``w`` on page index ``p`` (``"O"`` outside entities);
    ``entities[p][w]`` groups the words of one entity (None: consecutive words with the same label in
    reading order form one entity). ``fields`` are document-level expected values (key -> values).
    ``group`` names what the document is a copy of (one invoice in several renderings): a split keeps a
    group on one side; None: the document is its own group. ``producer`` names the software whose layout the
    page has (a renderer of ``docextract render``), for leave-one-producer-out evaluation; None: not known.
    """

    id: str
    document: Document
    labels: tuple[tuple[str, ...], ...]
    entities: tuple[tuple[int | None, ...], ...]
    label_set: tuple[str, ...]
    fields: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    group: str | None = None
    producer: str | None = None

    def __post_init__(self) -> None:
        pages = self.document.pages
        if len(self.labels) != len(pages) or len(self.entities) != len(pages):
            raise ValueError(f"{self.id}: labels/entities need one row per page ({len(pages)} pages)")
        for page, labels, entities in zip(pages, self.labels, self.entities):
            if len(labels) != len(page.words) or len(entities) != len(page.words):
                raise ValueError(f"{self.id}: page {page.number} has {len(page.words)} words but "
                                 f"{len(labels)} labels and {len(entities)} entity ids")

    def label(self, ref: WordRef) -> str:
        return self.labels[ref.page_index][ref.word_index]

    def entity(self, ref: WordRef) -> int | None:
        return self.entities[ref.page_index][ref.word_index]

    def with_document(self, document: Document) -> LabelledDocument:
        """The same labels on a re-ordered document (same words per page, e.g. after augmentation)."""
        return LabelledDocument(self.id, document, self.labels, self.entities, self.label_set, self.fields, self.group,
                                 self.producer)

    def renamed(self, mapping: Mapping[str, str]) -> LabelledDocument:
        """The same document with labels (and ``label_set`` and ``fields`` keys) renamed by ``mapping``
        (old -> new; labels it does not name stay), e.g. SROIE's ``company`` as the invoice model's ``vendor_name``."""
        def new(label: str) -> str:
            return mapping.get(label, label)

        labels = tuple(tuple(new(label) for label in page) for page in self.labels)
        fields = {new(key): values for key, values in self.fields.items()}
        return LabelledDocument(self.id, self.document, labels, self.entities,
                                tuple(dict.fromkeys(new(label) for label in self.label_set)), fields, self.group,
                                self.producer)

    # ---- the JSONL record ----

    def to_dict(self) -> dict[str, Any]:
        data = self.document.to_dict()
        for page, labels, entities in zip(data["pages"], self.labels, self.entities):
            for word, label, entity in zip(page["words"], labels, entities):
                if label != OUTSIDE:
                    word["label"] = label
                if entity is not None:
                    word["entity"] = entity
        record: dict[str, Any] = {"id": self.id, "label_set": list(self.label_set)}
        record.update(data)
        if self.fields:
            record["fields"] = {key: list(values) for key, values in self.fields.items()}
        if self.group is not None:
            record["group"] = self.group
        if self.producer is not None:
            record["producer"] = self.producer
        return record

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> LabelledDocument:
        document = Document.from_dict(dict(data))
        labels = tuple(tuple(w.get("label") or OUTSIDE for w in p["words"]) for p in data["pages"])
        entities = tuple(
            tuple(None if w.get("entity") is None else int(w["entity"]) for w in p["words"]) for p in data["pages"]
        )
        fields = {str(k): tuple(str(v) for v in values) for k, values in (data.get("fields") or {}).items()}
        return LabelledDocument(
            id=str(data["id"]), document=document, labels=labels, entities=entities,
            label_set=tuple(data.get("label_set", ())), fields=fields,
            group=None if data.get("group") is None else str(data["group"]),
            producer=None if data.get("producer") is None else str(data["producer"]),
        )


def read_jsonl(path: str | Path) -> Iterator[LabelledDocument]:
    """Every record of a labelled JSONL file, in order. A file that is not JSONL, or a malformed line, raises
    InputError naming the file (and the line)."""
    path = Path(path)
    for line_number, line in jsonl_lines(path):
        try:
            yield LabelledDocument.from_dict(json.loads(line))
        except (ValueError, KeyError, TypeError) as error:
            raise InputError(
                f"line {line_number}: not a labelled document record ({type(error).__name__}: {error}); "
                "run `docextract validate` for every defect", path=str(path),
            ) from None


def load_documents(files: Sequence[Path], limit: int | None = None) -> list[LabelledDocument]:
    """The labelled documents of ``files`` in order, at most ``limit`` of each file."""
    docs: list[LabelledDocument] = []
    for path in files:
        for i, doc in enumerate(read_jsonl(path)):
            if limit is not None and i >= limit:
                break
            docs.append(doc)
    return docs


def write_jsonl(docs: Iterable[LabelledDocument], path: str | Path) -> int:
    """Write the records atomically (streamed through :func:`docextract.files.atomic_writer`). Returns the count."""
    count = 0
    with atomic_writer(path) as handle:
        for doc in docs:
            handle.write((json.dumps(doc.to_dict(), ensure_ascii=False) + "\n").encode("utf-8"))
            count += 1
    return count

