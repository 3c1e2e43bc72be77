"""SROIE receipts -> labelled documents.

``box/NAME.txt`` has one OCR line per row, ``x1,y1,x2,y2,x3,y3,x4,y4,text`` (a quadrilateral in pixels;
the text may contain commas). ``entities/NAME.txt`` is JSON with the receipt's ``company``, ``date``,
``address`` and ``total``. There are no images, so:

* Coordinates: the quad's enclosing box, pixels taken as points (72 dpi assumed, unknown resolution).
* Page size: the bounding extent of all boxes plus :data:`PAGE_MARGIN` on the right and bottom.
* Words: each line is split on whitespace; a word's box spans the line's box horizontally in proportion
  to the word's character offsets in the line (equal-width characters), and the line's full height.
* Labels: each key's value is located among the words (see :mod:`docextract.data.matching`: compact,
  case-insensitive, spanning lines, fuzzy for OCR misreadings). Keys are placed in the order company,
  address, date, total, never on words an earlier key took. When a value occurs several times, company,
  address and date take the first occurrence; **total takes the last occurrence whose OCR line (or a line
  on the same row) contains the word TOTAL but not SUBTOTAL**, else the last occurrence. Every key is one
  entity. Unlocated values are counted per key in the report; ``fields`` keep all four values anyway.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from docextract.data.labelled import OUTSIDE, LabelledDocument
from docextract.data.matching import compact, compact_words, exact_spans, fuzzy_span
from docextract.data.report import ConvertReport, DocumentProgress, MatchTally, build_report
from docextract.document import Box, Document, Line, Page, Word
from docextract.errors import InputError

LABEL_SET = ("company", "address", "date", "total")
PAGE_MARGIN = 10.0  # points added right and below the boxes' extent to make the page
ASSUMED_DPI = 72.0  # SROIE gives no image resolution: 1 pixel = 1 point
TOTAL_KEYWORD = "total"
SUBTOTAL_KEYWORD = "subtotal"


@dataclass(frozen=True)
class OcrLine:
    text: str
    box: Box


def read_box_file(path: Path, notes: Counter) -> list[OcrLine]:
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise InputError(f"cannot read the SROIE box file: {error.strerror}", path=str(path)) from None
    try:
        content = raw.decode("utf-8")
    except UnicodeDecodeError:
        content = raw.decode("latin-1")
        notes["box files read as latin-1"] += 1
    lines: list[OcrLine] = []
    for number, row in enumerate(content.splitlines(), start=1):
        if not row.strip():
            continue
        parts = row.split(",", 8)
        try:
            coords = [float(v) for v in parts[:8]]
        except ValueError:
            raise InputError(f"line {number}: expected x1,y1,...,x4,y4,text", path=str(path)) from None
        if len(parts) < 9 or not parts[8].strip():
            notes["OCR lines without text skipped"] += 1
            continue
        xs, ys = coords[0::2], coords[1::2]
        if min(xs) < 0 or min(ys) < 0:
            notes["negative coordinates clipped to 0"] += 1
        box = Box.from_pixels(max(min(xs), 0.0), max(min(ys), 0.0), max(max(xs), 0.0), max(max(ys), 0.0), ASSUMED_DPI)
        lines.append(OcrLine(parts[8].strip(), box))
    return lines


def split_line(line: OcrLine) -> list[Word]:
    """The line's words, each with a box interpolated from its character offsets in the line."""
    words: list[Word] = []
    text, box = line.text, line.box
    length = len(text)
    offset = 0
    for token in text.split():
        start = text.index(token, offset)
        end = start + len(token)
        offset = end
        x0 = box.x0 + box.width * start / length
        x1 = box.x0 + box.width * end / length
        words.append(Word(token, Box(x0, box.top, x1, box.bottom)))
    return words


def _line_mentions_total(text: str) -> bool:
    squeezed = compact(text)
    return TOTAL_KEYWORD in squeezed and SUBTOTAL_KEYWORD not in squeezed.replace("sub total", SUBTOTAL_KEYWORD)


