"""An XRechnung viewer's business-term codes beside its keys are no words of the invoice; one such code alone is."""

import pdf_factory as factory
from docextract.readers import read_document


def _texts(tmp_path, lines):
    path = tmp_path / "page.pdf"
    factory.text_lines_pdf(path, lines, width=420)
    return [w.text for page in read_document(path).pages for w in page.words]


def test_a_visualised_xrechnung_is_read_without_its_business_term_codes(tmp_path):
    texts = _texts(tmp_path, ["Rechnungsnummer: BT-1 2024-RE-001187", "Name: BT-27 Nordlicht GmbH",
                              "Leistungszeitraum: BT-73/74 01.01.2024 bis 31.03.2024", "Preis (BT-146) 98,00"])
    assert texts[:2] == ["Rechnungsnummer:", "2024-RE-001187"]
    assert not [t for t in texts if t.startswith(("BT-", "(BT-"))]
    assert "Nordlicht" in texts and "98,00" in texts


def test_a_product_code_that_looks_like_one_stays(tmp_path):
    texts = _texts(tmp_path, ["Invoice 4711", "1 x Speaker BT-100 49.00"])
    assert "BT-100" in texts
