"""Keys wherever the page prints them (key_context), the typed candidates of a page (candidates), and the fields the
key rule reads through them when the model gave none."""

from dataclasses import replace
from datetime import date
from decimal import Decimal

from docextract.document import Box, Document, Page, Word, WordRef
from docextract.extraction.candidates import KEY_LABELS, generate
from docextract.extraction.key_context import LineIndex, key_above, key_left
from docextract.extraction.key_values import key_value_entities
from docextract.extraction.normalize import identifier_text
from docextract.layout import analyze_layout
from tests.layout_helpers import laid_out_page as _page

INVOICE_LABELS = ("invoice_number", "invoice_date", "due_date", "purchase_order", "subtotal", "total_tax", "total",
                  "amount_due", "iban")


def _rule_fields(doc, locale="en_GB", year=2024):
    return {e.label: e.text(doc) for e in key_value_entities(doc, [], INVOICE_LABELS, {}, locale, year)}


def test_a_key_after_other_words_on_its_line_still_names_its_value():
    # the line reader joined the key to a customer number on its left: the key does not start the line
    doc = _page([[("Klantnummer 20417 Factuurnummer: 993012", 40)],
                 [("ACME Hosting B.V. Invoice No : # BLR_0042", 40)]])
    found = _rule_fields(doc, "nl_NL")
    assert found["invoice_number"] == "993012"
    doc = _page([[("ACME Hosting B.V. Invoice No : # BLR_0042", 40)]])
    assert _rule_fields(doc)["invoice_number"] == "BLR_0042"


def test_a_title_that_says_its_number_names_the_invoice_number():
    # the title qualifies the document between its word and the number sign; an order's number is no invoice's
    for title in ("Gutschrift (Selbst ausgestellte Rechnung) (389) Nr.", "Rechnung des Versicherers (575) Nr.",
                  "Teilrechnung Bau (875) Nr."):
        doc = _page([[(f"{title} 210112 vom 06.06.2025", 40)]])
        assert _rule_fields(doc, "de_DE")["invoice_number"] == "210112", title
    doc = _page([[("Bestellung Kunde Nr. 4711", 40)]])
    assert "invoice_number" not in _rule_fields(doc, "de_DE")


def test_a_number_sign_glued_to_the_value_is_not_part_of_the_invoice_number():
    doc = _page([[("Facture n°562019", 40)]])
    found = key_value_entities(doc, [], INVOICE_LABELS, {}, "fr_FR", 2024)
    (number,) = [e for e in found if e.label == "invoice_number"]
    assert identifier_text(number.text(doc)) == "562019"


def test_a_key_whose_number_sign_ocr_glued_to_the_value_still_names_it():
    # Tesseract reads "Nr. 471102" set tight as one word "Nr.471102": the sign ends the key as it does when apart
    for line, key in (("Handelsrechnung (380) Nr.471102 vom 05.06.2025", "Handelsrechnung (380) Nr.471102"),
                      ("Rechnungs Nr.471102", "Rechnungs Nr.471102"), ("Invoice No. #4711", "Invoice No.")):
        doc = _page([[(line, 40)]])
        value = next(w for w, word in enumerate(doc.pages[0].words) if word.text.strip("#").startswith(("Nr.4", "4")))
        hit = key_left(LineIndex(doc), [WordRef(0, value)])
        assert hit is not None and "invoice_number" in hit.labels, line
        assert " ".join(doc.word(r).text for r in hit.words) == key, line
    doc = _page([[("Lieferschein Nr.88123", 40)]])
    hit = key_left(LineIndex(doc), [WordRef(0, 1)])
    assert hit is None or "invoice_number" not in hit.labels  # a delivery note's number is no invoice's


def test_a_key_inside_a_longer_key_is_not_whole():
    doc = _page([[("Delivery Date: 05.10.2023", 40)], [("Invoice Date: 01.10.2023", 40)]])
    assert _rule_fields(doc)["invoice_date"] == "01.10.2023"  # "Date" of "Delivery Date" names nothing
    doc = _page([[("Delivery Date: 05.10.2023", 40)]])
    assert "invoice_date" not in _rule_fields(doc)


def test_a_key_over_its_value_in_a_header_row():
    doc = _page([
        [("Invoice No.", 40), ("Invoice Date", 200), ("Customer", 360)],
        [("INV-4711", 40), ("01.02.2024", 200), ("ACME GmbH", 360)],
    ])
    found = _rule_fields(doc)
    assert found["invoice_number"] == "INV-4711"
    assert found["invoice_date"] == "01.02.2024"


def test_a_key_in_a_column_of_its_own_left_of_its_value():
    doc = _page([[("Order number", 40), ("PO-88123", 330)], [("Amount due", 40), ("1.234,50 EUR", 330)]])
    found = _rule_fields(doc, "de_DE")
    assert found["purchase_order"] == "PO-88123"
    assert found["amount_due"].startswith("1.234,50")


def test_an_amount_under_a_total_column_header_is_no_total():
    doc = _page([[("Description", 40), ("Qty", 300), ("Total", 400)], [("Widgets", 40), ("2", 300), ("20.00", 400)]])
    assert "total" not in _rule_fields(doc)


def test_key_left_and_above_say_where_the_key_stands():
    doc = _page([[("Our ref 77 Rechnungsnr. 4711", 40)], [("Due date", 300)], [("15.03.2024", 300)]])
    index = LineIndex(doc)
    words = {doc.word(r).text: r for r in index.line_of}
    left = key_left(index, (words["4711"],), KEY_LABELS)
    assert left is not None and left.labels == {"invoice_number"}
    assert [doc.word(r).text for r in left.words] == ["Rechnungsnr."]
    above = key_above(index, (words["15.03.2024"],), KEY_LABELS)
    assert above is not None and "due_date" in above.labels


def test_how_telecom_and_utility_bills_name_their_fields():
    doc = _page([[("Bill number: 8812-3301", 40)], [("Bill date: 05/03/2024", 40)],
                 [("Payment due date: 19/03/2024", 40)], [("Total payable: 58.90", 40)]])
    found = _rule_fields(doc)
    assert found["invoice_number"] == "8812-3301"
    assert found["invoice_date"] == "05/03/2024" and found["due_date"] == "19/03/2024"
    assert found["total"] == "58.90"


def test_a_vat_breakdown_says_net_and_gross_as_without_and_with_vat():
    # "VAT rate | Without VAT | With VAT" over the breakdown's row, and the totals said the same way on their line
    doc = _page([[("Without VAT", 150), ("With VAT", 260)], [("100.501,80", 150), ("122.612,20", 260)],
                 [("Total without VAT: 1.579,62", 300)], [("Total with tax: 1.682,96", 300)]])
    index = LineIndex(doc)
    words = {doc.word(r).text: r for r in index.line_of}
    assert key_above(index, (words["100.501,80"],), KEY_LABELS).labels == {"subtotal"}
    assert key_above(index, (words["122.612,20"],), KEY_LABELS).labels == {"total"}
    assert key_left(index, (words["1.579,62"],), KEY_LABELS).labels == {"subtotal"}
    assert key_left(index, (words["1.682,96"],), KEY_LABELS).labels == {"total"}
    # the web template's "Total w/o VAT:" over "VAT" and "Total:"
    doc = _page([[("Total w/o VAT:", 300), ("€4819.22", 400)], [("VAT", 300), ("€797.49", 400)]])
    index = LineIndex(doc)
    words = {doc.word(r).text: r for r in index.line_of}
    assert key_left(index, (words["€4819.22"],), KEY_LABELS).labels == {"subtotal"}


def test_the_candidates_are_every_typed_value_the_page_prints():
    rows = [[("Invoice INV-2024-017", 40), ("Date 3 March 2024", 300)],
            [("Order PO/88-1", 40), ("Due 02.04.2024", 300)],
            [("Net 1.000,00", 40), ("VAT 19 % 190,00", 300)],
            [("Total 1.190,00 €", 40)]]
    doc = _page(rows)
    index = LineIndex(doc)
    found = generate(doc, index, "de_DE", 2024)
    assert {c.value for c in found["identifier"]} >= {"INV-2024-017", "PO/88-1"}
    assert {c.value for c in found["date"]} == {date(2024, 3, 3), date(2024, 4, 2)}
    assert {c.value for c in found["amount"]} == {Decimal("1000.00"), Decimal("190.00"), Decimal("1190.00")}
    assert "19" not in {c.value for c in found["identifier"]}  # too short to be an identifier


