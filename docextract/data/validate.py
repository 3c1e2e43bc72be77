"""Labelled-data validation: every defect named by file, record and field, before any training starts.

It reads the JSONL records as raw JSON (not through :class:`LabelledDocument`), so that a record too
broken to load is still reported field by field instead of stopping at the first exception. Defects
that would surface much later as opaque errors inside a model: boxes outside
the page, inverted or with NaN coordinates, labels outside the label set, boxes that are not 4 numbers,
line/block indices that point nowhere, empty documents, duplicate ids, and documents that also appear in
the held-out split (same words and boxes). Classes with no example at all are warnings.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Sequence

from docextract.data.jsonl import jsonl_lines
from docextract.data.labelled import OUTSIDE

BOX_TOLERANCE = 0.01  # points a box may pass the page edge by (float rounding of converted pixels)
HASH_DECIMALS = 2  # box coordinates are rounded to 1/100 point before hashing a document's content
ERROR, WARNING = "error", "warning"


@dataclass(frozen=True)
class Issue:
    severity: str  # "error" or "warning"
    file: str
    line: int | None  # 1-based line of the JSONL file; None for data-set-wide issues
    record_id: str | None
    field: str  # e.g. "pages[0].words[12].box"
    message: str

    def __str__(self) -> str:
        where = self.file + (f":{self.line}" if self.line is not None else "")
        record = f" record {self.record_id!r}" if self.record_id is not None else ""
        return f"{self.severity}: {where}:{record} {self.field}: {self.message}"


@dataclass(frozen=True)
class _Record:
    file: str
    line: int
    id: str | None
    content_hash: str | None
    labels: Counter
    label_set: tuple[str, ...]


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


class _Checker:
    def __init__(self, file: str, line: int, record_id: str | None) -> None:
        self.file, self.line, self.record_id = file, line, record_id
        self.issues: list[Issue] = []

    def error(self, field: str, message: str, severity: str = ERROR) -> None:
        self.issues.append(Issue(severity, self.file, self.line, self.record_id, field, message))


def _check_box(check: _Checker, field: str, box: Any, width: float | None, height: float | None) -> bool:
    if not isinstance(box, list) or len(box) != 4 or not all(_is_number(v) for v in box):
        size = len(box) if isinstance(box, list) else type(box).__name__
        check.error(field, f"must be 4 numbers [x0, top, x1, bottom], got {size}")
        return False
    if any(math.isnan(v) or math.isinf(v) for v in box):
        check.error(field, f"NaN or infinite coordinate {box}")
        return False
    x0, top, x1, bottom = box
    if x1 < x0 or bottom < top:
        check.error(field, f"inverted box {box}: x1 < x0 or bottom < top")
    if width is not None and height is not None and (
        x0 < -BOX_TOLERANCE or top < -BOX_TOLERANCE or x1 > width + BOX_TOLERANCE or bottom > height + BOX_TOLERANCE
    ):
        check.error(field, f"box {box} outside the {width} x {height} page")
    return True


def _check_record(check: _Checker, data: Any) -> tuple[str | None, Counter, tuple[str, ...]]:
    """Checks one record; returns its content hash, label counts and label set."""
    labels: Counter = Counter()
    if not isinstance(data, dict):
        check.error("(record)", f"must be a JSON object, got {type(data).__name__}")
        return None, labels, ()
    if not isinstance(data.get("id"), str) or not data.get("id"):
        check.error("id", "missing or not a non-empty string")
    label_set = data.get("label_set")
    if not isinstance(label_set, list) or not all(isinstance(v, str) for v in label_set):
        check.error("label_set", "missing or not a list of strings")
        label_set = []
    allowed = set(label_set) | {OUTSIDE}
    pages = data.get("pages")
    if not isinstance(pages, list):
        check.error("pages", "missing or not a list")
        return None, labels, tuple(label_set)
    content: list[Any] = []
    word_total = 0
    for p, page in enumerate(pages):
        where = f"pages[{p}]"
        if not isinstance(page, dict):
            check.error(where, "must be an object")
            continue
        width, height = page.get("width"), page.get("height")
        if not (_is_number(width) and _is_number(height) and math.isfinite(width) and math.isfinite(height)
                and width > 0 and height > 0):
            check.error(f"{where}.width/height", f"page size must be positive numbers, got {width} x {height}")
            width = height = None
        words = page.get("words")
        if not isinstance(words, list):
            check.error(f"{where}.words", "missing or not a list")
            continue
        word_total += len(words)
        entity_label: dict[Any, str] = {}
        for w, word in enumerate(words):
            field = f"{where}.words[{w}]"
            if not isinstance(word, dict):
                check.error(field, "must be an object")
                continue
            if not isinstance(word.get("text"), str):
                check.error(f"{field}.text", "missing or not a string")
            if _check_box(check, f"{field}.box", word.get("box"), width, height):
                content.append([word.get("text"), [round(v, HASH_DECIMALS) for v in word["box"]]])
            label = word.get("label") or OUTSIDE
            if label not in allowed:
                check.error(f"{field}.label", f"{label!r} is not in the label set {sorted(label_set)}")
            labels[label] += 1
            entity = word.get("entity")
            if entity is not None:
                if not isinstance(entity, int) or isinstance(entity, bool):
                    check.error(f"{field}.entity", f"must be an integer, got {entity!r}")
                elif entity_label.setdefault(entity, label) != label:
                    check.error(f"{field}.label", f"entity {entity} mixes labels {entity_label[entity]!r} and {label!r}")
        _check_structure(check, where, page, len(words))
    if word_total == 0:
        check.error("pages", "empty document: no words on any page")
    fields = data.get("fields")
    if fields is not None and not (isinstance(fields, dict) and all(
            isinstance(v, list) and all(isinstance(s, str) for s in v) for v in fields.values())):
        check.error("fields", "must map each key to a list of strings")
    for key in ("group", "producer"):  # optional: what the document is a rendering of, whose layout it has
        if key in data and data[key] is not None and not (isinstance(data[key], str) and data[key].strip()):
            check.error(key, f"must be a non-empty string when present, got {data[key]!r}")
    digest = hashlib.sha256(json.dumps(content, ensure_ascii=False).encode("utf-8")).hexdigest() if content else None
    return digest, labels, tuple(label_set)


def _check_structure(check: _Checker, where: str, page: dict, word_count: int) -> None:
    """Lines must point at words, blocks at lines, and block_order must be a permutation of the blocks."""
    lines = page.get("lines") or []
    blocks = page.get("blocks") or []
    for i, line in enumerate(lines):
        indices = line.get("words") if isinstance(line, dict) else None
        if not isinstance(indices, list) or any(not isinstance(v, int) or not 0 <= v < word_count for v in indices):
            check.error(f"{where}.lines[{i}].words", f"word indices must be in 0..{word_count - 1}")
    for i, block in enumerate(blocks):
        indices = block.get("lines") if isinstance(block, dict) else None
        if not isinstance(indices, list) or any(not isinstance(v, int) or not 0 <= v < len(lines) for v in indices):
            check.error(f"{where}.blocks[{i}].lines", f"line indices must be in 0..{len(lines) - 1}")
    order = page.get("block_order") or []
    if order and sorted(order) != list(range(len(blocks))):
        check.error(f"{where}.block_order", f"length/values mismatch: {len(order)} entries for {len(blocks)} blocks, "
                                            "must be a permutation of the block indices")


def _scan(path: Path) -> tuple[list[_Record], list[Issue]]:
    """The file's records and their defects; a file that is not JSONL at all is an InputError (jsonl_lines)."""
    records: list[_Record] = []
    issues: list[Issue] = []
    for number, text in jsonl_lines(path):
        try:
            data = json.loads(text)
        except ValueError as error:
            issues.append(Issue(ERROR, str(path), number, None, "(line)", f"not JSON: {error}"))
            continue
        record_id = data.get("id") if isinstance(data, dict) and isinstance(data.get("id"), str) else None
        check = _Checker(str(path), number, record_id)
        digest, labels, label_set = _check_record(check, data)
        issues.extend(check.issues)
        records.append(_Record(str(path), number, record_id, digest, labels, label_set))
    if not records and not issues:
        issues.append(Issue(ERROR, str(path), None, None, "(file)", "no records"))
    return records, issues


