"""Stop 73's layouts: each test a mechanism read off a page `run` had read wrong, on a small page laid out as `run`
lays one out."""

from docextract.extraction.party_blocks import party_fields
from tests.layout_helpers import laid_out_page as _page


def _party_texts(doc, labels=("vendor_name", "vendor_address", "customer_name", "billing_address")):
    return {label: " ".join(doc.word(r).text for r in words) for label, words in party_fields(doc, labels).items()}


def test_a_payees_block_that_names_a_bank_names_no_seller():
    # an agency's "Remit to" over its bank's name, address and sort code beside "Invoice to" over the buyer (a vendor
    # page: "Barclays Bank UK PLC" read as the vendor); a Belgian "Betaal aan / Remit to" over "Belfius Bank NV"
    for heading, bank in (("Remit to", "Barclays Bank UK PLC"), ("Betaal aan / Remit to", "Belfius Bank NV"),
                          ("Pay to", "Rabobank")):
        doc = _page([[(heading, 40), ("Invoice to", 300)],
                     [(bank, 40), ("Marlowe & Finch Distillers Ltd", 300)],
                     [("1 Churchill Place, London E14 5HP", 40), ("90 Wallis Road", 300)],
                     [("Sort code 20-00-00 Account 73184926", 40), ("London E9 5LN", 300)]], line_spacing=11)
        parties = _party_texts(doc)
        assert "vendor_name" not in parties and "vendor_address" not in parties, (heading, parties)
        assert parties["customer_name"] == "Marlowe & Finch Distillers Ltd"


def test_a_payees_block_that_names_the_seller_is_read():
    # the same block naming the firm paid (a US wholesaler's "Remit to" with its lockbox) is the seller's
    doc = _page([[("Remit to", 40), ("Invoice to", 300)],
                 [("Acme Supply Co.", 40), ("Marlowe & Finch Distillers Ltd", 300)],
                 [("PO Box 630781", 40), ("90 Wallis Road", 300)],
                 [("Cincinnati, OH 45263-0781", 40), ("London E9 5LN", 300)]], line_spacing=11)
    assert _party_texts(doc)["vendor_name"] == "Acme Supply Co."


def test_a_bill_titled_otherwise_that_says_it_is_an_invoice_is_one():
    # a French insurer's "AVIS D'ÉCHÉANCE" over "valant facture" (held out: typed other, every field left for review)
    from docextract.extraction.doctype import document_type

    rows = [[("AVIS D'ÉCHÉANCE", 40)], [("valant facture", 40)], [("Date d'émission :", 40), ("03/06/2024", 140)],
            [("Montant à payer", 300), ("427,61 €", 480)],
            [("IBAN FR64 3000 4008 1960 2735 7063 652", 40)]]
    kind = document_type(_page(rows, line_spacing=14))
    assert kind.type == "invoice" and "says it is an invoice: valant facture" in kind.reasons, kind.reasons
    # the same notice that says it is none stays other
    rows[1] = [("ne vaut pas facture", 40)]
    assert document_type(_page(rows, line_spacing=14)).type == "other"


def _keyed(rows, locale, labels=("amount_due", "total", "due_date", "vendor_tax_id", "purchase_order")):
    from docextract.extraction.key_values import key_value_entities

    doc = _page(rows, line_spacing=14)
    return {e.label: e.text(doc) for e in key_value_entities(doc, [], labels, {}, locale, 2024)}


def test_an_amounts_key_and_the_day_it_is_to_be_paid_by_key_the_amount_and_the_due_date():
    # "Montant à payer avant le 01/07/2024 | 427,61 €" (held out: the annual premium 465,11 € taken as the amount due),
    # "Amount due by 15 July 2024", "Zu zahlen bis zum 01.07.2024"
    for key, date, amount, locale in (("Montant à payer avant le", "01/07/2024", "427,61 €", "fr_FR"),
                                      ("Amount due by", "15 July 2024", "427.61", "en_GB"),
                                      ("Zu zahlen bis zum", "01.07.2024", "427,61", "de_DE")):
        found = _keyed([[("INVOICE", 40)], [(f"{key} {date}", 40), (amount, 480)]], locale)
        assert found.get("amount_due") == amount and found.get("due_date") == date, (key, found)
    # an invoice date's key before a date keys no due date
    assert "due_date" not in _keyed([[("INVOICE", 40)], [("Invoice date 15/07/2024", 40)]], "en_GB")


