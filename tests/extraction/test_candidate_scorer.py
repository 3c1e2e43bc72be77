"""The candidate scorer's joint decoding: each kind's fields chosen together, with the invoice's arithmetic."""

from docextract.document import Document
from docextract.extraction.candidate_scorer import CandidateScorer, FieldModel, choose_fields
from docextract.extraction.candidates import FEATURES
from tests.layout_helpers import laid_out_page


def _page(rows: list[str]) -> Document:
    return laid_out_page([[(row, 40.0)] for row in rows])


def _model(intercept: float, **weights: float) -> FieldModel:
    n = len(FEATURES)
    return FieldModel((0.0,) * n, (1.0,) * n, tuple(weights.get(name, 0.0) for name in FEATURES), intercept)


def test_a_zero_tax_does_not_make_any_amount_a_checked_subtotal():
    # a scorer that, as fold scorers did on layouts never seen, rates an unkeyed 0,00 as the tax: the printed
    # 216,00 + 19,44 = 235,44 must still beat 235,44 + 0,00 = 235,44, which any total satisfies
    doc = _page(["Rechnungssumme ohne USt. 216,00", "Steuerbetrag 19,44", "Bruttosumme 235,44",
                 "Erhaltene Anzahlungen 0,00"])
    scorer = CandidateScorer(FEATURES, {
        "subtotal": _model(-1.0, key_left_own=1.5),
        "total_tax": _model(-1.0, key_left_own=0.5, amount_zero=3.0),
        "total": _model(-1.0, key_left_own=3.0),
    })
    fields = {e.label: e.text(doc) for e in choose_fields(doc, [], {}, scorer, "de_DE", 2024) if e.assigned}
    assert fields == {"subtotal": "216,00", "total_tax": "19,44", "total": "235,44"}
    # a tax-free invoice keeps its zero tax: nothing else adds up
    doc = _page(["Rechnungssumme ohne USt. 235,44", "Steuerbetrag 0,00", "Bruttosumme 235,44"])
    fields = {e.label: e.text(doc) for e in choose_fields(doc, [], {}, scorer, "de_DE", 2024) if e.assigned}
    assert fields["total_tax"] == "0,00" and fields["total"] == "235,44"


def test_an_items_price_is_no_tax_even_where_the_scorer_is_sure_of_it():
    # a French auto-entrepreneur charges no VAT: its two items' 650,00 € and 150,00 € add up to its 800,00 €, and a
    # scorer sure of the 150,00 € as the tax must not trade the keyed "Total HT" for the sum
    doc = laid_out_page([[("Reportage photo, inauguration", 50.0), ("1", 330.0), ("650,00 €", 380.0), ("650,00 €", 480.0)],
                         [("Retouches et livraison numérique", 50.0), ("1", 330.0), ("150,00 €", 380.0),
                          ("150,00 €", 480.0)], [("Total HT", 380.0), ("800,00 €", 480.0)],
                         [("Total TTC", 380.0), ("800,00 €", 480.0)]])
    scorer = CandidateScorer(FEATURES, {"subtotal": _model(-1.0, key_left_own=3.0, amount_rank=-0.5),
                                        "total_tax": _model(0.5, amount_rank=-0.2),
                                        "total": _model(-1.0, key_left_own=3.0)})
    fields = {e.label: e.text(doc) for e in choose_fields(doc, [], {}, scorer, "fr_FR", 2024) if e.assigned}
    assert fields["subtotal"] == "800,00 €" and fields["total"] == "800,00 €" and "total_tax" not in fields


def test_a_date_recurs_only_where_no_key_names_another_field():
    # a scorer that likes a date printed twice: a delivery date printed under two delivery keys must not outrank
    # the keyed invoice date, while an invoice date repeated without a key in the footer still counts as repeated
    from docextract.extraction.candidate_scorer import document_context

    scorer = CandidateScorer(FEATURES, {"invoice_date": _model(-1.0, key_left_own=1.0, recurs=3.0)})
    doc = _page(["Beleg-Datum : 16.09.2013", "Leistungs-Datum : 05.08.2013", "Lieferschein-Datum : 05.08.2013"])
    fields = {e.label: e.text(doc) for e in choose_fields(doc, [], {}, scorer, "de_DE", 2013) if e.assigned}
    assert fields == {"invoice_date": "16.09.2013"}
    doc = laid_out_page([[("Beleg-Datum : 16.09.2013", 40.0)], [("Leistungs-Datum : 05.08.2013", 40.0)], [], [], [], [],
                         [("Erstellt 16.09.2013", 40.0)]])  # a footer far below
    context = document_context(doc, [], {}, "de_DE", 2013)
    first = context.candidates["date"][0]
    assert context.recurs(first, "invoice_date") and not context.recurs(context.candidates["date"][1], "invoice_date")


def test_a_date_on_a_version_row_is_never_a_field():
    # the FeRD visualisation prints its stylesheet's release as "Stylesheet-Version:" | "2.6 vom 10.11.2025" above
    # the title's "Handelsrechnung Nr. 99877 vom 30.05.2026": "vom" keys both, the earlier must not win
    from docextract.extraction.key_values import key_value_entities

    doc = laid_out_page([[("Stylesheet-Version:", 40.0), ("2.6 vom 10.11.2025", 260.0)], [],
                         [("Handelsrechnung Nr. 99877 vom 30.05.2026", 40.0)]])
    scorer = CandidateScorer(FEATURES, {"invoice_date": _model(-1.0, key_left_own=1.0, date_first=3.0)})
    fields = {e.label: e.text(doc) for e in choose_fields(doc, [], {}, scorer, "de_DE", 2026) if e.assigned}
    assert fields == {"invoice_date": "30.05.2026"}
    rule = {e.label: e.text(doc) for e in key_value_entities(doc, [], ["invoice_date"], {}, "de_DE", 2026)}
    assert rule == {"invoice_date": "30.05.2026"}


def test_a_due_date_after_the_issue_date_is_no_evidence_for_either():
    # most pairs of an invoice's dates are in that order, so the order earns nothing: a weak due date (the title's
    # date, 0.25) must not pull the invoice date off the title onto the delivery date
    doc = _page(["Rechnung Nr. 12 vom 05.03.2018", "Lieferdatum: 01.03.2018"])
    scorer = CandidateScorer(FEATURES, {
        "invoice_date": _model(0.0, key_left_own=1.0, title_line=0.52, key_left_other=0.2),
        "due_date": _model(-1.1, date_first=-1.0),
    })
    fields = {e.label: e.text(doc) for e in choose_fields(doc, [], {}, scorer, "de_DE", 2018) if e.assigned}
    assert fields == {"invoice_date": "05.03.2018"}


def test_the_buyers_tax_id_is_never_the_sellers():
    # both parties' blocks print "USt.-Id.-Nr.:"; a scorer that prefers the lower one must still take the seller's
    doc = laid_out_page([[("Verkäufer", 70.0)], [("Name:", 70.0), ("Global Supplies Ltd.", 260.0)],
                         [("USt.-Id.-Nr.:", 70.0), ("ATU13585627", 260.0)], [],
                         [("Käufer/Leistungsempfänger", 70.0)], [("Name:", 70.0), ("Metallbau Leipzig GmbH", 260.0)],
                         [("USt.-Id.-Nr.:", 70.0), ("DE136695976", 260.0)]])
    scorer = CandidateScorer(FEATURES, {"vendor_tax_id": _model(-1.0, key_left_own=1.0, y=3.0)})
    fields = {e.label: e.text(doc) for e in choose_fields(doc, [], {}, scorer, "de_DE", 2024) if e.assigned}
    assert fields == {"vendor_tax_id": "ATU13585627"}