def validate_files(files: Sequence[str | Path], held_out: Sequence[str | Path] = ()) -> list[Issue]:
    """Every defect of the training ``files``, and of ``held_out`` (test/eval) files, with their leakage.

    Errors: per-record defects, ids used twice anywhere, and training records whose words and boxes
    equal a held-out record's. Warnings: a label of the label set with no example in the training
    files, label sets that differ between files, and identical documents within the training files.
    """
    issues: list[Issue] = []
    train: list[_Record] = []
    test: list[_Record] = []
    for group, paths in ((train, files), (test, held_out)):
        for path in paths:
            records, found = _scan(Path(path))
            group.extend(records)
            issues.extend(found)
    issues.extend(_duplicate_ids(train + test))
    issues.extend(_leakage(train, test))
    issues.extend(_label_coverage(train, files))
    return issues


def _duplicate_ids(records: Iterable[_Record]) -> list[Issue]:
    first: dict[str, _Record] = {}
    issues = []
    for record in records:
        if record.id is None:
            continue
        if record.id in first:
            seen = first[record.id]
            issues.append(Issue(ERROR, record.file, record.line, record.id, "id",
                                f"duplicate id, first used at {seen.file}:{seen.line}"))
        else:
            first[record.id] = record
    return issues


def _leakage(train: list[_Record], test: list[_Record]) -> list[Issue]:
    issues = []
    held: dict[str, _Record] = {r.content_hash: r for r in test if r.content_hash}
    seen: dict[str, _Record] = {}
    for record in train:
        if not record.content_hash:
            continue
        if record.content_hash in held:
            other = held[record.content_hash]
            issues.append(Issue(ERROR, record.file, record.line, record.id, "pages",
                                f"same words and boxes as held-out record {other.id!r} at {other.file}:{other.line} (train/test leakage)"))
        if record.content_hash in seen:
            other = seen[record.content_hash]
            issues.append(Issue(WARNING, record.file, record.line, record.id, "pages",
                                f"same words and boxes as record {other.id!r} at {other.file}:{other.line}"))
        seen.setdefault(record.content_hash, record)
    return issues


def _label_coverage(train: list[_Record], files: Sequence[str | Path]) -> list[Issue]:
    if not train:
        return []
    issues = []
    label_sets = {r.label_set for r in train}
    if len(label_sets) > 1:
        shown = sorted(map(list, label_sets)) if len(label_sets) <= 3 else (
            f"{len(label_sets)} different sets, together {sorted(set().union(*label_sets))}")
        issues.append(Issue(WARNING, str(files[0]), None, None, "label_set",
                            f"files disagree on the label set: {shown}"))
    counts: Counter = Counter()
    for record in train:
        counts.update(record.labels)
    for label in sorted(set().union(*label_sets)):
        if counts[label] == 0:
            issues.append(Issue(WARNING, ", ".join(map(str, files)), None, None, "label_set",
                                f"class {label!r} has zero examples in the training files"))
    return issues


def errors(issues: Iterable[Issue]) -> list[Issue]:
    return [issue for issue in issues if issue.severity == ERROR]
