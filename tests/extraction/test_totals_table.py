"""A totals table's sum row gives the fields its column headers name (docextract.extraction.totals_table)."""

from docextract.document import WordRef
from docextract.extraction.entities import Entity
from docextract.extraction.totals_table import column_sums, with_column_sums
from tests.layout_helpers import laid_out_page as _page

AMOUNTS = ("subtotal", "total_tax", "total", "amount_due", "line_item_amount")
COLUMNS = (40, 110, 200, 280, 360, 430)
# ZUGFeRD 1's corrective invoices: a row per VAT rate under the keys, the sums in the last row with no key of their own
CORRECTIVE = [("Warenwert", "Zu-/Abschlag", "Nettobetrag", "MwSt-Betrag", "MwSt-%", "Endbetrag"),
              ("-5,00", "0,15", "-4,85", "-0,92", "19,0", "-5,77"), ("-2,90", "0,08", "-2,82", "-0,20", "7,0", "-3,02"),
              ("-7,90", "0,23", "-7,67", "-1,12", "EUR", "-8,79")]


def _words(doc):
    return {doc.word(WordRef(0, w)).text: WordRef(0, w) for w in range(len(doc.pages[0].words))}


def test_the_sum_row_of_a_totals_table_gives_its_columns_fields_over_the_first_rates_amounts():
    doc = _page([list(zip(row, COLUMNS)) for row in CORRECTIVE])
    words = _words(doc)
    # "Warenwert" keys the subtotal too: the net after the adjustments, right of it, is the subtotal
    assert {label: doc.word(refs[0]).text for label, refs in column_sums(doc, "de_DE", 2013).items()} == {
        "subtotal": "-7,67", "total_tax": "-1,12", "total": "-8,79"}
    probabilities = {r: {label: 0.1 for label in AMOUNTS} for r in words.values()}
    # a model and a scorer that never saw the layout: the first rate's amounts under the keys, the sum a line item
    chosen = [Entity("subtotal", (words["-4,85"],), 0.3, "candidates", assigned=True),
              Entity("total", (words["-5,00"],), 0.1, "candidates", assigned=True),
              Entity("line_item_amount", (words["-1,12"],), 0.8)]
    out = with_column_sums(doc, chosen, AMOUNTS, probabilities, "de_DE", 2013)
    fields = {e.label: doc.word(e.words[0]).text for e in out if e.assigned}
    assert fields == {"subtotal": "-7,67", "total": "-8,79", "total_tax": "-1,12"}
    assert not any(e.label == "line_item_amount" for e in out)
    assert {doc.word(e.words[0]).text for e in out if e.label == "subtotal" and not e.assigned} == {"-4,85"}


def test_a_line_item_tables_amount_column_and_a_keyed_subtotal_are_no_column_sum():
    doc = _page([[("Description", 40), ("Amount", 300)], [("Widget A", 40), ("10.00", 300)],
                 [("Widget B", 40), ("20.00", 300)], [("Subtotal", 200), ("30.00", 300)]])
    assert column_sums(doc, "en_GB", 2024) == {}
    # rows of values only, but the last one keyed on its row ("Total 30.00"): the key there names it
    doc = _page([[("Net", 40), ("Amount", 300)], [("10.00", 300)], [("20.00", 300)], [("Total", 200), ("30.00", 300)]])
    assert column_sums(doc, "en_GB", 2024) == {}


def test_a_receipts_single_summed_column_is_no_totals_table():
    # SROIE: OCR boxes each item's amount apart under "Amount", their sum on an unkeyed line is the subtotal at most
    # (the total adds the tax below it); a totals table's header keys several summed columns
    doc = _page([[("Qty", 40), ("Amount", 300)], [("2", 40), ("10.00", 300)], [("1", 40), ("20.00", 300)],
                 [("30.00", 300)], [("Total incl. GST", 40), ("31.80", 300)]])
    assert column_sums(doc, "en_GB", 2024) == {}


