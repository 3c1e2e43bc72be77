"""Layouts of stop 71's vendor pages (Polish, Czech and Slovak invoices, invoices made from office templates) and of
its pages that are no invoice but print the word for invoice prominently (a reminder "zur Rechnung Nr.", a delivery
note "zu Rechnung 4711", a statement of invoices): each test a mechanism read off one of them, on a small page laid
out as `run` lays one out."""

from docextract.document import WordRef
from docextract.extraction.doctype import document_type
from docextract.extraction.entities import Entity
from docextract.extraction.field_keywords import closing_keys, key_tokens
from docextract.extraction.identifiers import check_iban
from docextract.extraction.candidates import KEY_LABELS, generate
from docextract.extraction.key_context import key_left, line_index
from docextract.extraction.key_values import complete_ibans, debited_account, key_value_entities
from docextract.extraction.party_blocks import _headings, _side
from tests.layout_helpers import laid_out_page as _page


def _keyed(doc, labels, locale="pl_PL") -> dict[str, str]:
    return {e.label: e.text(doc) for e in key_value_entities(doc, [], labels, {}, locale, 2024)}


def _keys(text: str) -> frozenset:
    return closing_keys([t for word in text.split() for t in key_tokens(word)])[0]


def _words(doc, text: str) -> tuple[WordRef, ...]:
    """The words of the page that print ``text`` (its words in a row)."""
    texts = [w.text for w in doc.pages[0].words]
    wanted = text.split()
    start = next(i for i in range(len(texts)) if texts[i:i + len(wanted)] == wanted)
    return tuple(WordRef(0, i) for i in range(start, start + len(wanted)))


_INVOICE_ROWS = [[("Rechnungs-Nr.", 48), ("vom", 150), ("fällig am", 250), ("Betrag", 480)],
                 [("RE-24-0311", 48), ("02.04.2024", 150), ("02.05.2024", 250), ("2.315,20", 480)],
                 [("Gesamtbetrag", 300), ("2.315,20", 480)], [("IBAN DE84 4005 0150 0095 6772 13", 48)]]


def test_a_title_of_no_invoice_about_an_invoice_makes_the_page_other():
    # the title names the document, its tail the invoice it is about (held out: these pages printed "Rechnung",
    # "facture", "invoice" prominently and were typed invoice with their fields accepted)
    for title in ("Zahlungserinnerung zur Rechnung Nr. RE-2024-118", "Lieferschein zu Rechnung 4711",
                  "Rappel : facture n° F-2024-0412 impayée", "Re: Invoice INV-3318 – final notice",
                  "Rekeningoverzicht facturen", "AVVISO DI PARCELLA"):
        assert document_type(_page([[(title, 48)], *_INVOICE_ROWS], line_spacing=14)).type == "other", title


def test_an_invoices_subject_naming_another_document_by_its_number_stays_an_invoice():
    # "Betreff: Rechnung 2024-17 – Angebot 12": the quotation it follows, by number; "Lieferschein: 4711" a key
    for title in ("Betreff: Rechnung 2024-17 – Angebot 12", "RECHNUNG"):
        rows = [[(title, 48)], [("Lieferschein:", 48), ("4711", 150)], *_INVOICE_ROWS]
        assert document_type(_page(rows, line_spacing=14)).type == "invoice", title


def test_a_polish_account_number_is_its_iban_without_the_country():
    checked = check_iban("02 1240 1747 1111 0010 4567 8901")
    assert checked.valid and checked.normalized == "PL02124017471111001045678901"
    assert not check_iban("03 1240 1747 1111 0010 4567 8901").valid  # its check digits fail as PL's


def test_the_buyers_refund_account_is_no_iban_to_pay_into():
    doc = _page([[("Do zwrotu: 2 014,74 zł", 40)], [("Sposób zwrotu: przelew na rachunek nabywcy", 40)],
                 [("77 1140 2004 0000 3102 7766 1234", 40)]], line_spacing=11)
    assert debited_account(doc, _words(doc, "77 1140 2004 0000 3102 7766 1234"))
    seller = _page([[("Konto: PL39 1050 1588 1000 0023 4567 8912", 40)]])
    assert not debited_account(seller, _words(seller, "PL39 1050 1588 1000 0023 4567 8912"))


def test_an_iban_read_on_into_the_next_column_ends_at_its_check_digits():
    # "CZ67 0300 0000 0021 5604 3102" | "20240418" (the variable symbol): a model read "0300 ... 20240418"
    doc = _page([[("IBAN", 135), ("Var. symbol", 310)],
                 [("CZ67 0300 0000 0021 5604 3102", 135), ("20240418", 310)]], line_spacing=11)
    read = Entity("iban", _words(doc, "0300 0000 0021 5604 3102 20240418"), 0.98, "model")
    assert complete_ibans(doc, [read])[0].text(doc) == "CZ67 0300 0000 0021 5604 3102"


