"""The field vocabulary (docextract/vocabulary.py) is the one list: what other modules name of it is in it."""

from docextract.data.einvoice import LABEL_FIELDS
from docextract.extraction.doctype import INVOICE_KEY_FIELDS
from docextract.extraction.entities import FIELD_TYPES
from docextract.extraction.review import REQUIRED_INVOICE_FIELDS
from docextract.extraction.segments import OPENING_LABELS
from docextract.readers.einvoice import EmbeddedInvoice
from docextract.vocabulary import DOCUMENT_LABELS, INVOICE_LABELS, LINE_ITEM_LABELS


def test_the_invoice_fields_other_modules_name_are_the_vocabularys():
    assert LABEL_FIELDS == DOCUMENT_LABELS
    assert set(REQUIRED_INVOICE_FIELDS) <= set(DOCUMENT_LABELS)
    assert set(OPENING_LABELS) <= set(DOCUMENT_LABELS)
    assert set(INVOICE_KEY_FIELDS) <= set(INVOICE_LABELS)
    assert set(DOCUMENT_LABELS) <= set(EmbeddedInvoice.__dataclass_fields__)


def test_every_typed_invoice_field_has_its_type_and_line_items_are_prefixed():
    assert {"invoice_date", "due_date", "subtotal", "total_tax", "total", "amount_due", "currency", "iban"} <= set(FIELD_TYPES)
    assert all(label.startswith("line_item_") for label in LINE_ITEM_LABELS)
    assert INVOICE_LABELS == DOCUMENT_LABELS + LINE_ITEM_LABELS
