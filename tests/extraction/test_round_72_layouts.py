"""Stop 72's pages that are no invoice but cite one by the invoice's own keys (a factoring bank's notice listing the
invoices assigned, a credit insurer's claim form, a reminder whose "Fattura n. | 118/2024" block stands over its
subject, a delivery note keying its invoice's number beside its title, a dispute letter) and of its bills that do not
call themselves invoices (a law firm's bill listing an earlier one): each test a mechanism read off one of them, on a
small page laid out as `run` lays one out."""

from docextract.extraction.candidate_scorer import CandidateScorer, FieldModel, choose_fields
from docextract.extraction.candidates import FEATURES
from docextract.extraction.doctype import document_type
from tests.layout_helpers import laid_out_page as _page


def model(intercept: float, **weights: float) -> FieldModel:
    """A scorer's field model of the given weights (features unscaled)."""
    return FieldModel((0.0,) * len(FEATURES), (1.0,) * len(FEATURES), tuple(weights.get(name, 0.0) for name in FEATURES),
                      intercept)


_LETTERHEAD = [[("Hollandse Kredietverzekering", 48)], [("Kredietverzekering · Incasso", 48)]]
_INVOICE_LIST = [[("Factuurnummer", 48), ("Factuurdatum", 150), ("Vervaldatum", 250), ("Factuurbedrag", 400)],
                 [("F-24-0311", 48), ("02.04.2024", 150), ("02.05.2024", 250), ("2.315,20", 420)],
                 [("F-24-0317", 48), ("09.04.2024", 150), ("09.05.2024", 250), ("1.100,00", 420)],
                 [("F-24-0342", 48), ("16.04.2024", 150), ("16.05.2024", 250), ("4.020,80", 420)]]
_TOTAL_AND_IBAN = [[("Totaal", 300), ("7.436,00", 420)], [("IBAN NL07 RABO 0318 4629 57", 48)]]


def test_keys_over_a_list_of_invoices_name_the_invoices_listed_not_the_page():
    # a claim form's table of unpaid invoices: its headers key no number or date of the page's own (held out: the
    # page was typed invoice, its total, IBAN and due date accepted)
    doc = _page([*_LETTERHEAD, *_INVOICE_LIST, *_TOTAL_AND_IBAN], line_spacing=14)
    kind = document_type(doc)
    assert kind.type == "other", kind.reasons
    assert "invoice_number" not in kind.signals["keyed_fields"]


def test_an_invoice_whose_header_row_keys_one_value_stays_an_invoice():
    # the same page with one row under the header: the invoice's own number, date and due date
    doc = _page([*_LETTERHEAD, *_INVOICE_LIST[:2], *_TOTAL_AND_IBAN], line_spacing=14)
    kind = document_type(doc)
    assert kind.type == "invoice", kind.reasons
    assert {"invoice_number", "invoice_date", "due_date"} <= set(kind.signals["keyed_fields"])


def test_a_number_keyed_under_the_invoices_number_leaves_it_the_invoices():
    # "Número | Fecha" over "24/002318 | 30/11/2024", "Cliente: 00437" under them: the customer's number is keyed on
    # its own row, no second row of a list
    rows = [[("FACTURA", 345)], [("Número", 345), ("Fecha", 425)], [("24/002318", 345), ("30/11/2024", 425)],
            [("Cliente: 00437", 345)], [("Total factura", 300), ("1.210,00", 420)]]
    kind = document_type(_page(rows, line_spacing=14))
    assert kind.type == "invoice" and "invoice_number" in kind.signals["keyed_fields"], kind.reasons


def test_an_invoices_key_column_over_a_letters_subject_is_the_invoice_it_is_about():
    # "Fattura n. | 118/2024" in a block of the document's particulars, then "Oggetto: sollecito di pagamento – ...";
    # a Danish delivery note's "Faktura nr. | 20418" in the key column beside it, its title "FØLGESEDDEL" under it
    reminder = [[("Estremi del documento", 48)], [("Fattura n.", 48), ("118/2024", 150)],
                [("del", 48), ("05/03/2024", 150)], [("Scadenza", 48), ("04/04/2024", 150)],
                [("Oggetto: sollecito di pagamento – fattura n. 118/2024 del 05/03/2024", 48)],
                [("Totale", 300), ("2.684,00", 420)], [("IBAN IT92 X030 6909 6061 0000 0071 442", 48)]]
    delivery_note = [[("Følgeseddel nr.", 340), ("FS-7712", 470)], [("Faktura nr.", 340), ("20418", 470)],
                     [("Dato", 340), ("15.08.2024", 470)], [("FØLGESEDDEL", 48)],
                     [("IBAN DK57 5295 0001 8473 62", 48)]]
    for rows in (reminder, delivery_note):
        kind = document_type(_page(rows, line_spacing=14))
        assert kind.type == "other", kind.reasons


