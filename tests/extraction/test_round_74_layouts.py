"""Stop 74's layouts: each test a mechanism read off a page `run` had read wrong, on a small page laid out as `run`
lays one out."""

from docextract.document import WordRef
from docextract.extraction.field_keywords import is_legal_form
from docextract.extraction.key_context import LineIndex, key_above, key_left
from docextract.extraction.normalize import parse_date
from docextract.extraction.party_blocks import party_fields
from tests.layout_helpers import laid_out_page as _page


def _party_texts(doc, labels=("vendor_name", "vendor_address", "customer_name", "billing_address")):
    return {label: " ".join(doc.word(r).text for r in words) for label, words in party_fields(doc, labels).items()}


def _words(doc, text):
    """The refs of the first run of words that reads ``text``."""
    words = doc.pages[0].words
    n = len(text.split())
    for i in range(len(words) - n + 1):
        if " ".join(w.text for w in words[i:i + n]) == text:
            return [WordRef(0, j) for j in range(i, i + n)]
    raise AssertionError(text)


def test_name_keys_of_a_latvian_key_column_and_a_bulgarian_block():
    # a Latvian "PVN rēķins": "Preču piegādātājs / pakalpojumu sniedzējs" over a column of keys "Nosaukums:",
    # "Reģ. Nr.:", "Juridiskā adrese:" (held out: the letterhead's "ZIEMEĻU LOĢISTIKA PVN" read as the seller)
    doc = _page([[("Preču piegādātājs / pakalpojumu sniedzējs", 40)],
                 [("Nosaukums:", 40), ('SIA "Ziemeļu Loģistika"', 170)],
                 [("Reģ. Nr.:", 40), ("40003212997", 170)],
                 [("Juridiskā adrese:", 40), ("Krasta iela 105, Rīga, LV-1019", 170)],
                 [],
                 [("Maksātājs / saņēmējs", 40)],
                 [("Nosaukums:", 40), ('SIA "Baltā Kāpa"', 170)],
                 [("Juridiskā adrese:", 40), ("Jūras iela 12, Liepāja, LV-3401", 170)]], line_spacing=13)
    assert _party_texts(doc) == {"vendor_name": 'SIA "Ziemeļu Loģistika"', "vendor_address": "Krasta iela 105, Rīga, LV-1019",
                                 "customer_name": 'SIA "Baltā Kāpa"', "billing_address": "Jūras iela 12, Liepāja, LV-3401"}
    # a Bulgarian "Получател | Доставчик" pair whose blocks open with "Име на фирма:" (held out: no party read)
    doc = _page([[("Получател", 40), ("Доставчик", 310)],
                 [("Име на фирма: Стройинвест Пловдив АД", 40), ("Име на фирма: Родопа Хидравлик ЕООД", 310)],
                 [("Адрес: ул. Бъндерица 3", 40), ("Адрес: бул. Кукленско шосе 17", 310)]], line_spacing=11)
    parties = _party_texts(doc)
    assert parties["customer_name"] == "Стройинвест Пловдив АД" and parties["vendor_name"] == "Родопа Хидравлик ЕООД"


def test_a_keyed_blocks_name_without_a_key_of_its_own_is_its_first_line():
    # a Lithuanian "Pardavėjas | Pirkėjas" pair: the name unkeyed over "Įmonės kodas:", "Adresas:" and the seller's bank
    # account "A. s.:" (held out: the title "PVM SĄSKAITA FAKTŪRA" read as the seller, the buyer's "medis“")
    doc = _page([[("Pardavėjas", 40), ("Pirkėjas", 310)],
                 [("UAB „Nemuno medis“", 40), ("UAB „Vilties slėnis“", 310)],
                 [("Įmonės kodas: 302845671", 40), ("Įmonės kodas: 304418207", 310)],
                 [("Adresas: Raudondvario pl. 150,", 40), ("Adresas: Žirmūnų g. 68,", 310)],
                 [("LT-47174 Kaunas", 40), ("LT-09124 Vilnius", 310)],
                 [("A. s.: LT98 7300 0187 7616 7091", 40), ("Užsakymo Nr.: U-2024/118", 310)]], line_spacing=13)
    assert _party_texts(doc) == {"vendor_name": "UAB „Nemuno medis“", "vendor_address": "Raudondvario pl. 150, LT-47174 Kaunas",
                                 "customer_name": "UAB „Vilties slėnis“", "billing_address": "Žirmūnų g. 68, LT-09124 Vilnius"}
    # a block whose first line is a key's row names nobody by it
    doc = _page([[("Pardavėjas", 40)], [("Įmonės kodas: 302845671", 40)], [("Adresas: Raudondvario pl. 150,", 40)],
                 [("LT-47174 Kaunas", 40)]], line_spacing=13)
    assert "vendor_name" not in _party_texts(doc)