def test_the_cash_handed_over_is_never_the_total():
    # a receipt's largest amount is often the cash handed over; SROIE prints "CASH" and "RM 50.00" as two boxes of
    # one row. A scorer that likes the largest amount (as fitted on invoices) must still take the total
    doc = laid_out_page([[("TOTAL", 40.0), ("RM 38.90", 200.0)], [("CASH", 40.0), ("RM 50.00", 200.0)],
                         [("CHANGE", 40.0), ("RM 11.10", 200.0)]])
    scorer = CandidateScorer(FEATURES, {"total": _model(-1.0, key_left_own=1.0, amount_largest=3.0)})
    fields = {e.label: e.text(doc) for e in choose_fields(doc, [], {}, scorer, "en_MY", 2024) if e.assigned}
    assert fields == {"total": "38.90"}
    # the cash counts for the total where it is the total's own value too ("TOTAL 12.00", "CASH 12.00")
    doc = laid_out_page([[("TOTAL", 40.0), ("12.00", 200.0)], [("CASH", 40.0), ("12.00", 200.0)]])
    fields = {e.label: e.text(doc) for e in choose_fields(doc, [], {}, scorer, "en_MY", 2024) if e.assigned}
    assert fields == {"total": "12.00"}


def test_a_series_printed_apart_from_its_number_is_a_candidate_with_it():
    # "RK 19-32": the letters of a series a word's space before the number; the number alone stays a candidate
    from docextract.extraction.candidate_scorer import document_context

    doc = _page(["Rechnungsnummer: RK 19-32", "Invoice No. INV 0042", "Bestell-Nr NR 4711", "Betrag EUR 500",
                 "Registergericht HRB 372876", "Kunde Meier 12345", "Visualisierung © DWC 2025",
                 "N° de facture F 24-94", "Lot A 1200"])
    identifiers = [c.value for c in document_context(doc, [], {}, "de_DE", 2024).candidates["identifier"]]
    assert {"RK 19-32", "19-32", "INV 0042", "0042"} <= set(identifiers)
    assert not [v for v in identifiers if v.split()[0] in ("NR", "EUR", "HRB", "Meier", "DWC")]
    # one letter only before a number in parts ("F 24-94"), not before a plain number ("A 1200")
    assert {"F 24-94", "24-94"} <= set(identifiers) and "A 1200" not in identifiers
    # a scorer that prefers letters in an invoice number takes the whole series
    scorer = CandidateScorer(FEATURES, {"invoice_number": _model(-1.0, key_left_own=2.0, id_letters=1.0)})
    doc = _page(["Rechnungsnummer: RK 19-32"])
    fields = {e.label: e.text(doc) for e in choose_fields(doc, [], {}, scorer, "de_DE", 2024) if e.assigned}
    assert fields == {"invoice_number": "RK 19-32"}


def test_where_the_scorer_is_unsure_it_still_ranks_the_taggers_own_readings():
    # every candidate under the scorer's minimum (0.2): the tagger's reading stays, but of the dates it tagged as
    # the invoice date, the one the scorer ranks highest (beside "Beleg-Datum") is the field, not its most confident
    from docextract.document import WordRef
    from docextract.extraction.entities import Entity

    doc = _page(["Beleg-Datum : 16.09.2013", "Leistungs-Datum : 05.08.2013"])
    words = {doc.word(WordRef(0, i)).text: WordRef(0, i) for i in range(len(doc.pages[0].words))}
    issue = Entity("invoice_date", (words["16.09.2013"],), 0.6, "model")
    delivery = Entity("invoice_date", (words["05.08.2013"],), 0.9, "model", assigned=True)
    scorer = CandidateScorer(FEATURES, {"invoice_date": _model(-4.0, key_left_own=2.0, key_left_other=-1.0)})
    fields = {e.label: e.text(doc) for e in choose_fields(doc, [issue, delivery], {}, scorer, "de_DE", 2013)
              if e.assigned}
    assert fields == {"invoice_date": "16.09.2013"}
    # a scorer that ranks the tagger's own choice first leaves it...
    scorer = CandidateScorer(FEATURES, {"invoice_date": _model(-4.0, key_left_own=-1.0, key_left_other=2.0)})
    unkeyed = _page(["Beleg-Datum : 16.09.2013", "Lieferung 05.08.2013"])
    words = {unkeyed.word(WordRef(0, i)).text: WordRef(0, i) for i in range(len(unkeyed.pages[0].words))}
    tagged = [Entity("invoice_date", (words["16.09.2013"],), 0.6, "model"),
              Entity("invoice_date", (words["05.08.2013"],), 0.9, "model", assigned=True)]
    fields = {e.label: e.text(unkeyed) for e in choose_fields(unkeyed, tagged, {}, scorer, "de_DE", 2013) if e.assigned}
    assert fields == {"invoice_date": "05.08.2013"}
    # ...but never a date right after another date's key, however the scorer ranks it
    fields = {e.label: e.text(doc) for e in choose_fields(doc, [issue, delivery], {}, scorer, "de_DE", 2013)
              if e.assigned}
    assert fields == {"invoice_date": "16.09.2013"}


def test_an_amount_the_scorer_is_unsure_of_is_chosen_only_where_the_sum_holds():
    # a fold scorer on a layout never seen rated the printed tax under its minimum and a zero tax above it: the
    # 70,00 between 448,99 and 518,99 makes the sum, so it is the tax; an unsure amount that makes no sum is not
    doc = _page(["Rechnungssumme ohne USt. 448,99", "Steuerbetrag 70,00", "Bruttosumme 518,99", "Steuer 0,00"])
    scorer = CandidateScorer(FEATURES, {
        "subtotal": _model(-1.0, key_left_own=2.0),
        "total_tax": _model(-2.5, key_left_own=1.0, amount_zero=2.0, amount_rank=-0.2),
        "total": _model(-1.0, key_left_own=2.0),
    })
    fields = {e.label: e.text(doc) for e in choose_fields(doc, [], {}, scorer, "de_DE", 2024) if e.assigned}
    assert fields == {"subtotal": "448,99", "total_tax": "70,00", "total": "518,99"}
    doc = _page(["Rechnungssumme ohne USt. 448,99", "Steuerbetrag 71,00", "Bruttosumme 518,99"])
    fields = {e.label: e.text(doc) for e in choose_fields(doc, [], {}, scorer, "de_DE", 2024) if e.assigned}
    assert "total_tax" not in fields


def test_two_items_prices_that_add_up_to_the_total_are_no_subtotal_and_tax():
    # a bookshop's receipt-like invoice: 30,00 + 3,00 = 33,00 by chance, the tax printed inside the total
    doc = _page(["1 Duden Rechtschreibung 30,00 € 30,00 €", "1 Stadtplan Marburg 3,00 € 3,00 €", "Gesamtbetrag 33,00 €",
                 "enthaltene MwSt. 7 % 2,16 €"])
    scorer = CandidateScorer(FEATURES, {
        "subtotal": _model(-2.5),
        "total_tax": _model(-3.0, key_left_own=3.0),
        "total": _model(-1.0, key_left_own=3.0),
    })
    fields = {e.label: e.text(doc) for e in choose_fields(doc, [], {}, scorer, "de_DE", 2024) if e.assigned}
    assert fields == {"total_tax": "2,16 €", "total": "33,00 €"}