def test_the_amount_due_on_the_sum_row_keeps_it_and_the_total_shares_it():
    # the scorer took the sum row's last amount as the amount due (right: nothing was paid) and left the total to the
    # tagger, which had read a date: the sum is the total too, and stays the amount due. The net sum the scorer took
    # as the tax is the subtotal: the tax column's own sum displaces that reading
    doc = _page([list(zip(row, COLUMNS)) for row in CORRECTIVE] + [[("Auftrag-Datum 02.08.2013", 40)]])
    words = _words(doc)
    probabilities = {r: {label: 0.1 for label in AMOUNTS} for r in words.values()}
    chosen = [Entity("amount_due", (words["-8,79"],), 0.9, "candidates", assigned=True),
              Entity("total", (words["02.08.2013"],), 0.07, "model", assigned=True),
              Entity("total_tax", (words["-7,67"],), 0.2, "candidates", assigned=True)]
    out = with_column_sums(doc, chosen, AMOUNTS, probabilities, "de_DE", 2013)
    fields = {e.label: doc.word(e.words[0]).text for e in out if e.assigned}
    assert fields == {"amount_due": "-8,79", "total": "-8,79", "total_tax": "-1,12", "subtotal": "-7,67"}


def test_a_sum_held_as_a_field_another_column_sums_to_is_free_for_its_own_column():
    # ZUGFeRD 1's corrective invoices: a fold scorer took the table's total "-8,79" as the subtotal, which had kept
    # the total empty (the sum was another field's); the net column's sum is the subtotal, so "-8,79" is the total
    doc = _page([list(zip(row, COLUMNS)) for row in CORRECTIVE])
    words = _words(doc)
    probabilities = {r: {label: 0.1 for label in AMOUNTS} for r in words.values()}
    chosen = [Entity("subtotal", (words["-8,79"],), 0.4, "candidates", assigned=True)]
    out = with_column_sums(doc, chosen, AMOUNTS, probabilities, "de_DE", 2013)
    assert {e.label: doc.word(e.words[0]).text for e in out if e.assigned} == {
        "subtotal": "-7,67", "total_tax": "-1,12", "total": "-8,79"}
    # a field no column sums to keeps what it holds: without a tax column, the amount under "Endbetrag" that the
    # tax holds stays the tax's, and the total is not set over it
    doc = _page([[("Nettobetrag", 200), ("Endbetrag", 360)], [("-4,85", 200), ("-5,77", 360)],
                 [("-2,82", 200), ("-3,02", 360)], [("-7,67", 200), ("-8,79", 360)]])
    words = _words(doc)
    probabilities = {r: {label: 0.1 for label in AMOUNTS} for r in words.values()}
    chosen = [Entity("total_tax", (words["-8,79"],), 0.4, "candidates", assigned=True)]
    out = with_column_sums(doc, chosen, AMOUNTS, probabilities, "de_DE", 2013)
    assert {e.label: doc.word(e.words[0]).text for e in out if e.assigned} == {"subtotal": "-7,67", "total_tax": "-8,79"}


def test_an_item_tables_total_row_gives_the_fields_its_column_headers_name():
    # an Indian GST invoice: the header's cells stand close ("Taxable Value Rs. IGST Rs."), an item row between it
    # and the "Total" row
    columns = (40, 110, 140, 220, 275, 360, 420)
    doc = _page([list(zip(("Product", "Qty", "Gross Amount", "Discount", "Taxable Value", "IGST", "Total"), columns)),
                 list(zip(("Mouse", "1", "1,299.00", "-200.00", "931.36", "167.64", "1,099.00"), columns)),
                 list(zip(("Total", "1", "1,299.00", "-200.00", "931.36", "167.64", "1,099.00"), columns))])
    sums = {label: doc.word(refs[0]).text for label, refs in column_sums(doc, "en_GB", 2024).items()}
    # "Gross Amount" keys the total too: the rightmost column that names it is the total
    assert sums == {"subtotal": "931.36", "total_tax": "167.64", "total": "1,099.00"}
    # an item row is no total row
    items_only = _page([list(zip(("Product", "Qty", "Taxable Value", "IGST", "Total"), columns[:5])),
                        list(zip(("Mouse", "1", "931.36", "167.64", "1,099.00"), columns[:5]))])
    assert column_sums(items_only, "en_GB", 2024) == {}


