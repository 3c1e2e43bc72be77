"""Layouts of stop 69's vendor pages (Spanish and Italian software, Swiss QR-bills, logistics and construction,
cross-border invoices): each test a mechanism read off one of them, on a small page laid out as `run` lays one out."""

from docextract.document import WordRef
from docextract.extraction.candidate_scorer import CandidateScorer, FieldModel, choose_fields
from docextract.extraction.candidates import FEATURES
from docextract.extraction.doctype import document_type
from docextract.extraction.entities import Entity
from docextract.extraction.field_keywords import closing_keys, is_legal_form, key_tokens
from docextract.extraction.key_context import LineIndex, key_left
from docextract.extraction.key_values import complete_ibans, complete_party_names, key_value_entities
from docextract.extraction.party_blocks import block_extents, party_fields
from tests.layout_helpers import laid_out_page as _page

LABELS = ["invoice_number", "invoice_date", "due_date", "purchase_order", "vendor_tax_id", "subtotal", "total_tax",
          "total", "amount_due"]


def _model(intercept: float, **weights: float) -> FieldModel:
    n = len(FEATURES)
    return FieldModel((0.0,) * n, (1.0,) * n, tuple(weights.get(name, 0.0) for name in FEATURES), intercept)


def _word(doc, text: str, nth: int = 0) -> WordRef:
    return [WordRef(0, i) for i, w in enumerate(doc.pages[0].words) if w.text == text][nth]


def _chosen(doc, entities, scorer, locale="es_ES") -> dict[str, str]:
    return {e.label: e.text(doc) for e in choose_fields(doc, entities, {}, scorer, locale, 2024) if e.assigned}


def _keys(text: str) -> frozenset:
    return closing_keys([t for word in text.split() for t in key_tokens(word)])[0]


def test_keys_of_this_round_name_their_fields():
    assert _keys("Total exkl. MWST") == {"subtotal"}  # not the tax its last word names
    assert _keys("Total inkl. MWST") == {"total"}
    assert _keys("Totaal incl. btw") == {"total"} and _keys("Total excl. TVA") == {"subtotal"}
    assert _keys("Rechnungsbetrag brutto") == {"total"} and _keys("Rechnungsbetrag netto") == {"subtotal"}
    assert _keys("Totale imposta") == {"total_tax"} and _keys("Btw verlegd") == {"total_tax"}
    assert _keys("Totaal factuurbedrag") == {"total"}
    assert _keys("Rundungsdifferenz") == {"other_amount"} and _keys("Totale opdrachtsom") == {"other_amount"}
    assert _keys("Su pedido nº") == {"purchase_order"} and _keys("Uw opdrachtnummer") == {"purchase_order"}
    assert _keys("N.I.F.") == {"vendor_tax_id"} and _keys("C.I.F.") == {"vendor_tax_id"}
    assert _keys("Cód. cliente") == {"other_number"} and _keys("Wasserzähler Nr.") == {"other_number"}
    assert is_legal_form("Anstalt") and is_legal_form("Sagl")


def test_a_spanish_date_of_five_words_after_its_place_is_the_invoice_date():
    doc = _page([[("Madrid, 15 de abril de 2024", 400)], [("FECHA", 40), ("CONCEPTO", 100)],
                 [("08/01/2024", 40), ("Estudio de antecedentes", 100), ("350,00 €", 500)]])
    scorer = CandidateScorer(FEATURES, {"invoice_date": _model(-1.0, date_first=2.0, key_left_own=3.0)})
    assert _chosen(doc, [], scorer)["invoice_date"] == "15 de abril de 2024"


def test_a_header_rows_bare_number_beside_a_page_and_a_series_cell_keys_the_invoice_number():
    # "Número | Fecha | Página" and "Serie | Número | Fecha | Cód. cliente | N.I.F." under a Spanish "FACTURA"
    for header, values in (([("Número", 345), ("Fecha", 425), ("Página", 500)],
                            [("24/002318", 345), ("30/11/2024", 425), ("1", 500)]),
                           ([("SERIE", 40), ("NÚMERO", 90), ("FECHA", 150), ("CÓD. CLIENTE", 225), ("N.I.F.", 310)],
                            [("FV24", 40), ("000318", 90), ("15/03/2024", 150), ("430.00127", 225),
                             ("B50663210", 310)])):
        doc = _page([[("FACTURA", 40)], header, values], line_spacing=12)
        number = values[1][0] if values[0][0] == "FV24" else values[0][0]
        found = {e.label: e.text(doc) for e in key_value_entities(doc, [], ["invoice_number"], {}, "es_ES", 2024)}
        assert found == {"invoice_number": number}