def test_keys_of_an_energy_bill_a_us_firms_tax_id_and_an_italian_order():
    found = _keyed([[("Total charges for this period", 40), ("£221.19", 260)], [("Amount to pay", 40), ("£50.85", 260)],
                    [("Federal Tax ID: 94-3318270", 40)], [("Rif. vs. ordine: ODA 2024/117 del 12/03/2024", 40)]],
                   "en_US")
    assert found == {"total": "£221.19", "amount_due": "£50.85", "vendor_tax_id": "94-3318270",
                     "purchase_order": "ODA 2024/117"}


def test_a_vat_number_in_digit_groups_may_end_a_sentence():
    # a UK energy supplier's footer: "... Bristol BS1 6DZ. VAT registration number 896 6178 57." (held out: missed)
    from docextract.extraction.identifiers import check_tax_id

    found = _keyed([[("Registered office: 4 Temple Quay, Bristol BS1 6DZ. VAT registration number 896 6178 57.", 40)]],
                   "en_GB")
    assert found["vendor_tax_id"] == "896 6178 57."
    assert check_tax_id("896 6178 57.", "GB").normalized == "896617857"  # the full stop is the sentence's


def test_a_marketplaces_invoice_names_the_seller_in_its_sold_by_block():
    # the marketplace's name and VAT number in the letterhead, the seller's under "Verkocht door" (held out: the
    # marketplace's read as the vendor's, its VAT number chosen at 0.97 against the seller's 0.05)
    from docextract.extraction.candidate_scorer import CandidateScorer, FieldModel, choose_fields
    from docextract.extraction.candidates import FEATURES

    rows = [[("Koopjeshal NV", 360)], [("Btw BE 0156.501.184", 360)], [("Factuur", 40)],
            [("Verkocht door", 40), ("Gefactureerd aan", 300)],
            [("Fietsatelier De Smet BV", 40), ("Verstraete Architectuur CommV", 300)],
            [("Brugsesteenweg 318", 40), ("Kerkstraat 9", 300)], [("9000 Gent", 40), ("8500 Kortrijk", 300)],
            [("Btw BE 0189.658.457", 40)]]
    doc = _page(rows, line_spacing=11)
    assert _party_texts(doc)["vendor_name"] == "Fietsatelier De Smet BV"
    weights = [0.0] * len(FEATURES)
    weights[FEATURES.index("y")] = -30.0  # a scorer that ranks the letterhead's number first
    scorer = CandidateScorer(FEATURES, {"vendor_tax_id": FieldModel((0.0,) * len(FEATURES), (1.0,) * len(FEATURES),
                                                                    tuple(weights), 3.0)})
    chosen = [e.text(doc) for e in choose_fields(doc, [], {}, scorer, "nl_BE", 2024)
              if e.assigned and e.label == "vendor_tax_id"]
    assert chosen == ["BE 0189.658.457"]


# Batch 80: credit notes. Batch 79: invoices of two pages.

def _scorer(**fields):
    from docextract.extraction.candidate_scorer import CandidateScorer, FieldModel
    from docextract.extraction.candidates import FEATURES

    def model(intercept, **weights):
        return FieldModel((0.0,) * len(FEATURES), (1.0,) * len(FEATURES),
                          tuple(weights.get(name, 0.0) for name in FEATURES), intercept)

    return CandidateScorer(FEATURES, {label: model(*spec[:1], **spec[1]) for label, spec in fields.items()})


def _chosen(doc, scorer, locale):
    from docextract.extraction.candidate_scorer import choose_fields

    return {e.label: e.text(doc) for e in choose_fields(doc, [], {}, scorer, locale, 2024) if e.assigned}


