"""Layouts of stop 70's vendor pages (German public bodies and utilities, Spanish and Italian utility bills, Belgian
and Dutch organisations and professions, English vertical industries) and of its pages that are no invoice (reminders,
statements, pro formas, remittances, quotations): each test a mechanism read off one of them, on a small page laid
out as `run` lays one out."""

from docextract.document import WordRef
from docextract.extraction.candidate_scorer import CandidateScorer, FieldModel, choose_fields
from docextract.extraction.candidates import FEATURES
from docextract.extraction.doctype import document_type
from docextract.extraction.entities import Entity
from docextract.extraction.field_keywords import closing_keys, key_tokens
from docextract.extraction.key_values import key_value_entities
from tests.layout_helpers import laid_out_page as _page


def _model(intercept: float, **weights: float) -> FieldModel:
    n = len(FEATURES)
    return FieldModel((0.0,) * n, (1.0,) * n, tuple(weights.get(name, 0.0) for name in FEATURES), intercept)


def _word(doc, text: str, nth: int = 0) -> WordRef:
    return [WordRef(0, i) for i, w in enumerate(doc.pages[0].words) if w.text == text][nth]


def _chosen(doc, entities, scorer, locale="de_DE") -> dict[str, str]:
    return {e.label: e.text(doc) for e in choose_fields(doc, entities, {}, scorer, locale, 2024) if e.assigned}


def _keyed(doc, labels, locale="de_DE") -> dict[str, str]:
    return {e.label: e.text(doc) for e in key_value_entities(doc, [], labels, {}, locale, 2024)}


def _keys(text: str) -> frozenset:
    return closing_keys([t for word in text.split() for t in key_tokens(word)])[0]


def test_keys_of_this_round_name_their_fields():
    # EN 16931's own German names, as an XRechnung viewer prints them
    assert _keys("Gesamtbetrag ohne Umsatzsteuer") == {"subtotal"}
    assert _keys("Gesamtbetrag einschließlich Umsatzsteuer") == {"total"}
    assert _keys("Fälliger Zahlungsbetrag") == {"amount_due"}
    assert _keys("Importo da pagare") == {"amount_due"} and _keys("Totale da pagare") == {"amount_due"}
    assert _keys("Kosten insgesamt") == {"total"} and _keys("TOTAL RECIBO") == {"total"}
    assert _keys("Saldo te betalen") == {"amount_due"} and _keys("Current payment due") == {"amount_due"}
    assert _keys("VAT INVOICE No.") == {"invoice_number"} and _keys("Numero bolletta") == {"invoice_number"}
    assert _keys("Nº DE FACTURA") == {"invoice_number"} and _keys("Kassenzeichen") == {"invoice_number"}
    assert _keys("Fecha emisión") == {"invoice_date", "date"}
    assert _keys("Owner P.O. No.") == {"purchase_order"} and _keys("Sub-contract order") == {"purchase_order"}
    assert _keys("Rekvisitionsnr.") == {"purchase_order"}
    # what a fee or a premium is reckoned on: no field's amount
    assert _keys("Aankoopprijs") == {"other_amount"} and _keys("Total capitales") == {"other_amount"}
    assert _keys("Original contract sum") == {"other_amount"} and _keys("Raming bouwkost") == {"other_amount"}
    # a quotation's or a reminder's number: another number
    assert _keys("N° de devis") == {"other_number"} and _keys("Angebots-Nr.") == {"other_number"}


def test_a_salutation_alone_in_two_languages_over_the_name_is_no_name_of_its_own():
    # a Belgian hospital's "Mevrouw – Madame" over its patient: the label goes on to the name, as "Herrn" does (the
    # salutation stays with it, as the e-invoices' own buyer names print it: "Herrn Max Mustermann")
    for salutation, name in (("Herrn", "Dr. Matthias Brenneke"), ("Mevrouw – Madame", "Anne-Sophie Verlinden")):
        doc = _page([[("Rechnungsempfänger", 48)], [(salutation, 48)], [(name, 48)], [("Lindenallee 27", 48)],
                     [("34302 Ebersfeld", 48)]], line_spacing=12)
        assert _keyed(doc, ["customer_name", "billing_address"])["customer_name"] == f"{salutation}\n{name}"


def test_a_tax_id_keyed_under_the_contract_holder_is_the_buyers():
    # a Spanish electricity bill's contract data: "Titular: Javier Moreno Castillo" over "NIF: 28734519K"
    doc = _page([[("Titular:", 40), ("Javier Moreno Castillo", 138)], [("NIF:", 40), ("28734519K", 138)]],
                line_spacing=11)
    assert "vendor_tax_id" not in _keyed(doc, ["vendor_tax_id"], "es_ES")
    seller = _page([[("Emisor:", 40), ("Lumisur Clientes, S.A.U.", 138)], [("NIF:", 40), ("A41872367", 138)]],
                   line_spacing=11)
    assert _keyed(seller, ["vendor_tax_id"], "es_ES") == {"vendor_tax_id": "A41872367"}


def test_the_first_amount_of_a_row_of_sums_is_no_total_nor_subtotal():
    # a hospital's "Totaal / Total | À charge O.A. | Quote-part | Suppléments | Total patient" row
    doc = _page([[("Totaal / Total", 40), ("6.033,61", 301), ("348,70", 382), ("20,20", 456), ("368,90", 527)]])
    assert "total" not in _keyed(doc, ["total"], "fr_BE")
    # a club's "Sous-total | cotisations | assurance | total" row, which a tagger read as the subtotal
    doc = _page([[("Sous-total", 40), ("865,00", 366), ("120,00", 446), ("985,00", 526)]])
    tagged = [Entity("subtotal", (_word(doc, "865,00"),), 0.94, "model", assigned=True)]
    scorer = CandidateScorer(FEATURES, {"subtotal": _model(-6.0)})
    assert "subtotal" not in _chosen(doc, tagged, scorer, "fr_BE")