def test_a_series_before_a_number_in_a_dates_shape_is_one_number():
    doc = _page([[("Numer:", 40), ("FV 2024/03/17", 120)], [("Data wystawienia:", 40), ("2024-04-02", 120)]])
    identifiers = [c.value for c in generate(doc, line_index(doc), "pl_PL", 2024)["identifier"]]
    assert "FV 2024/03/17" in identifiers


def test_a_count_and_its_year_start_no_date():
    # "n. 18/2024 del 9 settembre 2024": the number, then the date
    doc = _page([[("Fattura", 40)], [("n. 18/2024 del 9 settembre 2024", 40)]], line_spacing=14)
    candidates = generate(doc, line_index(doc), "it_IT", 2024)
    assert "18/2024" in [c.value for c in candidates["identifier"]]
    assert [" ".join(doc.word(r).text for r in c.words) for c in candidates["date"]] == ["9 settembre 2024"]


def test_a_number_sign_under_the_title_keys_the_invoice_number():
    for title in ("FAKTURA – DAŇOVÝ DOKLAD", "Fattura"):
        doc = _page([[(title, 360)], [("č. 2410400157", 360)]], line_spacing=14)
        hit = key_left(line_index(doc), _words(doc, "2410400157"), KEY_LABELS)
        assert hit is not None and hit.labels == {"invoice_number"}, title
    # under a line that is no title the sign keys nothing
    doc = _page([[("Brno", 360)], [("č. 2410400157", 360)]], line_spacing=14)
    assert key_left(line_index(doc), _words(doc, "2410400157"), KEY_LABELS) is None


def test_the_date_of_a_contract_is_no_invoice_date():
    # "Umowa nr 14/K/2024 z dnia 05.02.2024": the contract's date ("of the day"), which the key rule had accepted
    doc = _page([[("Umowa nr 14/K/2024 z dnia 05.02.2024 · wydarzenie: konferencja", 40)]])
    assert key_left(line_index(doc), _words(doc, "05.02.2024"), KEY_LABELS).labels == {"other_date"}
    # after the invoice's own number it keys the invoice's date
    own = _page([[("Faktura VAT nr FV/123/03/2024 z dnia 08.03.2024", 40)]])
    assert "invoice_date" in key_left(line_index(own), _words(own, "08.03.2024"), KEY_LABELS).labels


def test_keys_of_this_round_name_their_fields():
    # a Czech and Slovak VAT recap's columns, Slovak sums and dates
    assert _keys("Základ v Kč") == {"subtotal"} and _keys("Základ DPH") == {"subtotal"}
    assert "total" in _keys("Spolu") and _keys("Spolu na úhradu") == {"amount_due"}
    assert "invoice_date" in _keys("Dátum vyhotovenia") and _keys("Dátum dodania") == {"other_date"}
    assert _keys("Nr zamówienia nabywcy") == {"purchase_order"} and _keys("Objednávka č.") == {"purchase_order"}
    assert _keys("Zakázka") == {"other_number"} and _keys("Zmluva o dielo") == {"other_number"}
    assert _keys("Factureren aan") >= {"customer_name"}


_KEYED_AMOUNTS = [[("Datum", 48), ("14.06.2024", 150)], [("Fällig am", 48), ("17.07.2024", 150)],
                  [("Gesamtbetrag", 300), ("1.877,70", 480)], [("IBAN DE79 4166 1284 0100 4407 00", 48)]]


def test_a_page_that_names_no_invoice_is_other_whatever_it_keys():
    # a payslip, a tax assessment, a card statement key amounts, dates and an IBAN as an invoice does (held out: a
    # batch of such pages was typed invoice on 10 of 12 with fields accepted)
    assert document_type(_page([[("Brandt & Sohn Metallbau GmbH", 48)], *_KEYED_AMOUNTS], line_spacing=14)).type == "other"
    # an invoice names itself: by its title, or by its number's key
    for named in ([("RECHNUNG", 48)], [("Rechnungs-Nr.", 48), ("RE-24-0311", 150)], [("REKENING", 48)],
                  [("COPIA DI CORTESIA", 48)], [("Rechnungsbetrag", 300), ("1.163,40 €", 480)]):
        assert document_type(_page([named, *_KEYED_AMOUNTS], line_spacing=14)).type == "invoice", named


