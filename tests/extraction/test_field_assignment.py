"""One value per field: competing amounts and dates get their labels jointly, the invoice's arithmetic deciding."""

from docextract.document import Box, Document, Page, Word, WordRef
from docextract.extraction.entities import Entity, TaggedWord
from docextract.extraction.fields import MIN_LABEL_PROBABILITY, decode_document_entities
from docextract.extraction.key_values import total_that_is_due
from docextract.extraction.output import build_output
from tests.layout_helpers import laid_out_page

# (text, tag, label probabilities) on one page, top to bottom; every amount of the totals block is tagged
# subtotal, as the model does, and its probabilities alone would put the total and the amount due the wrong
# way round: the arithmetic has to decide.
WORDS = [
    ("Rechnungsdatum:", "O", {}),
    ("01.03.2024", "B-invoice_date", {"invoice_date": 0.48, "due_date": 0.45}),
    ("Fällig:", "O", {}),
    ("31.03.2024", "B-invoice_date", {"invoice_date": 0.50, "due_date": 0.44}),
    ("Wartung", "B-line_item_description", {"line_item_description": 0.9}),
    ("600,00", "B-line_item_amount", {"line_item_amount": 0.9}),
    ("Lizenz", "B-line_item_description", {"line_item_description": 0.9}),
    ("400,00", "B-line_item_amount", {"line_item_amount": 0.9}),
    ("1.000,00", "B-subtotal", {"subtotal": 0.7, "total": 0.2, "amount_due": 0.05}),
    ("190,00", "B-total_tax", {"total_tax": 0.9, "subtotal": 0.05}),
    ("1.190,00", "B-subtotal", {"subtotal": 0.5, "total": 0.2, "amount_due": 0.25}),
    ("990,00", "B-subtotal", {"subtotal": 0.45, "total": 0.3, "amount_due": 0.2}),
]


def _document(words=WORDS, with_probabilities=True):
    page_words = tuple(Word(text, Box(300, 40 + 20 * i, 380, 52 + 20 * i)) for i, (text, _, _) in enumerate(words))
    doc = Document(source="in/rechnung.pdf", pages=(Page(number=1, width=595.0, height=842.0, words=page_words),),
                   sha256="0" * 64)
    tagged = [TaggedWord(WordRef(0, i), tag, max(p.values(), default=0.99), p if with_probabilities else None)
              for i, (_, tag, p) in enumerate(words)]
    return doc, tagged


def _labels(doc, entities):
    return {e.text(doc): e.label for e in entities}


def test_the_totals_block_is_read_by_its_arithmetic():
    doc, tagged = _document()
    entities = decode_document_entities(doc, tagged)
    labels = _labels(doc, entities)
    assert labels["1.000,00"] == "subtotal"  # = 600 + 400, the line items
    assert labels["1.190,00"] == "total"  # = subtotal + tax
    assert labels["990,00"] == "amount_due"  # what is left, and the model thought it possible
    assert labels["190,00"] == "total_tax"
    relabelled = next(e for e in entities if e.text(doc) == "990,00")
    assert relabelled.confidence == 0.2  # its probability for the label it got, not the argmax tag's 0.45


def test_the_due_date_is_not_before_the_invoice_date():
    doc, tagged = _document()
    labels = _labels(doc, decode_document_entities(doc, tagged))
    assert labels["01.03.2024"] == "invoice_date" and labels["31.03.2024"] == "due_date"


def test_output_fields_and_checks_follow():
    doc, tagged = _document()
    output = build_output(doc, tagged, model={"name": "test", "labels": ["O"]})
    document = output["documents"][0]
    fields = document["fields"]
    assert fields["total"]["normalized"]["amount"] == "1190.00"
    assert fields["amount_due"]["normalized"]["amount"] == "990.00"
    assert fields["due_date"]["normalized"] == "2024-03-31"
    assert {c["name"]: c["status"] for c in document["validation"]["checks"]} == {
        "line_items_sum_equals_subtotal": "pass", "subtotal_plus_tax_equals_total": "pass"}