def test_legal_forms_of_central_eastern_and_southern_europe():
    for form in ("Kft.", "Zrt.", "d.o.o.", "d.d.", "ЕООД", "АД", "UAB", "SIA", "Ltd. Şti.", "Ι.Κ.Ε.", "Α.Ε."):
        assert is_legal_form(form), form
    for word in ("et", "ou", "Nemuno"):  # French "and", "or": no forms
        assert not is_legal_form(word), word


def test_dates_with_month_names_and_marks_of_more_languages():
    for text in ("2024 m. gegužės 14 d.", "2024. gada 14. maijs", "2024. május 14.", "14 mai 2024", "14. svibnja 2024.",
                 "14.05.2024 г.", "14 Mayıs 2024", "14 MAYIS 2024"):
        assert parse_date(text) == parse_date("2024-05-14"), text
    assert str(parse_date("3 octombrie 2024")) == "2024-10-03" and str(parse_date("12 studenoga 2024")) == "2024-11-12"
    assert parse_date("150 m. 14") is None  # a length and a count: no date


def test_a_series_number_under_its_title_and_the_date_under_it():
    # a Lithuanian title block: "PVM SĄSKAITA FAKTŪRA" over "Serija NMD Nr. 004512" over "2024 m. gegužės 14 d."
    # (held out: the date missed, the number read by the tagger alone)
    doc = _page([[("PVM SĄSKAITA FAKTŪRA", 190)], [("Serija NMD Nr. 004512", 200)], [("2024 m. gegužės 14 d.", 205)],
                 [("Pardavėjas", 40)]], line_spacing=14)
    index = LineIndex(doc)
    hit = key_left(index, _words(doc, "004512"))
    assert hit is not None and hit.labels == {"invoice_number"}
    hit = key_above(index, _words(doc, "2024 m. gegužės 14 d."))
    assert hit is not None and hit.labels == {"invoice_date"}
    # the same series under no title keys nothing, nor does a date under a line that keys no invoice's number
    doc = _page([[("Serija NMD Nr. 004512", 200)], [("2024 m. gegužės 14 d.", 205)]], line_spacing=14)
    assert key_left(LineIndex(doc), _words(doc, "004512")) is None
    assert key_above(LineIndex(doc), _words(doc, "2024 m. gegužės 14 d.")) is None
    # a date with more on its line is no such date
    doc = _page([[("PVM SĄSKAITA FAKTŪRA", 190)], [("Serija NMD Nr. 004512", 200)],
                 [("2024 m. gegužės 14 d. Vilnius", 205)]], line_spacing=14)
    assert key_above(LineIndex(doc), _words(doc, "2024 m. gegužės 14 d.")) is None


def test_a_bare_date_key_right_of_an_orders_key_names_the_orders_date():
    # Tally's header grid: "Invoice No. | Dated" over "KPC/24-25/0418 | 12-Aug-24", then "Buyer's Order No. | Dated"
    # over "BAE/PO/2425/1173 | 29-Jul-24" (held out: the order's date accepted as the invoice's, its number missed)
    doc = _page([[("Invoice No.", 300), ("Dated", 432)], [("KPC/24-25/0418", 300), ("12-Aug-24", 432)],
                 [("Buyer's Order No.", 300), ("Dated", 432)], [("BAE/PO/2425/1173", 300), ("29-Jul-24", 432)]],
                line_spacing=11)
    index = LineIndex(doc)
    assert "invoice_date" in key_above(index, _words(doc, "12-Aug-24")).labels
    assert key_above(index, _words(doc, "29-Jul-24")).labels == {"other_date"}
    assert key_above(index, _words(doc, "BAE/PO/2425/1173")).labels == {"purchase_order"}


