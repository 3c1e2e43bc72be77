"""Synthetic invoices: content sampling, layout families, labels by construction, paging, family splits."""

from __future__ import annotations

import collections
import datetime as dt
import random
from decimal import ROUND_HALF_UP, Decimal

import pytest

from docextract.extraction.normalize import parse_number
from docextract.synth.content import LOCALE_FORMATS, LOCALES, format_date, format_number, format_quantity, sample_invoice
from docextract.synth.generate import SynthOptions, generate_invoice, render_fitting
from docextract.synth.labelling import label_document, read_pdf_words
from docextract.vocabulary import INVOICE_LABELS
from docextract.synth.layouts import FAMILIES, FAMILY_NAMES


def _labelled(seed: int, index: int, options: SynthOptions):
    rendered = render_fitting(seed, index, options)
    document = read_pdf_words(rendered.pdf)
    return rendered, document, label_document(document, rendered.regions)


def test_there_are_at_least_twenty_families_with_descriptions():
    assert len(FAMILY_NAMES) >= 20
    assert all(family.description for family in FAMILIES.values())


@pytest.mark.parametrize("family", FAMILY_NAMES)
def test_every_family_renders_and_labelled_words_join_to_the_drawn_values(family):
    rendered, document, labels = _labelled(7, FAMILY_NAMES.index(family), SynthOptions((family,), pages_max=2))
    drawn = collections.defaultdict(list)
    drawn_label = {}
    for region in rendered.regions:
        if region.label:
            drawn[region.entity].append(region.text)
            drawn_label[region.entity] = region.label
    extracted = collections.defaultdict(list)
    for page, page_labels in zip(document.pages, labels):
        for word, label in zip(page.words, page_labels):
            if label.label:
                assert label.label == drawn_label[label.entity]
                extracted[label.entity].append(word.text)
    assert set(extracted) == set(drawn)
    # No drawn text overlaps other text, and nothing runs off the page.
    width, height = document.pages[0].width, document.pages[0].height
    for i, a in enumerate(rendered.regions):
        assert 0 <= a.box.x0 and a.box.x1 <= width and 0 <= a.box.top and a.box.bottom <= height, a.text
        for other in rendered.regions[i + 1:]:
            if other.page == a.page:
                crossing = a.box.horizontal_overlap(other.box) > 1.5 and a.box.vertical_overlap(other.box) > 0.35 * min(
                    a.box.height, other.box.height)
                assert not crossing, (a.text, other.text)
    for entity, texts in drawn.items():
        assert " ".join(extracted[entity]).split() == " ".join(texts).split(), drawn_label[entity]
    # Every field the invoice has is printed and labelled somewhere; no label word is ever labelled.
    labelled = set(drawn_label.values())
    for field in rendered.content.normalized_fields():
        # A glued symbol ("$1,234.56") is part of the amount's word: the currency is then in fields only.
        if field == "currency" and rendered.content.money.kind == "symbol_glued":
            continue
        assert field in labelled, field
    assert labelled <= set(INVOICE_LABELS)
    label_words = {"Invoice", "Rechnung", "Facture", "Total", "Subtotal", "Zwischensumme", "IBAN", "IBAN:"}
    for page, page_labels in zip(document.pages, labels):
        for word, label in zip(page.words, page_labels):
            if word.text in label_words:
                assert label.label is None or label.label in ("vendor_name", "customer_name", "line_item_description")


def test_same_seed_gives_identical_files_words_and_labels(tmp_path):
    options = SynthOptions(FAMILY_NAMES, pages_max=2)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = [generate_invoice(3, i, options, tmp_path / "a") for i in range(3)]
    second = [generate_invoice(3, i, options, tmp_path / "b") for i in range(3)]
    assert first == second
    for record in first:
        assert (tmp_path / "a" / record["source"]).read_bytes() == (tmp_path / "b" / record["source"]).read_bytes()
    assert generate_invoice(4, 0, options, tmp_path / "a") != first[0]


def test_amounts_add_up_line_by_line_rate_by_rate_and_to_the_amount_due():
    for i in range(300):
        content = sample_invoice(random.Random(i))
        amounts = [item.quantity_value * item.unit_price_value for item in content.line_items]
        assert [a.quantize(Decimal("0.01"), ROUND_HALF_UP) for a in amounts] == [item.amount_value for item in content.line_items]
        assert sum(item.amount_value for item in content.line_items) == content.items_total_value
        # line items + charges - discounts = subtotal (the net total), split by VAT rate
        assert content.items_total_value + sum(a.amount_value for a in content.adjustments) == content.subtotal_value
        assert sum(t.basis_value for t in content.tax_lines) == content.subtotal_value
        for line in content.tax_lines:
            in_rate = [li.amount_value for li in content.line_items if li.tax_rate_value == line.rate_value]
            charged = [a.amount_value for a in content.adjustments if a.rate_value == line.rate_value]
            assert sum(in_rate) + sum(charged) == line.basis_value
            assert (line.basis_value * line.rate_value / 100).quantize(Decimal("0.01"), ROUND_HALF_UP) == line.tax_value
        assert sum(t.tax_value for t in content.tax_lines) == content.total_tax_value
        assert content.subtotal_value + content.total_tax_value == content.total_value
        prepaid = -parse_number(content.deposit, content.locale) if content.deposit else 0
        assert content.total_value - prepaid + content.rounding_value == content.amount_due_value
        fields = content.normalized_fields()
        assert Decimal(fields["total"]) == content.total_value
        assert dt.date.fromisoformat(fields["invoice_date"]) == content.invoice_date_value
        # a credit note's amounts are negative, an invoice's positive
        sign = -1 if content.is_credit_note else 1
        assert sign * content.total_value > 0 and all(sign * li.amount_value > 0 for li in content.line_items)
        # printed amounts read back as their values (the product's own parser, the locale's separators)
        for printed, value in ((content.total, content.total_value), (content.subtotal, content.subtotal_value),
                               (content.total_tax, content.total_tax_value)):
            assert parse_number(printed, content.locale) == value, (printed, value)
        for item, normalized in zip(content.line_items, content.normalized_line_items()):
            assert parse_number(item.unit_price, content.locale) == item.unit_price_value
            assert Decimal(normalized["quantity"]) == item.quantity_value
            assert "E" not in normalized["quantity"] + normalized["unit_price"]  # "50", never "5E+1"