def test_an_invoice_title_over_the_same_subject_keeps_the_page_an_invoice():
    # the invoice's title as a line of its own, above any subject, still decides
    rows = [[("FATTURA", 48)], [("Fattura n.", 48), ("118/2024", 150)], [("del", 48), ("05/03/2024", 150)],
            [("Oggetto: fornitura materiale elettrico", 48)], [("Totale", 300), ("2.684,00", 420)]]
    kind = document_type(_page(rows, line_spacing=14))
    assert kind.type == "invoice", kind.reasons


def test_a_subjects_title_may_go_on_in_words_and_a_parenthetical_is_no_tail():
    invoice_block = [[("Fatura n.º", 330), ("2024/1187", 430)], [("Data", 330), ("2024-05-31", 430)],
                     [("Total", 330), ("3 260,73", 430)], [("IBAN PT50 0035 0721 0003 8294 1535 4", 48)]]
    for title in ("Assunto: Contestation de la facturation de mai",  # (a subject's key in Portuguese)
                  "Abtretungsanzeige (Zessionsanzeige) – Zahlungsumleitung", "Ämne: Inkassokrav"):
        kind = document_type(_page([*invoice_block, [(title, 48)]], line_spacing=14))
        assert kind.type == "other", (title, kind.reasons)


def test_a_date_that_dates_another_bills_number_is_not_the_invoices():
    # "Bill Date | April 12, 2024" beside the bill's own number, and an unpaid earlier bill listed as "Bill No. 117902
    # dated 03/08/24" (held out: accepted as the invoice's date at 0.84); the invoice's number chosen is 118274
    doc = _page([[("Bill No.", 360), ("118274", 440)], [("Bill Date", 360), ("April 12, 2024", 440)], [], [],
                 [("Previous balance", 300)], [("Bill No. 117902 dated 03/08/24", 40), ("1,980.00", 480)]],
                line_spacing=14)
    scorer = CandidateScorer(FEATURES, {"invoice_number": model(-2.0, key_left_own=4.0, y=-3.0),
                                        "invoice_date": model(-2.0, key_left_own=2.0, y=3.0)})
    chosen = {e.label: e.text(doc) for e in choose_fields(doc, [], {}, scorer, "en_US", 2024) if e.assigned}
    assert chosen["invoice_number"] == "118274"
    assert chosen["invoice_date"] == "April 12, 2024"
    # where the number dated is the invoice's own, its date stays: "Bill No. 117902 dated 03/08/24" alone
    doc = _page([[("Bill No. 117902 dated 03/08/24", 40)], [("Total", 300), ("1,980.00", 480)]], line_spacing=14)
    chosen = {e.label: e.text(doc) for e in choose_fields(doc, [], {}, scorer, "en_US", 2024) if e.assigned}
    assert chosen == {"invoice_number": "117902", "invoice_date": "03/08/24"}


def test_the_word_for_invoice_glued_to_its_number_by_a_colon_is_no_part_of_it():
    # a clinic's template sets "Nº Factura:FM-24/0871" without a space (held out: accepted as "Factura:FM-24/0871")
    from docextract.extraction.normalize import identifier_text, number_sign_glued

    assert identifier_text("Factura:FM-24/0871") == "FM-24/0871" and number_sign_glued("Factura:FM-24/0871")
    assert identifier_text("Rechnung:RE-24-0311") == "RE-24-0311"
    assert identifier_text("INV-2024:01") == "INV-2024:01"  # a colon inside a number stays
    doc = _page([[("Nº Factura:FM-24/0871", 40)], [("Total", 300), ("1.210,00", 420)]], line_spacing=14)
    scorer = CandidateScorer(FEATURES, {"invoice_number": model(-2.0, key_left_own=4.0)})
    chosen = [e for e in choose_fields(doc, [], {}, scorer, "es_ES", 2024) if e.assigned and e.label == "invoice_number"]
    assert [identifier_text(e.text(doc)) for e in chosen] == ["FM-24/0871"]


def test_a_reading_in_the_buyers_block_gives_way_to_one_that_may_be_the_sellers():
    # the tagger chose none of its two readings of the seller's VAT id; the more confident one stands in the block
    # headed "BILL TO" (the buyer's, never the seller's: accepted as the seller's on a CPU with VNNI), the other under
    # "FROM": only that one stays
    from docextract.document import WordRef
    from docextract.extraction.entities import Entity

    doc = _page([[("FROM", 40), ("BILL TO", 310)],
                 [("Nodo Sur Software, S.L.", 40), ("Maison Lumière Distribution SAS", 310)],
                 [("VAT: ESB91734202", 40), ("VAT: FR17832417950", 310)], [("41092 Sevilla", 40), ("69002 Lyon", 310)]],
                line_spacing=14)
    texts = [w.text for w in doc.pages[0].words]
    readings = [Entity("vendor_tax_id", (WordRef(0, texts.index("FR17832417950")),), 0.94),
                Entity("vendor_tax_id", (WordRef(0, texts.index("ESB91734202")),), 0.44)]
    scorer = CandidateScorer(FEATURES, {"vendor_tax_id": model(-20.0)})  # every candidate under its minimum
    out = choose_fields(doc, readings, {}, scorer, "es_ES", 2024)
    assert [e.text(doc) for e in out if e.label == "vendor_tax_id"] == ["ESB91734202"]