def test_amounts_with_three_or_four_decimals_are_candidates_where_they_read_as_decimals():
    # pyinvoicer prints totals unrounded ("€28637.045", "€22551.7400"); in German "1.250" is a thousand, no decimals,
    # and a quantity "1,000" (three decimals, no currency) is no amount
    doc = _page([[("Total amount excl. of VAT", 40), ("€28637.045", 300)],
                 [("Total amount incl. of VAT", 40), ("€22551.7400", 300)], [("Menge 1.250", 40)],
                 [("Stück 1,000", 40)]])
    found = generate(doc, LineIndex(doc), "de_DE", 2024)
    assert {c.value for c in found["amount"]} == {Decimal("28637.045"), Decimal("22551.7400")}
    index = LineIndex(doc)
    words = {doc.word(r).text: r for r in index.line_of}
    assert key_left(index, (words["€28637.045"],), KEY_LABELS).labels == {"subtotal"}
    assert key_left(index, (words["€22551.7400"],), KEY_LABELS).labels == {"total"}


def test_amounts_with_a_countrys_dollar_or_a_zloty_or_koruna_sign_are_candidates():
    # "HK$41,500.00" as one word: the Hong Kong page's only total; "zł" and "Kč" after Polish and Czech amounts
    doc = _page([[("Total", 40), ("HK$41,500.00", 300)], [("Do zapłaty", 40), ("2 460,00 zł", 300)],
                 [("Celkem", 40), ("12 100,00 Kč", 300)]])
    found = generate(doc, LineIndex(doc), "en_GB", 2024)
    assert {c.value for c in found["amount"]} >= {Decimal("41500.00")}
    found = generate(doc, LineIndex(doc), "de_DE", 2024)
    assert {c.value for c in found["amount"]} >= {Decimal("2460.00"), Decimal("12100.00")}


def test_a_whole_amount_before_its_currency_and_a_date_shaped_number_after_a_number_sign_are_candidates():
    # a Czech sole trader's "8 500 Kč" without decimals; a Polish "Faktura nr 7/04/2024" (count, month, year)
    doc = _page([[("Celkem k úhradě:", 40), ("8 500 Kč", 300)], [("Faktura nr 7/04/2024", 40)], [("Lot 12 500", 40)],
                 [("MwSt 19 $", 40)]])
    found = generate(doc, LineIndex(doc), "cs_CZ", 2024)
    # ("12 500" without a currency stays no amount, and so does a scan's "19 $", a rate's "%" misread)
    assert {c.value for c in found["amount"]} == {Decimal("8500")}
    assert "7/04/2024" in {c.value for c in found["identifier"]}
    assert date(2024, 4, 7) in {c.value for c in found["date"]}  # (the date stays a candidate too)


def test_a_letters_reference_line_keys_the_invoice_number_and_the_order_and_an_identifier_keys_nothing():
    # isodoc: "Your reference | Our reference | Date" over their values; the order number's "PO-" is no key of the
    # invoice number right of it
    doc = _page([[("Your reference", 198), ("Our reference", 298), ("Date", 397)],
                 [("PO-99845", 198), ("2412-7728", 298), ("15th March 2024", 397)],
                 [("Nos références", 298)], [("FAC 22-89", 298)]])
    index = LineIndex(doc)
    words = {doc.word(r).text: r for r in index.line_of}
    assert key_above(index, (words["2412-7728"],), KEY_LABELS).labels == {"invoice_number"}
    assert key_above(index, (words["PO-99845"],), KEY_LABELS).labels == {"purchase_order"}
    assert key_left(index, (words["2412-7728"],), KEY_LABELS) is None
    assert key_above(index, (words["FAC"], words["22-89"]), KEY_LABELS).labels == {"invoice_number"}


def test_a_value_the_text_layer_broke_at_a_font_change_is_one_candidate():
    # "Nr. 471102 vom 05.03.2018" with a bold first digit: pdfplumber reads "4" + "71102" and "0" + "5.03.2018",
    # the pieces' boxes touching; the candidates are the printed values, not their tails
    pieces = [("Handelsrechnung", 50, 181), ("Nr.", 190, 216), ("4", 225, 234), ("71102", 234, 278),
              ("vom", 287, 313), ("0", 322, 330.6), ("5.03.2018", 330.6, 380)]
    words = tuple(Word(text, Box(x0, 140, x1, 151)) for text, x0, x1 in pieces)
    doc = analyze_layout(Document(source="in/invoice.pdf", sha256="0" * 64,
                                  pages=(Page(number=1, width=595.0, height=842.0, words=words),)))
    found = generate(doc, LineIndex(doc), "de_DE", 2018)
    assert {c.value for c in found["identifier"]} == {"471102"}
    assert {c.value for c in found["date"]} == {date(2018, 3, 5)}
    (number,) = found["identifier"]
    assert key_left(LineIndex(doc), number.words).labels == {"invoice_number"}


def test_a_second_value_after_a_key_of_the_field_is_a_keyed_rival():
    from docextract.document import WordRef
    from docextract.extraction.entities import Entity
    from docextract.extraction.evidence import DocumentIndex, keyed_rival

    def entity_of(doc, text):
        (ref,) = [WordRef(0, i) for i, w in enumerate(doc.pages[0].words) if w.text == text]
        return Entity("vendor_tax_id", (ref,), 0.9)

    # the seller's and the buyer's VAT id, both after "USt-IdNr.": choosing one is the layout's call
    doc = _page([[("Verkäufer", 40), ("USt-IdNr.: DE123456789", 200)], [("Käufer", 40), ("USt-IdNr.: DE987654321", 200)]])
    assert keyed_rival(DocumentIndex(doc), entity_of(doc, "DE123456789"), "vendor_tax_id") == 1.0
    doc = _page([[("Verkäufer", 40), ("USt-IdNr.: DE123456789", 200)], [("Rechnungsnummer: 471102", 40)]])
    assert keyed_rival(DocumentIndex(doc), entity_of(doc, "DE123456789"), "vendor_tax_id") == 0.0


def test_a_vat_number_is_told_from_a_national_tax_number_by_its_prefix():
    from docextract.extraction.candidates import has_vat_prefix

    assert has_vat_prefix("DE123456789") and has_vat_prefix("GB 987 6543 21")
    assert not has_vat_prefix("201/113/40209") and not has_vat_prefix("INV-2023-001") and not has_vat_prefix("XX123456")


def test_an_amount_printed_in_digit_groups_is_one_candidate():
    # French "43 781,83": the groups are one amount, never "781,83" alone
    doc = _page([[("Total HT 43 781,83 €", 40)], [("TVA 4 378,18 €", 40)]])
    found = generate(doc, LineIndex(doc), "fr_FR", 2024)
    assert {c.value for c in found["amount"]} == {Decimal("43781.83"), Decimal("4378.18")}
    # read by OCR, whose boxes hug the ink: the narrow "1" of "1 221,00 €" stands further from its group than a text
    # layer's box (a 150-dpi scan of an 8-pt total, boxes as Tesseract gave them)
    words = (Word("Total", Box(400.0, 328.0, 420.0, 334.0)), Word("1", Box(471.2, 328.0, 473.6, 333.8)),
             Word("221,00", Box(477.2, 328.0, 501.0, 334.7)), Word("€", Box(503.6, 328.0, 508.6, 334.0)))
    scan = analyze_layout(Document("scan.jpg", (Page(1, 595.0, 842.0, words, text_source="ocr"),), "0" * 64))
    found = generate(scan, LineIndex(scan), "fr_FR", 2024)
    assert {c.value for c in found["amount"]} == {Decimal("1221.00")}


