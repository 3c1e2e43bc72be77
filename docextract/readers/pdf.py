"""PDF files: the text layer where it is usable, OCR of the rendered page where it is not.

Two libraries, each for what it does best: pypdfium2 opens the file (it is the more forgiving
parser), counts the pages and renders them for OCR; pdfplumber reads the text layer. When pdfminer
cannot read a page tree that PDFium can, the pages it misses are treated as pages without text.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import pdfplumber
import pypdfium2 as pdfium
from pdfminer.pdfdocument import PDFPasswordIncorrect
from pdfminer.pdfexceptions import PDFException
from pdfminer.psexceptions import PSException
from pdfplumber.utils.exceptions import MalformedPDFException, PdfminerException

from docextract.document import POINTS_PER_INCH, Page
from docextract.errors import InputError, UsageError
from docextract.readers import ocr as ocr_mod
from docextract.readers import text_layer
from docextract.readers.limits import DEFAULT_OCR_TIMEOUT, MAX_PDF_PAGES, MAX_RENDER_PIXELS, MAX_TESSERACT_SIDE
from docextract.readers.pdf_end import open_for_pdfminer
from docextract.readers.source import Source

# What pdfminer raises on a file it cannot parse (narrowly: anything else is a bug to see).
PDFMINER_ERRORS = (PdfminerException, MalformedPDFException, PDFException, PSException, RecursionError)

PASSWORD_HINT = "pass the document's password with --password"
TEXT_READERS = ("pdfplumber", "auto")  # how a text layer is read: see read_pdf


@dataclass(frozen=True)
class PdfPages:
    pages: tuple[Page, ...]
    warnings: tuple[str, ...]


def _open_pdfium(source: Source, password: str | None) -> pdfium.PdfDocument:
    try:
        return pdfium.PdfDocument(source.for_pdfium(), password=password)
    except pdfium.PdfiumError as exc:
        reason = str(exc)
        if "password" in reason.lower():
            problem = "the password given is wrong" if password else "the PDF is encrypted"
            raise InputError(f"{problem}; {PASSWORD_HINT}", path=source.name, code="PDF_ENCRYPTED", stage="open") from exc
        raise InputError(f"corrupt or truncated PDF ({reason})", path=source.name, code="PDF_MALFORMED", stage="open") from exc


def _open_pdfplumber(source: Source, password: str | None, warnings: list[str]):
    """The pdfplumber document, or None (with a warning) when pdfminer cannot read what PDFium could."""
    stream = open_for_pdfminer(source)  # without the padding some files carry after %%EOF (see pdf_end)
    try:
        return pdfplumber.PDF(stream, path=source.path, password=password or "")  # closes the stream when closed
    except BaseException as exc:
        stream.close()
        if not isinstance(exc, PDFMINER_ERRORS):
            raise
        inner = exc.args[0] if isinstance(exc, PdfminerException) and exc.args else exc
        if isinstance(inner, PDFPasswordIncorrect):
            raise InputError(f"the PDF is encrypted; {PASSWORD_HINT}", path=source.name, code="PDF_ENCRYPTED", stage="open") from exc
        warnings.append(f"text layer unreadable ({type(inner).__name__}: {inner}); pages treated as scans")
        return None


def render_page(page: pdfium.PdfPage, dpi: float, *, source: str, number: int):
    """The page rendered at ``dpi`` as an 8-bit grayscale PIL image; refused before allocation when too big."""
    width, height = page.get_size()  # points, /Rotate applied
    scale = dpi / POINTS_PER_INCH
    px_w, px_h = math.ceil(width * scale), math.ceil(height * scale)
    if px_w * px_h > MAX_RENDER_PIXELS or max(px_w, px_h) > MAX_TESSERACT_SIDE:
        raise InputError(
            f"page {number} ({width:.0f}x{height:.0f} pt) at {dpi:g} dpi would be {px_w}x{px_h} pixels, over the "
            f"limit of {MAX_RENDER_PIXELS / 1e6:g} MP and {MAX_TESSERACT_SIDE} pixels a side; use a lower --dpi",
            path=source, code="RESOURCE_LIMIT", stage="render",
        )
    try:
        return page.render(scale=scale, grayscale=True).to_pil()
    except pdfium.PdfiumError as exc:
        raise InputError(f"page {number} cannot be rendered ({exc})", path=source, code="PDF_MALFORMED", stage="render") from exc


def _ocr_page(pdfium_page, number: int, *, dpi: float, lang: str, source: str, timeout: float,
              warnings: list[str]) -> tuple[Page, str]:
    """The page read by OCR, and the language to read the document's next pages in (``"auto"``: the language this
    page was found in, when not English; else ``lang``)."""
    image = render_page(pdfium_page, dpi, source=source, number=number)
    words, turned = ocr_mod.ocr_upright(image, dpi=dpi, lang=lang, source=source, timeout=timeout)
    sparse = ocr_mod.sparse_text_warning(image, len(words.words), dpi=dpi, number=number, asked=True)
    if sparse:
        warnings.append(sparse)
    rotation = (pdfium_page.get_rotation() + turned) % 360
    page = Page(number=number, width=words.width, height=words.height, words=words.words,
                text_source="ocr", rotation_applied=rotation, text_reader=ocr_mod.reader_name(words))
    return page, ocr_mod.next_pages_lang(lang, words)


def read_pdf(path: Path | Source, *, ocr: str, lang: str, dpi: float, password: str | None,
             ocr_timeout: float = DEFAULT_OCR_TIMEOUT, max_pages: int = MAX_PDF_PAGES,
             text_reader: str = "pdfplumber") -> PdfPages:
    """Every page of the PDF at ``path`` (or in a :class:`Source`'s bytes) as a :class:`Page` (see
    :func:`docextract.readers.read_document`).

    PDFium decides the page count; when PDFium cannot open a file that pdfminer can, the text layer
    alone is used (pages that would need OCR keep what text they have, with a warning). ``text_reader``
    ``"auto"`` reads a page's text layer through PDFium's text page where that page is one of those on which it
    was measured to give pdfplumber's words (:mod:`docextract.readers.pdfium_text`), and through pdfplumber on
    every other page (opened only when a page needs it); ``"pdfplumber"`` always through pdfplumber.
    """
    if text_reader not in TEXT_READERS:
        raise UsageError(f"the PDF text reader must be one of {', '.join(TEXT_READERS)}, got {text_reader!r}")
    pdf = Source.of(path)
    source = pdf.name
    warnings: list[str] = []
    try:
        document = _open_pdfium(pdf, password)
        pdfium_error = None
    except InputError as exc:
        if exc.code == "PDF_ENCRYPTED":
            raise
        document, pdfium_error = None, exc
    lazy = text_reader == "auto" and document is not None and ocr != "always"
    plumber = None if lazy else (_open_pdfplumber(pdf, password, warnings) if (ocr != "always" or document is None) else None)
    try:
        if document is None and plumber is None:
            raise pdfium_error
        if document is None:
            warnings.append(f"PDFium cannot read this file ({pdfium_error.message}); text layer only, no OCR")
        count = len(document) if document is not None else _count_plumber_pages(plumber, source)
        if count == 0:
            raise InputError("the PDF has no pages", path=source, code="PDF_MALFORMED", stage="open")
        if count > max_pages:
            raise InputError(f"the PDF has {count} pages, more than the limit of {max_pages}",
                             path=source, code="PDF_TOO_LARGE", stage="open")
        plumber_pages = None if lazy else _plumber_pages(plumber, count, source, warnings)
        pages = []
        doctop = 0.0  # pdfplumber's ``doctop``: the heights of the pages before this one
        for index in range(count):
            number = index + 1
            text_page = None
            if lazy:
                text_page, doctop = _pdfium_text_page(document[index], number, doctop)
                if text_page is None:  # a page PDFium's reading is not known to agree on: pdfplumber, as always
                    if plumber_pages is None:
                        plumber = _open_pdfplumber(pdf, password, warnings)
                        plumber_pages = _plumber_pages(plumber, count, source, warnings)
                    text_page = _text_page(plumber_pages, index, number, source, warnings)
            else:
                text_page = _text_page(plumber_pages, index, number, source, warnings)
            needs_ocr = ocr == "always" or (ocr == "auto" and (text_page is None or not text_layer.is_usable(text_page.words)))
            if needs_ocr and document is not None:
                ocr_mod.check_tesseract(lang)
                page, lang = _ocr_page(document[index], number, dpi=dpi, lang=lang, source=source,
                                       timeout=ocr_timeout, warnings=warnings)
                pages.append(page)
            elif text_page is not None:
                pages.append(text_page)
            else:
                width, height = document[index].get_size()
                pages.append(Page(number=number, width=width, height=height, words=(),
                                  rotation_applied=document[index].get_rotation() % 360))
    finally:
        if plumber is not None:
            plumber.close()
        if document is not None:
            document.close()
    return PdfPages(tuple(pages), tuple(warnings))


def _count_plumber_pages(plumber, source: str) -> int:
    try:
        return len(plumber.pages)
    except PDFMINER_ERRORS as exc:
        raise InputError(f"corrupt PDF: no readable page tree ({type(exc).__name__})", path=source,
                         code="PDF_MALFORMED", stage="open") from exc


def _plumber_pages(plumber, count: int, source: str, warnings: list[str]) -> list:
    if plumber is None:
        return []
    try:
        pages = list(plumber.pages)
    except PDFMINER_ERRORS as exc:
        warnings.append(f"text layer unreadable ({type(exc).__name__}: {exc}); pages treated as scans")
        return []
    if len(pages) != count:
        warnings.append(f"pdfminer found {len(pages)} pages where PDFium found {count}; "
                        "the text layer is used only where both agree")
        return []
    return pages


def _text_page(plumber_pages: list, index: int, number: int, source: str, warnings: list[str]) -> Page | None:
    """Page ``number`` from its text layer, or None when there is no readable layer."""
    if index >= len(plumber_pages):
        return None
    page = plumber_pages[index]
    try:
        layer = text_layer.page_words(page)
        rotation = (int(page.rotation or 0) + layer.turn) % 360
    except PDFMINER_ERRORS as exc:
        warnings.append(f"page {number}: text layer unreadable ({type(exc).__name__}: {exc})")
        return None
    finally:
        page.close()  # drop pdfplumber's per-page caches: memory stays flat on long documents
    return Page(number=number, width=layer.width, height=layer.height, words=layer.words, text_source="pdf_text",
                rotation_applied=rotation, text_reader="pdfplumber")


def _pdfium_text_page(pdfium_page, number: int, doctop: float) -> tuple[Page | None, float]:
    """Page ``number`` from PDFium's text page, or None where that is not known to agree with pdfplumber; and the
    ``doctop`` of the next page."""
    from docextract.readers.pdfium_text import READER, NotEquivalent, page_chars

    try:
        chars, width, height = page_chars(pdfium_page, doctop)
    except NotEquivalent:
        return None, doctop + float(pdfium_page.get_size()[1])
    layer = text_layer.chars_to_words(chars, width, height)
    page = Page(number=number, width=layer.width, height=layer.height, words=layer.words, text_source="pdf_text",
                rotation_applied=layer.turn, text_reader=READER)
    return page, doctop + height