def test_a_credit_notes_own_number_and_date_not_the_corrected_invoices():
    # "AVOIR  Avoir sur facture n° FA24-01452 du 03/09/2024" over "N° d'avoir | Date" and its values, the corrected
    # invoice named again in a sentence (held out: its number accepted as the credit note's, 0.999)
    doc = _page([[("AVOIR", 40), ("Avoir sur facture n° FA24-01452 du 03/09/2024", 120)],
                 [("N° d'avoir", 40), ("Date", 140)], [("AV24-00087", 40), ("11/10/2024", 140)],
                 [("Facture FA24-01452 : 1 015,20 € TTC, échéance 03/10/2024.", 40)]], line_spacing=14)
    scorer = _scorer(invoice_number=(-2.0, {"tagged": 0.0, "y": -3.0}), invoice_date=(-2.0, {"y": -3.0}))
    chosen = _chosen(doc, scorer, "fr_FR")
    assert chosen["invoice_number"] == "AV24-00087" and chosen["invoice_date"] == "11/10/2024", chosen


def test_a_date_keyed_beside_or_under_the_corrected_invoice_is_not_the_credit_notes():
    from docextract.document import WordRef
    from docextract.extraction.candidates import KEY_LABELS
    from docextract.extraction.key_context import key_above, key_left, line_index

    def key_of(doc, text):
        index = line_index(doc)
        ref = WordRef(0, next(i for i, w in enumerate(doc.pages[0].words) if w.text == text))
        hit = key_left(index, (ref,), KEY_LABELS) or key_above(index, (ref,), KEY_LABELS)
        return hit and hit.labels

    # a header row "Creditnota nr. | Datum | Betreft factuur | Factuurdatum" over its values
    doc = _page([[("Creditnota nr.", 40), ("Datum", 160), ("Betreft factuur", 270), ("Factuurdatum", 400)],
                 [("CN 2024/0113", 40), ("21/10/2024", 160), ("F 2024/0871", 270), ("14/08/2024", 400)]],
                line_spacing=12)
    assert key_of(doc, "21/10/2024") == {"invoice_date"} and key_of(doc, "14/08/2024") == {"other_date"}
    # a block under "FACTURA QUE SE RECTIFICA" (the credit note's own "Fecha:" above it stays the invoice's)
    doc = _page([[("Fecha:", 330), ("22/10/2024", 430)], [], [("FACTURA QUE SE RECTIFICA", 330)],
                 [("Serie / Número:", 330), ("A / 2024-0877", 430)], [("Fecha expedición:", 330), ("02/10/2024", 430)]],
                line_spacing=11)
    assert key_of(doc, "22/10/2024") == {"invoice_date"} and key_of(doc, "02/10/2024") == {"other_date"}


def test_a_minus_before_the_currency_makes_an_amount_negative():
    from docextract.extraction.candidates import generate
    from docextract.extraction.key_context import line_index
    from docextract.extraction.normalize import parse_number

    assert str(parse_number("-€ 110,70", "nl_NL")) == "-110.70" and str(parse_number("- EUR 12,00", "nl_NL")) == "-12.00"
    assert str(parse_number("Total - € 110,70", "nl_NL")) == "110.70"  # (a dash between a key and its amount)
    doc = _page([[("Totaal excl. btw", 360), ("-€ 110,70", 500)]])
    amounts = generate(doc, line_index(doc), "nl_NL", 2024)["amount"]
    assert [(str(c.value), len(c.words)) for c in amounts] == [("-110.70", 2)]


