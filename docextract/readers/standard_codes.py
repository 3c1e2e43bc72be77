"""The codes of a standard's business terms that a visualised e-invoice prints beside its keys.

A viewer of XRechnung or ZUGFeRD data (KoSIT's, an ERP's "Visualisierung") prints each key with the number of its
business term in EN 16931: "Rechnungsnummer: BT-1 2024-RE-001187", "Name: BT-27 Nordlicht GmbH", "Preis (BT-146)".
The codes look like identifiers and sit between every key and its value, so every reader after this one (the
tagger, the key rules, the party blocks) would take "BT-1" for the invoice number. They name the standard's
fields, never a value of the document: a page that prints at least :data:`MIN_CODES` of them is read without
them. Fewer are left alone (a product "BT-100" in an item line is a word of the document).
"""

from __future__ import annotations

import re

from docextract.document import Page

# "BT-1", "BG-4", "BT-73/74", "(BT-131)", "(BT-129/130)": a business term's or group's number, bracketed or not
_CODE = re.compile(r"\(?B[TG]-\d{1,3}(?:/\d{1,3})*\)?:?")
MIN_CODES = 3


def without_standard_codes(page: Page) -> Page:
    """``page`` without its words that are EN 16931 business-term codes, where it prints at least MIN_CODES."""
    codes = {i for i, word in enumerate(page.words) if _CODE.fullmatch(word.text)}
    if len(codes) < MIN_CODES:
        return page
    return page.replace(words=tuple(word for i, word in enumerate(page.words) if i not in codes))