def test_a_page_keyed_only_by_header_rows_is_an_invoice():
    doc = _page([[("FACTURA", 345)], [("Número", 345), ("Fecha", 425)], [("24/002318", 345), ("30/11/2024", 425)],
                 [("Base imponible", 250), ("Total IVA", 370), ("TOTAL FACTURA", 460)],
                 [("624,52", 270), ("80,35", 380), ("719,80 €", 480)]], line_spacing=12)
    assert document_type(doc).type == "invoice"


def test_an_amount_under_its_key_in_a_strip_of_totals_is_keyed():
    # "Importe bruto | Base imponible | Total IVA | TOTAL FACTURA" over one row of values: the base, not the gross
    doc = _page([[("Importe bruto", 40), ("Dto. P.P. 2 %", 150), ("Base imponible", 250), ("Cuota IVA", 370),
                  ("TOTAL FACTURA", 460)],
                 [("637,27", 60), ("-12,75", 160), ("624,52", 270), ("80,35", 380), ("719,80 €", 480)]],
                line_spacing=12)
    found = {e.label: e.text(doc) for e in key_value_entities(doc, [], ["subtotal", "total_tax", "total"], {},
                                                              "es_ES", 2024)}
    assert found == {"subtotal": "624,52", "total_tax": "80,35", "total": "719,80 €"}
    # the scorer's choice of the unkeyed gross gives way to the strip's base
    tagged = [Entity("subtotal", (_word(doc, "637,27"),), 0.86, "model", assigned=True)]
    scorer = CandidateScorer(FEATURES, {"subtotal": _model(-3.0, tagged=6.0)})
    assert _chosen(doc, tagged, scorer)["subtotal"] == "624,52"
    # a line-item table's "Total" column runs on under its header: no strip
    items = _page([[("Descripción", 40), ("Total", 480)], [("Cable", 40), ("1.115,40", 480)],
                   [("Conector", 40), ("343,20", 480)]], line_spacing=12)
    assert key_value_entities(items, [], ["total"], {}, "es_ES", 2024) == []


def test_an_aside_in_brackets_between_a_key_and_its_amount_is_skipped():
    doc = _page([[("MWST 0.0 % (Ausfuhr, Art. 23 Abs. 2 Ziff. 1 MWSTG)", 50), ("0.00", 528)]])
    hit = key_left(LineIndex(doc), (_word(doc, "0.00"),))
    assert hit is not None and "total_tax" in hit.labels


def test_a_number_printed_again_after_the_sellers_tax_id_key_is_no_order_number():
    # a seller's bare CIF in its letterhead, which a tagger read as the order number, is the footer's "CIF ..."
    doc = _page([[("B97564322", 514)], [("Nº PEDIDO", 280)], [("SDT-2024-017", 280)], [], [], [],
                 [("Brújula Creativa, S.L. · CIF B97564322 · Registro Mercantil de Valencia", 40)]], line_spacing=12)
    tagged = [Entity("purchase_order", (_word(doc, "B97564322"),), 0.91, "model", assigned=True)]
    scorer = CandidateScorer(FEATURES, {"purchase_order": _model(-3.0, tagged=6.0, key_above_own=2.0)})
    assert _chosen(doc, tagged, scorer).get("purchase_order") != "B97564322"


def test_the_tax_id_on_the_sellers_legal_line_is_the_sellers():
    # (the footer's legal line at the page's foot, 55 rows down)
    doc = _page([[("CÓD. CLIENTE", 225), ("N.I.F.", 330)], [("430.00127", 225), ("B50663210", 330)], *[[]] * 54,
                 [("SUMINISTROS ELÉCTRICOS ALMENARA, S.A. – C.I.F. A50187426 – Inscrita en el Registro", 40)]],
                line_spacing=12)
    scorer = CandidateScorer(FEATURES, {"vendor_tax_id": _model(-2.0, key_above_own=3.0, y=-4.0)})
    assert _chosen(doc, [], scorer)["vendor_tax_id"] == "A50187426"