def test_keys_of_invoices_outside_europe():
    from docextract.extraction.field_keywords import closing_keys, key_tokens

    for key, label in (("KRA PIN:", "vendor_tax_id"), ("R.U.C.", "vendor_tax_id"), ("GSTIN/UIN:", "vendor_tax_id"),
                       ("VAT Reg. TIN:", "vendor_tax_id"), ("CNPJ:", "vendor_tax_id"), ("LPO No.", "purchase_order"),
                       ("Pedido de compra nº", "purchase_order"), ("Op. Gravada", "subtotal"), ("I.G.V. 18%", "total_tax"),
                       ("Balance Owing", "amount_due"), ("Monto neto pendiente de pago", "amount_due"),
                       ("Valor Líquido da NFS-e", "amount_due"), ("Número da NFS-e", "invoice_number"),
                       ("Data e Hora da emissão da NFS-e", "invoice_date"), ("Competência da NFS-e", "other_date")):
        assert label in closing_keys(key_tokens(key))[0], (key, closing_keys(key_tokens(key)))


def test_a_tax_id_valid_in_the_scheme_its_key_names():
    from docextract.extraction.identifiers import valid_in_scheme_of_key

    assert valid_in_scheme_of_key(["kra", "pin"], "P051678432K")
    assert valid_in_scheme_of_key(["r", "u", "c"], "20604815739")
    assert valid_in_scheme_of_key(["cnpj"], "34.817.265/0001-07")
    assert valid_in_scheme_of_key(["usppi", "ein"], "34-1927566")
    assert not valid_in_scheme_of_key(["r", "u", "c"], "20604815738")  # its check digit broken
    assert not valid_in_scheme_of_key(["vat"], "P051678432K")  # no scheme named


def test_currency_signs_of_brazil_peru_and_the_philippines():
    from docextract.extraction.normalize import parse_currency

    assert [parse_currency(t) for t in ("R$ 48.600,00", "S/ 8,845.20", "₱ 12,345.00", "C$ 5", "$ 12.00")] == [
        "BRL", "PEN", "PHP", "CAD", "USD"]
    assert parse_currency("S/N 12345") is None  # a serial number's "S/N"


def test_a_number_sign_on_the_titles_row():
    # a Philippine "SALES INVOICE" at the left margin and its serial "No. 0004127" at the right (held out: missed)
    doc = _page([[("SALES INVOICE", 40), ("No. 0004127", 485)], [("Sold to:", 40), ("BAYANIHAN FOODS CORPORATION", 112)]])
    hit = key_left(LineIndex(doc), _words(doc, "0004127"))
    assert hit is not None and hit.labels == {"invoice_number"}
    # the sign on the row of a line that names no invoice keys nothing
    doc = _page([[("DELIVERY ADDRESS", 40), ("No. 0004127", 485)]])
    assert key_left(LineIndex(doc), _words(doc, "0004127")) is None


def test_a_name_after_the_customers_key_is_no_vendor_reading():
    # MYOB's remittance slip: "Customer: | Saltwater Kitchen & Bar Pty Ltd", which a model read as the vendor (held out)
    from docextract.extraction.entities import Entity
    from docextract.extraction.key_values import key_value_entities

    doc = _page([[("Coastline Hospitality Supplies Pty Ltd", 40)], [("REMITTANCE ADVICE", 40)],
                 [("Customer:", 330), ("Saltwater Kitchen & Bar Pty Ltd", 440)]])
    tagged = Entity("vendor_name", tuple(_words(doc, "Saltwater Kitchen & Bar Pty Ltd")), 0.97)
    kept = key_value_entities(doc, [tagged], ["vendor_name"], {}, "en_AU", 2024)
    assert tagged not in kept
    # the same name after a key of the vendor's stays
    doc = _page([[("Supplier:", 330), ("Saltwater Kitchen & Bar Pty Ltd", 440)]])
    tagged = Entity("vendor_name", tuple(_words(doc, "Saltwater Kitchen & Bar Pty Ltd")), 0.97)
    assert tagged in key_value_entities(doc, [tagged], ["vendor_name"], {}, "en_AU", 2024)