def test_a_polish_vat_summary_row_gives_the_net_the_tax_and_the_gross_its_headers_name():
    # "Razem" heads the row and keys none of its amounts: the first one after it is the net, not a total
    columns = (40, 200, 290, 350, 400, 460)
    doc = _page([list(zip(("Nazwa", "Ilość", "Wartość netto", "VAT", "Kwota VAT", "Wartość brutto"), columns)),
                 list(zip(("Ulotki A5", "5000", "1 500,00", "23%", "345,00", "1 845,00"), columns)),
                 list(zip(("Projekt graficzny", "1", "500,00", "23%", "115,00", "615,00"), columns)),
                 [("Razem", 200), ("2 000,00", 290), ("23%", 350), ("460,00", 400), ("2 460,00", 460)]])
    sums = {label: " ".join(doc.word(r).text for r in refs) for label, refs in column_sums(doc, "pl_PL", 2024).items()}
    assert sums == {"subtotal": "2 000,00", "total_tax": "460,00", "total": "2 460,00"}


def test_a_vat_table_of_one_rate_gives_its_net_and_tax_where_they_add_up_to_its_gross():
    # a shop's prices include VAT: its items add up to the gross amount, which a scorer also took for the subtotal
    columns = (40, 130, 220, 300)
    header, rate = ("MwSt.-Satz", "Netto", "MwSt.", "Brutto"), ("A 19 %", "519,32", "98,67", "617,99")
    doc = _page([list(zip(header, columns)), list(zip(rate, columns)), [], [("Gesamtbetrag 617,99 €", 280)]])
    assert {label: doc.word(refs[0]).text for label, refs in column_sums(doc, "de_DE", 2024).items()} == {
        "subtotal": "519,32", "total_tax": "98,67", "total": "617,99"}
    # not where they do not add up, nor for one rate of several (its sum row reads them)
    wrong = ("A 19 %", "519,32", "98,66", "617,99")
    assert column_sums(_page([list(zip(header, columns)), list(zip(wrong, columns))]), "de_DE", 2024) == {}
    second = ("B 7 %", "100,00", "7,00", "107,00")
    doc = _page([list(zip(header, columns)), list(zip(rate, columns)), list(zip(second, columns))])
    assert column_sums(doc, "de_DE", 2024) == {}
    # an English hotel folio's "VAT analysis": "Gross" keys the total
    doc = _page([list(zip(("Rate", "Net", "VAT", "Gross"), columns)),
                 list(zip(("20%", "308.92", "61.78", "370.70"), columns))])
    assert {label: doc.word(refs[0]).text for label, refs in column_sums(doc, "en_GB", 2024).items()} == {
        "subtotal": "308.92", "total_tax": "61.78", "total": "370.70"}


def test_a_sum_row_may_print_its_own_total_key_in_its_first_cell():
    # a Luxembourg hotel's VAT table: "Gesamt" before the sums of its two rates
    columns = (40, 130, 220, 300)
    rows = [("MwSt.-Satz", "Netto", "MwSt.", "Brutto"), ("3 %", "470,39", "14,11", "484,50"),
            ("17 %", "59,40", "10,10", "69,50"), ("Gesamt", "529,79", "24,21", "554,00")]
    doc = _page([list(zip(row, columns)) for row in rows])
    assert {label: doc.word(refs[0]).text for label, refs in column_sums(doc, "de_DE", 2024).items()} == {
        "subtotal": "529,79", "total_tax": "24,21", "total": "554,00"}