def test_credit_notes_typed_as_such():
    from docextract.extraction.doctype import document_type

    amounts = [[("Totaal excl. btw", 360), ("-€ 110,70", 480)], [("Btw 21%", 360), ("-€ 23,25", 480)],
               [("Totaal incl. btw", 360), ("-€ 133,95", 480)]]
    # a refund's "Rekening" key far under "Creditfactuur bij factuur NL-KP-2024-5519032" (held out: typed invoice)
    rows = [[("Creditfactuur bij factuur NL-KP-2024-5519032", 300)], [("Creditfactuurnr.: CR-KP-2024-0088417", 300)],
            *amounts, [("Rekening", 40), ("NL** INGB **** **44 12", 125)]]
    assert document_type(_page(rows, line_spacing=14)).type == "credit_note"
    # a Portuguese credit note whose certified software says "Este documento não serve de fatura" (held out: other)
    rows = [[("Nota de Crédito NC 2024/47", 385)], [("Data", 40), ("2024-10-17", 120)], *amounts,
            [("Processado por programa certificado n.º 2931/AT · Este documento não serve de fatura.", 40)]]
    assert document_type(_page(rows, line_spacing=14)).type == "credit_note"
    # a FatturaPA view's "TD04 nota di credito" under "Tipologia documento"
    rows = [[("Tipologia documento", 40), ("Numero documento", 245), ("Data documento", 330)],
            [("TD04 nota di credito", 40), ("27/NC", 245), ("15-10-2024", 330)], *amounts]
    kind = document_type(_page(rows, line_spacing=12))
    assert kind.type == "credit_note" and "invoice_number" in kind.signals["keyed_fields"], kind.reasons
    # an invoice that deducts a credit note in its body stays an invoice
    rows = [[("FACTURE", 40)], [("Facture n°", 40), ("F-2024-118", 140)], [("Avoir n° A-041 du 15/10/2024 à déduire", 40)],
            *amounts]
    assert document_type(_page(rows, line_spacing=14)).type == "invoice"


def test_a_bare_number_key_in_a_key_column_over_the_date_keys_the_invoice_number():
    found = _keyed([[("FACTURA RECTIFICATIVA", 360)], [("Serie:", 360), ("R", 470)], [("Número:", 360), ("2024-0031", 470)],
                    [("Fecha:", 360), ("22/10/2024", 470)]], "es_ES", ("invoice_number", "invoice_date"))
    assert found == {"invoice_number": "2024-0031", "invoice_date": "22/10/2024"}


def test_a_number_the_title_line_refers_to_is_another_documents():
    from docextract.document import WordRef
    from docextract.extraction.candidates import KEY_LABELS
    from docextract.extraction.key_context import OTHER_NUMBER, key_left, line_index

    doc = _page([[("OPRAVNÝ DAŇOVÝ DOKLAD", 40), ("č. 2024-OD-0017", 423)],
                 [("(dobropis) k daňovému dokladu č. 2024-0453 ze dne 12.09.2024", 40)]], line_spacing=18)
    words = [w.text for w in doc.pages[0].words]
    hit = key_left(line_index(doc), (WordRef(0, words.index("2024-0453")),), KEY_LABELS)
    assert hit is not None and hit.labels == {OTHER_NUMBER}


def test_a_keys_value_is_no_title_and_the_sellers_order_gives_way_to_the_buyers_words():
    from docextract.extraction.doctype import document_type

    # "Votre réf. | Bon de commande 24-0057" in a lawyer's key column (held out: typed other by its "title")
    rows = [[("ÉTAT D'HONORAIRES, FRAIS ET DÉBOURS", 40)], [("Note n°", 40), ("2024/0912", 140)],
            [("Date", 40), ("30/09/2024", 140)], [("Votre réf.", 40), ("Bon de commande 24-0057", 140)],
            [("Total TVAC", 300), ("4.296,33", 480)], [("Solde à payer", 300), ("3.296,33", 480)]]
    assert document_type(_page(rows, line_spacing=11)).type == "invoice"
    # a Danish wholesaler's "Ordrenr. | 1771904" over "Jeres rekv. | Sag 2417 Ørbækvej" (held out: accepted as the
    # order): no order read where the buyer's own is keyed in words
    rows = [[("FAKTURA", 330)], [("Ordrenr.", 330), ("1771904", 430)], [("Jeres rekv.", 330), ("Sag 2417 Ørbækvej", 430)]]
    assert "purchase_order" not in _keyed(rows, "da_DK")
    assert _keyed(rows[:2], "da_DK")["purchase_order"] == "1771904"  # (alone, the order it keys)


# Batch 81: invoices in languages of Central, Eastern and Southern Europe. Batch 82: receipts.