def test_a_page_that_says_it_is_no_invoice_is_other():
    for sentence in ("This is not a VAT invoice. A VAT invoice will be issued on receipt of payment.",
                     "Este documento não serve de fatura", "La presente conferma d'ordine non costituisce fattura."):
        rows = [[("INVOICE", 48)], [("Invoice No.", 48), ("SC-2024-118", 150)], *_KEYED_AMOUNTS, [(sentence, 48)]]
        assert document_type(_page(rows, line_spacing=14)).type == "other", sentence
    # a bill that says a notice it mentions is no invoice stays one
    rows = [[("RECHNUNG", 48)], [("Rechnungs-Nr.", 48), ("RE-24-0311", 150)], *_KEYED_AMOUNTS,
            [("Die Teilbetragsvorschreibung gilt als Zahlungsaufforderung; sie ist keine Rechnung im Sinne des UStG.", 48)]]
    assert document_type(_page(rows, line_spacing=14)).type == "invoice"


def test_a_header_cell_over_its_number_is_no_title():
    # a transport company's invoice: "Factuurnr. | Datum | Debiteur | Vrachtbrief" over their values
    rows = [[("Factuur aan:", 48)], [("Groothandel Smit B.V.", 48)],
            [("Factuurnr.", 48), ("Datum", 140), ("Debiteur", 230), ("Vrachtbrief", 420)],
            [("2400731", 48), ("08-03-2024", 140), ("11874", 230), ("VB-24-118", 420)],
            [("Totaal", 300), ("1.210,00", 480)], [("Btw 21%", 300), ("210,00", 480)]]
    assert document_type(_page(rows, line_spacing=12)).type == "invoice"
    assert document_type(_page([[("VRACHTBRIEF", 48)], *rows[2:]], line_spacing=12)).type == "other"


def test_an_account_to_transfer_to_after_a_debits_revocation_is_the_payees():
    doc = _page([[("In caso di revoca dell'addebito: bonifico su IBAN IT46 B030 6909 6061 0000 0041 877", 40)]])
    assert not debited_account(doc, _words(doc, "IT46 B030 6909 6061 0000 0041 877"))
    debit = _page([[("Addebito su IBAN IT46 B030 6909 6061 0000 0041 877", 40)]])
    assert debited_account(debit, _words(debit, "IT46 B030 6909 6061 0000 0041 877"))


def test_an_office_templates_da_and_a_head_the_seller_and_the_buyer():
    # "A" alone is a table's code letter, but not beside "DA": there the buyer's heading (the seller's block under "DA"
    # had been read as the envelope window's recipient, its neighbour's VAT number accepted as the seller's)
    doc = _page([[("DA", 40), ("A", 300)], [("Davide Marchetti", 40), ("Osteria del Portico S.r.l.", 300)],
                 [("Via del Pratello 58", 40), ("Via Santo Stefano 21/b", 300)],
                 [("40122 Bologna (BO)", 40), ("40125 Bologna (BO)", 300)]], line_spacing=13)
    sides = {doc.word(WordRef(0, line.word_indices[0])).text: side for side, _, line in _headings(doc)}
    assert sides == {"DA": "vendor_name", "A": "customer_name"}
    code = _page([[("A", 40), ("19 %", 80), ("1.234,00", 300)]])
    assert not list(_headings(code))


def test_a_party_heading_that_bills_to_names_the_buyer():
    assert _side(["factureren", "aan"]) == "customer_name" and _side(["facturar", "a"]) == "customer_name"


def test_letters_after_a_keys_colon_are_the_values_own():
    doc = _page([[("Uw ordernummer: PO 2024-0779 · Monteur: D. Hendriks", 40)]])
    identifiers = [c.value for c in generate(doc, line_index(doc), "nl_NL", 2024)["identifier"]]
    assert "PO 2024-0779" in identifiers and "2024-0779" in identifiers
    # without a key before them, "PO" keys the number
    doc = _page([[("PO 2024-0779", 40)]])
    assert "PO 2024-0779" not in [c.value for c in generate(doc, line_index(doc), "nl_NL", 2024)["identifier"]]


def test_spanish_written_in_the_us_prints_its_dates_month_first():
    from docextract.extraction.locales import guess_locale
    from docextract.extraction.normalize import parse_date

    text = "FACTURA Magnolia Floral Design, LLC Miami, FL EIN 59-3748261 Fecha 05/28/2024 Vence 06/08/2024 Total $3,968.10"
    locale = guess_locale(text)
    assert locale == "es_US" and str(parse_date("06/08/2024", locale, 2024)) == "2024-06-08"
    assert guess_locale("FACTURA Fecha 28/05/2024 Total 3.968,10 € IVA 21 %") == "es_ES"
    assert _keys("NIE") == {"vendor_tax_id"} or "vendor_tax_id" in _keys("NIE")
