"""Field scoring's own rules on a document's fields: a number OCR may have cut short goes to review."""

from docextract.document import Box, Document, Page, Word, WordRef
from docextract.extraction.scoring import maybe_cut_by_ocr
from docextract.layout import analyze_layout


def _line(parts: list[tuple[str, float]], ocr: bool) -> Document:
    """One line of words (text, x), 7 points high, each 4 points a character wide."""
    words = tuple(Word(text, Box(x, 100, x + 4 * len(text), 107)) for text, x in parts)
    page = Page(number=1, width=595.0, height=842.0, words=words, text_source="ocr" if ocr else "pdf_text")
    return analyze_layout(Document(source="scan.png", pages=(page,), sha256="0" * 64))


def test_a_number_ocr_may_have_cut_short_is_flagged_never_joined():
    # Tesseract's "INV-08-447 1902" for "INV-08-4471902" on a 150-dpi scan: a digit group right after the number
    doc = _line([("Invoice", 350), ("#", 380), ("INV-08-447", 440), ("1902", 482)], ocr=True)
    assert maybe_cut_by_ocr(doc, (WordRef(0, 2),))
    # not the last word of its line, nor one followed by a word, nor a group far away in another cell
    assert not maybe_cut_by_ocr(doc, (WordRef(0, 3),))
    doc = _line([("INV-08-4471902", 440), ("Date", 500)], ocr=True)
    assert not maybe_cut_by_ocr(doc, (WordRef(0, 0),))
    doc = _line([("INV-08-447", 300), ("1902", 420)], ocr=True)
    assert not maybe_cut_by_ocr(doc, (WordRef(0, 0),))
    # nor a text layer's number: its words are as printed
    doc = _line([("INV-08-447", 440), ("1902", 482)], ocr=False)
    assert not maybe_cut_by_ocr(doc, (WordRef(0, 0),))


def test_the_field_scoring_caps_the_number_output_chose_where_ocr_may_have_cut_it():
    from docextract.extraction.identifiers import INVALID_IDENTIFIER_MAX_CONFIDENCE
    from docextract.extraction.scoring import FieldScoring

    def scored(ocr: bool) -> float:
        doc = _line([("Invoice", 350), ("#", 380), ("INV-08-447", 440), ("1902", 482)], ocr=ocr)
        ids = doc.token_ids()
        field = {"value": "INV-08-447", "normalized": "INV-08-447", "confidence": 0.99, "page": 1,
                 "source_tokens": [ids[WordRef(0, 2)]]}
        document = {"fields": {"invoice_number": field}, "line_items": [], "validation": {}}
        FieldScoring(None, None, ("invoice_number",)).apply(doc, document, [])
        return document["fields"]["invoice_number"]["confidence"]

    assert scored(ocr=True) == INVALID_IDENTIFIER_MAX_CONFIDENCE
    assert scored(ocr=False) == 0.99
