"""Pre-extracted words JSON: words from another OCR engine, validated field by field.

The format is the page part of ``Document.to_dict()`` (documented in docs/words-json.md)::

    {"pages": [{"width": 612, "height": 792, "unit": "pt",
                "words": [{"text": "Invoice", "box": [72, 70, 130, 84], "confidence": 0.97}]}]}

``unit`` is ``"pt"`` (the default) or ``"px"``; pixel pages need ``dpi`` and are converted to points here.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from docextract.document import TEXT_SOURCES, Box, Page, Word
from docextract.errors import InputError
from docextract.readers.limits import MAX_WORDS_JSON_BYTES
from docextract.readers.source import Source

UNITS = ("pt", "px")


def _fail(source: str, where: str, problem: str) -> InputError:
    return InputError(f"invalid words JSON: {where}: {problem}", path=source, code="INPUT_UNREADABLE", stage="parse")


def _number(value: Any, source: str, where: str, *, positive: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise _fail(source, where, f"expected a finite number, got {json.dumps(value)[:40]}")
    if positive and value <= 0:
        raise _fail(source, where, f"must be > 0, got {value}")
    return float(value)


def _word(data: Any, source: str, where: str, scale: float) -> Word:
    if not isinstance(data, dict):
        raise _fail(source, where, "expected an object with 'text' and 'box'")
    text = data.get("text")
    if not isinstance(text, str) or not text.strip():
        raise _fail(source, f"{where}, field 'text'", "expected a non-empty string")
    box = data.get("box")
    if not isinstance(box, list) or len(box) != 4:
        raise _fail(source, f"{where}, field 'box'", "expected [x0, top, x1, bottom]")
    x0, top, x1, bottom = (_number(v, source, f"{where}, field 'box'") * scale for v in box)
    if x1 < x0 or bottom < top:
        raise _fail(source, f"{where}, field 'box'", f"needs x0 <= x1 and top <= bottom, got {box}")
    confidence = data.get("confidence")
    if confidence is not None:
        confidence = _number(confidence, source, f"{where}, field 'confidence'")
        if not 0.0 <= confidence <= 1.0:
            raise _fail(source, f"{where}, field 'confidence'", f"must be in 0..1, got {confidence}")
    return Word(text=text, box=Box(x0, top, x1, bottom), confidence=confidence)


def _page(data: Any, source: str, number: int) -> Page:
    where = f"page {number}"
    if not isinstance(data, dict):
        raise _fail(source, where, "expected an object with 'width', 'height' and 'words'")
    unit = data.get("unit", "pt")
    if unit not in UNITS:
        raise _fail(source, f"{where}, field 'unit'", f"expected 'pt' or 'px', got {json.dumps(unit)[:40]}")
    scale = 1.0
    if unit == "px":
        if "dpi" not in data:
            raise _fail(source, f"{where}, field 'dpi'", "required when unit is 'px'")
        scale = 72.0 / _number(data["dpi"], source, f"{where}, field 'dpi'", positive=True)
    for key in ("width", "height"):
        if key not in data:
            raise _fail(source, f"{where}, field '{key}'", "missing")
    width = _number(data["width"], source, f"{where}, field 'width'", positive=True) * scale
    height = _number(data["height"], source, f"{where}, field 'height'", positive=True) * scale
    words = data.get("words")
    if not isinstance(words, list):
        raise _fail(source, f"{where}, field 'words'", "expected a list of words")
    text_source = data.get("text_source", "words_json")
    if text_source not in TEXT_SOURCES:
        raise _fail(source, f"{where}, field 'text_source'", f"expected one of {', '.join(TEXT_SOURCES)}")
    rotation = data.get("rotation_applied", 0)
    if rotation not in (0, 90, 180, 270):
        raise _fail(source, f"{where}, field 'rotation_applied'", "expected 0, 90, 180 or 270")
    return Page(
        number=number, width=width, height=height, text_source=text_source, rotation_applied=rotation,
        words=tuple(_word(w, source, f"{where}, word {i + 1}", scale) for i, w in enumerate(words)),
    )


def parse_words_json(data: Any, source: str) -> tuple[Page, ...]:
    """Validated pages of an already-parsed words JSON value; InputError naming page, word and field."""
    if not isinstance(data, dict) or not isinstance(data.get("pages"), list):
        raise _fail(source, "top level", "expected an object with a 'pages' list")
    if not data["pages"]:
        raise _fail(source, "field 'pages'", "has no pages")
    return tuple(_page(p, source, i + 1) for i, p in enumerate(data["pages"]))


def read_words_json(path: Path | Source) -> tuple[Page, ...]:
    words = Source.of(path)
    source = words.name
    size = words.size()
    if size > MAX_WORDS_JSON_BYTES:
        raise InputError(f"words JSON of {size} bytes is over the limit of {MAX_WORDS_JSON_BYTES}",
                         path=source, code="RESOURCE_LIMIT", stage="parse")
    try:
        data = json.loads(words.read_bytes().decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        raise _fail(source, "file", f"not UTF-8 ({exc.reason} at byte {exc.start})") from exc
    except json.JSONDecodeError as exc:
        raise _fail(source, f"line {exc.lineno}, column {exc.colno}", exc.msg) from exc
    except RecursionError as exc:
        raise _fail(source, "file", "nested too deeply") from exc
    return parse_words_json(data, source)