def test_a_cfdis_folio_after_its_series_letter_is_the_invoice_number_and_its_tax_regime_code_none():
    # "Serie y folio: A 1587" in a key column; the tax regime's code "601", which a model took for the number
    from docextract.document import WordRef
    from docextract.extraction.entities import Entity
    from tests.layout_helpers import laid_out_page

    doc = laid_out_page([[("Régimen fiscal: 601 General de Ley Personas Morales", 50)],
                         [("Serie y folio:", 400), ("A 1587", 470)]])
    words = {doc.word(WordRef(0, i)).text: WordRef(0, i) for i in range(len(doc.pages[0].words))}
    regime = Entity("invoice_number", (words["601"],), 0.86, "model", assigned=True)
    scorer = CandidateScorer(FEATURES, {"invoice_number": _model(-1.0, key_left_own=2.0)})
    fields = {e.label: e.text(doc) for e in choose_fields(doc, [regime], {}, scorer, "es_MX", 2024) if e.assigned}
    assert fields == {"invoice_number": "1587"}


def test_a_keyed_invoice_number_the_scorer_ranks_above_the_taggers_unkeyed_reading_wins_under_the_minimum():
    # a fold scorer on a layout never seen: "Rechnungsnummer 471102" at 0.19, under its minimum of 0.2, and the
    # tagger's "4102.V.e" (a rotated copyright line) lower still: the keyed number is the field
    from docextract.document import WordRef
    from docextract.extraction.entities import Entity

    doc = _page(["Rechnungsnummer 471102", "Zahlbar sofort ohne Abzug", "Copyright 4102.V.e"])
    words = {doc.word(WordRef(0, i)).text: WordRef(0, i) for i in range(len(doc.pages[0].words))}
    garbage = Entity("invoice_number", (words["4102.V.e"],), 0.9, "model", assigned=True)
    scorer = CandidateScorer(FEATURES, {"invoice_number": _model(-2.0, key_left_own=0.6)})
    fields = {e.label: e.text(doc) for e in choose_fields(doc, [garbage], {}, scorer, "de_DE", 2014) if e.assigned}
    assert fields == {"invoice_number": "471102"}
    # a tagger's reading after the key stays where the scorer ranks another keyed value higher
    doc = _page(["Rechnungsnummer 471102", "Rechnung Nr. 2013-471102"])
    words = {doc.word(WordRef(0, i)).text: WordRef(0, i) for i in range(len(doc.pages[0].words))}
    keyed = Entity("invoice_number", (words["471102"],), 0.9, "model", assigned=True)
    scorer = CandidateScorer(FEATURES, {"invoice_number": _model(-2.2, key_left_own=0.6, id_separator=0.1)})
    fields = {e.label: e.text(doc) for e in choose_fields(doc, [keyed], {}, scorer, "de_DE", 2014) if e.assigned}
    assert fields == {"invoice_number": "471102"}


def test_a_value_after_another_fields_key_is_not_the_field_where_its_own_key_keys_one():
    # a scorer that, as a fold scorer did on a producer never seen, takes the largest amount as the amount due: the
    # gross total keyed "Gesamtbetrag Brutto" is no amount due beside "Offener Betrag 134,60 €"
    scorer = CandidateScorer(FEATURES, {"amount_due": _model(-1.0, amount_largest=3.0, key_left_own=1.0)})
    doc = _page(["Gesamtbetrag Brutto 144,59 €", "Vorausbezahlter Betrag 10,00 €", "Offener Betrag 134,60 €"])
    fields = {e.label: e.text(doc) for e in choose_fields(doc, [], {}, scorer, "de_DE", 2024) if e.assigned}
    assert fields == {"amount_due": "134,60 €"}
    # where nothing keys the amount due, the total may be it (nothing was paid)
    doc = _page(["Gesamtbetrag Brutto 144,59 €", "Steuerbetrag 23,09 €"])
    fields = {e.label: e.text(doc) for e in choose_fields(doc, [], {}, scorer, "de_DE", 2024) if e.assigned}
    assert fields == {"amount_due": "144,59 €"}
    # an identifier the same: the order's number is no invoice number beside the keyed one
    scorer = CandidateScorer(FEATURES, {"invoice_number": _model(-1.0, id_separator=3.0, key_left_own=1.0)})
    doc = _page(["Rechnungsnummer 471102", "Bestellnummer 2013-471331"])
    fields = {e.label: e.text(doc) for e in choose_fields(doc, [], {}, scorer, "de_DE", 2024) if e.assigned}
    assert fields == {"invoice_number": "471102"}


def _hotel_bill() -> Document:
    # a hotel bill's header row over its value row: the room, the stay, the bill's number and date
    return laid_out_page([[("Kamer", 50.0), ("Aankomst", 130.0), ("Vertrek", 220.0), ("Nota nr.", 380.0), ("Datum", 460.0)],
                          [("204", 50.0), ("10-04-2024", 130.0), ("12-04-2024", 220.0), ("48213", 380.0),
                           ("12-04-2024", 460.0)]])


def test_a_value_under_a_header_that_names_other_dates_or_numbers_is_never_the_field():
    from docextract.document import WordRef
    from docextract.extraction.entities import Entity

    doc = _hotel_bill()
    words = {doc.word(WordRef(0, i)).text: WordRef(0, i) for i in range(len(doc.pages[0].words))}
    # a tagger that reads the arrival as the bill's date and the room as its number, with a scorer that trusts it
    tagged = [Entity("invoice_date", (words["10-04-2024"],), 0.99, "model", assigned=True),
              Entity("invoice_number", (words["204"],), 0.95, "model", assigned=True)]
    scorer = CandidateScorer(FEATURES, {"invoice_date": _model(-10.0, tagged=20.0),
                                        "invoice_number": _model(-10.0, tagged=20.0)})
    fields = {e.label: e.text(doc) for e in choose_fields(doc, tagged, {}, scorer, "nl_NL", 2024) if e.assigned}
    assert fields.get("invoice_date") != "10-04-2024"
    # the room number is nobody's: the number under "Nota nr." in the row of the bill's own keys is the field
    numbers = [e for e in choose_fields(doc, tagged, {}, scorer, "nl_NL", 2024) if e.label == "invoice_number"]
    assert [e.text(doc) for e in numbers if e.assigned] == ["48213"]


def test_a_date_printed_twice_may_be_both_the_invoice_date_and_the_due_date():
    # the scorer ranks the first "14/04/2024" first for both fields: each takes one of its occurrences, and the
    # invoice date is not pushed to the next date
    doc = _page(["Brest 14/04/2024", "13/04/2024 Petit déjeuner", "14/04/2024 Taxe de séjour"])
    scorer = CandidateScorer(FEATURES, {"invoice_date": _model(0.0, y=-30.0, date_last=3.0),
                                        "due_date": _model(0.0, date_last=3.0)})
    fields = {e.label: e.text(doc) for e in choose_fields(doc, [], {}, scorer, "fr_FR", 2024) if e.assigned}
    assert fields["invoice_date"] == "14/04/2024" and fields["due_date"] == "14/04/2024"


