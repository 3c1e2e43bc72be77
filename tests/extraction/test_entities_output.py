"""Tags -> entities -> the output JSON, checked against the published schema."""

import jsonschema
import pytest

from docextract.document import Box, Document, Page, Word, WordRef
from docextract.extraction.entities import TaggedWord, decode_entities, group_line_items
from docextract.extraction.output import build_output, load_schema

# A German invoice page, word by word: (text, x0, top, x1, bottom, tag)
INVOICE_WORDS = [
    ("Rechnung", 50, 40, 120, 52, "O"),
    ("Nr.", 125, 40, 140, 52, "O"),
    ("RE-2024-0042", 145, 40, 220, 52, "B-invoice_number"),
    ("Datum:", 50, 60, 90, 72, "O"),
    ("15.03.2024", 95, 60, 150, 72, "B-invoice_date"),
    ("Wartung", 50, 200, 95, 212, "B-line_item_description"),
    ("Server", 98, 200, 135, 212, "I-line_item_description"),
    ("2", 300, 200, 306, 212, "B-line_item_quantity"),
    ("500,00", 400, 200, 440, 212, "B-line_item_amount"),
    ("März", 50, 214, 80, 226, "I-line_item_description"),  # the description continues on the next line
    ("Lizenz", 50, 240, 90, 252, "B-line_item_description"),
    ("1", 300, 240, 306, 252, "B-line_item_quantity"),
    ("500,00", 400, 240, 440, 252, "B-line_item_amount"),
    ("Netto", 300, 300, 340, 312, "O"),
    ("1.000,00", 400, 300, 450, 312, "B-subtotal"),
    ("MwSt", 300, 316, 340, 328, "O"),
    ("190,00", 400, 316, 440, 328, "B-total_tax"),
    ("Gesamt", 300, 332, 350, 344, "O"),
    ("1.190,00", 400, 332, 450, 344, "B-total"),
    ("€", 452, 332, 460, 344, "I-total"),
]


def _invoice(total_tag_probability=0.9):
    words = tuple(Word(t, Box(x0, top, x1, bottom)) for t, x0, top, x1, bottom, _ in INVOICE_WORDS)
    doc = Document(source="in/invoice.pdf", pages=(Page(number=1, width=595.0, height=842.0, words=words),), sha256="0" * 64)
    tagged = [TaggedWord(WordRef(0, i), tag, total_tag_probability if "total" in tag else 0.95)
              for i, (*_, tag) in enumerate(INVOICE_WORDS)]
    return doc, tagged


def test_decode_entities_handles_bio_and_bieso_and_stray_inside_tags():
    refs = [WordRef(0, i) for i in range(7)]
    tags = ["B-a", "I-a", "O", "I-b", "S-c", "B-a", "E-a"]
    entities = decode_entities([TaggedWord(r, t, 0.5) for r, t in zip(refs, tags)])
    assert [(e.label, [r.word_index for r in e.words]) for e in entities] == [
        ("a", [0, 1]), ("b", [3]), ("c", [4]), ("a", [5, 6]),
    ]


def test_a_value_whose_words_hesitate_between_two_fields_is_one_entity_of_the_likelier():
    refs = [WordRef(0, i) for i in range(8)]
    probs = [{"vendor_address": 0.5, "billing_address": 0.4}, {"vendor_address": 0.3, "billing_address": 0.6},
             {"vendor_address": 0.2, "billing_address": 0.7}, {}, {"line_item_description": 0.8},
             {"line_item_amount": 0.6, "line_item_description": 0.3}, {"total": 0.9}, {"total": 0.9}]
    tags = ["B-vendor_address", "I-billing_address", "I-billing_address", "O",
            "B-line_item_description", "I-line_item_amount", "B-total", "I-total"]
    tagged = [TaggedWord(r, t, max(p.values(), default=0.9), p) for r, t, p in zip(refs, tags, probs)]
    entities = decode_entities(tagged)
    assert [(e.label, [r.word_index for r in e.words]) for e in entities] == [
        ("billing_address", [0, 1, 2]),  # 1.7 of billing_address probability over its words against 1.0
        ("line_item_description", [4]), ("line_item_amount", [5]),  # cells of a row stay apart
        ("total", [6, 7]),
    ]
    assert entities[0].confidence == pytest.approx(1.7 / 3)  # the mean probability of the label it got
    without = decode_entities([TaggedWord(r, t, 0.5) for r, t in zip(refs, tags)])  # tags only: split as before
    assert [e.label for e in without][:2] == ["vendor_address", "billing_address"]


def test_line_items_rows_keep_continuation_lines():
    doc, tagged = _invoice()
    rows = group_line_items(doc, decode_entities(tagged))
    assert len(rows) == 2
    first = {e.label: e.text(doc) for e in rows[0]}
    assert first["line_item_description"] == "Wartung Server\nMärz"
    assert first["line_item_quantity"] == "2"


def test_output_fields_are_normalised_validated_and_match_the_schema():
    doc, tagged = _invoice()
    out = build_output(doc, tagged, model={"name": "test"}, include_tokens=True)
    jsonschema.validate(out, load_schema())
    fields = out["documents"][0]["fields"]
    assert out["run"]["locale"] == "de_DE"
    assert fields["invoice_date"]["normalized"] == "2024-03-15"
    assert fields["total"]["normalized"] == {"amount": "1190.00", "currency": "EUR"}
    assert fields["subtotal"]["normalized"] == {"amount": "1000.00", "currency": "EUR"}  # currency from the total
    assert fields["invoice_number"]["source_tokens"] == ["p1-t3"]
    assert fields["invoice_number"]["page"] == 1
    x0, y0, x1, y1 = fields["invoice_number"]["bbox"]
    assert x0 == pytest.approx(145 / 595, abs=1e-4) and y1 == pytest.approx(52 / 842, abs=1e-4)
    items = out["documents"][0]["line_items"]
    assert [i["fields"]["amount"]["normalized"]["amount"] for i in items] == ["500.00", "500.00"]
    checks = {c["name"]: c["status"] for c in out["documents"][0]["validation"]["checks"]}
    assert checks == {"line_items_sum_equals_subtotal": "pass", "subtotal_plus_tax_equals_total": "pass"}
    assert out["documents"][0]["validation"]["needs_review"] is False


