"""`per_document`: one answer per document and arguments, never another document's, and a bounded memory."""

from __future__ import annotations

from docextract.document import Box, Document, Page, Word
from docextract.extraction.per_document import DOCUMENTS_KEPT, per_document


def _document(text: str) -> Document:
    page = Page(number=1, width=100, height=100, words=(Word(text=text, box=Box(1, 1, 20, 10)),))
    return Document(source="x.pdf", pages=(page,))


def test_answers_are_remembered_per_document_and_arguments():
    asked = []

    @per_document
    def first_word(doc, suffix):
        asked.append((doc, suffix))
        return doc.pages[0].words[0].text + suffix

    doc, twin = _document("Invoice"), _document("Invoice")
    assert first_word(doc, "!") == "Invoice!" and first_word(doc, "!") == "Invoice!"
    assert len(asked) == 1  # the second call was answered from memory
    assert first_word(doc, "?") == "Invoice?" and len(asked) == 2  # other arguments: asked anew
    assert first_word(twin, "!") == "Invoice!" and len(asked) == 3  # an equal document is another document
    assert first_word.uncached(doc, "!") == "Invoice!" and len(asked) == 4


def test_memory_is_bounded():
    asked = []

    @per_document
    def text(doc):
        asked.append(doc)
        return doc.pages[0].words[0].text

    documents = [_document(f"w{i}") for i in range(DOCUMENTS_KEPT * 20)]
    assert [text(d) for d in documents] == [f"w{i}" for i in range(len(documents))]
    assert text(documents[-1]) == documents[-1].pages[0].words[0].text and len(asked) == len(documents)  # kept
    assert text(documents[0]) == "w0" and len(asked) == len(documents) + 1  # long forgotten: asked anew