def test_a_number_after_another_numbers_key_is_never_the_field_and_no_piece_of_it_stays_another_field():
    from docextract.document import WordRef
    from docextract.extraction.entities import Entity

    # a utility bill's key column, read from a scan: a tagger that took the bill number for the order number and a
    # group of it for the order number too, with a scorer that trusts the tagger
    doc = laid_out_page([[("Bill date", 350.0), ("15/03/2024", 440.0)], [("Bill number", 350.0), ("778 2213 0045", 440.0)]])
    words = {doc.word(WordRef(0, i)).text: WordRef(0, i) for i in range(len(doc.pages[0].words))}
    tagged = [Entity("purchase_order", (words["0045"],), 0.9, "model", assigned=True)]
    scorer = CandidateScorer(FEATURES, {"invoice_number": _model(-1.0, key_left_own=3.0),
                                        "purchase_order": _model(-1.0, key_left_other=5.0)})
    out = choose_fields(doc, tagged, {}, scorer, "en_GB", 2024)
    fields = {e.label: e.text(doc) for e in out if e.assigned}
    assert fields == {"invoice_number": "778 2213 0045"}
    assert not [e for e in out if e.label == "purchase_order"]


def test_a_number_after_a_tax_ids_key_is_never_the_invoice_number():
    from docextract.document import WordRef
    from docextract.extraction.entities import Entity

    # an Italian client's block "P.IVA 02345670968", which a tagger took for the invoice's number, with a scorer
    # that trusts the tagger: no entity of the number stays (the key rules then read "Numero" over "24/2024")
    doc = laid_out_page([[("Spett.le", 330.0)], [("Enoteca Bellavista S.n.c.", 330.0)], [("P.IVA 02345670968", 330.0)]])
    words = {doc.word(WordRef(0, i)).text: WordRef(0, i) for i in range(len(doc.pages[0].words))}
    tagged = [Entity("invoice_number", (words["02345670968"],), 0.9, "model", assigned=True)]
    scorer = CandidateScorer(FEATURES, {"invoice_number": _model(-10.0, tagged=20.0)})
    assert not [e for e in choose_fields(doc, tagged, {}, scorer, "it_IT", 2024) if e.label == "invoice_number"]


def test_a_line_items_amount_is_neither_keyed_by_its_column_header_nor_the_largest_amount():
    # an outfitter's invoice: the one item's amount under the "Total" column header is the page's largest, and the
    # total after a discount and shipping is smaller; a scorer that trusts a header over an amount and the largest
    # amount would take the line item's 500.00
    doc = laid_out_page([[("Item", 50.0), ("Qty", 320.0), ("Price", 380.0), ("Total", 480.0)],
                         [("Trail backpack 45L", 50.0), ("10", 320.0), ("50.00", 380.0), ("500.00", 480.0)],
                         [("Subtotal", 380.0), ("500.00", 480.0)], [("Discount (10%)", 380.0), ("-50.00", 480.0)],
                         [("Shipping", 380.0), ("15.00", 480.0)], [("Tax (7%)", 380.0), ("32.55", 480.0)],
                         [("Total", 380.0), ("497.55", 480.0)]])
    scorer = CandidateScorer(FEATURES, {"total": _model(-2.0, amount_largest=3.0, key_above_own=3.0, key_left_own=2.5,
                                                        key_left_other=-3.0)})
    fields = {e.label: e.text(doc) for e in choose_fields(doc, [], {}, scorer, "en_US", 2024) if e.assigned}
    assert fields == {"total": "497.55"}


def test_what_was_paid_before_the_balance_is_never_the_amount_due():
    # a hotel folio: the charges, the card's credit of the same amount, a balance of zero
    doc = _page(["Total Charges 412.02", "Total Credits 412.02", "Balance Due 0.00"])
    scorer = CandidateScorer(FEATURES, {"amount_due": _model(-1.0, amount_largest=4.0, key_left_own=2.0),
                                        "total": _model(-1.0, key_left_own=3.0)})
    fields = {e.label: e.text(doc) for e in choose_fields(doc, [], {}, scorer, "en_US", 2024) if e.assigned}
    assert fields == {"total": "412.02", "amount_due": "0.00"}


def test_a_rates_zero_tax_is_no_total_tax_where_another_rates_tax_is_not_zero():
    # a hotel bill's VAT breakdown: the stay at 9 %, the tourist tax at 0 %; a scorer fitted where a zero tax was
    # often right (reverse charge) takes the zero
    doc = _page(["Totaal 355,20", "Btw 9% over 328,00 27,08", "Btw 0% over 27,20 0,00"])
    scorer = CandidateScorer(FEATURES, {"total_tax": _model(-1.0, key_left_own=2.0, amount_zero=3.0)})
    fields = {e.label: e.text(doc) for e in choose_fields(doc, [], {}, scorer, "nl_NL", 2024) if e.assigned}
    assert fields == {"total_tax": "27,08"}


def test_a_pages_only_date_is_no_due_date_unless_a_due_dates_key_names_it():
    # a Swiss carpenter's letter: "Zug, 18. März 2024" and no other date; a scorer that favours the last date as the
    # due date
    doc = _page(["Rechnung Nr. 24-0318", "Zug, 18. März 2024", "Total CHF 4'540.20"])
    scorer = CandidateScorer(FEATURES, {"invoice_date": _model(-0.5), "due_date": _model(-1.0, date_last=1.5)})
    fields = {e.label: e.text(doc) for e in choose_fields(doc, [], {}, scorer, "de_CH", 2024) if e.assigned}
    assert fields == {"invoice_date": "18. März 2024"}
    keyed = _page(["Rechnung Nr. 24-0318", "Zahlbar bis 18. März 2024"])
    fields = {e.label: e.text(keyed) for e in choose_fields(keyed, [], {}, scorer, "de_CH", 2024) if e.assigned}
    assert fields.get("due_date") == "18. März 2024"


def test_a_plain_date_heading_rules_out_the_due_date_only_in_a_row_that_names_the_invoices_number():
    from docextract.extraction.candidate_scorer import document_context
    from docextract.extraction.candidates import never_the_value

    def ruled_out(doc, value, label):
        context = document_context(doc, [], {}, "it_IT", 2023)
        return [never_the_value(context, c, label) for c in context.candidates["date"] if doc.word(c.words[0]).text == value]

    # Tryton's payment terms: "Data | Importo" over the due date and its amount
    terms = laid_out_page([[("Data: 30/03/2023", 50.0)], [("Termine di pagamento", 300.0)],
                           [("Data", 300.0), ("Importo", 400.0)], [("29/04/2023", 300.0), ("€ 48.067,48", 400.0)]])
    assert ruled_out(terms, "29/04/2023", "due_date") == [False]
    # a hotel bill's header row names its number beside its date: that "Datum" is the bill's date, no due date
    assert ruled_out(_hotel_bill(), "12-04-2024", "due_date") == [True, True]  # under "Vertrek" and under "Datum"