def test_locales_format_dates_and_numbers_as_people_there_write_them():
    day = dt.date(2024, 3, 15)
    assert format_date(day, "us_numeric") == "03/15/2024"
    assert format_date(day, "de_numeric") == "15.03.2024"
    assert format_date(day, "eu_slash") == "15/03/2024"
    assert format_date(day, "fr_long") == "15 mars 2024"
    assert format_date(day, "de_long") == "15. März 2024"
    assert format_date(day, "us_long") == "March 15, 2024"
    value = Decimal("1234.56")
    assert format_number(value, LOCALE_FORMATS["en_US"]) == "1,234.56"
    assert format_number(value, LOCALE_FORMATS["de_DE"]) == "1.234,56"
    assert format_number(value, LOCALE_FORMATS["fr_FR"]) == "1 234,56"
    assert format_number(Decimal("1234567.5"), LOCALE_FORMATS["de_DE"], grouping=False) == "1234567,50"
    assert format_quantity(Decimal("7.5"), LOCALE_FORMATS["de_DE"]) == "7,5"
    assert format_quantity(Decimal("12"), LOCALE_FORMATS["en_GB"]) == "12"
    seen = {sample_invoice(random.Random(i)).locale for i in range(60)}
    assert seen == set(LOCALES)


def test_long_tables_continue_across_pages_with_totals_on_the_last_page():
    rendered, document, labels = _labelled(11, 0, SynthOptions(("classic_left",), pages_min=3, pages_max=3))
    assert rendered.page_count == 3 and len(document.pages) == 3
    header_word = document.pages[0].words  # the description column header is printed on every page
    rows_per_page = []
    for page, page_labels in zip(document.pages, labels):
        rows = [label.row for label in page_labels if label.row is not None]
        rows_per_page.append(rows)
        totals = {label.label for label in page_labels} & {"subtotal", "total_tax", "total"}
        assert (totals == {"subtotal", "total_tax", "total"}) == (page.number == 3)
    assert all(rows_per_page[:2])
    # Rows run on from page to page, every row of the invoice appears, in order.
    flat = [row for rows in rows_per_page for row in rows]
    assert sorted(set(flat)) == list(range(len(rendered.content.line_items)))
    assert max(rows_per_page[0]) < min(rows_per_page[1])
    assert header_word
    description_header = {w.text for w in document.pages[0].words} & {"Description", "Item", "Details", "Particulars",
                                                                      "Bezeichnung", "Beschreibung", "Leistung",
                                                                      "Désignation", "Libellé", "Prestation", "Product"}
    for page in document.pages:
        assert description_header & {w.text for w in page.words}


def test_pages_max_is_respected():
    for i in range(6):
        rendered = render_fitting(2, i, SynthOptions(FAMILY_NAMES, pages_max=1))
        assert rendered.page_count == 1


def test_holdout_families_are_never_produced(tmp_path):
    from docextract.commands.synth_cmd import select_families

    held = ("banner", "receipt", "sidebar")
    chosen = select_families(None, ",".join(held))
    assert not set(held) & set(chosen) and len(chosen) == len(FAMILY_NAMES) - 3
    options = SynthOptions(chosen, pages_max=1)
    produced = {render_fitting(9, i, options).family.name for i in range(40)}
    assert not produced & set(held)
    assert select_families("banner,receipt", None) == ("banner", "receipt")


def test_a_line_too_long_for_the_page_is_printed_smaller_and_stays_on_it(tmp_path):
    """A long credit-note title at x=440 on a Letter page ran 40 pt off it ('RECHNUNGS-KORREKTUR'), and the
    training data was refused for a box outside the page."""
    from docextract.synth.canvas import PAGE_EDGE, Canvas

    cv = Canvas("Letter")
    cv.add_page()
    cv.line(440, 60, ["RECHNUNGS-KORREKTUR"], size=20, style="B")
    cv.line(170, 90, ["RECHNUNGS-KORREKTUR", "UND", "GUTSCHRIFT"], size=20, style="B", align="R")
    for run in cv.runs:
        assert PAGE_EDGE - 1 <= run.box.x0 and run.box.x1 <= cv.page_width - PAGE_EDGE + 1
    short = cv.line(42, 120, ["Invoice"], size=20, style="B")
    assert short == pytest.approx(cv.width("Invoice", 20, "B"))  # lines that fit keep their size
