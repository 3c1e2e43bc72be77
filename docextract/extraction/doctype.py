"""What kind of document this is: an invoice, a credit note, a receipt, a contract, or something else.

An invoice model tags the words of whatever it is given: a paper's "Hello World!" becomes a vendor name, a form's
"hallway" a billing address. Before any of its fields can be trusted, the document has to be one the model was
made for. :func:`document_type` decides from the page's own words and layout, in the thirteen languages of
:mod:`docextract.extraction.field_keywords`:

* an invoice proves itself by its *keyed values*: a whole key of an invoice field before a value of that field's
  type (:mod:`docextract.extraction.key_context`: "Invoice No. 4711", "Total 1.190,00", "Rechnungsdatum 05.03.2018",
  "IBAN DE89 ..."), and by a title that names it ("Invoice", "Rechnung", "Facture", "Factuur", "Fattura",
  "Factura", "Tax invoice"); a credit note's title names it so ("Credit note", "Gutschrift", "Avoir", ...);
* a receipt prints a total and amounts, but no invoice number, due date or bank details, on a short page;
* a contract is prose about parties ("Agreement", "the Parties", "hereby", "shall", "governed by");
* a quotation, order confirmation or delivery note prints an invoice's keys and amounts under its own title
  ("Quotation", "Angebot", "Devis", "Offerte", "Lieferschein", ...: :data:`NOT_INVOICE_TITLES`): ``other``;
* anything else is ``other``.

The decision is a few counted signals and fixed thresholds (:data:`MIN_STRONG_KEYS` and the rules in
:func:`document_type`), chosen a priori and measured on documents of every kind the shared data holds
(``benchmarks/document_types.py``). A model declares which types it was made for (:func:`model_document_types`);
a document of another type gets no accepted field (:mod:`docextract.extraction.scoring`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from docextract.document import Document
from docextract.extraction.candidates import AMOUNT_KEY_LABELS, KEY_LABELS, generate
from docextract.extraction.entities import document_date_year, document_locale
from docextract.extraction.field_keywords import key_tokens
from docextract.extraction.key_context import key_above, key_left, line_index

TYPES = ("invoice", "credit_note", "receipt", "contract", "other")
INVOICE_TYPES = ("invoice", "credit_note", "receipt")

# Titles, as whole lines or a line's first words (after key_tokens: accents off, case-folded).
INVOICE_TITLES = (
    "invoice", "tax invoice", "commercial invoice", "proforma invoice", "pro forma invoice", "invoice receipt",
    "rechnung", "handelsrechnung", "steuerrechnung", "abschlagsrechnung", "schlussrechnung", "teilrechnung",
    "facture", "facture proforma", "note d honoraires", "factuur", "fattura", "factura", "faktura", "bill", "tax invoice receipt",
    "beitragsrechnung", "kostenrechnung", "warenrechnung", "mietrechnung", "rechnung gutschrift",
    "lasku", "fatura", "fatura recibo", "fatura simplificada",
    "faktura vat", "rachunek", "faktura danovy doklad", "danovy doklad", "vyuctovani", "vyuctovani sluzeb",
    "vyuctovani sluzeb danovy doklad", "zalohova faktura",
    # an ERP report's title that names its module first: Business Central's "Verkauf - Rechnung", "Sales - Invoice"
    "verkauf rechnung", "verkaufsrechnung", "sales invoice", "vente facture", "verkoop factuur", "verkoopfactuur",
)
CREDIT_TITLES = (
    "credit note", "credit memo", "gutschrift", "rechnungskorrektur", "rechnungs korrektur", "stornorechnung", "avoir",
    "facture d avoir",
    "creditnota", "creditfactuur", "nota di credito", "nota de credito", "factura rectificativa",
    "kreditfaktura", "kreditnota", "hyvityslasku",
    "faktura korygujaca", "korekta", "opravny danovy doklad", "dobropis",
)
# Titles of business documents that print an invoice's keys and amounts but are no invoice: a quotation, an order
# confirmation, a delivery note. A payer books nothing from them; under no invoice or credit note title, their
# title makes the page "other". Only as a title: the whole line, or its first words before a number
# ("Angebot Nr. 2024-017", "Quotation #88"), never a key inside a line ("Lieferschein-Nr.: 4711" on an invoice)
NOT_INVOICE_TITLES = (
    "quote", "quotation", "estimate", "proposal", "delivery note", "packing slip", "packing list", "order confirmation",
    "angebot", "kostenvoranschlag", "lieferschein", "auftragsbestatigung", "bestellbestatigung",
    "devis", "bon de livraison", "bon de commande", "confirmation de commande", "proposition commerciale",
    "offerte", "pakbon", "orderbevestiging", "opdrachtbevestiging",
    "preventivo", "offerta", "documento di trasporto", "conferma d ordine", "presupuesto", "albaran",
    "confirmacion de pedido",
    "offert", "tilbud", "tarjous", "orcamento", "foljesedel", "følgeseddel", "lahete", "guia de remessa",
    "orderbekraftelse", "ordrebekræftelse", "ordrebekreftelse", "tilausvahvistus",
    "oferta", "wycena", "zamowienie", "potwierdzenie zamowienia", "dowod dostawy", "nabidka", "cenova nabidka",
    "dodaci list", "objednavka", "potvrzeni objednavky",
)
RECEIPT_WORDS = frozenset({"receipt", "cash", "change", "tendered", "cashier", "quittung", "kassenbon", "beleg", "recu",
                           "ticket", "kassa", "scontrino", "recibo", "rounding", "gst", "qty", "kvitto", "kvittering",
                           "kuitti", "paragon", "uctenka"})
CONTRACT_WORDS = frozenset({"agreement", "agreements", "party", "parties", "hereby", "hereto", "hereof", "herein",
                            "hereunder", "whereas", "shall", "governed", "confidential", "confidentiality", "witness",
                            "vertrag", "vereinbarung", "contrat", "overeenkomst", "contratto", "contrato", "avtal",
                            "aftale", "avtale", "sopimus", "umowa", "smlouva"})
# A self-billed invoice: the buyer issues it for the supplier (UK self-billing, Germany's "Gutschrift" under § 14 (2)
# UStG, France's "autofacturation"), so its letterhead and legal line are the buyer's and the vendor is the party
# addressed. An invoice, not a credit note, whatever its title; its parties are never read without a person.
SELF_BILLING_PHRASES = (("self", "billed"), ("self", "billing"), ("self", "bill"), ("selfbilling",),
                        ("gutschriftsverfahren",), ("autofacturation",), ("autofacture",), ("autofactura",),
                        ("autofattura",), ("zelffacturatie",))
_SELF_BILLING = frozenset(SELF_BILLING_PHRASES)
# Fields whose key before a typed value is invoice evidence: what receipts, letters and papers rarely print so.
INVOICE_KEY_FIELDS = frozenset({"invoice_number", "invoice_date", "due_date", "purchase_order", "subtotal", "total_tax",
                                "total", "amount_due", "iban"})
# Keys that forms, letters and papers print too ("Date:", "Order No."): evidence only beside the others.
WEAK_KEY_FIELDS = frozenset({"invoice_date", "purchase_order"})
STRONG_KEY_FIELDS = INVOICE_KEY_FIELDS - WEAK_KEY_FIELDS
MIN_STRONG_KEYS = 2  # an invoice number and a total, a due date and an IBAN, ...: an invoice without a title
MIN_INVOICE_KEYS = 3  # or three keyed fields with one strong among them (or one strong one under an invoice title)
MIN_RECEIPT_WORDS = 2  # distinct receipt words ("cash", "change", "gst", ...) beside amounts, without a total key
MIN_RECEIPT_AMOUNTS = 2
MAX_RECEIPT_WORDS = 800  # a receipt is one short page
MIN_CONTRACT_DENSITY = 0.02  # contract words per word
MIN_CONTRACT_WORDS = 300  # a contract is prose: a form with "Party" on it is not one
MAX_TITLE_LINE_TOKENS = 4  # a title is a short line ("Rechnung Nr. 4711" counts by its first word)


@dataclass(frozen=True)
class DocumentType:
    type: str
    reasons: tuple[str, ...]
    signals: dict = field(default_factory=dict, compare=False)

    def to_dict(self) -> dict:
        return {"type": self.type, "reasons": list(self.reasons)}


def _titles(doc: Document, phrases: Iterable[str]) -> set[str]:
    wanted = {tuple(key_tokens(p)) for p in phrases}
    found = set()
    for page in doc.pages[:2]:
        for line in page.lines:
            texts = [page.words[w].text for w in line.word_indices]
            if len(texts) > 2 and all(len(t) == 1 for t in texts):  # a letter-spaced title: "R E C H N U N G"
                texts = ["".join(texts)]
            tokens = [t for text in texts for t in key_tokens(text)]
            for n in range(1, min(len(tokens), MAX_TITLE_LINE_TOKENS) + 1):
                # (not a party's heading: "Bill To", "Invoice to", "Rechnung an")
                if tuple(tokens[:n]) in wanted and tokens[n:n + 1] not in (["to"], ["an"], ["aan"], ["a"]):
                    found.add(" ".join(tokens[:n]))
    return found


def _standalone_titles(doc: Document, phrases: Iterable[str]) -> set[str]:
    """Of ``phrases``, those that stand as a title on the first two pages: a whole line, or the first words of a
    short line followed only by a number's sign and the number ("Angebot Nr. 2024-017", "QUOTATION #88")."""
    wanted = {tuple(key_tokens(p)) for p in phrases}
    found = set()
    for page in doc.pages[:2]:
        for line in page.lines:
            texts = [page.words[w].text for w in line.word_indices]
            tokens = [t for text in texts for t in key_tokens(text)]
            for n in range(1, min(len(tokens), MAX_TITLE_LINE_TOKENS) + 1):
                rest = tokens[n:]
                numbered = bool(rest) and (rest[0] in _NUMBER_SIGNS or _has_digit(rest[0])) and all(
                    _has_digit(token) for token in rest[1:])
                if tuple(tokens[:n]) in wanted and (not rest or numbered and not line_keys_a_value(texts)):
                    found.add(" ".join(tokens[:n]))
    return found