def test_a_receipts_total_after_a_key_of_the_change_stays_the_taggers_reading():
    from docextract.document import WordRef
    from docextract.extraction.entities import Entity

    # SROIE: "ROUNDING RM 169.80" is the rounded total, after a key that mostly names a rounding adjustment
    doc = _page(["TOTAL SALES (INCLUSIVE GST) RM 169.78", "ROUNDING ADJUSTMENT RM .02", "ROUNDING RM 169.80",
                 "CASH RM 200.00", "CHANGE RM 30.20"])
    words = {doc.word(WordRef(0, i)).text: WordRef(0, i) for i in range(len(doc.pages[0].words))}
    tagged = [Entity("total", (words["169.80"],), 0.9, "model", assigned=True)]
    scorer = CandidateScorer(FEATURES, {"total": _model(-10.0)})  # unsure of every candidate
    fields = {e.label: e.text(doc) for e in choose_fields(doc, tagged, {}, scorer, "en_MY", 2019)}
    assert fields == {"total": "169.80"}


def test_a_banks_sort_code_and_account_number_are_no_invoice_or_order_number():
    # a British contractor's scan whose invoice number OCR lost: the bank details are all the numbers left
    doc = _page(["Payment details: Ashworth Electrical Ltd, sort code 20-45-77, account 43218765"])
    scorer = CandidateScorer(FEATURES, {"invoice_number": _model(1.0), "purchase_order": _model(1.0)})
    assert [e for e in choose_fields(doc, [], {}, scorer, "en_GB", 2024) if e.assigned] == []


def test_a_date_column_of_a_table_does_not_make_its_dates_recur():
    # a hotel bill's charges dated row by row under "Datum": a scorer that likes a date printed twice must still
    # take the bill's date beside its place, printed again as the departure
    doc = laid_out_page([[("Bremen, 17.04.2024", 380.0)], [("Abreise 17.04.2024", 40.0)],
                         [("15.04.2024 Übernachtung", 40.0), ("119,00", 480.0)],
                         [("16.04.2024 Frühstück", 40.0), ("18,00", 480.0)],
                         [("16.04.2024 Übernachtung", 40.0), ("119,00", 480.0)],
                         [("16.04.2024 Parken", 40.0), ("12,00", 480.0)]])
    from docextract.extraction.candidate_scorer import document_context

    context = document_context(doc, [], {}, "de_DE", 2024)
    recurring = {(doc.word(c.words[0]).text, doc.word(c.words[0]).box.top) for c in context.candidates["date"]
                 if context.recurs(c, "invoice_date")}
    # the charges' dates do not recur; the departure's does, through the place's date (which does not: the departure's
    # key names another date)
    assert recurring == {("17.04.2024", 80.0)}
    scorer = CandidateScorer(FEATURES, {"invoice_date": _model(-1.0, recurs=3.0)})
    fields = {e.label: e.text(doc) for e in choose_fields(doc, [], {}, scorer, "de_DE", 2024) if e.assigned}
    assert fields == {"invoice_date": "17.04.2024"}


def test_a_telephone_number_is_never_a_field():
    from docextract.extraction.candidate_scorer import document_context
    from docextract.extraction.entities import Entity

    # a freelancer's letterhead prints "(512) 555-0142", which a model on a layout never seen tagged as the invoice
    # number; "Invoice Number" over "0000042" names it
    doc = laid_out_page([[("Maya Chen Design", 380.0)], [("(512) 555-0142", 380.0)],
                         [("Invoice Number", 310.0)], [("0000042", 310.0)]])
    context = document_context(doc, [], {}, "en_US", 2024)
    phone = [c for c in context.candidates["identifier"] if c.telephone]
    assert [c.value for c in phone] == ["555-0142"]
    scorer = CandidateScorer(FEATURES, {"invoice_number": _model(-9.0)})  # no candidate reaches the scorer's minimum
    held = [Entity("invoice_number", phone[0].words, 0.9, assigned=True)]
    fields = {e.label: e.text(doc) for e in choose_fields(doc, held, {}, scorer, "en_US", 2024) if e.assigned}
    assert fields.get("invoice_number") != "555-0142"
    # a document type's code in parentheses before its number is no area code
    doc = _page(["Handelsrechnung (380) Nr.471102 vom 05.06.2025"])
    assert not any(c.telephone for c in document_context(doc, [], {}, "de_DE", 2025).candidates["identifier"])


def test_the_tax_id_under_the_window_recipients_address_is_the_buyers():
    # no heading names the buyer: its VAT id under its address in the window must not be taken for the seller's
    # (a scorer that prefers the higher one), which the footer prints after the web address
    doc = laid_out_page([[("Lumière Conseil SRL", 50.0)], [("Avenue Louise 231", 50.0)], [("1050 Bruxelles", 50.0)],
                         [], [], [("Boulangerie Peeters SA", 330.0)], [("Rue de la Station 12", 330.0)],
                         [("4000 Liège", 330.0)], [("TVA: BE0403170701", 330.0)], [], [], [], [],
                         [("info@lumiere.be www.lumiere.be TVA: BE0477472701", 50.0)]], line_spacing=14.0)
    scorer = CandidateScorer(FEATURES, {"vendor_tax_id": _model(-1.0, key_left_own=1.0, y=-3.0)})
    fields = {e.label: e.text(doc) for e in choose_fields(doc, [], {}, scorer, "fr_BE", 2024) if e.assigned}
    assert fields == {"vendor_tax_id": "BE0477472701"}


def test_the_taggers_subtotal_that_is_one_rates_net_gives_way():
    from docextract.extraction.entities import Entity

    doc = _page(["Netto 7 % 222,43", "MwSt 7 % 15,57", "Netto 19 % 40,34", "MwSt 19 % 7,66", "Gesamtbetrag 286,00"])
    net = next(i for i, w in enumerate(doc.pages[0].words) if w.text == "222,43")
    from docextract.document import WordRef

    held = [Entity("subtotal", (WordRef(0, net),), 0.9, assigned=True)]
    scorer = CandidateScorer(FEATURES, {"subtotal": _model(-9.0)})
    fields = {e.label: e.text(doc) for e in choose_fields(doc, held, {}, scorer, "de_DE", 2024) if e.assigned}
    assert "subtotal" not in fields


def test_a_letters_reference_is_no_invoice_number_where_another_number_has_the_invoices_own_key():
    # an Irish accountants' letter: "Our Ref: FN/SHA/0412" beside the title "INVOICE No. 24117", with a scorer that
    # trusts any key of the invoice's number
    from docextract.extraction.candidate_scorer import document_context
    from docextract.extraction.candidates import never_the_value

    scorer = CandidateScorer(FEATURES, {"invoice_number": _model(-1.0, key_left_own=2.0, id_letters=1.0)})
    doc = _page(["Our Ref: FN/SHA/0412", "Date: 21 June 2024", "INVOICE No. 24117"])
    fields = {e.label: e.text(doc) for e in choose_fields(doc, [], {}, scorer, "en_IE", 2024) if e.assigned}
    assert fields["invoice_number"] == "24117"
    # on a letter that keys no other number, its reference is its number
    doc = _page(["Our Ref: FN/SHA/0412", "Date: 21 June 2024"])
    context = document_context(doc, [], {}, "en_IE", 2024)
    reference = next(c for c in context.candidates["identifier"] if c.value == "FN/SHA/0412")
    assert not never_the_value(context, reference, "invoice_number")


def test_the_letters_of_a_series_before_a_number_in_digit_groups_are_part_of_it():
    # a French mobile bill's "n° de facture : FM 2406 8817 326"
    from docextract.extraction.candidate_scorer import document_context

    doc = _page(["n° de facture : FM 2406 8817 326"])
    identifiers = [c.value for c in document_context(doc, [], {}, "fr_FR", 2024).candidates["identifier"]]
    assert {"FM 2406 8817 326", "2406 8817 326"} <= set(identifiers)