def test_a_peruvian_totals_column_with_the_sols_sign_between_key_and_amount():
    # "Op. Gravada | S/ 49,140.00", "I.G.V. 18% | S/ 8,845.20" (held out: no key found past the "S/", both missed)
    doc = _page([[("Op. Gravada", 380), ("S/ 49,140.00", 513)], [("I.G.V. 18%", 380), ("S/ 8,845.20", 518)],
                 [("Importe Total", 380), ("S/ 57,985.20", 513)]], line_spacing=12)
    index = LineIndex(doc)
    assert key_left(index, _words(doc, "49,140.00")).labels == {"subtotal"}
    assert key_left(index, _words(doc, "8,845.20")).labels == {"total_tax"}


def test_an_instalments_row_beside_a_keyed_amount_is_no_row_of_sums():
    # "Monto neto pendiente de pago : S/ 51,027.20" beside the instalment "001 | 11/12/2024 | S/ 51,027.20" (held out:
    # read as a row of sums, whose first amount is never the field's: the amount due missed)
    from docextract.extraction.candidates import amount_before_another_of_its_key, generate

    rows = [[("Monto neto pendiente de pago", 36), (": S/ 51,027.20", 200), ("001", 320), ("11/12/2024", 360),
             ("S/ 51,027.20", 480)]]
    doc = _page(rows)
    index = LineIndex(doc)
    amounts = generate(doc, index, "es_PE", 2024)["amount"]
    first = next(c for c in amounts if c.words == tuple(_words(doc, "51,027.20")))
    assert not amount_before_another_of_its_key(doc, amounts, first, lambda words: key_left(index, words))
    # a row of sums without a date between stays one
    doc = _page([[("Totaal", 36), ("6.033,61", 200), ("348,70", 320), ("6.382,31", 480)]])
    index = LineIndex(doc)
    amounts = generate(doc, index, "nl_BE", 2024)["amount"]
    first = next(c for c in amounts if c.words == tuple(_words(doc, "6.033,61")))
    assert amount_before_another_of_its_key(doc, amounts, first, lambda words: key_left(index, words))


def _keyed_rules(rows, locale, labels=("purchase_order",)):
    from docextract.extraction.key_values import key_value_entities

    doc = _page(rows, line_spacing=11)
    return {e.label: e.text(doc) for e in key_value_entities(doc, [], labels, {}, locale, 2024)}


def test_a_header_row_with_two_order_keys_that_say_not_whose_keys_no_order():
    # a Belgian wholesaler's "Uw referentie | Bestelbon | Leveringsbon" over the buyer's reference, its order form and
    # its delivery note (held out: the order form's "BB 24-019774" accepted as the buyer's order)
    rows = [[("FACTUUR", 40)], [("Uw referentie", 40), ("Bestelbon", 160), ("Leveringsbon", 290)],
            [("WF-Meulebeke 2024-118", 40), ("BB 24-019774 dd 29/04/2024", 160), ("LB 24-088412", 290)]]
    assert "purchase_order" not in _keyed_rules(rows, "nl_BE")
    # a row whose other key names the buyer's own order keys it: "Pedido nº | Su pedido"
    rows = [[("FACTURA", 40)], [("Pedido nº", 40), ("Su pedido", 170)], [("PV-24-08812", 40), ("FB-0614", 170)]]
    assert _keyed_rules(rows, "es_ES") == {"purchase_order": "FB-0614"}
    # one order key alone in its row keys its order
    rows = [[("FACTUUR", 40)], [("Bestelbon", 160), ("Leveringsbon", 290)], [("BB 24-019774", 160), ("LB 24-088412", 290)]]
    assert _keyed_rules(rows, "nl_BE") == {"purchase_order": "BB 24-019774"}


def test_a_title_key_with_its_sign_glued_to_the_number_is_the_invoices_own_key():
    # "Facture n°F-2024-0412" under the title line "FACTURE – DÉCOMPTE GÉNÉRAL DÉFINITIF", and the deductions'
    # "Situation n°1 – facture F-2024-0102 du 31/01/2024" (held out: the earlier invoice's number accepted as its own)
    from docextract.extraction.candidate_scorer import document_context
    from docextract.extraction.candidates import is_reference_key

    doc = _page([[("FACTURE – DÉCOMPTE GÉNÉRAL DÉFINITIF", 40)], [("Facture n°F-2024-0412", 40)],
                 [("Situation n°1 – facture F-2024-0102 du 31/01/2024, réglée le 26/02/2024", 40), ("6 000,00", 480)]])
    context = document_context(doc, [], {}, "fr_FR", 2024)
    own = next(c for c in context.candidates["identifier"] if c.value == "F-2024-0412")
    other = next(c for c in context.candidates["identifier"] if c.value == "F-2024-0102")
    assert not is_reference_key(context, context.keys(own.words)[0], own.words)
    assert is_reference_key(context, context.keys(other.words)[0], other.words)
    assert context.invoice_number_keyed