def test_vom_after_the_invoice_number_keys_the_invoice_date():
    # "Rechnung Nr. 471102 vom 05.03.2018": "vom" after a value is a key; after a word of a sentence it is none
    doc = _page([[("Rechnung Nr. 471102 vom 05.03.2018", 40)]])
    assert _rule_fields(doc, "de_DE")["invoice_date"] == "05.03.2018"
    doc = _page([[("Bemerkung Rechnung gemäß Bestellung vom 01.03.2018.", 40)]])
    assert "invoice_date" not in _rule_fields(doc, "de_DE")


def test_a_time_after_a_date_is_not_part_of_the_date_candidate():
    # receipts print the time after the date; a candidate with the time is not the date a user compares
    doc = _page([[("Date: 15/01/2019 11:05:16 AM", 40)], [("22 MAR 18 12:44:00", 40)]])
    found = generate(doc, LineIndex(doc), "en_MY", 2019)
    texts = sorted(" ".join(doc.word(r).text for r in c.words) for c in found["date"])
    assert texts == ["15/01/2019", "22 MAR 18"]
    assert {c.value for c in found["date"]} == {date(2019, 1, 15), date(2018, 3, 22)}


def test_delivery_and_service_dates_are_keys_of_no_invoice_date():
    # EN 16931's delivery date (BT-72) is printed as "Liefer- und Leistungsdatum", its issue date after "vom" in
    # the title; "Beleg-Datum" keys the issue date, "Leistungs-Datum" the delivery date
    doc = _page([[("Handelsrechnung (380) Nr. 471102 vom 16.09.2018", 40)],
                 [("Liefer- und Leistungsdatum: 05.08.2018", 40)],
                 [("Beleg-Datum : 17.09.2018", 40)], [("Leistungs-Datum : 06.08.2018", 40)]])
    index = LineIndex(doc)
    labels = {" ".join(doc.word(r).text for r in c.words): key_left(index, c.words, KEY_LABELS).labels
              for c in generate(doc, index, "de_DE", 2018)["date"]}
    assert labels == {"16.09.2018": {"invoice_date"}, "05.08.2018": {"other_date"}, "17.09.2018": {"invoice_date"},
                      "06.08.2018": {"other_date"}}
    assert _rule_fields(doc, "de_DE")["invoice_date"] == "16.09.2018"
    assert _rule_fields(_page([[("Liefer- und Leistungsdatum: 05.08.2018", 40)]]), "de_DE").get("invoice_date") is None


def test_the_end_of_a_range_has_the_key_of_its_start():
    # "Billing Period:" in a key column, the range in the value column: its end is no unkeyed date
    doc = _page([[("Billing Period:", 40), ("01/01/24 - 01/31/24", 250)],
                 [("Invoice Date:", 40), ("January 1, 2024 - January 31, 2024", 250)]])
    index = LineIndex(doc)
    keys = {" ".join(doc.word(r).text for r in c.words).rstrip(" -"): key_left(index, c.words, KEY_LABELS)
            for c in generate(doc, index, "en_US", 2024)["date"]}
    assert keys["01/31/24"].labels == {"other_date"}
    assert keys["January 31, 2024"].labels == {"invoice_date"}


def test_the_end_of_a_scanned_range_whose_dash_stands_apart_has_the_key_of_its_row():
    # Tesseract's boxes on a 150-dpi scan: the range's dash sits lower than its dates and is a line of its own, the
    # nearest line left of the range's end; the key is the row's, further left
    words = [Word("Billing", Box(340.9, 272.9, 371.4, 283.5)), Word("Period:", Box(374.5, 273.1, 409.1, 281.3)),
             Word("01/01/24", Box(454.4, 273.2, 495.2, 281.2)), Word("-", Box(498.1, 277.6, 500.8, 278.8)),
             Word("01/31/24", Box(503.9, 273.3, 545.2, 281.3))]
    doc = analyze_layout(Document(source="scan.png", sha256="0" * 64, pages=(
        Page(number=1, width=612.0, height=792.0, words=tuple(words), text_source="ocr"),)))
    index = LineIndex(doc)
    end = WordRef(0, 4)
    assert index.line_left_on_row(end) is not None and index.line_left_on_row(end).word_indices != (0, 1)
    assert key_left(index, (end,), KEY_LABELS).labels == {"other_date"}


def test_a_date_on_the_title_line_is_told_from_other_dates_after_vom():
    from docextract.extraction.candidate_scorer import document_context
    from docextract.extraction.candidates import FEATURES, features

    doc = _page([[("Stylesheet-Version: 2.6 vom 10.11.2025", 40)],
                 [("Handelsrechnung (380) Nr. 471102 vom 15.11.2024", 40)],
                 [("Lieferschein Nr. 8876543219 vom 02.05.2024", 40)]])
    context = document_context(doc, [], {}, "de_DE", 2024)
    title = {" ".join(doc.word(r).text for r in c.words): dict(zip(FEATURES, features(context, c, "invoice_date")))[
        "title_line"] for c in context.candidates["date"]}
    assert title == {"10.11.2025": 0.0, "15.11.2024": 1.0, "02.05.2024": 0.0}


def test_a_remark_that_opens_with_rechnung_is_no_title_and_its_order_dates_are_no_invoice_dates():
    from docextract.extraction.candidate_scorer import document_context
    from docextract.extraction.candidates import FEATURES, features

    doc = _page([[("Handelsrechnung (380) Nr. 471102 vom 05.06.2025", 40)],
                 [("Bemerkung", 40), ("Rechnung gemäß Bestellung Nr. 2025-471331 vom 01.03.2025.", 200)],
                 [("Ihre Bestellung: B-4711 vom 01.02.2025", 40)]])
    context = document_context(doc, [], {}, "de_DE", 2025)
    title = {" ".join(doc.word(r).text for r in c.words): dict(zip(FEATURES, features(context, c, "invoice_date")))[
        "title_line"] for c in context.candidates["date"]}
    assert title == {"05.06.2025": 1.0, "01.03.2025.": 0.0, "01.02.2025": 0.0}  # the page's first title line only
    index = LineIndex(doc)
    words = {doc.word(r).text: r for r in index.line_of}
    # "vom" keys the date of the number before it: the invoice's after the title's number, the order's after an order's
    assert key_left(index, (words["05.06.2025"],), KEY_LABELS).labels == {"invoice_date"}
    assert key_left(index, (words["01.03.2025."],), KEY_LABELS).labels == {"other_date"}
    assert key_left(index, (words["01.02.2025"],), KEY_LABELS).labels == {"other_date"}
    assert key_left(index, (words["01.03.2025."],), frozenset({"invoice_date"})) is None
    # and "Rechnung gemäß Bestellung Nr." is no title that says the invoice's number
    assert key_left(index, (words["2025-471331"],), KEY_LABELS) is None
    assert _rule_fields(doc, "de_DE")["invoice_number"] == "471102"


def test_a_vom_that_opens_the_line_after_an_order_number_keys_the_orders_date():
    # the remark wrapped before "vom": the order's number ends the line above, its date opens the next line
    doc = _page([[("Rechnungsdatum 05.06.2025", 40)],
                 [("Kundenstraße 15", 40), ("Rechnung gemäß Bestellung Nr. 2025-471331", 200)],
                 [("vom 01.03.2025.", 200)],
                 [("Rechnung Nr. 4711", 40)], [("vom 06.06.2025", 40)]])
    index = LineIndex(doc)
    words = {doc.word(r).text: r for r in index.line_of}
    assert key_left(index, (words["01.03.2025."],), KEY_LABELS).labels == {"other_date"}
    # after the invoice's own number the wrapped "vom" still keys the invoice date
    assert key_left(index, (words["06.06.2025"],), KEY_LABELS).labels == {"invoice_date"}


def test_a_french_order_number_key_is_read_whole():
    # "commande" alone is a key, but "de" before it ends no cell: the whole "Numéro de commande" must be one
    doc = _page([[("10 Tech Park Avenue", 40), ("Numéro de commande: PO-BUYER-7788", 300)]])
    index = LineIndex(doc)
    words = {doc.word(r).text: r for r in index.line_of}
    assert key_left(index, (words["PO-BUYER-7788"],), KEY_LABELS).labels == {"purchase_order"}