def test_a_rentals_pick_up_and_return_dates_are_no_invoice_date():
    from docextract.extraction.candidate_scorer import document_context
    from docextract.extraction.candidates import never_the_value

    doc = _page(["Rechnungsdatum 11.06.2024", "Anmietung: 03.06.2024, 08:30 Uhr", "Rückgabe: 07.06.2024, 17:10 Uhr"])
    context = document_context(doc, [], {}, "de_DE", 2024)
    ruled_out = {c.words for c in context.candidates["date"] if never_the_value(context, c, "invoice_date")}
    assert {" ".join(doc.word(r).text for r in words) for words in ruled_out} == {"03.06.2024,", "07.06.2024,"}


def test_a_number_after_a_telephone_key_is_a_telephone_number():
    # a Danish footer's "Tlf. 86 12 44 80", which a tagger on a layout never seen read as the seller's tax id
    from docextract.extraction.candidate_scorer import document_context

    doc = _page(["Hyggeligt Hjem ApS · CVR-nr. 37294810 · Tlf. 86 12 44 80", "Tel. 0911"])
    candidates = document_context(doc, [], {}, "da_DK", 2024).candidates["identifier"]
    assert {c.value: c.telephone for c in candidates} == {"37294810": False, "86 12 44 80": True, "0911": True}


def test_an_amount_in_a_sentence_is_no_total_where_a_row_keys_the_total():
    # a credit note: "Krediteret i alt DKK 809,95" on its row, the corrected invoice's amount in a sentence below
    scorer = CandidateScorer(FEATURES, {"total": _model(-1.0, key_left_own=2.0, amount_rank_top=1.0)})
    doc = laid_out_page([[("Krediteret i alt DKK", 330.0), ("809,95", 480.0)], [],
                         [("Kreditnotaen udligner delvist faktura 100377 (fakturabeløb 1.547,90 kr.).", 40.0)]])
    fields = {e.label: e.text(doc) for e in choose_fields(doc, [], {}, scorer, "da_DK", 2024) if e.assigned}
    assert fields["total"] == "809,95"


def test_a_number_after_another_documents_title_in_the_body_is_no_invoice_number_beside_a_keyed_one():
    # a final invoice deducts its partial invoice: "Abschlagsrechnung AR-2024-0217 vom 14.06.2024" under the items
    from docextract.extraction.candidate_scorer import document_context
    from docextract.extraction.candidates import never_the_value

    doc = _page(["Rechnungs-Nr. 2024-0286", "Schlussrechnung", "Malerarbeiten 4.200,00",
                 "abzüglich Abschlagsrechnung AR-2024-0217 vom 14.06.2024: -2.000,00"])
    context = document_context(doc, [], {}, "de_DE", 2024)
    ruled_out = {c.value for c in context.candidates["identifier"] if never_the_value(context, c, "invoice_number")}
    assert "AR-2024-0217" in ruled_out and "2024-0286" not in ruled_out


def test_a_letters_place_and_date_is_the_invoice_date_over_an_unkeyed_date():
    # a French lawyer's fee note: "Bordeaux, le 14 juin 2024" under the client's address, and a retainer "Provision
    # reçue le 11/03/2024" that a scorer (as the shipped one did, 0.36 against 0.29) prefers as the invoice's date
    doc = _page(["FACTURE N° 2024-0612", "Bordeaux, le 14 juin 2024", "Total TTC 4 078,34",
                 "Provision reçue le 11/03/2024 - 1 500,00"])
    scorer = CandidateScorer(FEATURES, {"invoice_date": _model(-0.5, date_first=0.4)})
    fields = {e.label: e.text(doc) for e in choose_fields(doc, [], {}, scorer, "fr_FR", 2024) if e.assigned}
    assert fields == {"invoice_date": "14 juin 2024"}
    # not a place: an address's "Flat 3, 19 Victoria Road", an item's "Monthly support plan, October 2024"
    for line in ("Flat 3, 19 Victoria Road", "Monthly support plan, October 2024"):
        doc = _page(["Invoice INV-7", line, "11/03/2024"])  # (not "Paid on 11/03/2024": a payment's date since stop 68)
        fields = {e.label: e.text(doc) for e in choose_fields(doc, [], {}, scorer, "en_GB", 2024) if e.assigned}
        assert fields.get("invoice_date") == "11/03/2024", line


def test_a_balance_keyed_on_its_row_is_the_amount_due_over_an_unkeyed_sum():
    # a hotel paid by card: "Offener Saldo 0,00" under its payment, and the VAT table's unkeyed sum that a scorer
    # (as the shipped one did, 0.87 against 0.84) prefers as the amount due
    doc = _page(["Rechnung Nr. 24/03118", "529,79 24,21 554,00", "Visa ****4417 -554,00", "Offener Saldo 0,00"])
    scorer = CandidateScorer(FEATURES, {"amount_due": _model(-1.0, amount_largest=2.5)})
    fields = {e.label: e.text(doc) for e in choose_fields(doc, [], {}, scorer, "de_DE", 2024) if e.assigned}
    assert fields == {"amount_due": "0,00"}
    # where the scorer ranks the keyed value under its minimum, its choice stays
    scorer = CandidateScorer(FEATURES, {"amount_due": _model(-2.0, amount_largest=3.5)})
    fields = {e.label: e.text(doc) for e in choose_fields(doc, [], {}, scorer, "de_DE", 2024) if e.assigned}
    assert fields == {"amount_due": "554,00"}


def test_an_asides_date_is_never_the_invoice_date_and_a_specific_header_keys_it():
    # a Dutch web shop: "Factuurdatum" over "19-08-2024" in a header row, and the order's date printed twice, in its
    # payment's aside and a sentence, which a scorer favouring a recurring first date prefers
    doc = laid_out_page([[("Bestelnummer", 40.0), ("Factuurdatum", 250.0)], [("NL-58817", 40.0), ("19-08-2024", 250.0)],
                         [("Reeds betaald (iDEAL, 17-08-2024)", 300.0)],
                         [("Je bestelling is op 17-08-2024 volledig betaald.", 40.0)]])
    scorer = CandidateScorer(FEATURES, {"invoice_date": _model(-0.5, recurs=2.0, date_first=1.0)})
    fields = {e.label: e.text(doc) for e in choose_fields(doc, [], {}, scorer, "nl_NL", 2024) if e.assigned}
    assert fields == {"invoice_date": "19-08-2024"}
    # a plain "Datum" over a table's treatment dates keys none of them as the invoice's: the scorer's choice stays
    doc = laid_out_page([[("Tandartspraktijk De Linde", 40.0), ("26-03-2024", 440.0)], [("Datum", 40.0)],
                         [("19-03-2024", 40.0)], [("19-03-2024", 40.0)]])
    scorer = CandidateScorer(FEATURES, {"invoice_date": _model(-0.5, date_last=2.0)})
    fields = {e.label: e.text(doc) for e in choose_fields(doc, [], {}, scorer, "nl_NL", 2024) if e.assigned}
    assert fields == {"invoice_date": "26-03-2024"}