def test_an_item_tables_rows_in_the_window_band_are_no_recipient():
    # a Spanish wholesaler's item table starting in the envelope window's band: "Código Descripción" over
    # "10442 Taladro percutor ..." rows whose article codes read as postcodes (held out: the header read as the buyer)
    from docextract.extraction.party_blocks import window_recipient

    table = [[("FACTURA", 400)], [], [], [], [("Código Descripción", 40), ("Cant.", 340), ("Importe", 480)],
             [("10442 Taladro percutor 750 W con maletín", 40), ("2", 340), ("178,00", 480)],
             [("30911 Tornillo rosca madera 4x40", 40), ("6", 340), ("51,60", 480)],
             [("41207 Silicona neutra 300 ml", 40), ("24", 340), ("94,80", 480)]]
    assert window_recipient(_page(table, line_spacing=14)) == {}
    label = [[("FACTURA", 400)], [], [], [], [("Ferretería Bustillo", 40)], [("C/ Mayor 23", 40)], [("46600 Alzira", 40)]]
    doc = _page(label, line_spacing=14)
    assert " ".join(doc.word(r).text for r in window_recipient(doc)["customer_name"]) == "Ferretería Bustillo"


def test_a_glued_sign_in_running_text_still_names_another_invoice():
    # a credit memo's "Invoice #5821 original total $1,486.20; balance after this credit $1,094.67." names the invoice
    # it credits, not its own number ("Credit No." over "1047")
    from docextract.extraction.candidate_scorer import document_context
    from docextract.extraction.candidates import is_reference_key

    doc = _page([[("Credit Memo", 430)], [("Credit No.", 480)], [("1047", 480)],
                 [("Invoice Date", 230)], [("09/27/2024", 230)],
                 [("Invoice #5821 original total $1,486.20; balance after this credit $1,094.67.", 40)]])
    context = document_context(doc, [], {}, "en_US", 2024)
    other = next(c for c in context.candidates["identifier"] if c.value == "5821")
    assert is_reference_key(context, context.keys(other.words)[0], other.words)


def test_a_contract_note_and_a_payout_statement_are_no_invoice():
    # a Swiss bank's "Börsenabrechnung" of a share purchase and a French marketplace's "RELEVÉ DE REVERSEMENT" that says
    # "Ce relevé n'est pas une facture." (held out: both typed invoice, their numbers, dates and IBANs accepted)
    from docextract.extraction.doctype import document_type

    keys = [[("Abrechnung Nr. 2406-118734-01", 40)], [("Datum", 40), ("04.06.2024", 130)],
            [("Total zu Ihren Lasten", 40), ("CHF 47'221.35", 480)], [("IBAN CH90 0076 2012 0458 8129 0", 40)]]
    assert document_type(_page([[("Börsenabrechnung", 40)], *keys], line_spacing=14)).type == "other"
    rows = [[("Facture de commissions n° BQ-FC-2024-051847", 40)], [("Date de facture 15/05/2024", 40)],
            [("Montant reversé", 300), ("2 418,60 €", 480)], [("IBAN FR76 1751 5009 0004 0618 7325 435", 40)]]
    assert document_type(_page([[("RELEVÉ DE REVERSEMENT", 40)], *rows], line_spacing=14)).type == "other"
    said = document_type(_page([*rows, [("Ce relevé n'est pas une facture. Les commissions vous sont facturées.", 40)]],
                               line_spacing=14))
    assert said.type == "other" and said.signals["says_it_is_no_invoice"]