def test_a_buyers_block_under_a_header_rows_client_heading_holds_the_buyers_tax_id():
    doc = _page([[("NÚMERO", 40), ("FECHA", 120), ("CLIENTE", 380)],
                 [("F240318", 40), ("12/04/2024", 120), ("Clínica Dental Nazaret, S.L.", 380)],
                 [("NIF: ESB46218731", 380)], [("Avinguda del Port 114", 380)], [("46023 València", 380)]],
                line_spacing=11)
    found = party_fields(doc, ["customer_name", "billing_address"])
    assert " ".join(doc.word(r).text for r in found["customer_name"]) == "Clínica Dental Nazaret, S.L."
    assert [e.side for e in block_extents(doc)] == ["customer_name"]
    tagged = [Entity("vendor_tax_id", (_word(doc, "ESB46218731"),), 0.98, "model", assigned=True),
              Entity("vendor_tax_id", (_word(doc, "114"),), 0.38, "model")]
    scorer = CandidateScorer(FEATURES, {"vendor_tax_id": _model(-3.0, tagged=6.0)})
    assert not [e for e in choose_fields(doc, tagged, {}, scorer, "es_ES", 2024) if e.label == "vendor_tax_id"]


def test_the_buyers_order_keyed_as_theirs_wins_whatever_its_score():
    doc = _page([[("Auftrag", 50), ("A-24-0513", 130)], [("Ihre Bestellung", 50), ("AB-117 vom 22.08.2024", 130)]])
    scorer = CandidateScorer(FEATURES, {"purchase_order": _model(-1.0, key_left_own=1.2, y=-20.0)})
    assert _chosen(doc, [], scorer, "de_CH")["purchase_order"] == "AB-117"


def test_an_invoice_number_under_a_grid_of_the_invoices_keys_wins_over_a_meters_number():
    doc = _page([[("Rechnungs-Nr.", 50), ("Rechnungsdatum", 150), ("Zahlbar bis", 420)],
                 [("2024-20-07713", 50), ("15.01.2025", 150), ("14.02.2025", 420)],
                 [("Wasserzähler Nr. 21-44871", 50)]], line_spacing=12)
    tagged = [Entity("invoice_number", (_word(doc, "21-44871"),), 0.8, "model", assigned=True)]
    scorer = CandidateScorer(FEATURES, {"invoice_number": _model(-5.0, tagged=5.0)})
    assert _chosen(doc, tagged, scorer, "de_CH")["invoice_number"] == "2024-20-07713"


def test_a_partial_invoice_listed_in_a_final_invoice_is_no_invoice_number():
    doc = _page([[("Rechnungsnummer", 345), ("2024/0612", 450)], [("SCHLUSSRECHNUNG", 40)],
                 [("1. Teilrechnung Nr. 2024/0311 vom 28.06.2024", 40), ("42.000,00", 522)]])
    tagged = [Entity("invoice_number", (_word(doc, "2024/0311"),), 0.96, "model", assigned=True)]
    scorer = CandidateScorer(FEATURES, {"invoice_number": _model(-2.0, tagged=4.0, key_left_own=1.0)})
    assert _chosen(doc, tagged, scorer, "de_AT")["invoice_number"] == "2024/0612"


def test_a_number_in_swiss_posts_groups_is_one_number():
    doc = _page([[("Numéro de facture", 345), ("9 400 318 775", 455)], [("Date de facture", 345), ("05.07.2024", 455)]])
    found = {e.label: e.text(doc) for e in key_value_entities(doc, [], ["invoice_number"], {}, "fr_CH", 2024)}
    assert found == {"invoice_number": "9 400 318 775"}


def test_a_date_fields_reading_that_is_no_date_goes():
    doc = _page([[("Número", 345), ("Fecha", 425)], [("24/002318", 345), ("30/11/2024", 425)]], line_spacing=12)
    tagged = [Entity("due_date", (_word(doc, "24/002318"),), 0.04, "model", assigned=True)]
    scorer = CandidateScorer(FEATURES, {"due_date": _model(-8.0)})
    assert "due_date" not in _chosen(doc, tagged, scorer)