def test_a_due_date_after_its_key_wins_but_never_one_before_the_invoices_date():
    # a VPS provider's "Date d'échéance" over "16/08/2024", and a domain's renewal date the scorer prefers as due
    doc = laid_out_page([[("Date de facture", 150.0), ("Date d'échéance", 320.0)],
                         [("02/08/2024", 150.0), ("16/08/2024", 320.0)], [("Nom de domaine exemple.fr 04/08/2025", 40.0)]])
    scorer = CandidateScorer(FEATURES, {"invoice_date": _model(-0.5, date_first=1.0),
                                        "due_date": _model(-0.5, date_last=2.0)})
    fields = {e.label: e.text(doc) for e in choose_fields(doc, [], {}, scorer, "fr_FR", 2024) if e.assigned}
    assert fields == {"invoice_date": "02/08/2024", "due_date": "16/08/2024"}
    # a scan's "Zahlbar bis 29.11.2006" (OCR's year) under an invoice of 2026: the scorer's unkeyed date stays
    doc = _page(["Rechnung vom 15.11.2026", "Zahlbar bis 29.11.2006", "Fällig am Ende: 29.11.2026"])
    scorer = CandidateScorer(FEATURES, {"invoice_date": _model(-0.5, date_first=1.0),
                                        "due_date": _model(-0.5, date_last=2.0)})
    fields = {e.label: e.text(doc) for e in choose_fields(doc, [], {}, scorer, "de_DE", 2026) if e.assigned}
    assert fields.get("due_date") != "29.11.2006"
    # nor an early payment's date: DATEV's "Zahlbar bis 11.07.2024 abzüglich 2 % Skonto, bis 31.07.2024 ohne Abzug."
    doc = _page(["Rechnung vom 01.07.2024", "Zahlbar bis 11.07.2024 abzüglich 2 % Skonto (23,70 EUR),",
                 "bis 31.07.2024 ohne Abzug."])
    fields = {e.label: e.text(doc) for e in choose_fields(doc, [], {}, scorer, "de_DE", 2024) if e.assigned}
    assert fields.get("due_date") == "31.07.2024"


def test_a_taggers_reading_inside_a_telephone_number_gives_way_to_the_keyed_tax_number():
    # a Kleinunternehmer's "Tel. 030 29 37 41 86", whose last groups a model read as the tax id, and the footer's
    # "Steuernummer: 37/218/41056"
    from docextract.document import WordRef
    from docextract.extraction.entities import Entity
    from docextract.extraction.key_values import key_value_entities

    doc = _page(["Tel. 030 29 37 41 86", "Rechnung Nr. 2024-028", "Steuernummer: 37/218/41056"])
    words = {doc.word(WordRef(0, i)).text: WordRef(0, i) for i in range(len(doc.pages[0].words))}
    piece = Entity("vendor_tax_id", tuple(words[t] for t in ("29", "37", "41", "86")), 0.7, "model", assigned=True)
    scorer = CandidateScorer(FEATURES, {"vendor_tax_id": _model(-6.0)})
    chosen = choose_fields(doc, [piece], {}, scorer, "de_DE", 2024)
    assert not [e for e in chosen if e.label == "vendor_tax_id"]
    found = {e.label: e.text(doc) for e in key_value_entities(doc, chosen, ["vendor_tax_id"], {}, "de_DE", 2024)}
    assert found["vendor_tax_id"] == "37/218/41056"


def test_the_buyers_own_order_number_wins_over_one_whose_key_does_not_say_whose():
    # Business Central prints the seller's order confirmation ("Auftragsnr.") and the buyer's order ("Ihre
    # Bestellnr.") in one key column; a scorer that prefers the first must still take the buyer's
    doc = laid_out_page([[("Auftragsnr.", 40.0), ("VA-010447", 200.0)], [("Ihre Bestellnr.", 40.0), ("BR-EK-24-0918", 200.0)]])
    scorer = CandidateScorer(FEATURES, {"purchase_order": _model(-1.0, key_left_own=2.0, y=-3.0)})
    fields = {e.label: e.text(doc) for e in choose_fields(doc, [], {}, scorer, "de_DE", 2024) if e.assigned}
    assert fields == {"purchase_order": "BR-EK-24-0918"}
    # where no key says the buyer's, the scorer's choice stands; nor does the buyer's reference name an order ("Ihr
    # Zeichen: AB-312" under a ZUGFeRD 1 sample's "Bestellung Nr. 2013-471331")
    for buyers in ("Bestellnr.", "Ihr Zeichen:"):
        doc = laid_out_page([[("Auftragsnr.", 40.0), ("VA-010447", 200.0)], [(buyers, 40.0), ("BR-EK-24-0918", 200.0)]])
        fields = {e.label: e.text(doc) for e in choose_fields(doc, [], {}, scorer, "de_DE", 2024) if e.assigned}
        assert fields == {"purchase_order": "VA-010447"}, buyers


def test_an_amount_keyed_as_another_currencys_equivalent_is_no_reading_of_the_amount_due():
    # a Swiss invoice's total in CHF and, under it, its EUR equivalent "for information", which a tagger read as the
    # amount due at 0.09: with every candidate under the scorer's minimum the tagger's reading would have stood
    from docextract.document import WordRef
    from docextract.extraction.entities import Entity

    doc = laid_out_page([[("Total inkl. MWST CHF", 300.0), ("5'350.95", 480.0)],
                         [("Gegenwert EUR (Kurs 1.0651, informativ)", 150.0), ("EUR 5'699.30", 480.0)]])
    page = doc.pages[0]
    at = next(i for i, w in enumerate(page.words) if w.text == "5'699.30")
    tagged = Entity("amount_due", (WordRef(0, at),), 0.09, "model", assigned=True)
    scorer = CandidateScorer(FEATURES, {"amount_due": _model(-6.0)})
    out = choose_fields(doc, [tagged], {}, scorer, "de_CH", 2024)
    assert not [e for e in out if e.label == "amount_due"]


def test_the_sellers_vat_number_is_the_one_whose_register_number_its_legal_line_prints():
    # an ERP's grid prints the buyer's "N° TVA intracommunautaire" with no side named; the seller's legal line prints
    # its SIREN ("RCS Mâcon 836 504 175") and its own VAT number. A scorer that prefers the upper one must still take it
    doc = laid_out_page([[("N° TVA intracommunautaire", 300.0)], [("FR62408712362", 300.0)], [], [], [], [], [],
                         [("SARL Pépinières du Grand Roc – RCS Mâcon 836 504 175", 100.0)],
                         [("TVA intracommunautaire FR26836504175", 100.0)]])
    scorer = CandidateScorer(FEATURES, {"vendor_tax_id": _model(-1.0, key_above_own=1.0, key_left_own=1.0, y=-4.0)})
    fields = {e.label: e.text(doc) for e in choose_fields(doc, [], {}, scorer, "fr_FR", 2024) if e.assigned}
    assert fields == {"vendor_tax_id": "FR26836504175"}
    # where no register number is printed, the scorer's choice stands
    doc = laid_out_page([[("N° TVA intracommunautaire", 300.0)], [("FR62408712362", 300.0)], [], [], [], [], [],
                         [("TVA intracommunautaire FR26836504175", 100.0)]])
    fields = {e.label: e.text(doc) for e in choose_fields(doc, [], {}, scorer, "fr_FR", 2024) if e.assigned}
    assert fields == {"vendor_tax_id": "FR62408712362"}