def test_a_one_digit_invoice_number_after_its_title_key_and_a_due_dates_key_before_by():
    # a tutor's Word invoice: "INVOICE #7" and "Payment due by 16th April 2024 please." (held out: no number, and a
    # sort code "07-04-36," read as the due date)
    from docextract.extraction.candidates import generate

    doc = _page([[("INVOICE #7", 250)], [("Date: 2nd of April 2024", 400)],
                 [("Payment due by 16th April 2024 please.", 40)]], line_spacing=14)
    index = LineIndex(doc)
    numbers = [c.value for c in generate(doc, index, "en_GB", 2024)["identifier"]]
    assert "7" in numbers
    assert key_left(index, _words(doc, "16th April 2024")).labels == {"due_date"}
    # a bare one-digit number under no key of the invoice's number stays no candidate
    doc = _page([[("Room 7", 40)]])
    assert "7" not in [c.value for c in generate(doc, LineIndex(doc), "en_GB", 2024)["identifier"]]


def test_an_export_invoices_parties_and_its_eori_number():
    # a UK export invoice's "Exporter | Consignee / Importer of record" blocks (held out: the exporter's own name read as
    # the buyer), and its "EORI:" number, the VAT number with "000" after it, which is no tax id of the invoice
    from docextract.extraction.field_keywords import closing_keys, key_tokens

    doc = _page([[("Exporter", 40), ("Consignee / Importer of record", 225)],
                 [("Pennine Woollen Mills Ltd", 40), ("Maison Lefeuvre SAS", 225)],
                 [("Calder Works, Mill Lane", 40), ("14 rue des Tanneurs", 225)],
                 [("Hebden Bridge HX7 8AB", 40), ("69002 Lyon", 225)]], line_spacing=11)
    parties = _party_texts(doc)
    assert parties["vendor_name"] == "Pennine Woollen Mills Ltd" and parties["customer_name"] == "Maison Lefeuvre SAS"
    assert closing_keys(key_tokens("EORI:"))[0] == {"other_number"}


def test_more_documents_that_are_no_invoice_and_more_invoice_titles():
    # batch 87: a factor's "Ankaufsabrechnung" that says it is none, a SEPA pre-notification, a warranty claim form,
    # a till's Z report (held out: typed invoice, credit note or receipt, with fields accepted); batch 88: Korea's
    # "ELECTRONIC TAX INVOICE" and the Philippines' "SERVICE INVOICE" (held out: typed other)
    from docextract.extraction.doctype import document_type

    keys = [[("Datum:", 360), ("24.06.2024", 440)], [("Rechnung Nr.", 40), ("Rechnungsdatum", 105), ("Betrag", 480)],
            [("RE-24-0611", 40), ("03.06.2024", 105), ("1.190,00", 480)], [("IBAN AT58 2070 6000 0012 3456", 40)]]
    for title in ("Vorabinformation zum SEPA-Lastschrifteinzug", "Z-RAPPORT", "GARANTIECLAIMFORMULIER"):
        assert document_type(_page([[(title, 40)], *keys], line_spacing=14)).type == "other", title
    said = document_type(_page([[("Abrechnung", 40)], *keys,
                                [("Diese Ankaufsabrechnung ist keine Rechnung im Sinne des § 14 UStG.", 40)]], line_spacing=14))
    assert said.signals["says_it_is_no_invoice"]
    invoice = [[("Invoice No.", 40), ("SI-0002871", 130)], [("Date", 40), ("15/03/2024", 130)],
               [("Total Amount Due", 300), ("56,000.00", 480)]]
    for title in ("ELECTRONIC TAX INVOICE", "SERVICE INVOICE", "VAT INVOICE"):
        assert document_type(_page([[(title, 250)], *invoice], line_spacing=14)).type == "invoice", title


def test_the_currency_the_totals_key_names_over_another_the_model_read():
    # a Singapore forwarder's charges in USD ("USD at 1.3520") and its "TOTAL (SGD)" (held out: USD accepted)
    from docextract.extraction.entities import Entity
    from docextract.extraction.key_values import key_value_entities

    doc = _page([[("Ocean freight USD 1,450.00", 40), ("1,960.40", 480)], [("USD at 1.3520.", 40)],
                 [("TOTAL (SGD)", 330), ("7,607.82", 480)]], line_spacing=14)
    usd = Entity("currency", (_words(doc, "USD at 1.3520.")[0],), 0.99)
    total = Entity("total", tuple(_words(doc, "7,607.82")), 0.99)
    found = key_value_entities(doc, [usd, total], ["currency", "total"], {}, "en_SG", 2024)
    assert [e.text(doc) for e in found if e.label == "currency"] == ["(SGD)"]