def test_the_account_a_payment_slip_prints_again_is_the_iban():
    doc = _page([[("Zahlung in EUR", 50), ("IBAN CH18 0852 1004 7188 2060 2", 130)],
                 [("Zahlung in CHF", 50), ("IBAN CH72 0852 1004 7188 2060 0", 130)], [],
                 [("Konto / Zahlbar an", 40), ("Konto / Zahlbar an", 340)],
                 [("CH18 0852 1004 7188 2060 2", 40), ("CH18 0852 1004 7188 2060 2", 340)]])
    start = _word(doc, "CH72")
    tagged = Entity("iban", tuple(WordRef(0, start.word_index + i) for i in range(6)), 0.99, "model", assigned=True)
    assert complete_ibans(doc, [tagged])[0].text(doc) == "CH18 0852 1004 7188 2060 2"
    # one account alone stays
    alone = _page([[("IBAN CH72 0852 1004 7188 2060 0", 130)]])
    start = _word(alone, "CH72")
    tagged = Entity("iban", tuple(WordRef(0, start.word_index + i) for i in range(6)), 0.99, "model", assigned=True)
    assert complete_ibans(alone, [tagged])[0].text(alone) == "CH72 0852 1004 7188 2060 0"


def test_a_qr_bills_debtor_block_names_the_customer():
    doc = _page([[("Konto / Zahlbar an", 40)], [("CH42 0874 0500 1932 7400 1", 40)], [("Zugersee Analytics AG", 40)],
                 [("Baarerstrasse 71", 40)], [("6300 Zug", 40)], [], [("Zahlbar durch", 40)],
                 [("Meridian Pharma Services AG", 40)], [("Grafenauweg 12", 40)], [("6304 Zug", 40)]], line_spacing=11)
    found = party_fields(doc, ["customer_name", "billing_address"])
    assert " ".join(doc.word(r).text for r in found["customer_name"]) == "Meridian Pharma Services AG"


def test_a_name_ends_at_its_legal_form_not_on_the_trades_line_under_it():
    doc = _page([[("Rheintal Elektrotechnik Anstalt", 102)], [("Elektroinstallationen · Telematik", 102)]],
                line_spacing=10)
    words = tuple(WordRef(0, i) for i in range(4))
    name = Entity("vendor_name", words, 0.81, "model", assigned=True)
    assert complete_party_names(doc, [name])[0].text(doc) == "Rheintal Elektrotechnik Anstalt"
    # "... GmbH & Co." over "KG" goes on
    doc = _page([[("Lieferant GmbH & Co.", 40)], [("KG", 40)]], line_spacing=10)
    name = Entity("vendor_name", tuple(WordRef(0, i) for i in range(5)), 0.81, "model", assigned=True)
    assert complete_party_names(doc, [name])[0].text(doc) == "Lieferant GmbH & Co.\nKG"



def test_a_self_billed_invoice_is_an_invoice_whose_parties_a_person_checks():
    doc = _page([[("Gutschrift", 45)], [("im Sinne von § 14 Abs. 2 Satz 2 UStG – Abrechnung im Gutschriftsverfahren", 45)],
                 [("Gutschrift-Nr.", 360), ("GS-24-00371", 445)], [("Gutschriftsbetrag brutto", 330), ("10.781,86 €", 497)],
                 [("Rechnungsdatum", 360), ("15.07.2024", 445)]])
    kind = document_type(doc)
    assert kind.type == "invoice" and kind.signals["self_billed"]
    # a credit note that corrects an invoice stays one
    note = _page([[("Gutschrift", 45)], [("zu Rechnung Nr. 4711 vom 02.05.2024", 45)], [("Gutschrift-Nr.", 360),
                  ("GS-24-00371", 445)], [("Betrag brutto", 330), ("-119,00 €", 497)], [("Rechnungsdatum", 360),
                  ("15.07.2024", 445)]])
    assert document_type(note).type == "credit_note" and not document_type(note).signals["self_billed"]