def test_a_label_the_model_never_considered_is_not_given():
    words = [(t, tag, {k: v for k, v in p.items() if k != "amount_due"} if t == "990,00" else p) for t, tag, p in WORDS]
    words = [(t, tag, {**p, "amount_due": MIN_LABEL_PROBABILITY / 2} if t == "990,00" else p) for t, tag, p in words]
    doc, tagged = _document(words)
    labels = _labels(doc, decode_document_entities(doc, tagged))
    assert labels["990,00"] == "subtotal"  # keeps its tag and stays an alternative of the subtotal
    assert labels["1.190,00"] == "total"


def test_tags_stand_without_probabilities_or_competition():
    doc, tagged = _document(with_probabilities=False)  # e.g. gold tags, or tags mapped from another label set
    assert [e.label for e in decode_document_entities(doc, tagged)].count("subtotal") == 3
    single = [("Total", "O", {}), ("1.190,00", "B-total", {"total": 0.9, "amount_due": 0.1})]
    doc, tagged = _document(single)
    assert [(e.label, e.assigned) for e in decode_document_entities(doc, tagged)] == [("total", False)]


def test_one_amount_printed_twice_is_the_total_and_the_amount_due():
    # most invoices print the total again as what is to be paid; each printed occurrence is a candidate
    repeated = [("Total", "O", {}), ("1.190,00", "B-total", {"total": 0.9, "amount_due": 0.1}),
                ("Zu zahlen", "O", {}), ("1.190,00", "B-total", {"total": 0.8, "amount_due": 0.15})]
    doc, tagged = _document(repeated)
    assert [e.label for e in decode_document_entities(doc, tagged)] == ["total", "amount_due"]
    fields = build_output(doc, tagged, model={"name": "test", "labels": ["O"]})["documents"][0]["fields"]
    assert fields["total"]["normalized"]["amount"] == fields["amount_due"]["normalized"]["amount"] == "1190.00"


def test_a_zero_rate_invoice_prints_one_amount_as_subtotal_and_total():
    words = [("Netto", "O", {}), ("220,00", "B-subtotal", {"subtotal": 0.6, "total": 0.3}),
             ("Steuer", "O", {}), ("0,00", "O", {"total_tax": 0.3}),
             ("Brutto", "O", {}), ("220,00", "B-subtotal", {"subtotal": 0.5, "total": 0.4})]
    doc, tagged = _document(words)
    entities = decode_document_entities(doc, tagged)
    assert [(e.text(doc), e.label) for e in entities] == [("220,00", "subtotal"), ("220,00", "total"), ("0,00", "total_tax")]
    fields = build_output(doc, tagged, model={"name": "test", "labels": ["O"]})["documents"][0]["fields"]
    assert (fields["subtotal"]["normalized"]["amount"], fields["total_tax"]["normalized"]["amount"],
            fields["total"]["normalized"]["amount"]) == ("220.00", "0.00", "220.00")


def test_an_untagged_tax_completes_the_arithmetic():
    # the model tagged the totals block's net and gross amounts but left the tax O; subtotal + tax = total finds it
    words = [("Sub-total", "O", {}), ("7,863.45", "B-subtotal", {"subtotal": 0.6, "total": 0.3}),
             ("VAT", "O", {}), ("393.17", "O", {"total_tax": 0.05}),
             ("Grand", "O", {}), ("Total", "O", {}), ("8,256.62", "B-subtotal", {"subtotal": 0.5, "total": 0.35}),
             ("Page", "O", {}), ("12.50", "O", {"total_tax": 0.01})]  # under the minimum: never a candidate
    doc, tagged = _document(words)
    entities = decode_document_entities(doc, tagged)
    assert {e.text(doc): e.label for e in entities} == {"7,863.45": "subtotal", "393.17": "total_tax",
                                                        "8,256.62": "total"}


def test_the_tax_is_never_as_large_as_the_subtotal():
    # 858,75 + 163,16 = 1021,91 reads both ways; a VAT is a fraction of the net amount
    words = [("858,75", "B-subtotal", {"subtotal": 0.48, "total_tax": 0.14}),
             ("163,16", "B-subtotal", {"subtotal": 0.49, "total_tax": 0.09}),
             ("1021,91", "B-total", {"total": 0.6})]
    doc, tagged = _document(words)
    labels = _labels(doc, decode_document_entities(doc, tagged))
    assert (labels["858,75"], labels["163,16"], labels["1021,91"]) == ("subtotal", "total_tax", "total")