def test_a_qualifier_in_parentheses_after_a_key_is_not_part_of_it():
    doc = _page([[("Rechnungssumme Netto (exkl. USt.) 193,83", 40)], [("Summe Umsatzsteuer 21,31", 40)],
                 [("Rechnungssumme Brutto (inkl. USt.) 215,14", 40)]])
    index = LineIndex(doc)
    labels = {" ".join(doc.word(r).text for r in c.words): key_left(index, c.words, KEY_LABELS).labels
              for c in generate(doc, index, "de_DE", 2013)["amount"]}
    assert labels == {"193,83": {"subtotal"}, "21,31": {"total_tax"}, "215,14": {"total"}}


def test_a_currency_code_alone_before_a_value_leaves_the_key_to_the_row():
    # SROIE prints "CASH" and "RM 50.00" as two boxes of one row: the key of 50.00 is the cash's, left of its line
    doc = _page([[("TOTAL", 40), ("RM 38.90", 200)], [("CASH", 40), ("RM 50.00", 200)]])
    index = LineIndex(doc)
    fifty = [r for r in index.doc.ordered_words() if doc.word(r).text == "50.00"]
    hit = key_left(index, fifty, KEY_LABELS)
    assert hit is not None and hit.labels == {"tendered"}
    total = [r for r in index.doc.ordered_words() if doc.word(r).text == "38.90"]
    assert key_left(index, total, KEY_LABELS).labels == {"total"}


def test_an_erps_name_of_the_vat_number_type_keys_the_vat_id():
    # Tryton prints a party's tax identifier after its type's name, in the page's language
    for key, value in (("European VAT Number:", "DE186684656"), ("Europäische USt-IdNr.:", "DE186684656"),
                       ("Numéro de TVA européen :", "FR40303265045"), ("Europees BTW-nummer:", "NL123456789B01"),
                       ("EIN:", "12-3456789"), ("U.S. Employer Identification Number:", "12-3456789")):
        doc = _page([[(f"{key} {value}", 40)]])
        value_words = [WordRef(0, i) for i, word in enumerate(doc.pages[0].words) if word.text == value]
        hit = key_left(LineIndex(doc), value_words, KEY_LABELS)
        assert hit is not None and "vendor_tax_id" in hit.labels, key


def _placed_page(cells: list[tuple[str, tuple[float, float, float, float]]], text_source: str = "pdf_text") -> Document:
    """A page of cells at the given boxes (x0, top, x1, bottom), their words spread over the cell's width."""
    words = []
    for text, (x0, top, x1, bottom) in cells:
        parts = text.split()
        step = (x1 - x0) / len(parts)
        words += [Word(part, Box(x0 + k * step, top, x0 + (k + 1) * step - 3, bottom)) for k, part in enumerate(parts)]
    return analyze_layout(Document(source="in/invoice.pdf", sha256="0" * 64,
                                   pages=(Page(number=1, width=595.0, height=842.0, words=tuple(words),
                                               text_source=text_source),)))


def test_a_heading_beside_the_top_of_a_smaller_value_is_no_key_of_it():
    # gen-invoice: the heading "Invoice" (18 pt) over its "#IN1900956"; the vendor's tax id under its own key in the
    # next column sits beside the heading's foot: the heading is not on its row, so keys the number, not the tax id
    doc = _placed_page([("Identifier (ABN/VAT number/etc.):", (295.4, 142.3, 525.0, 154.3)),
                        ("Invoice", (80.2, 145.8, 153.5, 163.8)), ("GB712082791", (437.9, 156.2, 525.0, 168.2)),
                        ("#IN1900956", (80.2, 166.9, 207.9, 184.9))])
    index = LineIndex(doc)
    words = {doc.word(r).text: r for r in index.line_of}
    assert key_left(index, (words["GB712082791"],), KEY_LABELS) is None
    assert key_above(index, (words["GB712082791"],), KEY_LABELS).labels == {"vendor_tax_id"}
    assert key_above(index, (words["#IN1900956"],), KEY_LABELS).labels == {"invoice_number"}
    # a title beside its number on one row, the number smaller and centred on it, still keys it
    doc = _placed_page([("INVOICE", (60.0, 100.0, 200.0, 124.0)), ("#4711", (400.0, 106.0, 440.0, 118.0))])
    index = LineIndex(doc)
    words = {doc.word(r).text: r for r in index.line_of}
    assert key_left(index, (words["#4711"],), KEY_LABELS).labels == {"invoice_number"}


def test_a_key_wrapped_over_two_lines_keys_the_value_after_its_tail():
    # gen-invoice's right-aligned header column: "Identifier (ABN/VAT number/" over "etc.): 27-3692522"
    doc = _placed_page([("Identifier (ABN/VAT number/", (320.2, 122.3, 515.0, 134.3)),
                        ("etc.): 27-3692522", (403.7, 136.4, 515.0, 148.4))])
    index = LineIndex(doc)
    words = {doc.word(r).text: r for r in index.line_of}
    assert key_left(index, (words["27-3692522"],), KEY_LABELS).labels == {"vendor_tax_id"}
    # left-aligned, a key of the invoice number ("Invoice" over "number: 4711"); a line of its own above is no head
    doc = _placed_page([("Invoice", (60.0, 100.0, 100.0, 112.0)), ("number: 4711", (60.0, 114.0, 140.0, 126.0)),
                        ("Our bank", (60.0, 160.0, 110.0, 172.0)), ("details: 4712", (60.0, 190.0, 140.0, 202.0))])
    index = LineIndex(doc)
    words = {doc.word(r).text: r for r in index.line_of}
    assert key_left(index, (words["4711"],), KEY_LABELS).labels == {"invoice_number"}
    assert key_left(index, (words["4712"],), KEY_LABELS) is None


def test_a_key_is_not_read_across_two_lines_of_ocr():
    # OCR's lines of a receipt stack tight, and a wrapped key read there cost SROIE 4 of its 347 totals
    doc = _placed_page([("Identifier (ABN/VAT number/", (320.2, 122.3, 515.0, 134.3)),
                        ("etc.): 27-3692522", (403.7, 136.4, 515.0, 148.4))], text_source="ocr")
    index = LineIndex(doc)
    words = {doc.word(r).text: r for r in index.line_of}
    assert key_left(index, (words["27-3692522"],), KEY_LABELS) is None


def _left_key_labels(doc, text):
    index = LineIndex(doc)
    ref = next(WordRef(0, w) for w, word in enumerate(doc.pages[0].words) if word.text == text)
    hit = key_left(index, (ref,), KEY_LABELS)
    return None if hit is None else set(hit.labels)


def test_an_account_number_and_indias_half_taxes_are_keyed_as_no_field():
    # "Account Number: 50200012345678" under an Indian agency's bank details (a tagger took it for the seller's tax
    # id), its "IFSC"; "CGST" and "SGST", each half of the tax of a sale within a state, are no total of the tax
    doc = _page([[("Account Number: 50200012345678", 50)], [("IFSC: HDFC0001234", 50)], [("CGST 3,600.00", 380)],
                 [("SGST 3,600.00", 380)], [("Total (INR) 47,200.00", 380)]])
    assert _left_key_labels(doc, "50200012345678") == {"other_number"}
    assert _left_key_labels(doc, "HDFC0001234") == {"other_number"}
    index = LineIndex(doc)
    amounts = [c for c in generate(doc, index, "en_IN", 2024)["amount"] if doc.word(c.words[0]).text == "3,600.00"]
    assert len(amounts) == 2 and all(key_left(index, c.words, KEY_LABELS).labels == {"other_amount"} for c in amounts)


def test_a_rows_tax_category_keys_no_amount():
    # EN 16931's visualisations print each allowance's tax category and rate before its amount ("7 % VAT (S)
    # 0,02"): no key of the invoice's tax, which the totals print after "Steuerbetrag"
    doc = _page([[("Abschlag Rechnungsrabatt", 40), ("7 % VAT (S)", 300), ("0,02", 450)],
                 [("Steuerbetrag", 250), ("-1,12", 450)], [("19 % VAT", 300), ("20,16", 450)]])
    assert _left_key_labels(doc, "0,02") is None
    assert "total_tax" in _left_key_labels(doc, "-1,12")
    assert "total_tax" in _left_key_labels(doc, "20,16")  # a rate before a tax key, no category: the tax's key
    # OCR reads the category's "S" as a 5; a text layer's "(5)" stays what it is
    scanned = _page([[("7% VAT (5)", 300), ("0,02", 450)]])
    scanned = replace(scanned, pages=(replace(scanned.pages[0], text_source="ocr"),))
    assert _left_key_labels(scanned, "0,02") is None
    assert "total_tax" in _left_key_labels(_page([[("7% VAT (5)", 300), ("0,02", 450)]]), "0,02")


