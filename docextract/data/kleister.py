"""Kleister-NDA (US SEC non-disclosure agreements) -> labelled documents.

``expected.tsv`` holds one line per document, ``key=Value_With_Underscores`` pairs (keys
``effective_date`` as ISO ``YYYY-MM-DD``, ``jurisdiction``, ``party`` (repeatable) and ``term`` like
``3_years``); ``in.tsv.xz`` holds, in the same order, the PDF's file name and four text extractions.
Underscores in values stand for spaces.

Values are located as word spans by their surface forms (:func:`locate_value`):

* ``effective_date``: any span of up to :data:`MAX_DATE_WORDS` words ending at or containing the year
  that python-dateutil parses (fuzzily: ``1st day of May, 2019``) to the same year, month *and* day
  (parsed twice with different defaults, so a component missing from the text cannot match by chance);
* ``term``: the number as digits, as words, or both (``three (3) years``), singular or plural unit
  (``three-year``), and the same length in months when given in years (and the reverse);
* ``party``, ``jurisdiction``: the value compared compactly (case, spacing and punctuation ignored), also
  with ``&`` for ``and`` and the company suffix spelled out or abbreviated (``Inc.`` / ``Incorporated``).

Every occurrence found is labelled, each as its own entity (a document-level key is extracted from
whichever occurrence the model finds). ``fields`` keep every expected value, located or not.
The words with their boxes come from the PDFs through docextract's own reader
(``docextract.readers.read_document``); :func:`text_match_report` measures the matching on the data
set's own text columns without reading any PDF.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import lzma
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from dateutil import parser as date_parser

from docextract.data.labelled import OUTSIDE, LabelledDocument
from docextract.data.matching import compact_words, exact_spans
from docextract.data.report import ConvertReport, DocumentProgress, MatchTally, build_report
from docextract.document import Document
from docextract.errors import InputError, MissingDependencyError

LABEL_SET = ("effective_date", "jurisdiction", "party", "term")
TEXT_COLUMNS = ("text_djvu", "text_tesseract", "text_textract", "text_best")
MAX_DATE_WORDS = 6  # "the 1st day of May, 2019" is 6 words
_TWO_DIGIT_YEAR_DATE = re.compile(r"^\d{1,2}[/.\-]\d{1,2}[/.\-]\d{2}\W*$")
# Company suffixes as abbreviated in the values and as spelled in agreements ("Escalade, Incorporated")
COMPANY_SUFFIXES = (("inc", "incorporated"), ("corp", "corporation"), ("co", "company"), ("ltd", "limited"))
_DEFAULTS = (dt.datetime(1, 1, 1), dt.datetime(2, 2, 2))  # two defaults: a component must come from the text

_UNITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
          "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
_TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


@dataclass(frozen=True)
class KleisterRecord:
    filename: str
    expected: tuple[tuple[str, str], ...]  # (key, value with spaces), in file order
    texts: dict[str, str]  # text column -> text (literal "\n" escapes turned into newlines)


def number_words(n: int) -> str | None:
    """English words for 0..99 (``36`` -> ``thirty-six``), None beyond."""
    if 0 <= n < 20:
        return _UNITS[n]
    if 20 <= n < 100:
        tens, units = divmod(n, 10)
        return _TENS[tens] + ("" if units == 0 else "-" + _UNITS[units])
    return None


def read_records(folder: Path) -> list[KleisterRecord]:
    expected_path, input_path = folder / "expected.tsv", folder / "in.tsv.xz"
    header_path = next((p for p in (folder / "in-header.tsv", folder.parent / "in-header.tsv") if p.exists()), None)
    for path in (expected_path, input_path, header_path):
        if path is None or not path.exists():
            raise InputError("Kleister folder needs expected.tsv, in.tsv.xz and in-header.tsv",
                             path=str(path or folder / "in-header.tsv"), code="INPUT_NOT_FOUND")
    columns = header_path.read_text(encoding="utf-8").strip("\n").split("\t")
    expected_lines = expected_path.read_text(encoding="utf-8").splitlines()
    with lzma.open(input_path, "rt", encoding="utf-8") as handle:
        input_lines = handle.read().splitlines()
    if len(expected_lines) != len(input_lines):
        raise InputError(f"{len(expected_lines)} expected lines but {len(input_lines)} input lines", path=str(folder))
    records = []
    for expected, row in zip(expected_lines, input_lines):
        cells = dict(zip(columns, row.split("\t")))
        pairs = tuple(
            (key, value.replace("_", " ")) for key, _, value in (item.partition("=") for item in expected.split()) if value
        )
        texts = {c: cells.get(c, "").replace("\\n", "\n") for c in TEXT_COLUMNS}
        records.append(KleisterRecord(cells["filename"], pairs, texts))
    return records


def _same_date(text: str, target: dt.date) -> bool:
    text = text.replace(",", ", ")  # "December 11,2014": dateutil needs the space
    try:
        parsed = [date_parser.parse(text, fuzzy=True, default=default) for default in _DEFAULTS]
    except (ValueError, OverflowError, TypeError):
        return False
    return parsed[0] == parsed[1] and parsed[0].date() == target


def date_spans(words: Sequence[str], iso_value: str) -> list[tuple[int, int]]:
    """Spans (shortest first per year mention) whose text parses to the date ``YYYY-MM-DD``."""
    try:
        target = dt.date.fromisoformat(iso_value.strip())
    except ValueError:
        return []
    year = str(target.year)
    spans: list[tuple[int, int]] = []
    for end, word in enumerate(words):
        if year not in word and not _TWO_DIGIT_YEAR_DATE.match(word):
            continue
        for start in range(end, max(-1, end - MAX_DATE_WORDS), -1):
            if _same_date(" ".join(words[start:end + 1]), target):
                if not spans or spans[-1][1] <= start:
                    spans.append((start, end + 1))
                break
    return spans


def term_surface_forms(value: str) -> list[str]:
    """``3 years`` -> ``3 years``, ``three years``, ``three (3) years``, ``3 year``, ..., ``36 months``."""
    parts = value.split()
    if len(parts) != 2:
        return [value]
    amount_text, unit = parts[0], parts[1].lower().rstrip("s")
    try:
        amount = float(amount_text)
    except ValueError:
        return [value]
    lengths = [(amount, unit)]
    if unit == "year":
        lengths.append((amount * 12, "month"))
    elif unit == "month" and amount % 12 == 0:
        lengths.append((amount / 12, "year"))
    forms = []
    for n, u in lengths:
        digits = f"{int(n)}" if n == int(n) else f"{n}"
        numbers = [digits]
        words = number_words(int(n)) if n == int(n) else None
        if words:
            numbers += [words, f"{words} ({digits})"]
        for number in numbers:
            forms += [f"{number} {u}s", f"{number} {u}"]
    return forms


def name_surface_forms(value: str) -> list[str]:
    """A party or place as written: also with ``&`` for ``and`` and the company suffix spelled out or cut short."""
    forms = [value]
    if " and " in value:
        forms.append(value.replace(" and ", " & "))
    for form in list(forms):
        *head, last = form.split()
        for short, long in COMPANY_SUFFIXES:
            if head and last.rstrip(".").lower() == short:
                forms.append(" ".join(head + [long]))
            elif head and last.lower() == long:
                forms.append(" ".join(head + [short]))
    return forms


def locate_value(words: Sequence[str], key: str, value: str) -> tuple[list[tuple[int, int]], str | None]:
    """Word spans of ``value`` among ``words``, and why none were found (None when some were)."""
    if not words:
        return [], "no text"
    if key == "effective_date":
        spans = date_spans(words, value)
        return spans, None if spans else "no date in the text parses to this day"
    squeezed = compact_words(words)
    forms = term_surface_forms(value) if key == "term" else name_surface_forms(value)
    spans = sorted({span for form in forms for span in exact_spans(squeezed, form)})
    # keep the longest of overlapping forms ("three (3) years" over "3 years")
    kept: list[tuple[int, int]] = []
    for span in sorted(spans, key=lambda s: (s[0], -s[1])):
        if kept and span[0] < kept[-1][1]:
            continue
        kept.append(span)
    return kept, None if kept else ("no surface form of the term in the text" if key == "term" else "value not in the text")


def label_words(words: Sequence[str], expected: Sequence[tuple[str, str]], tally: MatchTally, name: str
                ) -> tuple[list[str], list[int | None]]:
    """Labels and entity ids for ``words`` (reading order) from the expected (key, value) pairs."""
    labels: list[str] = [OUTSIDE] * len(words)
    entities: list[int | None] = [None] * len(words)
    next_entity = 0
    for key, value in expected:
        spans, reason = locate_value(words, key, value)
        if reason:
            tally.missed(key, reason, f"{name}: {value}")
            continue
        tally.found(key)
        for start, end in spans:
            if any(labels[i] != OUTSIDE for i in range(start, end)):
                continue  # an earlier key holds these words (e.g. a party name inside another)
            for i in range(start, end):
                labels[i], entities[i] = key, next_entity
            next_entity += 1
    return labels, entities


def text_match_report(src: str | Path, column: str = "text_best") -> dict:
    """How many expected values the matcher locates in one of the data set's own text columns."""
    tally = MatchTally()
    records = read_records(split_dir(Path(src)))
    for record in records:
        words = record.texts[column].split()
        label_words(words, record.expected, tally, record.filename)
    return {
        "column": column, "documents": len(records), "expected": dict(sorted(tally.expected.items())),
        "unmatched": {k: tally.unmatched.get(k, 0) for k in sorted(tally.expected)},
        "unmatched_reasons": dict(sorted(tally.reasons.items())), "unmatched_examples": tally.examples,
    }