def test_the_decoded_value_is_the_field_whatever_the_confidence_of_the_others():
    # 22,35 is a line's tax the model tagged total with more confidence than the real total it also tagged
    words = [("Enthält", "O", {}), ("22,35", "B-total", {"total": 0.45}), ("Netto", "O", {}),
             ("200,00", "B-subtotal", {"subtotal": 0.9}), ("Steuer", "O", {}), ("20,00", "B-total_tax", {"total_tax": 0.9}),
             ("Brutto", "O", {}), ("220,00", "B-total", {"total": 0.4})]
    doc, tagged = _document(words)
    fields = build_output(doc, tagged, model={"name": "test", "labels": ["O"]})["documents"][0]["fields"]
    assert fields["total"]["value"] == "220,00"  # subtotal + tax = total decided it
    assert [a["value"] for a in fields["total"]["alternatives"]] == ["22,35"]


def _line(words):
    """(text, x0, x1, tag) on one line of a page -> (doc, tagged)."""
    page_words = tuple(Word(text, Box(x0, 100, x1, 109)) for text, x0, x1, _ in words)
    doc = Document(source="in/facture.pdf", pages=(Page(number=1, width=595.0, height=842.0, words=page_words),),
                   sha256="0" * 64)
    return doc, [TaggedWord(WordRef(0, i), tag, 0.9) for i, (*_, tag) in enumerate(words)]


def test_amounts_stay_whole_across_digit_group_spaces():
    # French "1 333 890,41": groups a space (~2 pt) apart; the model started new entities at the later groups
    doc, tagged = _line([("Total", 300, 330, "O"), ("1", 480, 485, "B-subtotal"), ("333", 487, 503, "B-total"),
                         ("890,41", 505, 540, "I-line_item_amount"), ("EUR", 543, 565, "B-currency")])
    entities = decode_document_entities(doc, tagged)
    assert [(e.label, e.text(doc)) for e in entities] == [("subtotal", "1 333 890,41"), ("currency", "EUR")]


def test_table_columns_are_not_digit_groups():
    # a unit price "12" and the next column's "500,00": a column gap away, two values
    doc, tagged = _line([("12", 400, 412, "B-line_item_unit_price"), ("500,00", 450, 485, "B-line_item_amount")])
    assert [e.text(doc) for e in decode_document_entities(doc, tagged)] == ["12", "500,00"]


AMOUNT_LABELS = ("subtotal", "total_tax", "total", "amount_due")


def test_the_amount_due_is_the_total_too_where_the_subtotal_and_tax_add_up_to_it_and_no_total_is_read():
    # a reverse-charge invoice: "Maatstaf van heffing | BTW verlegd (0%) | Te betalen", no total printed
    doc = laid_out_page([[("Maatstaf van heffing", 340), ("8.634,41", 500)], [("BTW verlegd (0%)", 340), ("0,00", 500)],
                         [("Te betalen", 340), ("8.634,41", 500)]])
    ref = {doc.word(WordRef(0, w)).text: WordRef(0, w) for w in range(len(doc.pages[0].words))}
    subtotal = Entity("subtotal", (WordRef(0, 3),), 0.98, "candidates", assigned=True)
    tax = Entity("total_tax", (ref["0,00"],), 0.7, "candidates", assigned=True)
    due = Entity("amount_due", (WordRef(0, len(doc.pages[0].words) - 1),), 0.99, "candidates", assigned=True)
    assert subtotal.text(doc) == due.text(doc) == "8.634,41"
    (total,) = [e for e in total_that_is_due([subtotal, tax, due], doc, AMOUNT_LABELS, {}, "nl_BE") if e.label == "total"]
    assert total.words == due.words and total.assigned
    # where they do not add up (a deposit paid, disbursements added), the amount due is no total
    less = Entity("amount_due", (ref["0,00"],), 0.99, "candidates", assigned=True)
    assert not [e for e in total_that_is_due([subtotal, tax, less], doc, AMOUNT_LABELS, {}, "nl_BE") if e.label == "total"]