def test_a_number_sign_that_ends_a_key_and_two_keys_either_side_of_a_slash():
    # "Order # 302-...": the "#" read as a separator is the key's own ("Order" alone keys nothing); "Invoice date /
    # Delivery date": the date is the invoice's too, not only the delivery's
    doc = _page([[("Invoice date / Delivery date", 330), ("12.03.2024", 480)], [("Order # 302-1234567-7654321", 50)]])
    found = _rule_fields(doc)
    assert found["purchase_order"] == "302-1234567-7654321"
    assert found["invoice_date"] == "12.03.2024"
    assert _left_key_labels(doc, "12.03.2024") == {"invoice_date", "other_date"}
    # a slash between a key and a word that is none names nothing more
    doc = _page([[("Delivery date / Zeit", 330), ("12.03.2024", 480)]])
    assert "invoice_date" not in (_left_key_labels(doc, "12.03.2024") or set())
    # the slash glued to the second key or to the first (Amazon's German "Rechnungsdatum /Lieferdatum")
    for key in ("Rechnungsdatum /Lieferdatum", "Rechnungsdatum/ Lieferdatum"):
        doc = _page([[(key, 50), ("14.03.2024", 180)]])
        assert _left_key_labels(doc, "14.03.2024") == {"invoice_date", "other_date"}, key
        assert _rule_fields(doc)["invoice_date"] == "14.03.2024"
    # slashes alone or at either end split nothing (a lone "/" first once split a key into nothing and itself)
    for key in ("/ Rechnungsdatum", "Rechnungsdatum /", "/", "a/ b/ c/"):
        doc = _page([[(key, 50), ("14.03.2024", 180)]])
        _left_key_labels(doc, "14.03.2024")


def test_a_vat_subtotal_is_the_tax():
    doc = _page([[("Item subtotal (excl. VAT)", 200), ("€75.60", 330)], [("VAT subtotal", 200), ("€14.37", 330)]])
    assert _left_key_labels(doc, "€14.37") == {"total_tax"}
    assert _left_key_labels(doc, "€75.60") == {"subtotal"}


def test_a_number_printed_in_digit_groups_is_one_identifier():
    # a telephone company's "Rechnungsnummer 4012 3456 7890": one number, not three
    doc = _page([[("Rechnungsnummer", 380), ("4012 3456 7890", 460)], [("Menge", 40), ("12 34", 300)]])
    identifiers = [c.value for c in generate(doc, LineIndex(doc), "de_DE", 2024)["identifier"]]
    assert "4012 3456 7890" in identifiers and "4012" not in identifiers
    assert "12 34" not in identifiers  # a table row's "12 34" is two numbers


def test_a_dash_between_a_footers_parts_ends_the_cell_before_a_key():
    doc = _page([[("EDF SA - 552 081 317 R.C.S. Paris - TVA intracommunautaire FR03552081317", 40)]])
    assert _left_key_labels(doc, "FR03552081317") == {"vendor_tax_id"}


def test_a_title_that_refers_to_another_invoice_keys_that_invoices_number_as_no_field():
    # a credit note's "Gutschrift zu Rechnung Nr. RE-2024-0815 vom 01.02.2024": the corrected invoice's number and
    # date, not the credit note's own ("Gutschrift-Nr.: GS-2024-007")
    doc = _page([[("Gutschrift-Nr.:", 380), ("GS-2024-007", 460)],
                 [("Gutschrift zu Rechnung Nr. RE-2024-0815 vom 01.02.2024", 50)]])
    assert _left_key_labels(doc, "RE-2024-0815") == {"other_number"}
    assert _left_key_labels(doc, "01.02.2024") == {"other_date"}
    assert _rule_fields(doc, "de_DE")["invoice_number"] == "GS-2024-007"
    # the word after "zur" names no document: the title's number is the invoice's
    doc = _page([[("Beitragsrechnung zur Kraftfahrtversicherung Nr. 00.123.456.7", 50)]])
    assert _left_key_labels(doc, "00.123.456.7") == {"invoice_number"}


def test_keys_of_a_us_purchase_order_and_a_swiss_enterprise_number():
    doc = _page([[("P.O. #", 400), ("4500123", 480)], [("UID", 50), ("CHE-100.999.380", 80)]])
    assert _left_key_labels(doc, "4500123") == {"purchase_order"}
    assert _left_key_labels(doc, "CHE-100.999.380") == {"vendor_tax_id"}


def test_your_order_no_keys_the_order():
    doc = _page([[("Your Order No:", 360), ("CH-PO-7781", 450)]])
    assert _left_key_labels(doc, "CH-PO-7781") == {"purchase_order"}


def test_a_keyed_value_in_a_header_rows_value_line_keys_nothing_after_it():
    # "Your Ref. | Page" over "PO 88-114 | 1/1", the value row read as one line: "PO 88-114" is a keyed value, not
    # the key of the page count after it; a date range's end still has its start's key
    doc = _page([[("Customer No.", 270), ("Your Ref.", 380), ("Page", 490)],
                 [("C-1002", 270), ("PO 88-114", 380), ("1/1", 490)],
                 [("Rechnungszeitraum: 01.04.2014 - 30.06.2014", 50)]])
    assert _left_key_labels(doc, "1/1") is None
    assert _left_key_labels(doc, "88-114") == {"purchase_order"}
    assert _left_key_labels(doc, "30.06.2014") == _left_key_labels(doc, "01.04.2014")


def test_the_tax_inside_a_receipt_like_total():
    doc = _page([[("TOTAL", 50), ("$100.00", 470)], [("GST included in total", 50), ("$9.09", 480)],
                 [("Total incl. GST", 50), ("$100.00", 470)]])
    assert _left_key_labels(doc, "$9.09") == {"total_tax"}
    assert "total" in _left_key_labels(doc, "$100.00")


def test_a_hotel_bills_header_row_keys_its_number_and_date_and_not_the_room_or_the_stay():
    doc = _page([[("Kamer", 50), ("Aankomst", 130), ("Vertrek", 220), ("Nota nr.", 380), ("Datum", 460)],
                 [("204", 50), ("10-04-2024", 130), ("12-04-2024", 220), ("48213", 380), ("12-04-2024", 460)]])
    index = LineIndex(doc)
    refs = sorted((r for r in index.line_of if r.word_index >= 6), key=lambda r: r.word_index)  # the value row
    values = [doc.word(r).text for r in refs]
    assert values == ["204", "10-04-2024", "12-04-2024", "48213", "12-04-2024"]
    above = [key_above(index, (r,), KEY_LABELS) for r in refs]
    assert [set(hit.labels) if hit else None for hit in above] == [
        {"other_number"}, {"other_date"}, {"other_date"}, {"invoice_number"}, {"invoice_date"}]
    # a header over its value is no key wrapped onto the value's line: "Nota nr." over "48213" keys no date after it
    assert all(key_left(index, (r,), KEY_LABELS) is None for r in refs)
    found = _rule_fields(doc, "nl_NL")
    assert (found["invoice_number"], found["invoice_date"]) == ("48213", "12-04-2024")


def test_a_credit_notes_invoice_date_under_the_invoice_it_credits_is_that_invoices():
    doc = _page([[("Credit note no.", 350), ("CR-00128", 450)], [("Date", 350), ("21/03/2024", 450)],
                 [("Against invoice", 350), ("INV-04417", 450)], [("Invoice date", 350), ("02/03/2024", 450)]])
    index = LineIndex(doc)
    words = {doc.word(r).text: r for r in index.line_of}
    assert key_left(index, (words["02/03/2024"],), KEY_LABELS).labels == {"other_date"}
    assert key_left(index, (words["21/03/2024"],), KEY_LABELS).labels == {"invoice_date"}
    # an invoice's own "Invoice date" under its number keeps its key
    doc = _page([[("Invoice no.", 350), ("INV-04417", 450)], [("Invoice date", 350), ("02/03/2024", 450)]])
    index = LineIndex(doc)
    words = {doc.word(r).text: r for r in index.line_of}
    assert key_left(index, (words["02/03/2024"],), KEY_LABELS).labels == {"invoice_date"}


