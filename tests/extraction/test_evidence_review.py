"""The document's evidence for a field (key words in six languages, left of or above the value; recurrence;
the arithmetic; the shape of the value), and the review policy on a `run` output: a status on every field,
a value that does not normalise never accepted, needs_review from the required fields, and --precision moving
the marks along the same curve."""

import jsonschema
import pytest

from docextract.document import Box, Document, Page, Word, WordRef
from docextract.errors import ModelRefusedError
from docextract.extraction.confidence import EvidenceModel, PlattMap
from docextract.extraction.entities import TaggedWord
from docextract.extraction.evidence import FEATURES, odd_shape
from docextract.extraction.field_keywords import closing_keys, key_tokens
from docextract.extraction.fields import decode_document_entities
from docextract.extraction.output import build_output, load_schema
from docextract.extraction.review import (
    REQUIRED_INVOICE_FIELDS,
    FieldCurve,
    ReviewPolicy,
    field_status,
)
from docextract.extraction.scoring import FieldScoring, document_evidence
from docextract.layout import analyze_layout

# A German invoice page: (text, x0, top, x1, bottom, tag)
WORDS = [
    ("ACME", 50, 20, 90, 32, "B-vendor_name"), ("GmbH", 94, 20, 130, 32, "I-vendor_name"),
    ("Rechnung", 50, 40, 120, 52, "O"), ("Nr.", 125, 40, 140, 52, "O"),
    ("RE-2024-0042", 145, 40, 220, 52, "B-invoice_number"),
    ("Fällig", 50, 60, 85, 72, "O"), ("am:", 88, 60, 105, 72, "O"),
    ("15.03.2024", 110, 60, 165, 72, "B-invoice_date"),  # labelled invoice date, but a due date's key word
    ("Bestellnummer", 350, 40, 440, 52, "O"),
    ("PO-77", 350, 56, 390, 68, "B-purchase_order"),  # its key word stands above it
    ("Lieferdatum:", 50, 80, 120, 92, "O"), ("demnächst", 125, 80, 185, 92, "B-due_date"),  # does not normalise
    ("Netto", 300, 300, 340, 312, "O"), ("1.000,00", 400, 300, 450, 312, "B-subtotal"),
    ("MwSt", 300, 316, 340, 328, "O"), ("19", 343, 316, 355, 328, "O"), ("%", 357, 316, 365, 328, "O"),
    ("190,00", 400, 316, 440, 328, "B-total_tax"),
    ("Gesamtbetrag", 300, 332, 380, 344, "O"), ("1.190,00", 400, 332, 450, 344, "B-total"),
    ("€", 452, 332, 460, 344, "I-total"),
    ("Zu", 300, 348, 315, 360, "O"), ("zahlen:", 318, 348, 360, 360, "O"),
    ("02/17/26", 400, 348, 450, 360, "B-amount_due"),  # an amount printed like a date
    ("Bitte", 50, 500, 80, 512, "O"), ("überweisen", 83, 500, 150, 512, "O"), ("Sie", 153, 500, 170, 512, "O"),
    ("1190,00", 173, 500, 215, 512, "O"),  # the total again, printed differently
]
LABELS = tuple(sorted({"vendor_name", "invoice_number", "invoice_date", "purchase_order", "due_date", "subtotal",
                       "total_tax", "total", "amount_due", "currency"}))


def _document(probability: float = 0.9):
    words = tuple(Word(t, Box(x0, top, x1, bottom)) for t, x0, top, x1, bottom, _ in WORDS)
    doc = analyze_layout(Document(source="in/rechnung.pdf", pages=(Page(1, 595.0, 842.0, words),), sha256="0" * 64))
    tagged_by_ref = {WordRef(0, i): TaggedWord(WordRef(0, i), tag, probability) for i, (*_, tag) in enumerate(WORDS)}
    return doc, [tagged_by_ref[r] for r in doc.ordered_words()]