_NUMBER_SIGNS = frozenset({"no", "nr", "n", "number", "nummer", "numero", "num"})


def _has_digit(token: str) -> bool:
    return any(ch.isdigit() for ch in token)


def line_keys_a_value(texts: list[str]) -> bool:
    """Whether a line reads as a key with a colon before its value ("Lieferschein-Nr.: 4711"): no title's."""
    return any(text.endswith(":") or text == ":" for text in texts[:-1])


def keyed_fields(doc: Document) -> set[str]:
    """The invoice fields that a whole key names right before a value of their type, anywhere in the document: on its
    row, or, for a number or date, over it in a header row ("Número | Fecha" over "24/002318 | 30/11/2024": a Spanish
    wholesaler's invoice that keys nothing on a row; an amount under "TOTAL" is a receipt's as often)."""
    index = line_index(doc)
    candidates = generate(doc, index, document_locale(doc), document_date_year(doc))
    kinds = {"identifier": {"invoice_number", "purchase_order"}, "date": {"invoice_date", "due_date"},
             "amount": set(AMOUNT_KEY_LABELS)}
    found: set[str] = set()
    for kind, labels in kinds.items():
        for candidate in candidates[kind]:
            hit = key_left(index, candidate.words, KEY_LABELS) or (
                key_above(index, candidate.words, KEY_LABELS) if kind != "amount" else None)
            if hit is not None:
                found |= hit.labels & labels
    text = [t for p in doc.pages for w in p.words for t in key_tokens(w.text)]
    if "iban" in text:
        found.add("iban")
    return found & INVOICE_KEY_FIELDS