def test_a_tax_after_its_rate_and_the_amount_it_is_taken_of_is_keyed():
    doc = _page([[("Btw 9% over 328,00", 50), ("27,08", 200)], [("VAT 20% on 100.00", 50), ("20.00", 200)],
                 [("Payable over 30 days", 50)]])
    index = LineIndex(doc)
    words = {doc.word(r).text: r for r in index.line_of}
    assert "total_tax" in key_left(index, (words["27,08"],), KEY_LABELS).labels
    assert "total_tax" in key_left(index, (words["20.00"],), KEY_LABELS).labels
    assert key_left(index, (words["days"],), KEY_LABELS) is None


def test_a_reference_heading_beside_the_invoice_dates_heading_keys_the_invoice_number():
    doc = _page([[("Référence", 50), ("Date de facture", 180), ("Date d'échéance", 300), ("Identifiant client", 420)],
                 [("FR51234567", 50), ("01/03/2024", 180), ("01/03/2024", 300), ("dc12345-nuage", 420)]])
    assert _rule_fields(doc, "fr_FR")["invoice_number"] == "FR51234567"
    # a reference beside no date's heading is anybody's
    doc = _page([[("Référence", 50), ("Quantité", 180)], [("AB-1234", 50), ("2", 180)]])
    assert "invoice_number" not in _rule_fields(doc, "fr_FR")


def test_a_bare_number_heading_keys_the_invoice_number_only_in_a_row_of_the_invoices_own_keys():
    # Fatture in Cloud: "FATTURA" over a "Numero | Data" header row
    doc = _page([[("FATTURA", 50)], [("Numero", 50), ("Data", 140)], [("24/2024", 50), ("15/04/2024", 140)]])
    assert _rule_fields(doc, "it_IT")["invoice_number"] == "24/2024"
    # an item table's "No. | Date | Description | Amount" numbers its rows: no invoice number
    doc = _page([[("No.", 50), ("Date", 100), ("Description", 200), ("Amount", 450)],
                 [("17", 50), ("04/03/2024", 100), ("Consulting", 200), ("400.00", 450)]])
    assert "invoice_number" not in _rule_fields(doc)


def test_a_two_digit_invoice_number_under_its_key_is_read():
    # an Italian e-invoice as the SDI's viewers print it: "45" is too short for a number of its own, but its key
    # names it; a two-digit quantity under no such key stays no candidate
    doc = _page([[("Tipologia documento", 50), ("Numero documento", 170), ("Data documento", 290)],
                 [("TD01 fattura", 50), ("45", 170), ("20-03-2024", 290)], [("Quantità", 300)], [("12", 300)]])
    assert _rule_fields(doc, "it_IT")["invoice_number"] == "45"
    assert [c.value for c in generate(doc, LineIndex(doc), "it_IT", 2024)["identifier"]] == ["TD01", "45"]


def test_a_web_or_mail_address_ends_the_cell_before_a_key():
    # a footer run "info@acme.be  www.acme.be  TVA: BE0477472701" set with single spaces
    doc = _page([[("info@lumiere.be www.lumiere-conseil.be TVA: BE0477472701", 40)]])
    index = LineIndex(doc)
    value = next(WordRef(0, i) for i, w in enumerate(doc.pages[0].words) if w.text == "BE0477472701")
    hit = key_left(index, (value,), KEY_LABELS)
    assert hit is not None and "vendor_tax_id" in hit.labels


def test_a_tax_ids_key_in_capitals_inside_a_running_line_names_it():
    # a scan's OCR lost the dash before "CIF" in "Ronda de la Comunicación s/n, 28050 Madrid - CIF A28015394"
    doc = _page([[("Ronda de la Comunicación s/n, 28050 Madrid CIF A28015394", 40)]])
    index = LineIndex(doc)
    at = {w.text: WordRef(0, i) for i, w in enumerate(doc.pages[0].words)}
    hit = key_left(index, (at["A28015394"],), KEY_LABELS)
    assert hit is not None and hit.labels == {"vendor_tax_id"}
    # not in lower case, nor before an amount
    doc = _page([[("Madrid cif A28015394", 40)], [("Shipping VAT 120.00", 40)]])
    index = LineIndex(doc)
    at = {w.text: WordRef(0, i) for i, w in enumerate(doc.pages[0].words)}
    assert key_left(index, (at["A28015394"],), KEY_LABELS) is None
    assert key_left(index, (at["120.00"],), KEY_LABELS) is None


def test_the_row_and_line_lookups_see_what_a_scan_of_the_whole_page_sees():
    # words_left_on_row and line_above ask only the words and lines near the value (by their tops): on pages of
    # scattered words of mixed heights they return exactly what a scan of every word and every line of the page
    # returns
    import random

    from docextract.extraction.key_context import ABOVE_LINES_OF_HEIGHT, line_above, words_left_on_row

    def left_by_scan(doc, first, slack):
        box, page = doc.word(first).box, doc.pages[first.page_index]
        return sorted((WordRef(0, w) for w, word in enumerate(page.words) if word.box.x1 <= box.x0 + slack
                       and word.box.vertical_overlap(box) > 0.5 * min(word.box.height, box.height)),
                      key=lambda r: doc.word(r).box.x0)

    def above_by_scan(index, first):
        doc, page, line = index.doc, index.doc.pages[0], index.line(first)
        value_box = doc.word(first).box
        height = max(value_box.height, 1e-6)
        found = None
        for other in page.lines:
            if (other is line or other.box.bottom > value_box.top + 0.3 * height
                    or value_box.top - other.box.bottom > ABOVE_LINES_OF_HEIGHT * height
                    or not any(page.words[w].box.horizontal_overlap(value_box) > 0 for w in other.word_indices)):
                continue
            if found is None or other.box.bottom > found.box.bottom:
                found = other
        return found

    rng = random.Random(7)
    for _ in range(5):
        words = []
        for k in range(120):
            x0, top, size = rng.uniform(20, 540), rng.uniform(20, 800), rng.choice((6.0, 8.0, 9.0, 14.0, 24.0))
            words.append(Word(f"w{k}", Box(x0, top, x0 + rng.uniform(10, 60), top + size)))
        doc = analyze_layout(Document(source="in/invoice.pdf", sha256="0" * 64,
                                      pages=(Page(number=1, width=595.0, height=842.0, words=tuple(words)),)))
        index = LineIndex(doc)
        for w in range(len(words)):
            first = WordRef(0, w)
            for slack in (0.0, 1.0):
                assert words_left_on_row(doc, first, slack) == left_by_scan(doc, first, slack)
            if index.line(first) is None or len(set(index.line(first).word_indices)) != 1:
                continue  # (line_above reads a value of one word here: its box is then the word's)
            found = line_above(index, [first])
            assert (found[0] if found else None) is above_by_scan(index, first)


def test_a_tax_named_after_its_amount_inside_the_total_is_the_total_tax():
    # a web shop's total "(includes £14.16 VAT)": the key split around its amount; the shipping's "£4.95 via Royal
    # Mail" is an amount of one word, not read with the word after it
    doc = _page([[("Shipping", 330), ("£4.95 via Royal Mail", 470)], [("Total", 330), ("£84.95", 470)],
                 [("(includes £14.16 VAT)", 470)]])
    index = LineIndex(doc)
    amounts = {" ".join(doc.word(r).text for r in c.words): c for c in generate(doc, index, "en_GB", 2024)["amount"]}
    assert set(amounts) == {"£4.95", "£84.95", "£14.16"}
    hit = key_left(index, amounts["£14.16"].words, KEY_LABELS)
    assert hit.labels == {"total_tax"} and [doc.word(r).text for r in hit.words] == ["(includes", "VAT)"]
    assert _rule_fields(doc)["total_tax"] == "£14.16"
    # an amount after "includes" and before a word that keys no tax is not the tax
    other = _page([[("Total", 330), ("£84.95", 470)], [("(includes £4.95 shipping)", 470)]])
    index = LineIndex(other)
    [small] = [c for c in generate(other, index, "en_GB", 2024)["amount"] if other.word(c.words[0]).text == "£4.95"]
    assert key_left(index, small.words, KEY_LABELS) is None