def test_a_vat_tables_sum_row_is_read_over_a_taggers_alternative_on_it():
    # a Dutch web shop's "Tarief | Grondslag | BTW" table whose "Totaal" row sums both rates; the tagger read its
    # base as the amount due too, but the amount due it was chosen for is "Openstaand bedrag € 0,00"
    doc = _page([[("Tarief", 50), ("Grondslag", 140), ("BTW", 230)], [("21%", 50), ("429,54", 140), ("90,20", 230)],
                 [("9%", 50), ("45,86", 140), ("4,13", 230)], [("Totaal", 50), ("475,40", 140), ("94,33", 230)],
                 [("Openstaand bedrag", 300), ("0,00", 480)]])
    words = _words(doc)
    assert {label: doc.word(refs[0]).text for label, refs in column_sums(doc, "nl_NL", 2024).items()} == {
        "subtotal": "475,40", "total_tax": "94,33"}
    probabilities = {r: {label: 0.1 for label in AMOUNTS} for r in words.values()}
    entities = [Entity("amount_due", (words["0,00"],), 0.9, "candidates", assigned=True),
                Entity("amount_due", (words["475,40"],), 0.4, "model")]
    out = with_column_sums(doc, entities, AMOUNTS, probabilities, "nl_NL", 2024)
    assert {e.label: doc.word(e.words[0]).text for e in out if e.assigned} == {
        "amount_due": "0,00", "subtotal": "475,40", "total_tax": "94,33"}


def test_a_one_rate_vat_table_whose_rate_has_a_name_gives_the_net_the_tax_and_the_gross():
    # a marketplace seller's "VAT summary": "Rate | Net | VAT | Gross" over "Standard 23% | €163.05 | €37.50 | €200.55",
    # prices including VAT elsewhere; the tagger read each amount's glued sign as the currency
    doc = _page([[("Rate", 45), ("Net", 148), ("VAT", 215), ("Gross", 278)],
                 [("Standard 23%", 45), ("€163.05", 131), ("€37.50", 205), ("€200.55", 271)]])
    words = _words(doc)
    assert {label: doc.word(refs[0]).text for label, refs in column_sums(doc, "en_IE", 2024).items()} == {
        "subtotal": "€163.05", "total_tax": "€37.50", "total": "€200.55"}
    probabilities = {r: {label: 0.1 for label in AMOUNTS} for r in words.values()}
    signs = [Entity("currency", (words[text],), 0.8) for text in ("€163.05", "€37.50", "€200.55")]
    out = with_column_sums(doc, signs, AMOUNTS, probabilities, "en_IE", 2024)
    assert {e.label: doc.word(e.words[0]).text for e in out if e.assigned} == {
        "subtotal": "€163.05", "total_tax": "€37.50", "total": "€200.55"}


def _deductions_table(heading):
    # a roofer's final invoice deducting its two partial invoices (net, VAT, gross each) and their sum row
    return _page([[(heading, 40), ("netto", 330), ("USt.", 410), ("brutto", 480)],
                  [("1. Abschlagsrechnung", 40), ("8.000,00", 330), ("1.520,00", 410), ("-9.520,00", 480)],
                  [("2. Abschlagsrechnung", 40), ("6.000,00", 330), ("1.140,00", 410), ("-7.140,00", 480)],
                  [("14.000,00", 330), ("2.660,00", 410), ("-16.660,00", 480)]])


def test_the_sum_row_of_a_table_of_deductions_is_none_of_the_invoices_amounts():
    # under "abzgl. ..." the rows are taken off the invoice's amount: their sum is no subtotal, tax or total of its own
    # (the same table under another heading is a totals table, as ZUGFeRD 1's corrective invoices print one)
    doc = _deductions_table("Zusammenstellung")
    assert {label: doc.word(refs[0]).text for label, refs in column_sums(doc, "de_DE", 2024).items()} == {
        "subtotal": "14.000,00", "total_tax": "2.660,00", "total": "-16.660,00"}
    assert column_sums(_deductions_table("abzgl. Abschlagsrechnungen"), "de_DE", 2024) == {}


def test_a_one_rate_vat_row_that_opens_with_a_tax_code_gives_the_net_the_tax_and_the_gross():
    # Dynamics 365's French VAT table: "TVA_C20" before the rate's base, rate, tax and again net, tax and gross
    doc = _page([[("Montant HT", 290), ("TVA", 386), ("Montant TTC", 440)],
                 [("TVA_C20", 40), ("5 538,16", 290), ("1 107,63", 380), ("6 645,79", 450)]])
    found = column_sums(doc, "fr_FR", 2024)
    assert {label: " ".join(doc.word(r).text for r in refs) for label, refs in found.items()} == {
        "subtotal": "5 538,16", "total_tax": "1 107,63", "total": "6 645,79"}