def default_reader() -> Callable[[Path], Document]:
    try:
        from docextract.readers import read_document
    except ImportError:
        raise MissingDependencyError(
            "converting Kleister-NDA reads its PDFs with docextract.readers, which this build does not have yet"
        ) from None
    return read_document


def clipped_to_pages(document: Document) -> tuple[Document, int]:
    """``document`` with every word box clipped to its page, and how many were clipped. pdfplumber reads
    glyphs that overhang the margin a few points past the page edge; labelled data keeps boxes on the page."""
    clipped, pages = 0, []
    for page in document.pages:
        words = []
        for word in page.words:
            box = word.box.clipped(page.width, page.height)
            clipped += box != word.box
            words.append(word if box == word.box else dataclasses.replace(word, box=box))
        pages.append(page.replace(words=tuple(words)))
    return dataclasses.replace(document, pages=tuple(pages)), clipped


def split_dir(src: Path) -> Path:
    if (src / "expected.tsv").exists():
        return src
    if (src / "train" / "expected.tsv").exists():
        return src / "train"
    raise InputError("not a Kleister-NDA folder: expected train/expected.tsv or expected.tsv inside",
                     path=str(src), code="INPUT_NOT_FOUND")


def convert_kleister(src: str | Path, read_document: Callable[[Path], Document] | None = None,
                     limit: int | None = None, *, on_document: DocumentProgress | None = None
                     ) -> tuple[list[LabelledDocument], ConvertReport]:
    """Every PDF of the split with ``expected.tsv`` (only ``train`` has one), words from ``read_document``.
    ``on_document(done, total)`` after each PDF (3 minutes for the 254 of train)."""
    folder = split_dir(Path(src))
    read_document = read_document or default_reader()
    tally, notes = MatchTally(), Counter()
    docs = []
    records = read_records(folder)[:limit]
    for record in records:
        document, clipped = clipped_to_pages(read_document(folder / "documents" / record.filename))
        if clipped:
            notes["boxes clipped to the page"] += clipped
        order = document.ordered_words()
        labels, entities = label_words([document.word(ref).text for ref in order], record.expected, tally, record.filename)
        page_labels = [[OUTSIDE] * len(p.words) for p in document.pages]
        page_entities: list[list[int | None]] = [[None] * len(p.words) for p in document.pages]
        for ref, label, entity in zip(order, labels, entities):
            page_labels[ref.page_index][ref.word_index] = label
            page_entities[ref.page_index][ref.word_index] = entity
        fields: dict[str, tuple[str, ...]] = {}
        for key, value in record.expected:
            fields[key] = fields.get(key, ()) + (value,)
        docs.append(LabelledDocument(
            Path(record.filename).stem, document, tuple(map(tuple, page_labels)), tuple(map(tuple, page_entities)),
            LABEL_SET, fields,
        ))
        if document.word_count == 0:
            notes["documents without words"] += 1
        if on_document:
            on_document(len(docs), len(records))
    return docs, build_report("kleister", "train", docs, tally, notes)