@pytest.mark.parametrize("printed, label", [
    ("Rechnungsnummer", "invoice_number"), ("Rechnung Nr.:", "invoice_number"), ("Facture N°", "invoice_number"),
    ("Facture Nº", "invoice_number"), ("Invoice #", "invoice_number"), ("Factuurnummer", "invoice_number"),
    ("Numero fattura", "invoice_number"), ("Número de factura", "invoice_number"),
    ("Due date", "due_date"), ("Fällig am", "due_date"), ("Date d'échéance :", "due_date"), ("Vervaldatum", "due_date"),
    ("Scadenza", "due_date"), ("Fecha de vencimiento", "due_date"),
    ("Total (EUR)", "total"), ("Gesamtbetrag", "total"), ("Montant TTC", "total"), ("Totaal", "total"),
    ("Importe total", "total"), ("Net à payer", "amount_due"), ("Zu zahlen:", "amount_due"),
    ("MwSt. 19 %", "total_tax"), ("Sous-total", "subtotal"), ("Imponibile", "subtotal"),
    ("Open Amount", "amount_due"), ("Outstanding amount", "amount_due"), ("Vertrags-Datum", "other_date"),
])
def test_key_words_in_six_languages(printed, label):
    labels, _ = closing_keys(key_tokens(printed))
    assert label in labels


def test_the_longest_key_word_decides_and_words_before_it_do_not_count():
    assert closing_keys(key_tokens("Invoice date"))[0] == {"invoice_date", "date"}  # not the invoice number's "invoice"
    assert closing_keys(key_tokens("Due date"))[0] == {"due_date"}  # not the invoice date's "date"
    assert closing_keys(key_tokens("Total 3 items"))[0] == frozenset()  # the key word must end the context


def test_evidence_of_each_field_from_the_page():
    doc, tagged = _document()
    output = build_output(doc, tagged, model={"labels": list(LABELS)})
    document = output["documents"][0]
    evidence = document_evidence(doc, document, decode_document_entities(doc, tagged))
    assert set(evidence["total"]) == set(FEATURES)
    assert evidence["invoice_number"]["key_own"] == 1.0  # "Rechnung Nr." left of it
    assert evidence["purchase_order"]["key_own"] == 1.0  # "Bestellnummer" above it
    assert (evidence["invoice_date"]["key_own"], evidence["invoice_date"]["key_other"]) == (0.0, 1.0)  # "Fällig am:"
    assert evidence["total"]["key_own"] == 1.0 and evidence["total"]["recurs"] == 1.0  # "1190,00" further down
    assert evidence["invoice_number"]["recurs"] == 0.0
    assert (evidence["total"]["check_pass"], evidence["total"]["tax_rate"]) == (1.0, 1.0)  # 1000 + 190 = 1190, 19 %
    assert evidence["subtotal"]["check_pass"] == 1.0 and evidence["total_tax"]["check_fail"] == 0.0
    assert evidence["amount_due"]["odd_shape"] == 1.0  # "02/17/26" is no amount, whatever it parses to
    assert evidence["due_date"]["unnormalised"] == 1.0 and evidence["total"]["unnormalised"] == 0.0
    assert evidence["total"]["kind_amount"] == 1.0 and evidence["invoice_date"]["kind_date"] == 1.0
    assert evidence["total"]["rival_gap"] == 1.0  # no other value was labelled total


@pytest.mark.parametrize("label, kind, text, odd", [
    ("amount_due", "amount", "02/17/26", True), ("total", "amount", "1.190,00 €", False),
    ("total", "amount", "RM7.70", False), ("total", "amount", "CHF 1'234.50", False), ("total", "amount", "(12.00)", False),
    ("invoice_date", "date", "18:02", True), ("invoice_date", "date", "February 17, 2026", False),
    ("invoice_date", "date", "2022", True), ("invoice_date", "date", "15.03.2024", False),
    # a month and its year name a billing month ("Factuur maart 2024" over "Factuurdatum 1 maart 2024"), not a day
    ("invoice_date", "date", "März 2024", True), ("invoice_date", "date", "1. März 2024", False),
    ("due_date", "date", "Fällig", True),
    ("vendor_name", "string", "&amp;", True), ("vendor_name", "string", "ACME GmbH", False),
    ("vendor_name", "string", "GmbH", True), ("customer_name", "string", "Co. KG", True),
    ("vendor_address", "address", "GmbH", False),
    ("invoice_number", "string", "RE-2024-0042", False), ("invoice_number", "string", "Rechnung", True),
])
def test_odd_shapes(label, kind, text, odd):
    assert odd_shape(label, kind, text) is odd


def _evidence_model() -> EvidenceModel:
    """Trusts the raw confidence and key words; what a fit might give, made by hand."""
    features = ("raw_logit", "key_own", "key_other", "odd_shape", "unnormalised")
    return EvidenceModel(features, (1.0, 2.0, -2.0, -3.0, 0.0), 1.0, PlattMap(1.0, 0.0))