def _pick_total(spans: list[tuple[int, int]], line_of_word: list[int], lines: list[OcrLine]) -> tuple[int, int]:
    """The last occurrence on a row whose OCR lines mention TOTAL (not SUBTOTAL); else the last one."""
    def near_total(span: tuple[int, int]) -> bool:
        own = lines[line_of_word[span[0]]]
        return any(
            _line_mentions_total(other.text) and (other is own or other.box.vertical_overlap(own.box) > 0.5 * min(own.box.height, other.box.height))
            for other in lines
        )
    near = [span for span in spans if near_total(span)]
    return (near or spans)[-1]


def convert_receipt(box_path: Path, entities_path: Path, tally: MatchTally, notes: Counter) -> LabelledDocument:
    lines = read_box_file(box_path, notes)
    try:
        expected = json.loads(entities_path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise InputError(f"not a SROIE entities file: {error}", path=str(entities_path)) from None
    words: list[Word] = []
    line_of_word: list[int] = []
    page_lines: list[Line] = []
    for index, line in enumerate(lines):
        first = len(words)
        words.extend(split_line(line))
        line_of_word.extend([index] * (len(words) - first))
        page_lines.append(Line(tuple(range(first, len(words))), line.box))

    texts = [w.text for w in words]
    squeezed = compact_words(texts)
    labels = [OUTSIDE] * len(words)
    entities: list[int | None] = [None] * len(words)
    fields: dict[str, tuple[str, ...]] = {}
    for entity_id, key in enumerate(LABEL_SET):
        value = " ".join(str(expected.get(key) or "").split())
        if not value:
            notes[f"{key}: no value in the entities file"] += 1
            continue
        fields[key] = (value,)
        free = [span for span in exact_spans(squeezed, value) if all(labels[i] == OUTSIDE for i in range(*span))]
        if not free:
            found = fuzzy_span(texts, value)
            free = [found] if found and all(labels[i] == OUTSIDE for i in range(*found)) else []
            if free:
                notes[f"{key}: located by fuzzy match"] += 1
        if not free:
            tally.missed(key, "not found among the OCR words", f"{box_path.stem}: {value}")
            continue
        tally.found(key)
        start, end = _pick_total(free, line_of_word, lines) if key == "total" else free[0]
        for i in range(start, end):
            labels[i] = key
            entities[i] = entity_id

    if words:
        width = max(w.box.x1 for w in words) + PAGE_MARGIN
        height = max(w.box.bottom for w in words) + PAGE_MARGIN
    else:
        width = height = PAGE_MARGIN
    page = Page(number=1, width=width, height=height, words=tuple(words), text_source="ocr", lines=tuple(page_lines))
    document = Document(source=str(box_path), pages=(page,), mime_type="text/csv")
    return LabelledDocument(box_path.stem, document, (tuple(labels),), (tuple(entities),), LABEL_SET, fields)


def split_dir(src: Path, split: str) -> Path:
    if (src / "box").is_dir():
        return src
    folder = src / split
    if not (folder / "box").is_dir():
        raise InputError(f"not a SROIE folder: expected {split}/box/ or box/ inside", path=str(src), code="INPUT_NOT_FOUND")
    return folder


def convert_sroie(src: str | Path, split: str = "train", limit: int | None = None, *,
                  on_document: DocumentProgress | None = None) -> tuple[list[LabelledDocument], ConvertReport]:
    """Every receipt of a SROIE split (``src`` is the SROIE root or a split folder), sorted by name.
    ``on_document(done, total)`` after each receipt."""
    folder = split_dir(Path(src), split)
    tally, notes = MatchTally(), Counter()
    docs = []
    boxes = sorted((folder / "box").glob("*.txt"))[:limit]
    for box_path in boxes:
        entities_path = folder / "entities" / box_path.name
        if not entities_path.exists():
            raise InputError("SROIE entities file missing for this box file", path=str(entities_path), code="INPUT_NOT_FOUND")
        docs.append(convert_receipt(box_path, entities_path, tally, notes))
        if on_document:
            on_document(len(docs), len(boxes))
    return docs, build_report("sroie", split, docs, tally, notes)