def test_low_confidence_or_broken_arithmetic_needs_review():
    doc, tagged = _invoice(total_tag_probability=0.3)
    out = build_output(doc, tagged, model={"name": "test"})
    validation = out["documents"][0]["validation"]
    assert validation["needs_review"] is True
    assert "low confidence: total" in validation["review_reasons"]
    # a misread total breaks subtotal + tax = total
    words = list(doc.pages[0].words)
    words[18] = Word("1.290,00", words[18].box)
    doc2 = doc.replace(pages=(doc.pages[0].replace(words=tuple(words)),))
    out2 = build_output(doc2, _invoice()[1], model={"name": "test"})
    assert "check failed: subtotal_plus_tax_equals_total" in out2["documents"][0]["validation"]["review_reasons"]
    jsonschema.validate(out2, load_schema())


def _line_doc(lines):
    """One page of lines of (text, tag) words, each word 60 pt wide, each line 16 pt below the last."""
    words, tags = [], []
    for row, line in enumerate(lines):
        for column, (text, tag) in enumerate(line):
            words.append(Word(text, Box(50 + 65 * column, 40 + 16 * row, 110 + 65 * column, 52 + 16 * row)))
            tags.append(tag)
    doc = Document(source="in/x.pdf", pages=(Page(number=1, width=595.0, height=842.0, words=tuple(words)),), sha256="0" * 64)
    return doc, [TaggedWord(WordRef(0, i), tag, 0.99) for i, tag in enumerate(tags)]


def test_document_year_currency_and_identifiers_reach_the_fields():
    doc, tagged = _line_doc([
        [("Rechnung", "O"), ("Lieferdatum", "O"), ("03.08.2023", "O"), ("Beträge", "O"), ("in", "O"), ("EUR", "O")],
        [("Rechnungsdatum", "O"), ("31.", "B-invoice_date"), ("Juli", "I-invoice_date")],  # printed without its year
        [("Währung", "O"), ("Germany", "B-currency")],  # the model's mistake: a country is no currency
        [("Gesamtbetrag", "O"), ("1.234,50", "B-total")],
        [("IBAN", "O"), ("DE6537040044053201300012", "B-iban")],  # passes mod 97, but 24 characters
        [("USt-IdNr.", "O"), ("DE136695977", "B-vendor_tax_id")],  # wrong check digit
    ])
    out = build_output(doc, tagged, model={"name": "test"})
    jsonschema.validate(out, load_schema())
    document = out["documents"][0]
    fields = document["fields"]
    assert out["run"]["locale"] == "de_DE"
    assert fields["invoice_date"]["normalized"] == "2023-07-31"  # the document's year, not today's
    assert "currency" not in fields  # never "Germany" (or a bare "US")
    assert fields["total"]["normalized"] == {"amount": "1234.50", "currency": "EUR"}  # "EUR" printed elsewhere
    for name in ("iban", "vendor_tax_id"):
        assert fields[name]["valid"] is False and fields[name]["confidence"] <= 0.25  # never high
        assert any(r.startswith(f"invalid identifier: {name} (") for r in document["validation"]["review_reasons"])
    assert document["validation"]["needs_review"] is True


def test_decode_entities_finds_the_spans_seqeval_scores():
    # run's decoder also carries each word's probability and stays free of seqeval's scikit-learn import
    # (most of a second per process); it must find exactly the entities evaluation counts, valid tags or not
    import random

    from docextract.data.tagging import spans_from_tags

    rng = random.Random(13)
    tag_set = ["O", "B-a", "I-a", "E-a", "S-a", "B-b", "I-b", "E-b", "S-b"]
    for _ in range(500):
        tags = [rng.choice(tag_set) for _ in range(rng.randint(1, 12))]
        entities = decode_entities([TaggedWord(WordRef(0, i), t, 0.5) for i, t in enumerate(tags)])
        decoded = [(e.label, e.words[0].word_index, e.words[-1].word_index + 1) for e in entities]
        assert decoded == [(s.label, s.start, s.end) for s in spans_from_tags(tags)], tags


@pytest.mark.parametrize("key, iban, valid", [
    ("IBAN", "DE75512108001245126199", True),
    # a sample invoice's made-up IBAN fails its check digits too; the VAT id is no IBAN at all
    ("Verkäufer-IBAN", "DE5467894567876500", False),
])
def test_an_iban_is_the_field_over_a_likelier_vat_id_the_tagger_also_took(key, iban, valid):
    # an IBAN whose check digits hold ranks first, then one shaped as an IBAN, then what is none
    doc, tagged = _line_doc([
        [("USt-IdNr.", "O"), ("DE136695976", "B-iban")],  # a VAT id the tagger took for the IBAN, more confident
        [(key, "O"), (iban, "B-iban")],
    ])
    tagged[1] = TaggedWord(tagged[1].ref, "B-iban", 0.99)
    tagged[3] = TaggedWord(tagged[3].ref, "B-iban", 0.6)
    fields = build_output(doc, tagged, model={"name": "test"})["documents"][0]["fields"]
    assert fields["iban"]["value"] == fields["iban"]["normalized"] == iban and fields["iban"]["valid"] is valid
    assert fields["iban"]["alternatives"][0]["value"] == "DE136695976"