def test_a_plain_date_key_in_a_grid_of_keys_over_one_row_of_values_keys_the_invoice_date():
    # Sellsy's grid "Date | Échéance | Code client | Bon de commande" over one row of values; the tagger read the
    # event's dates lower down, and no candidate reaches the scorer's minimum
    from docextract.extraction.entities import Entity
    from docextract.document import WordRef

    rows = [[("Date", 45.0), ("Échéance", 173.0), ("Code client", 301.0), ("Bon de commande", 429.0)],
            [("14/10/2024", 45.0), ("13/11/2024", 173.0), ("CLI-00318", 301.0), ("BC-2024-0912", 429.0)],
            [("Dates de l'événement", 301.0)], [("08/10/2024", 301.0)]]
    doc = laid_out_page(rows)
    event = next(i for i, w in enumerate(doc.pages[0].words) if w.text == "08/10/2024")
    tagged = [Entity("invoice_date", (WordRef(0, event),), 0.5, "model", assigned=True)]
    scorer = CandidateScorer(FEATURES, {"invoice_date": _model(-3.0)})
    fields = {e.label: e.text(doc) for e in choose_fields(doc, tagged, {}, scorer, "fr_FR", 2024) if e.assigned}
    assert fields["invoice_date"] == "14/10/2024"
    # a table's "Date" column (a second row of values under the first) keys none of its dates
    doc = laid_out_page(rows[:2] + [[("15/10/2024", 45.0)]] + rows[2:])
    event = next(i for i, w in enumerate(doc.pages[0].words) if w.text == "08/10/2024")
    tagged = [Entity("invoice_date", (WordRef(0, event),), 0.5, "model", assigned=True)]
    fields = {e.label: e.text(doc) for e in choose_fields(doc, tagged, {}, scorer, "fr_FR", 2024) if e.assigned}
    assert fields["invoice_date"] == "08/10/2024"


def test_an_early_payments_date_before_its_discount_is_no_due_date():
    # "Zahlbar bis 18.12.2024 abzüglich 2 % Skonto ..., bis 03.01.2025 netto": a scorer sure of the first date after
    # its key (as the shipped one was, 0.95 against 0.87) takes the net date
    doc = _page(["Rechnung Nr. 24-118 vom 04.12.2024",
                 "Zahlbar bis 18.12.2024 abzüglich 2 % Skonto (3,84 EUR), bis 03.01.2025 netto."])
    scorer = CandidateScorer(FEATURES, {"due_date": _model(-1.0, key_left_own=3.0, date_last=2.0)})
    fields = {e.label: e.text(doc) for e in choose_fields(doc, [], {}, scorer, "de_DE", 2024) if e.assigned}
    assert fields["due_date"] == "03.01.2025"


def test_the_issue_date_is_the_invoices_date_over_the_tax_point_and_a_date_printed_often():
    # a car lease's "Date of issue 24/04/2024" beside its "Tax point 01/05/2024", whose date the due date and the
    # rental period print again: a scorer fond of a date printed often takes the issue date still
    doc = _page(["Document No. ALI-2405-004471", "Date of issue 24/04/2024", "Tax point 01/05/2024",
                 "Due date 01/05/2024", "Rental period 01/05/2024 - 31/05/2024"])
    scorer = CandidateScorer(FEATURES, {"invoice_date": _model(-1.0, key_left_own=1.0, recurs=2.5)})
    fields = {e.label: e.text(doc) for e in choose_fields(doc, [], {}, scorer, "en_IE", 2024) if e.assigned}
    assert fields["invoice_date"] == "24/04/2024"
    # where the tax point is the only date key, its date is the invoice's
    doc = _page(["Invoice No. 4471", "Tax point 15/03/2024", "Delivered 15/03/2024"])
    fields = {e.label: e.text(doc) for e in choose_fields(doc, [], {}, scorer, "en_GB", 2024) if e.assigned}
    assert fields["invoice_date"] == "15/03/2024"


def test_a_purchase_order_number_is_the_buyers_over_a_web_shops_order_number():
    doc = _page(["Factuurnummer 9012448317", "Bestelnummer 58817205", "Inkoopordernummer IO-25-0412"])
    scorer = CandidateScorer(FEATURES, {"purchase_order": _model(-1.0, key_left_own=2.0, id_digits_only=1.0)})
    fields = {e.label: e.text(doc) for e in choose_fields(doc, [], {}, scorer, "nl_NL", 2025) if e.assigned}
    assert fields["purchase_order"] == "IO-25-0412"


def test_the_number_after_the_invoice_numbers_key_over_one_the_scorer_chose_without_a_key():
    # a solicitor's fee note: "Fee Note No. 24/0913" under "Our Ref: DK/MF/4471-002", and a court record number in
    # the matter's line that a scorer (as the shipped one, 0.65 against 0.32) prefers
    doc = _page(["Our Ref: DK/MF/4471-002", "Fee Note No. 24/0913",
                 "Re: Ballymore v Eastgate - High Court Record No. 2023/4471P"])
    scorer = CandidateScorer(FEATURES, {"invoice_number": _model(-1.0, key_left_own=0.5, id_letters=1.5)})
    fields = {e.label: e.text(doc) for e in choose_fields(doc, [], {}, scorer, "en_IE", 2024) if e.assigned}
    assert fields["invoice_number"] == "24/0913"


def test_a_number_printed_in_groups_under_its_key_is_read_whole_and_a_keyed_number_with_no_reading_is_read():
    from docextract.document import WordRef
    from docextract.extraction.entities import Entity

    # a water bill's "Invoice no." over "9021 4418 063", of which the tagger read the last group
    doc = laid_out_page([[("Invoice no.", 150.0)], [("9021 4418 063", 150.0)]])
    last = next(WordRef(0, w) for w, word in enumerate(doc.pages[0].words) if word.text == "063")
    scorer = CandidateScorer(FEATURES, {"invoice_number": _model(-3.0, key_above_own=1.0)})
    out = choose_fields(doc, [Entity("invoice_number", (last,), 0.6, assigned=True)], {}, scorer, "en_AU", 2024)
    assert [e.text(doc) for e in out if e.label == "invoice_number" and e.assigned] == ["9021 4418 063"]
    # no reading at all: the keyed number the scorer ranks highest, not the first keyed value on the page ("Pagina 1"
    # under the title "Factuur")
    doc = laid_out_page([[("Factuur", 40.0)], [("Pagina 1 van 1", 40.0)], [], [("Factuurnummer", 40.0)],
                         [("GW25-004187", 40.0)]])
    scorer = CandidateScorer(FEATURES, {"invoice_number": _model(-4.0, key_above_own=1.0, id_letters=1.0)})
    out = choose_fields(doc, [], {}, scorer, "nl_NL", 2025)
    assert [e.text(doc) for e in out if e.label == "invoice_number" and e.assigned] == ["GW25-004187"]


def test_an_amount_keyed_as_no_field_is_never_chosen():
    # a phone bill's account summary: "Previous balance $1,082.16", which a scorer fond of the largest amount takes
    doc = _page(["Previous balance $1,082.16", "Payment received -$1,082.16", "Total amount due $399.79"])
    scorer = CandidateScorer(FEATURES, {"amount_due": _model(-1.0, amount_largest=3.0)})
    fields = {e.label: e.text(doc) for e in choose_fields(doc, [], {}, scorer, "en_CA", 2024) if e.assigned}
    assert fields.get("amount_due") != "$1,082.16"
