"""A PDF page's characters read by PDFium's text page, as pdfplumber would report them, where that is known to agree.

pdfplumber (pdfminer.six, pure Python) interprets the page's content stream again to find its characters:
about a tenth of a second a page, the largest part of reading a digital invoice. PDFium, which opens every
PDF anyway, has each character's text, origin, advance and font at hand. This module builds the character
dicts pdfplumber's word grouping reads (text, x0, x1, top, bottom, doctop, upright, size) from PDFium with
pdfminer's own box rule: the advance from the origin across, and from ``descent * size`` below the
baseline to ``size`` above that, the descent being the font descriptor's (or, for the standard 14 fonts
without one, pdfminer's own table's). Words are then grouped by pdfplumber's ``extract_words`` exactly as
for its own characters.

It answers only for pages where agreement with pdfplumber was measured (benchmarks/reader_agreement.py:
same words and the same model grid boxes on the shared real PDFs and e-invoices): no /Rotate, the media
box at the origin and no crop box of its own, every character upright and unskewed (a text matrix
``[a 0 0 d]`` with a, d > 0), every font simple enough for pdfminer's rule (descent known, no Type 3),
no character without a Unicode mapping, no control, private-use, surrogate or replacement character.
Any other page returns None and is read by pdfplumber, as before.
"""

from __future__ import annotations

import ctypes
import struct
import unicodedata
from functools import lru_cache

import pypdfium2 as pdfium
import pypdfium2.raw as raw

READER = "pdfium"

FONT_NAME_BYTES = 256
SURE_DIGITS = 6  # significant decimal digits that survive single precision


class NotEquivalent(Exception):
    """This page is not one where PDFium's characters are known to equal pdfplumber's."""


@lru_cache(maxsize=None)
def _standard_metrics(name: str) -> tuple[float, dict, float] | None:
    """pdfminer's own metrics of a standard 14 font, which it uses whenever a font's BaseFont is exactly such a
    name (whatever widths and descriptor the PDF gives): descent (1/1000 em), widths by character, the width of
    a character not in the table. None for every other font."""
    from pdfminer.fontmetrics import FONT_METRICS

    if name not in FONT_METRICS:
        return None
    descriptor, widths = FONT_METRICS[name]
    descent = float(descriptor.get("Descent", 0))
    return (-descent if descent > 0 else descent), widths, float(descriptor.get("MissingWidth", 0))


def _font_name(font) -> str:
    buffer = ctypes.create_string_buffer(FONT_NAME_BYTES)
    length = raw.FPDFFont_GetBaseFontName(font, buffer, FONT_NAME_BYTES)
    if length <= 0 or length > FONT_NAME_BYTES:
        raise NotEquivalent("font without a name")
    return buffer.value.decode("latin-1")


def _font_rule(font) -> tuple[float, dict | None, float]:
    """How pdfminer measures this font: (descent per em, its width table or None for the PDF's own widths,
    width of a character not in the table)."""
    standard = _standard_metrics(_font_name(font))
    if standard is not None:
        descent, widths, missing = standard
        return descent / 1000.0, widths, missing
    value = ctypes.c_float()
    if not raw.FPDFFont_GetDescent(font, ctypes.c_float(1000.0), ctypes.byref(value)):
        raise NotEquivalent("font without a descent")
    return -abs(value.value) / 1000.0, None, 0.0


def _is_garbage(text: str) -> bool:
    return text == "\ufffd" or unicodedata.category(text) in ("Cc", "Cs", "Co", "Cn")


def _check_page(page: pdfium.PdfPage) -> tuple[float, float]:
    """The page's width and height as pdfplumber reports them (its media box), if it is a plain page: no /Rotate,
    its box at the origin, no crop box of its own that differs from the media box."""
    if page.get_rotation() % 360:
        raise NotEquivalent("rotated page")
    left, bottom, right, top = page.get_bbox()  # the effective (inherited) box PDFium displays
    if left != 0 or bottom != 0:
        raise NotEquivalent("page box off the origin")
    crop = [ctypes.c_float() for _ in range(4)]
    media = [ctypes.c_float() for _ in range(4)]
    has_crop = raw.FPDFPage_GetCropBox(page.raw, *(ctypes.byref(v) for v in crop))
    has_media = raw.FPDFPage_GetMediaBox(page.raw, *(ctypes.byref(v) for v in media))
    if has_crop and (not has_media or [v.value for v in crop] != [v.value for v in media]):
        raise NotEquivalent("a crop box")
    return _decimal(right - left), _decimal(top - bottom)


def _decimal(value: float) -> float:
    """The decimal that PDFium's single-precision ``value`` stands for (595.28, not 595.280029296875): what the PDF
    wrote and pdfplumber reads in double precision. Single precision keeps 6 significant digits for certain; a
    size written with more (595.275591) cannot be told from its neighbours, and the page is not taken."""
    packed = struct.pack("<f", value)
    for digits in range(1, SURE_DIGITS + 1):
        candidate = float(f"{value:.{digits}g}")
        if struct.pack("<f", candidate) == packed:
            return candidate
    raise NotEquivalent("a page size written with more digits than PDFium keeps")