def test_keys_titles_and_parties_of_central_eastern_and_southern_european_invoices():
    from docextract.extraction.doctype import document_type

    # a Hungarian Számla (held out: typed other, its number, totals and tax id unread)
    rows = [[("SZÁMLA", 40)], [("Eladó", 40), ("Vevő", 300)], [("Kővirág Nyomda Kft.", 40), ("Tiszai Agrár Zrt.", 300)],
            [("Fő utca 12.", 40), ("Tisza út 4.", 300)], [("6000 Kecskemét", 40), ("5000 Szolnok", 300)], [], [],
            [("Számlaszám: E-KVN-2024-318", 40)], [("Fizetési határidő: 2024.06.13.", 40)],
            [("Adószám: 37086545-2-06", 40)], [("Fizetendő:", 300), ("493 650 Ft", 450)]]
    doc = _page(rows, line_spacing=12)
    assert document_type(doc).type == "invoice"
    found = _keyed(rows, "hu_HU", ("invoice_number", "due_date", "amount_due", "vendor_tax_id"))  # (14 pt apart)
    assert found == {"invoice_number": "E-KVN-2024-318", "due_date": "2024.06.13.", "amount_due": "493 650 Ft",
                     "vendor_tax_id": "37086545-2-06"}
    parties = _party_texts(doc)
    assert parties["vendor_name"] == "Kővirág Nyomda Kft." and parties["customer_name"] == "Tiszai Agrár Zrt.", parties
    # a Greek ΤΙΜΟΛΟΓΙΟ ΠΩΛΗΣΗΣ, a Bulgarian ФАКТУРА, a Lithuanian PVM SĄSKAITA FAKTŪRA, a Croatian "RAČUN br."
    for title in ("ΤΙΜΟΛΟΓΙΟ ΠΩΛΗΣΗΣ", "ФАКТУРА", "PVM SĄSKAITA FAKTŪRA", "RAČUN br. 148/POSL1/1"):
        kind = document_type(_page([[(title, 40)], [("Ukupno", 300), ("1.234,50", 450)],
                                    [("IBAN HR12 1001 0051 8630 0016 0", 40)]], line_spacing=14))
        assert kind.type == "invoice", (title, kind.reasons)
    # a Croatian "Račun:" opening a bank line is no title
    assert document_type(_page([[("Račun: HR12 1001 0051 8630 0016 0", 40)], [("Ukupno", 300), ("1.234,50", 450)]],
                               line_spacing=14)).type == "other"
    found = _keyed([[("FACTURĂ", 40)], [("Data scadenței: 13.06.2024", 40)], [("Total de plată", 300), ("1.234,50 lei", 450)],
                    [("Ödenecek Tutar", 300), ("9.937,47", 450)]], "ro_RO", ("due_date", "amount_due"))
    assert found["due_date"] == "13.06.2024" and found["amount_due"] == "1.234,50 lei"


def test_the_forint_the_leu_and_the_lev_after_an_amount():
    from docextract.extraction.normalize import currencies_in, parse_amount

    assert parse_amount("493 650 Ft", "hu_HU").currency == "HUF"
    assert parse_amount("1.234,50 lei", "ro_RO").currency == "RON" and parse_amount("2.486,04 лв.", "bg_BG").currency == "BGN"
    assert currencies_in("Ft. Myers, FL 33901") == [] and currencies_in("lei") == []  # a sign only after an amount


def test_a_receipts_number_is_read_and_makes_no_invoice_of_it():
    from docextract.extraction.doctype import document_type

    rows = [[("Nordwest Tank", 200)], [("Bon-Nr.: 27514", 190)], [("14.05.2024", 190)], [("Super E10", 190), ("75,88", 380)],
            [("Summe EUR", 190), ("88,87", 380)], [("MwSt A 19 %", 190), ("14,19", 380)]]
    assert _keyed(rows, "de_DE", ("invoice_number",)) == {"invoice_number": "27514"}
    kind = document_type(_page(rows, line_spacing=11))
    assert kind.type == "receipt" and "invoice_number" not in kind.signals["keyed_fields"], kind.reasons
    # an invoice's support ticket is no receipt's number: "Ticket #4471 du 12/06/2024" under an item (Dolibarr)
    assert _keyed([[("FACTURE", 40)], [("Ticket #4471 du 12/06/2024 - technicien : Y. Guillou", 52)]], "fr_FR",
                  ("invoice_number",)) == {}