def _policy(points) -> ReviewPolicy:
    curve = FieldCurve(100, tuple(points))
    return ReviewPolicy(0.99, {}, curve)


def test_every_field_gets_a_status_and_an_unnormalised_value_is_never_accepted():
    doc, tagged = _document(probability=0.99)
    policy = _policy([(0.0, 0.99, 1.0)])  # everything reached 99%: threshold 0
    scoring = FieldScoring(_evidence_model(), policy, LABELS)
    output = build_output(doc, tagged, model={"labels": list(LABELS)}, scoring=scoring)
    jsonschema.validate(output, load_schema())
    fields = output["documents"][0]["fields"]
    assert set(fields) >= {"invoice_number", "due_date", "total"}
    assert all(f["status"] in ("accepted", "review") for f in fields.values())
    assert fields["due_date"]["normalized"] is None and fields["due_date"]["status"] == "review"
    assert fields["due_date"]["confidence"] <= 0.5  # never confident
    assert fields["invoice_number"]["status"] == "accepted"
    assert all("status" not in alternative for f in fields.values() for alternative in f.get("alternatives", []))
    # the evidence model scored the fields: a key word of another field pulls the invoice date down
    assert fields["invoice_date"]["confidence"] < fields["invoice_number"]["confidence"]
    assert field_status({"type": "date", "normalized": None, "confidence": 1.0}, 0.0) == "review"
    assert field_status({"type": "string", "normalized": "x", "confidence": 1.0}, None) == "review"


def test_precision_moves_the_marks_along_the_same_curve():
    doc, tagged = _document(probability=0.8)
    # 99% precision was reached above 0.97, 95% above 0.9, 80% everywhere
    policy = _policy([(0.0, 0.8, 1.0), (0.9, 0.96, 0.7), (0.97, 0.995, 0.4)])
    marks = {}
    for precision in (None, 0.95, 0.8):
        scoring = FieldScoring(_evidence_model(), policy, LABELS, precision)
        output = build_output(doc, tagged, model={"labels": list(LABELS)}, scoring=scoring)
        fields = output["documents"][0]["fields"]
        threshold = {None: 0.97, 0.95: 0.9, 0.8: 0.0}[precision]
        assert scoring.describe()["thresholds"]["total"] == threshold
        for label, field in fields.items():
            expected = field["confidence"] >= threshold and field["normalized"] is not None
            assert (field["status"] == "accepted") is expected, (precision, label, field["confidence"])
        marks[precision] = {label for label, f in fields.items() if f["status"] == "accepted"}
    assert marks[None] < marks[0.95] < marks[0.8]  # each lower precision accepts more
    assert "due_date" not in marks[0.8]


def test_needs_review_follows_the_required_fields():
    doc, tagged = _document(probability=0.99)
    labels = tuple(sorted(set(LABELS) | set(REQUIRED_INVOICE_FIELDS)))
    accept_all = FieldScoring(PlattMap(1.0, 0.0), _policy([(0.0, 1.0, 1.0)]), labels)
    validation = build_output(doc, tagged, model={"labels": list(labels)}, scoring=accept_all)["documents"][0]["validation"]
    # currency is printed with the total (€), so it is not missing; due_date is review but not required
    assert validation == {**validation, "needs_review": False, "review_reasons": []}
    strict = FieldScoring(PlattMap(1.0, 0.0), _policy([(0.0, 0.5, 1.0)]), labels)  # nothing reached 99%
    validation = build_output(doc, tagged, model={"labels": list(labels)}, scoring=strict)["documents"][0]["validation"]
    assert validation["needs_review"] is True
    assert validation["review_reasons"] == ["review: invoice_number", "review: invoice_date", "review: total",
                                            "review: vendor_name"]
    # a model without the invoice labels keeps the checks' own rules (a low-confidence or unparsable field)
    other = FieldScoring(None, None, ("company", "total"))
    validation = build_output(doc, tagged, model={"labels": ["company", "total"]}, scoring=other)["documents"][0]["validation"]
    assert "unparsable value: due_date" in validation["review_reasons"]


