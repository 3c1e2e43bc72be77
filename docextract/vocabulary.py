"""The product's field vocabulary: the names of the fields an invoice has, which the invoice model tags, the
readers' e-invoices fill, the converters label, extraction types and checks, and ``docextract synth`` writes.

On the ground floor (it imports nothing), so that each of those packages reads the one list instead of keeping a
copy of it. A model folder's own labels (``id2label``) may be any subset or other names; this is the product's set.
"""

from __future__ import annotations

# Document-level fields: one value each per invoice.
DOCUMENT_LABELS = (
    "invoice_number", "invoice_date", "due_date", "purchase_order",
    "vendor_name", "vendor_address", "vendor_tax_id",
    "customer_name", "billing_address", "shipping_address",
    "subtotal", "total_tax", "total", "amount_due", "currency", "payment_terms", "iban",
)
# The cells of a line-item row: several values per invoice, grouped into rows.
LINE_ITEM_LABELS = (
    "line_item_description", "line_item_quantity", "line_item_unit_price", "line_item_amount",
)
INVOICE_LABELS = DOCUMENT_LABELS + LINE_ITEM_LABELS


def split_tag(tag: str) -> tuple[str, str | None]:
    """A tag (BIO or BIESO) to its prefix and label: ``"B-total"`` -> ``("B", "total")``; ``"O"`` -> ``("O", None)``."""
    if tag == "O" or "-" not in tag:
        return "O", None
    prefix, label = tag.split("-", 1)
    return prefix, label