def test_a_sentences_words_stay_a_keyed_tax_ids_too():
    # a legal footer line a model read as the payment terms holds the seller's VAT number after its key
    doc = _page([[("Gemeindewerke Buchtal · MWST-Nr. CHE-402.047.204 MWST · Einwendungen innert 30 Tagen", 50)],
                 [("Commune de Vallamont · N° IDE CHE-736.671.744 TVA · Page 1/1", 50)]])
    first_line = tuple(WordRef(0, i) for i in range(12))
    terms = Entity("payment_terms", first_line, 0.81, "model", assigned=True)
    found = {e.label: e.text(doc) for e in key_value_entities(doc, [terms], ["vendor_tax_id", "payment_terms"], {},
                                                              "de_CH", 2024)}
    assert found["vendor_tax_id"] == "CHE-402.047.204" and "payment_terms" in found
    assert _keys("N° IDE") == {"vendor_tax_id"}


def test_a_long_number_before_a_date_is_no_part_of_it():
    from docextract.extraction.candidates import generate

    doc = _page([[("Facture n° 0987654321 du 12 mars 2024", 40)]])
    dates = [" ".join(doc.word(r).text for r in c.words) for c in generate(doc, LineIndex(doc), "fr_FR", 2024)["date"]]
    assert dates == ["12 mars 2024"]


def test_a_row_listing_an_earlier_invoice_is_no_strip_of_totals():
    # "Rechnung | vom | bezahlt am | netto | USt. 19 % | brutto" over the advance invoice a final invoice deducts
    doc = _page([[("Rechnung", 50), ("vom", 140), ("bezahlt am", 195), ("netto", 350), ("USt. 19 %", 428),
                  ("brutto", 520)],
                 [("AR/2024/00311", 50), ("15.10.2024", 140), ("29.10.2024", 195), ("-10.000,00", 342),
                  ("-1.900,00", 426), ("-11.900,00", 510)]], line_spacing=11)
    assert key_value_entities(doc, [], ["subtotal", "total_tax", "total"], {}, "de_DE", 2024) == []


def test_a_row_of_column_sums_gives_the_total_only_its_last_amount():
    # "Summe" under a progress invoice's table: the contract sums' column, then the work done; the invoice's total is
    # "Rechnungsbetrag brutto" below
    doc = _page([[("Titel", 40), ("Auftragssumme €", 300), ("Leistung kumuliert €", 450)],
                 [("01", 40), ("18.400,00", 310), ("18.400,00", 470)], [("Summe", 72), ("453.321,00", 300),
                  ("313.134,88", 470)], [("Rechnungsbetrag brutto", 240), ("109.209,56 €", 470)]], line_spacing=14)
    scorer = CandidateScorer(FEATURES, {"total": _model(-2.0, key_left_own=4.0, amount_largest=2.0)})
    assert _chosen(doc, [], scorer, "de_DE")["total"] == "109.209,56 €"


def test_an_invoice_that_deducts_a_credit_note_stays_an_invoice():
    doc = _page([[("FACTURE", 40)], [("N° de facture :", 40), ("2024/1187", 135)],
                 [("Date de facture :", 40), ("31/10/2024", 135)], [("Total TVAC", 330), ("4 704,82 €", 510)],
                 [("Avoir n° 2024/A-041 du 15/10/2024 à déduire", 330), ("-140,36 €", 521)],
                 [("Solde à payer", 330), ("4 564,46 €", 510)]])
    assert document_type(doc).type == "invoice"
    note = _page([[("AVOIR", 40)], [("N° d'avoir :", 40), ("2024/A-041", 135)], [("Date :", 40), ("15/10/2024", 135)],
                  [("Facture n° 2024/1011 du 30/09/2024", 40)], [("Total TTC", 330), ("-140,36 €", 510)]])
    assert document_type(note).type == "credit_note"


def test_a_receipts_gst_summary_of_two_keys_is_no_strip_of_totals():
    # "Amount (RM) | GST (RM)" over one row: a receipt's net and its tax, not its total (7 of SROIE's first 100 totals)
    doc = _page([[("GST Summary", 40), ("Amount (RM)", 200), ("Tax (RM)", 330)],
                 [("SR @ 6%", 40), ("160.17", 200), ("9.61", 330)]], line_spacing=12)
    found = {e.label for e in key_value_entities(doc, [], ["total", "total_tax"], {}, "en_MY", 2018)}
    assert "total" not in found
    # nor does the scorer take the net for a total it chose none for
    scorer = CandidateScorer(FEATURES, {"total": _model(-9.0)})
    assert "total" not in _chosen(doc, [], scorer, "en_MY")