def document_type(doc: Document) -> DocumentType:
    """The document's type and the signals that decided it."""
    tokens = [t for page in doc.pages for w in page.words for t in key_tokens(w.text)]
    words = len(tokens)
    keys = keyed_fields(doc) if words else set()
    invoice_titles = _titles(doc, INVOICE_TITLES)
    credit_titles = _titles(doc, CREDIT_TITLES)
    other_titles = _standalone_titles(doc, NOT_INVOICE_TITLES) if not invoice_titles and not credit_titles else set()
    contract_density = sum(t in CONTRACT_WORDS for t in tokens) / words if words else 0.0
    receipt_words = {t for t in tokens if t in RECEIPT_WORDS}
    self_billed = _self_billed(tokens)
    signals = {"words": words, "keyed_fields": sorted(keys), "invoice_titles": sorted(invoice_titles),
               "credit_titles": sorted(credit_titles), "contract_density": round(contract_density, 4),
               "receipt_words": sorted(receipt_words), "other_titles": sorted(other_titles),
               "self_billed": self_billed}
    amount_keys = keys & AMOUNT_KEY_LABELS
    strong = keys & STRONG_KEY_FIELDS
    titled = bool(invoice_titles or credit_titles)
    invoice_like = len(strong) >= MIN_STRONG_KEYS or titled and bool(strong) or len(keys) >= MIN_INVOICE_KEYS and bool(strong)
    keyed = f"keys before values: {', '.join(sorted(keys))}" if keys else "no invoice key before a value"
    if words >= MIN_CONTRACT_WORDS and contract_density >= MIN_CONTRACT_DENSITY and not invoice_like:
        return DocumentType("contract", (f"contract wording ({contract_density:.1%} of {words} words)", keyed), signals)
    if other_titles:
        return DocumentType("other", (f"title of no invoice: {', '.join(sorted(other_titles))}", keyed), signals)
    if invoice_like and self_billed:
        return DocumentType("invoice", ("self-billed: issued by the buyer", keyed), signals)
    if invoice_like and credit_titles and not _credit_named_in_the_body(doc, credit_titles, invoice_titles):
        return DocumentType("credit_note", (f"title: {', '.join(sorted(credit_titles))}", keyed), signals)
    if invoice_like:
        reasons = (f"title: {', '.join(sorted(invoice_titles))}",) if invoice_titles else ()
        return DocumentType("invoice", (*reasons, keyed), signals)
    amounts = len(generate(doc, line_index(doc), "en_US", None)["amount"]) if words <= MAX_RECEIPT_WORDS else 0
    receipt_like = (amount_keys and (receipt_words or invoice_titles)
                    or len(receipt_words) >= MIN_RECEIPT_WORDS and amounts >= MIN_RECEIPT_AMOUNTS)
    if receipt_like and words <= MAX_RECEIPT_WORDS and not keys & {"invoice_number", "due_date", "iban"}:
        evidence = ", ".join(sorted(receipt_words or invoice_titles))
        return DocumentType("receipt", (f"amounts and receipt words: {evidence}", keyed), signals)
    return DocumentType("other", (keyed, "no invoice, receipt or contract evidence"), signals)


def _credit_named_in_the_body(doc: Document, credit_titles: set[str], invoice_titles: set[str]) -> bool:
    """Whether the credit note's words open only a line of the body that refers to one ("Avoir n° 2024/A-041 du
    15/10/2024 à déduire" on an invoice that deducts it) while an invoice's title stands as one ("FACTURE")."""
    return (bool(invoice_titles) and not _standalone_titles(doc, credit_titles)
            and bool(_standalone_titles(doc, invoice_titles)))


def _self_billed(tokens: list[str]) -> bool:
    """Whether the words say the invoice is self-billed (:data:`SELF_BILLING_PHRASES`)."""
    return any(tuple(tokens[i:i + n]) in _SELF_BILLING for n in (1, 2) for i in range(len(tokens) - n + 1))


def model_document_types(labels: Iterable[str]) -> tuple[str, ...] | None:
    """The document types a model with these entity labels was made for; None: any (a form model, a research
    model without invoice or contract labels)."""
    labels = set(labels)
    if {"invoice_number", "total"} & labels and "vendor_name" in labels or {"company", "total"} <= labels:
        return INVOICE_TYPES
    if {"party", "jurisdiction"} & labels:
        return ("contract",)
    return None