def test_the_base_a_rate_is_reckoned_on_is_no_total():
    doc = _page([[("Registratierechten 2 % op 315.000,00 (enige eigen woning)", 52), ("6.300,00", 517)],
                 [("Totaal kosten", 300), ("€ 10.794,04", 500)]])
    scorer = CandidateScorer(FEATURES, {"total": _model(-1.0, amount_largest=4.0)})
    assert _chosen(doc, [], scorer, "nl_BE").get("total") != "315.000,00"
    # a cash discount is reckoned on the total: its base stays a candidate
    doc = _page([[("Skonto 2 % von 1.190,00", 52), ("23,80", 517)]])
    assert _chosen(doc, [], scorer).get("total") == "1.190,00"


def test_a_deduction_printed_negative_adds_up_to_no_tax():
    # "Gross value of work to date 186,420.00 | Less retention (9,321.00) | Net valuation 177,099.00": read
    # backwards, net + retention = gross; the invoice's total is keyed below
    doc = _page([[("Gross value of work to date", 300), ("186,420.00", 510)],
                 [("Less retention @ 5%", 300), ("(9,321.00)", 514)],
                 [("Net valuation to date", 300), ("177,099.00", 510)],
                 [("Invoice Total", 300), ("€34,489.00", 502)]])
    scorer = CandidateScorer(FEATURES, {"subtotal": _model(-4.0), "total_tax": _model(-4.0),
                                        "total": _model(-2.0, key_left_own=3.0, amount_largest=2.0)})
    assert _chosen(doc, [], scorer, "en_IE").get("total") == "€34,489.00"


def test_a_listed_earlier_bill_with_its_date_and_sum_is_no_invoice_number():
    doc = _page([[("NUMERO BOLLETTA", 40), ("DATA DI EMISSIONE", 165)], [("412400887651", 40), ("08/03/2024", 165)],
                 [], [], [("Bolletta n. 412300761140 del 09/01/2024 di 168,92 € pagata il 29/01/2024.", 40)]],
                line_spacing=12)
    scorer = CandidateScorer(FEATURES, {"invoice_number": _model(-2.0, key_left_own=2.0, key_above_own=1.0)})
    assert _chosen(doc, [], scorer, "it_IT")["invoice_number"] == "412400887651"


def test_a_trade_registers_folio_and_an_ordinal_are_no_invoice_number():
    doc = _page([[("FACTURA", 330), ("FECHA", 400)], [("A-24/0317", 330), ("31.03.2024", 400)], [], [],
                 [("Inscrita en el Registro Mercantil de Salamanca, Tomo 388, Folio 142, Hoja SA-11873", 40)]],
                line_spacing=12)
    scorer = CandidateScorer(FEATURES, {"invoice_number": _model(-2.0, key_left_own=4.0, key_above_own=2.0)})
    assert _chosen(doc, [], scorer, "es_ES")["invoice_number"] == "A-24/0317"
    doc = _page([[("FACTURA", 430)], [("Servicio de agua · 1er bimestre 2024", 380)]], line_spacing=12)
    assert "invoice_number" not in _chosen(doc, [], scorer, "es_ES")


def test_pages_titled_as_no_invoice_are_other_whatever_invoice_keys_they_print():
    rows = [[("Rechnungs-Nr.", 48), ("vom", 150), ("fällig am", 250), ("Betrag", 480)],
            [("RE-24-0311", 48), ("02.04.2024", 150), ("02.05.2024", 250), ("2.315,20", 480)],
            [("Gesamtforderung", 300), ("2.364,40", 480)], [("IBAN DE84 4005 0150 0095 6772 13", 48)]]
    for title in ("1. Mahnung", "Deuxième rappel – factures impayées", "Betreft: bevestiging ontvangst betaling",
                  "STATEMENT OF ACCOUNT", "PRO-FORMA-RECHNUNG", "Faktura pro forma nr PF 112/11/2024",
                  "Betalningspåminnelse"):
        assert document_type(_page([[(title, 48)], *rows], line_spacing=14)).type == "other", title
    # the same keys under an invoice's title are an invoice's; a reminder listed in its body is no title
    assert document_type(_page([[("RECHNUNG", 48)], *rows], line_spacing=14)).type == "invoice"
    assert document_type(_page([[("RECHNUNG", 48)], *rows, [("Mahnung", 48)]], line_spacing=14)).type == "invoice"


def test_a_quotation_known_only_by_its_numbers_key_is_other():
    doc = _page([[("LE GOFF", 40)], [("N° de devis", 40), ("Date", 140), ("Validité", 240)],
                 [("D-24-0612", 40), ("12/06/2024", 140), ("30 jours", 240)],
                 [("Total HT", 300), ("11 388,60", 480)], [("TVA 20 %", 300), ("2 277,72", 480)],
                 [("Total TTC", 300), ("13 666,32", 480)]], line_spacing=14)
    assert document_type(doc).type == "other"


def test_the_customers_order_in_an_erp_header_grid_is_the_purchase_order():
    # SAP's billing document: "Auftrag" (the seller's sales order) before "Bestellnummer des Kunden / Datum"
    doc = _page([[("Fakturanummer", 50), ("Kundennummer", 180), ("Auftrag", 330)],
                 [("90318842", 50), ("100482", 180), ("10027715", 330)],
                 [("Bestellnummer des Kunden / Datum", 50), ("Lieferdatum", 330)],
                 [("4500387716 / 22.02.2024", 50), ("08.03.2024", 330)]], line_spacing=16)
    assert _keyed(doc, ["purchase_order"])["purchase_order"] == "4500387716"
