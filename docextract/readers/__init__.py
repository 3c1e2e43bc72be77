"""Readers: any input file -> :class:`docextract.document.Document` of pages of words.

:func:`read_document` is the single entry point. The file type is decided by its first bytes
(``detect.py``), never by its extension:

* PDF: the text layer (pdfplumber; or PDFium's text page where it gives the same words, ``pdfium_text.py``)
  where it is usable, else OCR of the page rendered by pypdfium2 (``pdf.py``, ``text_layer.py``, ``ocr.py``);
* PNG / JPEG / TIFF (every frame a page): OCR (``images.py``);
* pre-extracted words JSON from another OCR engine (``words_json.py``, docs/words-json.md).

A document is read from its path, or from bytes held in memory (:class:`docextract.readers.source.Source`: what
the Python API passes for bytes and file objects); every reader takes either.

All boxes are PDF points with a top-left origin, in the frame of the page as it reads upright.
Everything a user can get wrong raises :class:`docextract.errors.InputError` (or
``MissingDependencyError`` when Tesseract is absent) naming the file and a code from ``ERROR_CODES``.
"""

from __future__ import annotations

from pathlib import Path

from docextract.document import Document
from docextract.errors import InputError, UsageError
from docextract.readers import detect
from docextract.readers.limits import DEFAULT_OCR_TIMEOUT
from docextract.readers.source import Source
from docextract.readers.standard_codes import without_standard_codes

OCR_MODES = ("auto", "always", "never")
DEFAULT_DPI = 300  # dots per inch: OCR word recall is 100% on clean pages at 200 and 300 dpi (measured)
MIN_DPI, MAX_DPI = 50, 1200  # dots per inch

__all__ = ["OCR_MODES", "Source", "read_document"]


def _check_path(path: Path, name: str) -> None:
    if not path.exists():
        raise InputError("no such file", path=name, code="INPUT_NOT_FOUND", stage="open")
    if path.is_dir():
        raise InputError("is a directory, not a file", path=name, code="INPUT_UNREADABLE", stage="open")
    if not path.is_file():
        raise InputError("is not a regular file", path=name, code="INPUT_UNREADABLE", stage="open")


def read_document(path: str | Path | Source, *, ocr: str = "auto", lang: str = "auto", dpi: int = DEFAULT_DPI,
                  password: str | None = None, ocr_timeout: float = DEFAULT_OCR_TIMEOUT,
                  pdf_text: str = "pdfplumber") -> Document:
    """Read any supported file (a path, or a :class:`Source` of bytes) into a :class:`Document` (pages of words,
    points, top-left origin).

    ``ocr``: ``"auto"`` OCRs only PDF pages without a usable text layer (and every image),
    ``"always"`` OCRs every page, ``"never"`` uses only text layers (images then have no words).
    ``lang`` is Tesseract's language (``"eng"``, ``"deu+eng"``; ``"auto"``: English, then the language a page's
    words are in, ``ocr.page_language``); ``dpi`` the PDF render resolution
    for OCR; ``password`` opens encrypted PDFs; ``ocr_timeout`` bounds each Tesseract call (seconds);
    ``pdf_text`` how a PDF's text layer is read: ``"pdfplumber"``, or ``"auto"`` (PDFium's text page on the pages
    where it is known to give pdfplumber's words, pdfplumber elsewhere; see ``pdfium_text.py``).
    """
    if ocr not in OCR_MODES:
        raise UsageError(f"--ocr must be one of {', '.join(OCR_MODES)}, got {ocr!r}")
    if not MIN_DPI <= dpi <= MAX_DPI:
        raise UsageError(f"--dpi must be between {MIN_DPI} and {MAX_DPI}, got {dpi}")
    source = Source.of(path)
    if source.path is not None:
        _check_path(source.path, source.name)
    try:
        kind = detect.kind_of(source.head(detect.SNIFF_BYTES), source.name)
        sha256 = source.sha256()  # a batch worker hashed the file already: answered from memory
        pages, warnings = _read_kind(source, kind, ocr=ocr, lang=lang, dpi=dpi, password=password, ocr_timeout=ocr_timeout,
                                     pdf_text=pdf_text)
    except PermissionError as exc:
        raise InputError("permission denied", path=source.name, code="INPUT_UNREADABLE", stage="open") from exc
    except IsADirectoryError as exc:
        raise InputError("is a directory, not a file", path=source.name, code="INPUT_UNREADABLE", stage="open") from exc
    except FileNotFoundError as exc:
        raise InputError("the file disappeared while it was being read", path=source.name,
                         code="INPUT_NOT_FOUND", stage="open") from exc
    if kind != detect.KIND_WORDS_JSON:  # a words file is the user's own words, their labels by index: kept whole
        pages = tuple(without_standard_codes(page) for page in pages)
    return Document(source=source.name, pages=pages, mime_type=detect.MIME_TYPES[kind], sha256=sha256,
                    warnings=warnings)


def _read_kind(source: Source, kind: str, *, ocr: str, lang: str, dpi: int, password: str | None, ocr_timeout: float,
               pdf_text: str = "pdfplumber"):
    # imported here so that reading a words JSON does not pay for pdfplumber/pypdfium2/Pillow imports
    if kind == detect.KIND_PDF:
        from docextract.readers.pdf import read_pdf
        result = read_pdf(source, ocr=ocr, lang=lang, dpi=dpi, password=password, ocr_timeout=ocr_timeout,
                          text_reader=pdf_text)
        return result.pages, result.warnings
    if kind in (detect.KIND_PNG, detect.KIND_JPEG, detect.KIND_TIFF):
        from docextract.readers.images import read_image
        result = read_image(source, ocr=ocr, lang=lang, ocr_timeout=ocr_timeout)
        return result.pages, result.warnings
    from docextract.readers.words_json import read_words_json
    return read_words_json(source), ()
