"""The synthetic invoices' label set: one constant every consumer (training, evaluation) shares."""

from __future__ import annotations

DOCUMENT_LABELS = (
    "invoice_number", "invoice_date", "due_date", "purchase_order",
    "vendor_name", "vendor_address", "vendor_tax_id",
    "customer_name", "billing_address", "shipping_address",
    "subtotal", "total_tax", "total", "amount_due", "currency", "payment_terms", "iban",
)
LINE_ITEM_LABELS = (
    "line_item_description", "line_item_quantity", "line_item_unit_price", "line_item_amount",
)
INVOICE_LABELS = DOCUMENT_LABELS + LINE_ITEM_LABELS