def test_a_letters_place_before_a_date_is_the_invoice_dates_key():
    for line, place in (("Bordeaux, le 14 juin 2024", "Bordeaux, le"), ("Leipzig, den 05.03.2024", "Leipzig, den"),
                        ("Frankfurt am Main, 12. März 2024", "Frankfurt am Main,"),
                        ("Zaragoza, 15 de julio de 2024", "Zaragoza,")):
        doc = _page([[(line, 40)]])
        date_start = next(i for i, word in enumerate(doc.pages[0].words) if word.text[:1].isdigit())
        value = [WordRef(0, i) for i in range(date_start, len(doc.pages[0].words))]
        hit = key_left(LineIndex(doc), value)
        assert hit is not None and hit.labels == {"invoice_date"}, line
        assert " ".join(doc.word(r).text for r in hit.words) == place, line
    # an address's number, an item's month, a date that does not end its line: no key
    for line in ("Flat 3, 19 Victoria Road", "Power BI Pro licences, June 2024", "Lunch buffet, 35 guests",
                 "Paris, 14 juin 2024 et 15 juin 2024"):
        doc = _page([[(line, 40)]])
        starts = [i for i, word in enumerate(doc.pages[0].words) if word.text[:1].isdigit() or word.text == "June"]
        value = [WordRef(0, i) for i in range(starts[0], starts[0] + 1)]
        assert key_left(LineIndex(doc), value) is None, line


def test_an_order_key_with_its_number_sign_keys_the_order():
    # Sage 100's "Votre commande n° CDE 24-0593 du 05/06/2024 - Bon de livraison n° BL240655 du 14/06/2024"
    doc = _page([[("Votre commande n° CDE 24-0593 du 05/06/2024 - Bon de livraison n° BL240655 du 14/06/2024", 50)],
                 [("Ihre Bestellung Nr. BE-7781", 50)]])
    index = LineIndex(doc)
    words = {doc.word(r).text: r for r in index.line_of}
    assert key_left(index, (words["CDE"], words["24-0593"]), KEY_LABELS).labels == {"purchase_order"}
    assert key_left(index, (words["BE-7781"],), KEY_LABELS).labels == {"purchase_order"}
    doc = _page([[("V/ Requisição: REQ 47/2024", 50)]])  # a Portuguese fatura's "your requisition"
    assert _left_key_labels(doc, "REQ") == {"purchase_order"}
    doc = _page([[("Ihre Bestell-Nr.:", 340), ("4500218374", 430)]])
    assert _left_key_labels(doc, "4500218374") == {"purchase_order"}
    # an ERP's header grid: "N° facture" and "N° commande" over their values
    grid = _page([[("Client", 50), ("N° facture", 215), ("N° commande", 330)],
                  [("411BRUM04", 50), ("24FC018742", 215), ("CMD-1114", 330)]])
    grid_index = LineIndex(grid)
    cells = {grid.word(r).text: r for r in grid_index.line_of}
    assert key_above(grid_index, (cells["24FC018742"],), KEY_LABELS).labels == {"invoice_number"}
    assert key_above(grid_index, (cells["CMD-1114"],), KEY_LABELS).labels == {"purchase_order"}
    order_date = key_left(index, (words["05/06/2024"],), KEY_LABELS)
    assert order_date is None or "invoice_date" not in order_date.labels


def test_a_deposits_date_and_a_share_capital_are_keyed_as_no_field():
    # "Acompte versé le 05/06/2024" in the totals: a payment's date, not the invoice's ("le" alone keys it); the
    # share capital in the legal footer is no amount of the invoice
    doc = _page([[("Acompte versé le 05/06/2024", 340)], [("Provision reçue le 11/03/2024", 340)],
                 [("Les Saveurs du Quercy SARL au capital de 20 000 € - ZA de Regourd", 50)]])
    index = LineIndex(doc)
    words = {doc.word(r).text: r for r in index.line_of}
    assert key_left(index, (words["05/06/2024"],), KEY_LABELS).labels == {"other_date"}
    assert key_left(index, (words["11/03/2024"],), KEY_LABELS).labels == {"other_date"}
    assert key_left(index, (words["20"], words["000"], words["€"]), KEY_LABELS).labels == {"other_amount"}


def test_a_date_after_a_keyed_number_takes_the_date_of_that_number():
    # "Facture n° 7021845533 du 04/09/2024": the key reads through the number, the date is the invoice's; not after
    # an order's number (a receipt's "ORDER NO. 1000249 11/03/2018" is its own date)
    for line, labels in (("Numéro de client 1.482.736 - Facture n° 7021845533 du 04/09/2024", {"invoice_date"}),
                         ("ORDER NO. 1000249 11/03/2018", {"purchase_order"})):
        doc = _page([[(line, 40)]])
        date_word = next(w for w in doc.pages[0].words if w.text.startswith(("04/", "11/"))).text
        assert _left_key_labels(doc, date_word) == labels, line
    # an amount after a keyed number keeps the number's key
    assert _left_key_labels(_page([[("Facture n° 123 : 1234,56", 40)]]), "1234,56") == {"invoice_number"}


def test_a_number_sign_in_a_key_column_is_the_keys_own():
    # a registrar's key column "Order #" beside "3318427705"; "Openstaand saldo" keys the amount due
    doc = _page([[("Invoice #", 350), ("INV-08-4471902", 440)], [("Order #", 350), ("3318427705", 440)],
                 [("Openstaand saldo", 330), ("€ 0,00", 500)]])
    assert _left_key_labels(doc, "3318427705") == {"purchase_order"}
    assert _left_key_labels(doc, "0,00") == {"amount_due"}


def test_a_slashed_key_names_the_first_value_of_its_pair_by_its_first_half():
    # an SAP form's key column: "Ihre Bestellung/Datum" | "HS-4471 / 08.11.2024", "Belegnummer/Datum" | "90041877 /
    # 18.11.2024": the number is the order's and the invoice's, not a date's
    doc = _page([[("Belegnummer/Datum", 340), ("90041877 / 18.11.2024", 440)],
                 [("Ihre Bestellung/Datum", 340), ("HS-4471 / 08.11.2024", 440)]])
    index = LineIndex(doc)
    words = {w.text: WordRef(0, i) for i, w in enumerate(doc.pages[0].words)}
    assert key_left(index, (words["90041877"],), KEY_LABELS).labels == {"invoice_number"}
    assert key_left(index, (words["HS-4471"],), KEY_LABELS).labels == {"purchase_order"}
    # a value with no pair after it is not named by half a key
    doc = _page([[("Ihre Bestellung/Datum", 340), ("HS-4471", 440)]])
    assert key_left(LineIndex(doc), (WordRef(0, 2),), KEY_LABELS) is None


def test_keys_of_telephone_bills_web_shops_couriers_and_erp_forms():
    from docextract.extraction.field_keywords import closing_keys, key_tokens

    def keyed(key: str) -> set[str]:
        tokens = [t for word in key.replace("/", " ").split() for t in key_tokens(word)]
        labels, length = closing_keys(tokens)
        return set(labels) if length == len(tokens) else set()

    # a mobile bill's own charges beside the balance brought forward that "Total to pay" adds
    assert keyed("Total charges excluding VAT") == {"subtotal"} and keyed("VAT at") == {"total_tax"}
    assert keyed("Total charges this month") == {"total"}
    # a VAT table's base column; an order after "Uw bestelbon:", "Bestelbon", "Bon de cde"
    assert keyed("Grondslag") == {"subtotal"} and keyed("Base HT") == {"subtotal"}
    assert keyed("Uw bestelbon") == keyed("Bestelbon") == keyed("Bon de cde") == {"purchase_order"}
    # a total's equivalent in another currency and a contact person name no field
    assert keyed("Gegenwert") == {"other_amount"} and keyed("Kontaktperson") == {"contact"}
    # a Belgian clinic's "Totaal btw", a French "Solde à régler", "Your PO ref", Dynamics NAV's posting date
    assert keyed("Totaal btw") == {"total_tax"} and keyed("Solde à régler") == {"amount_due"}
    assert keyed("Your PO ref") == {"purchase_order"} and "invoice_date" in keyed("Date comptabilisation")