def page_chars(page: pdfium.PdfPage, doctop: float) -> tuple[list[dict], float, float]:
    """pdfplumber-style character dicts of ``page`` (``doctop``: the heights of the pages before it) and the page
    size; NotEquivalent when the page is not one where they are known to agree."""
    width, height = _check_page(page)
    textpage = page.get_textpage()
    try:
        chars, used_objects = _chars(textpage.raw, width, height, doctop)
        if any(obj not in used_objects for obj in _text_objects(page)):
            # PDFium's text page leaves out glyphs that pdfminer keeps: a text object drawn twice on itself (fake
            # bold), a space drawn over the next character. Such a page's words would differ (measured).
            raise NotEquivalent("text the text page leaves out (overdrawn or duplicated glyphs)")
        return chars, width, height
    finally:
        textpage.close()


def _text_objects(page: pdfium.PdfPage) -> list[int]:
    """Every text object of the page, those inside form XObjects included (by handle address)."""
    found: list[int] = []

    def walk(count: int, get) -> None:
        for index in range(count):
            obj = get(index)
            kind = raw.FPDFPageObj_GetType(obj)
            if kind == raw.FPDF_PAGEOBJ_TEXT:
                found.append(ctypes.cast(obj, ctypes.c_void_p).value or 0)
            elif kind == raw.FPDF_PAGEOBJ_FORM:
                walk(raw.FPDFFormObj_CountObjects(obj), lambda j, form=obj: raw.FPDFFormObj_GetObject(form, j))

    walk(raw.FPDFPage_CountObjects(page.raw), lambda i: raw.FPDFPage_GetObject(page.raw, i))
    return found


def _chars(textpage, width: float, height: float, doctop: float) -> tuple[list[dict], set[int]]:
    count = raw.FPDFText_CountChars(textpage)
    origin_x, origin_y = ctypes.c_double(), ctypes.c_double()
    matrix = raw.FS_MATRIX()
    width = ctypes.c_float()
    rules: dict[int, tuple[float, dict | None, float]] = {}  # per font handle
    used_objects: set[int] = set()
    previous_object, previous_x0 = None, None
    chars = []
    for index in range(count):
        if raw.FPDFText_IsGenerated(textpage, index):
            continue  # spaces and line breaks PDFium infers; pdfminer has no such characters
        if raw.FPDFText_HasUnicodeMapError(textpage, index):
            raise NotEquivalent("a character without a Unicode mapping")
        code = raw.FPDFText_GetUnicode(textpage, index)
        if code == 0:
            raise NotEquivalent("a character without text")
        text = chr(code)
        if _is_garbage(text):
            raise NotEquivalent("a control, private-use or replacement character")
        if not raw.FPDFText_GetMatrix(textpage, index, ctypes.byref(matrix)):
            raise NotEquivalent("no character matrix")
        if matrix.b != 0 or matrix.c != 0 or matrix.a <= 0 or matrix.d <= 0:
            raise NotEquivalent("turned, mirrored or skewed text")
        text_object = raw.FPDFText_GetTextObject(textpage, index)
        object_key = ctypes.cast(text_object, ctypes.c_void_p).value or 0
        used_objects.add(object_key)
        font = raw.FPDFTextObj_GetFont(text_object)
        if not font:
            raise NotEquivalent("a character without a font")
        key = ctypes.cast(font, ctypes.c_void_p).value or 0
        if key not in rules:
            rules[key] = _font_rule(font)
        descent, widths, missing_width = rules[key]
        size = raw.FPDFText_GetFontSize(textpage, index)
        if not raw.FPDFText_GetCharOrigin(textpage, index, ctypes.byref(origin_x), ctypes.byref(origin_y)):
            raise NotEquivalent("no character origin")
        x0 = origin_x.value
        if chars and previous_object == object_key and x0 == previous_x0:
            # one glyph, several characters (a ligature PDFium spells out): pdfminer keeps one character whose
            # width is the glyph's, which PDFium does not give
            raise NotEquivalent("a glyph of several characters (ligature)")
        previous_object, previous_x0 = object_key, x0
        if widths is None:  # the font's own widths (/Widths, /W), looked up by PDFium from the character
            if not raw.FPDFFont_GetGlyphWidth(font, code, ctypes.c_float(1000.0), ctypes.byref(width)):
                raise NotEquivalent("no character width")
            advance = width.value
        else:  # pdfminer's table for a standard 14 font
            advance = widths.get(text, missing_width)
        x1 = x0 + advance / 1000.0 * size * matrix.a
        scaled = size * matrix.d  # the em in page units (pdfminer: the font size through the text matrix)
        y0 = origin_y.value + descent * scaled
        y1 = y0 + scaled
        if x1 < x0:
            x0, x1 = x1, x0
        top = height - y1
        chars.append({"text": text, "x0": x0, "x1": x1, "top": top, "bottom": height - y0, "doctop": doctop + top,
                      "upright": True, "size": y1 - y0, "matrix": (1.0, 0.0, 0.0, 1.0, x0, origin_y.value)})
    return chars, used_objects