def test_review_policy_round_trips_and_a_malformed_one_refuses_the_model():
    policy = ReviewPolicy(0.95, {"total": FieldCurve(40, ((0.5, 0.9, 1.0), (0.8, 0.99, 0.5)))},
                          FieldCurve(200, ((0.6, 0.97, 0.9),)), min_support=30, fitted_on={"documents": 40})
    assert ReviewPolicy.from_config(policy.to_config()) == policy
    assert policy.threshold("total") == 0.8 and policy.threshold("total", 0.9) == 0.5
    assert policy.threshold("iban") == 0.6  # not measured: all fields' curve

    class Config:
        id2label = {0: "O", 1: "B-total"}
        docextract_review_policy = {"precision": 0.99, "fields": {}}  # no pooled curve

    class Model:
        config = Config()

    with pytest.raises(ModelRefusedError):
        FieldScoring.from_model(Model())


def test_fields_read_by_ocr_follow_the_policys_ocr_curves():
    # the same page and confidences, read from a text layer and by OCR: the OCR curves (nothing reached 99% on
    # scans) accept nothing of the scan, the text layer's curves accept its fields; the policy round-trips
    from dataclasses import replace

    text_policy = _policy([(0.0, 0.99, 1.0)])
    policy = replace(text_policy, ocr=_policy([(0.5, 0.9, 1.0)]))
    assert ReviewPolicy.from_config(policy.to_config()) == policy
    assert policy.reading_threshold("total", 0.99, ocr=False) == 0.0
    assert policy.reading_threshold("total", 0.99, ocr=True) is None  # held to 99.9%, which no OCR point reached
    assert replace(policy, ocr=_policy([(0.5, 0.999, 1.0)])).reading_threshold("total", 0.99, ocr=True) == 0.5
    doc, tagged = _document(probability=0.99)
    scanned = replace(doc, pages=tuple(replace(page, text_source="ocr") for page in doc.pages))
    scoring = FieldScoring(_evidence_model(), policy, LABELS)
    read = build_output(doc, tagged, model={"labels": list(LABELS)}, scoring=scoring)["documents"][0]["fields"]
    ocr = build_output(scanned, tagged, model={"labels": list(LABELS)}, scoring=scoring)["documents"][0]["fields"]
    assert read["total"]["status"] == "accepted"
    assert {f["status"] for f in ocr.values()} == {"review"}
    assert scoring.describe()["thresholds_ocr"]["total"] is None


def test_closing_keys_finds_what_a_scan_of_every_key_word_finds():
    """closing_keys looks key words up by their last token (and caches): the longest key word ending the context
    wins, ties all count, as a scan of every field's key words gives them."""
    import random

    from docextract.extraction import field_keywords

    def scan(context):
        tokens = field_keywords.trim_context(context)
        best, best_length = set(), 0
        for label, keywords in field_keywords._KEYWORD_TOKENS.items():
            for keyword in keywords:  # longest first
                if len(keyword) < best_length:
                    break
                if len(keyword) <= len(tokens) and tuple(tokens[-len(keyword):]) == keyword:
                    if len(keyword) > best_length:
                        best, best_length = set(), len(keyword)
                    best.add(label)
                    break
        return frozenset(best), best_length

    vocabulary = sorted({t for keys in field_keywords._KEYWORD_TOKENS.values() for k in keys for t in k})
    vocabulary += ["eur", "19", "the", "foo"]
    rng = random.Random(7)
    contexts = [[rng.choice(vocabulary) for _ in range(rng.randint(0, 5))] for _ in range(20000)]
    found = [field_keywords.closing_keys(context) for context in contexts]
    assert found == [scan(context) for context in contexts]
    assert sum(1 for labels, _ in found if labels) > 5000  # most contexts end in some key word: the test bites



def test_a_party_name_that_is_the_other_partys_too_is_evidence_against_it():
    from docextract.extraction.evidence import other_party

    fields = {"vendor_name": {"value": "Lieferant GmbH"}, "customer_name": {"value": "Lieferant GmbH"},
              "billing_address": {"value": "Kundenstraße 15\nDE 69876 Frankfurt"}}
    assert other_party("customer_name", fields["customer_name"], fields) == 1.0
    assert other_party("vendor_address", {"value": "Lieferantenstraße 20"}, fields) == 0.0
    assert other_party("customer_name", {"value": "Kunden AG Mitte"}, fields) == 0.0
    assert other_party("total", {"value": "Lieferant GmbH"}, fields) == 0.0  # parties only