def test_a_date_with_its_months_name_between_dashes_is_a_date():
    # an ERP's "30-Nov-2024" in a header row of keys over values
    doc = _page([[("Invoice Date", 40), ("Due Date", 200)], [("03-Oct-2024", 40), ("30-Nov-2024", 200)]])
    dates = {c.value for c in generate(doc, LineIndex(doc), "en_GB", 2024)["date"]}
    assert dates == {date(2024, 10, 3), date(2024, 11, 30)}


def test_a_key_that_ends_in_a_small_word_of_its_own_is_whole():
    # "dû" ends a key of the amount due, which the page prints beside its total; not a filler to trim ("Total dû" is
    # no "Total"). "Total de la facture" and "Total des taxes" are the total's and the tax's whole keys
    doc = _page([[("Total des taxes", 300), ("855,72 $", 450)], [("Total de la facture", 300), ("6 570,04 $", 450)],
                 [("Solde antérieur", 300), ("1 149,75 $", 450)], [("Montant total dû", 300), ("7 719,79 $", 450)]])
    found = _rule_fields(doc, "fr_CA")
    assert found["total_tax"].startswith("855,72")
    assert found["total"].startswith("6 570,04")
    assert found["amount_due"].startswith("7 719,79")
    doc = _page([[("Rechnungsdatum", 40), ("02.09.2024", 200)], [("Fällig am", 40), ("16.09.2024", 200)]])
    assert _rule_fields(doc, "de_DE")["due_date"] == "16.09.2024"


def test_payment_terms_of_net_days_key_no_value_beside_them():
    # a header row "TERMS | P.O. #" over "Net 30 | HPM-PO-20871": "Net" keys a subtotal, "Net 30" is the terms
    doc = _page([[("TERMS", 40), ("P.O. #", 200)], [("Net 30", 40), ("HPM-PO-20871", 200)]])
    index = LineIndex(doc)
    value = next(r for r in index.line_of if doc.word(r).text == "HPM-PO-20871")
    hit = key_left(index, (value,), KEY_LABELS)
    assert hit is None or "subtotal" not in hit.labels
    assert _rule_fields(doc)["purchase_order"] == "HPM-PO-20871"


def test_a_canadian_tax_account_printed_apart_is_one_number_after_its_key():
    # the business number in groups and its GST/HST program account ("RT0001"), Quebec's QST number and its "TQ0001"
    doc = _page([[("HST # 79431 2587 RT0001", 40)], [("No TVQ : 1225483171 TQ0001", 40)]])
    values = {c.value for c in generate(doc, LineIndex(doc), "en_CA", 2024)["identifier"]}
    assert {"794312587RT0001", "1225483171TQ0001"} <= values
    doc = _page([[("No TPS : 814720934 RT0001", 40)], [("Date : 2024-02-12", 40)]])
    found = {e.label: e.text(doc) for e in key_value_entities(doc, [], ("vendor_tax_id",), {}, "fr_CA", 2024)}
    assert found["vendor_tax_id"] == "814720934 RT0001"


def test_the_buyers_order_keys_and_the_amounts_that_are_no_invoice_amount():
    # "Ihre Auftragsnummer", "Bon de commande client", "PO-nummer" key the buyer's order; a progress invoice's contract
    # sum ("Aanneemsom") and a note d'honoraires' fees before its disbursements ("Total honoraires TTC") key no amount
    for key, value in (("Ihre Auftragsnummer", "IV-2024-318"), ("Bon de commande client :", "PO-4471"),
                       ("PO-nummer", "4500012873")):
        doc = _page([[(key, 40), (value, 200)]])
        assert _rule_fields(doc, "de_DE")["purchase_order"] == value, key
    for key in ("Aanneemsom", "Total honoraires TTC"):
        doc = _page([[(key, 40), ("186.400,00", 300)]])
        index = LineIndex(doc)
        hit = key_left(index, (next(r for r in index.line_of if doc.word(r).text == "186.400,00"),), KEY_LABELS)
        assert hit is not None and hit.labels == {"other_amount"}, key


def test_keys_of_public_buyers_orders_erp_document_numbers_and_amounts_no_field_holds():
    # Chorus Pro's "Numéro d'engagement" is the public buyer's order; SAP Business One's "N° de document" the invoice's
    # number; a bill's "Previous balance" and a restaurant's "Pourboire (hors TVA)" key no amount field; "Uw
    # btw-nummer" is the buyer's VAT number, no seller's
    doc = _page([[("Numéro d'engagement : 2100458712", 40)], [("N° de document", 40), ("2400871", 200)]])
    found = _rule_fields(doc, "fr_FR")
    assert found["purchase_order"] == "2100458712" and found["invoice_number"] == "2400871"
    for key, labels in (("Previous balance", {"other_amount"}), ("Pourboire (hors TVA)", {"other_amount"}),
                        ("Total charges before VAT", {"subtotal"}), ("Uw btw-nummer", {"other_number"})):
        doc = _page([[(key, 40), ("1.082,16" if "btw" not in key else "NL414432605B01", 300)]])
        index = LineIndex(doc)
        value = next(r for r in index.line_of if doc.word(r).text in ("1.082,16", "NL414432605B01"))
        hit = key_left(index, (value,), KEY_LABELS)
        assert hit is not None and hit.labels == labels, key


def test_a_bare_number_key_over_the_invoice_dates_key_keys_the_invoice_number():
    # a French final invoice: "Numéro : F-2024-0241" over "Date d'émission : 22/10/2024" under its title, and a
    # deposit invoice's "Facture d'acompte n° F-2024-0188 du 10/06/2024" in the right column
    doc = _page([[("Facture de solde", 40)], [("Numéro : F-2024-0241", 40)],
                 [("Date d'émission : 22/10/2024", 40)]], line_spacing=12)
    index = LineIndex(doc)
    value = next(r for r in index.line_of if doc.word(r).text == "F-2024-0241")
    hit = key_left(index, (value,), KEY_LABELS)
    assert hit is not None and hit.labels == {"invoice_number"}
    doc = _page([[("Numéro : 4471", 40)], [("Quantité : 12", 40)]], line_spacing=12)  # no date's key under it
    index = LineIndex(doc)
    hit = key_left(index, (next(r for r in index.line_of if doc.word(r).text == "4471"),), KEY_LABELS)
    assert hit is None or "invoice_number" not in hit.labels


def test_a_date_after_a_deliverys_number_is_no_invoice_date():
    doc = _page([[("Lieferung", 50), ("LV-24-01932 vom 15.11.2024", 160)]])
    index = LineIndex(doc)
    value = next(r for r in index.line_of if doc.word(r).text == "15.11.2024")
    hit = key_left(index, (value,), KEY_LABELS)
    assert hit is not None and hit.labels == {"other_date"}


def test_a_key_whose_date_stands_between_it_and_its_amount_still_keys_the_amount():
    # a cloud bill's "TOTAL AMOUNT DUE ON May 2, 2024" in one cell, its amount in the next
    doc = _page([[("TOTAL AMOUNT DUE ON May 2, 2024", 330), ("$1,976.87", 510)]])
    index = LineIndex(doc)
    hit = key_left(index, (next(r for r in index.line_of if doc.word(r).text == "$1,976.87"),), KEY_LABELS)
    assert hit is not None and "amount_due" in hit.labels
    # a date that ends the words without such a word before it keys nothing ("Invoice 2024")
    doc = _page([[("Shipped 2 May 2024", 330), ("$1,976.87", 510)]])
    index = LineIndex(doc)
    hit = key_left(index, (next(r for r in index.line_of if doc.word(r).text == "$1,976.87"),), KEY_LABELS)
    assert hit is None or "amount_due" not in hit.labels
