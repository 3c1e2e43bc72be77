"""What kind of document this is: an invoice, a credit note, a receipt, a contract, or something else.

An invoice model tags the words of whatever it is given: a paper's "Hello World!" becomes a vendor name, a form's
"hallway" a billing address. Before any of its fields can be trusted, the document has to be one the model was
made for. :func:`document_type` decides from the page's own words and layout, in the thirteen languages of
:mod:`docextract.extraction.field_keywords`:

* an invoice proves itself by its *keyed values*: a whole key of an invoice field before a value of that field's
  type (:mod:`docextract.extraction.key_context`: "Invoice No. 4711", "Total 1.190,00", "Rechnungsdatum 05.03.2018",
  "IBAN DE89 ..."), and by a title that names it ("Invoice", "Rechnung", "Facture", "Factuur", "Fattura",
  "Factura", "Tax invoice"); a credit note's title names it so ("Credit note", "Gutschrift", "Avoir", ...). It names
  itself, by such a title, its number's key or an invoice word in another key ("Rechnungsbetrag"): a payslip, a tax
  assessment, a card statement key amounts, dates and an IBAN too, and name no invoice;
* a receipt prints a total and amounts, but no invoice number, due date or bank details, on a short page;
* a contract is prose about parties ("Agreement", "the Parties", "hereby", "shall", "governed by");
* a quotation, order confirmation, delivery note, pro forma, reminder, statement of account, remittance advice or
  purchase order prints an invoice's keys and amounts under its own title ("Quotation", "Angebot", "Devis",
  "Lieferschein", "1. Mahnung", "Statement of Account", "Remittance advice", ...: :data:`NOT_INVOICE_TITLES`), above
  any line that opens with an invoice's title (a reminder lists its invoices under "Rechnungs-Nr."), or keys a
  number of its own and none of an invoice ("N° de devis"), or says it is none (:data:`NOT_AN_INVOICE_SENTENCES`:
  "This is not a VAT invoice"): ``other``;
* anything else is ``other``.

The decision is a few counted signals and fixed thresholds (:data:`MIN_STRONG_KEYS` and the rules in
:func:`document_type`), chosen a priori and measured on documents of every kind the shared data holds
(``benchmarks/document_types.py``). A model declares which types it was made for (:func:`model_document_types`);
a document of another type gets no accepted field (:mod:`docextract.extraction.scoring`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Sequence

from docextract.document import Box, Document, Line, Page, WordRef
from docextract.extraction.candidates import AMOUNT_KEY_LABELS, KEY_LABELS, Candidate, generate
from docextract.extraction.entities import document_date_year, document_locale
from docextract.extraction.field_keywords import (NOT_INVOICE_NUMBER_KEYS, RECEIPT_NUMBER_KEYS, key_tokens, trim_context,
                                                  whole_key_fields)
from docextract.extraction.key_context import (LineIndex, key_above, key_left, line_above, line_index, line_left_of,
                                              line_right_of)

TYPES = ("invoice", "credit_note", "receipt", "contract", "other")
INVOICE_TYPES = ("invoice", "credit_note", "receipt")

# Titles, as whole lines or a line's first words (after key_tokens: accents off, case-folded).
INVOICE_TITLES = (
    "invoice", "tax invoice", "commercial invoice", "invoice receipt", "self billed invoice", "self billing invoice",
    "rechnung", "handelsrechnung", "steuerrechnung", "abschlagsrechnung", "schlussrechnung", "teilrechnung",
    "facture", "note d honoraires", "factuur", "fattura", "factura", "faktura", "bill", "tax invoice receipt",
    "beitragsrechnung", "kostenrechnung", "warenrechnung", "mietrechnung", "rechnung gutschrift",
    "lasku", "fatura", "fatura recibo", "fatura simplificada",
    "faktura vat", "rachunek", "faktura danovy doklad", "danovy doklad", "vyuctovani", "vyuctovani sluzeb",
    "vyuctovani sluzeb danovy doklad", "zalohova faktura",
    # an ERP report's title that names its module first: Business Central's "Verkauf - Rechnung", "Sales - Invoice"
    "verkauf rechnung", "verkaufsrechnung", "sales invoice", "vente facture", "verkoop factuur", "verkoopfactuur",
    # (stop 73) Central, Eastern and Southern Europe, folded as key_tokens folds them ("ΤΙΜΟΛΟΓΙΟ", "ФАКТУРА", "PVM
    # SĄSKAITA FAKTŪRA", "e-Arşiv Fatura", "Factură fiscală")
    "τιμολογιο", "τιμολογιο πωλησησ", "τιμολογιο παροχησ υπηρεσιων", "фактура", "saskaita faktura",
    "pvm saskaita faktura", "e arsiv fatura", "e fatura", "factura fiscala",
    # (stop 74) Korea's, Vietnam's and the Philippines' English titles
    "electronic tax invoice", "vat invoice", "vat e invoice", "service invoice", "commercial invoice",
)
# Titles of an invoice only where they stand as one (the whole line, or before its number): a Dutch bill ("REKENING",
# a school's "SCHOOLREKENING 1"; "Rekening: NL91 ..." opens a bank line), an Italian e-invoice's printed courtesy copy,
# a Spanish bill of a community's or an insurer's dues
STANDALONE_INVOICE_TITLES = ("rekening", "schoolrekening", "copia di cortesia", "recibo de cuotas", "recibo de cuota",
                             "recibo de prima",
                             # words that name an account too ("Račun: HR12 ...", "Bankszámla"): a title only alone
                             "racun", "szamla", "rekins", "pvn rekins", "arve")
CREDIT_TITLES = (
    "credit note", "credit memo", "gutschrift", "rechnungskorrektur", "rechnungs korrektur", "stornorechnung", "avoir",
    "facture d avoir",
    "creditnota", "creditfactuur", "nota di credito", "nota de credito", "factura rectificativa",
    "kreditfaktura", "kreditnota", "hyvityslasku",
    "faktura korygujaca", "korekta", "opravny danovy doklad", "dobropis",
    "td04 nota di credito", "td04",  # a FatturaPA view's document type under "Tipologia documento" (stop 73)
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
    # a pro forma: an invoice's form, for customs or a prepayment, that demands nothing
    "pro forma", "proforma", "pro forma invoice", "proforma invoice", "pro forma rechnung", "proforma rechnung",
    "proformarechnung", "facture pro forma", "facture proforma", "pro forma factuur", "proforma factuur",
    "fattura proforma", "factura proforma",
    # what follows an invoice: a reminder, a statement of the account, the payer's advice, a payment's confirmation
    "reminder", "payment reminder", "final demand", "final reminder", "letter before action",
    "statement of account", "account statement", "customer statement",  # (a US doctor's "Statement" is its bill)
    "remittance advice", "payment advice", "payment confirmation",
    # (stop 74) a bank's contract note of a securities trade, a marketplace's payout statement to its seller
    "borsenabrechnung", "wertschriftenabrechnung", "wertpapierabrechnung", "contract note", "avis d execution",
    "releve de reversement", "payout statement",
    # (stop 74) a factor's purchase statement, an installer's warranty claim form, a till's end-of-day report, a SEPA
    # direct debit's pre-notification of the invoices it collects
    "ankaufsabrechnung", "factoringabrechnung", "garantieclaimformulier", "garantieclaim", "warranty claim",
    "warranty claim form", "z rapport", "z report", "z bericht", "dagsafslutning", "tagesabschluss",
    "kassenabschluss", "vorabinformation", "vorabinformation zum sepa lastschrifteinzug", "pre notification",
    "sepa pre notification",
    "mahnung", "zahlungserinnerung", "kontoauszug", "zahlungsavis", "zahlungsbestatigung",
    "rappel", "relance", "releve de compte", "avis de paiement", "confirmation de paiement",
    "herinnering", "betalingsherinnering", "aanmaning", "rekeninguittreksel", "betalingsbericht",
    "betalingsbevestiging", "bevestiging ontvangst betaling",
    "sollecito", "sollecito di pagamento", "estratto conto", "avviso di pagamento",
    "recordatorio de pago", "extracto de cuenta", "aviso de pago", "justificante de transferencia",
    "transferencia sepa", "transferencia sepa emitida",
    # orders a buyer sends, and a seller's acknowledgement of one
    "purchase order", "sales order", "order acknowledgement", "order acknowledgment", "sales order acknowledgement",
    "bestelbon", "ordine d acquisto",
    # a supplier's account being opened
    "vendor registration", "supplier registration",
    # (stop 70, a second batch) reminders and pro formas in the Nordic and Slavic languages, a hotel's booking
    # confirmation, an instalment plan, a certificate of insurance
    "betalningspaminnelse", "paminnelse", "betalingspamindelse", "rykker", "purring",
    "maksumuistutus", "maksukehotus", "wezwanie do zaplaty", "przedsadowe wezwanie do zaplaty", "upominka",
    "upomienka", "faktura pro forma", "faktura proforma", "proforma faktura", "nota de encomenda",
    "booking confirmation", "reservation confirmation", "varausvahvistus", "bokningsbekraftelse",
    "buchungsbestatigung", "reservierungsbestatigung", "confirmation de reservation", "reserveringsbevestiging",
    "payment plan", "payment plan agreement", "instalment plan", "installment plan", "ratenzahlungsvereinbarung",
    "certificate of currency", "certificate of insurance",
    # (stop 71, read off a third batch) a final notice, a Dutch statement, an Italian professional's notice of fees
    "final notice", "rekeningoverzicht", "overzicht openstaande posten", "avviso di parcella", "preavviso di fattura",
    "preavviso di parcella",
    # a ZUGFeRD MINIMUM or BASIC WL file's view: "Buchungshilfe - KEINE Rechnung Nr. 471102", a booking aid
    "buchungshilfe",
    # (stop 71, read off a fourth batch of no invoice, of kinds the lists had none of) tax assessments, transport
    # documents, bank and card statements, payslips, insurance schedules, expense reports, customs declarations,
    # loan schedules
    "steuerbescheid", "gewerbesteuerbescheid", "grundsteuerbescheid", "einkommensteuerbescheid", "aanslagbiljet",
    "avis d imposition", "notice of assessment", "tax assessment", "bescheid uber gewerbesteuer",
    "bescheid uber grundsteuer", "bescheid uber einkommensteuer", "bescheid uber umsatzsteuer",
    "lettre de voiture", "lettre de voiture internationale", "frachtbrief", "internationaler frachtbrief", "cmr",
    "vrachtbrief", "bill of lading", "consignment note", "carta de porte", "lettera di vettura",
    "rekeningafschrift", "bankafschrift", "bank statement", "card statement", "credit card statement",
    "releve bancaire", "kreditkartenabrechnung", "extracto bancario",
    "entgeltabrechnung", "gehaltsabrechnung", "lohnabrechnung", "verdienstabrechnung", "payslip", "pay slip",
    "bulletin de paie", "bulletin de salaire", "loonstrook", "salarisstrook", "busta paga", "cedolino",
    "recibo de salarios", "conditions particulieres", "policy schedule", "versicherungsschein",
    "expense report", "expense claim", "note de frais", "reisekostenabrechnung", "spesenabrechnung", "nota spese",
    "informe de gastos", "liquidacion de gastos", "customs declaration", "zollanmeldung", "declaration en douane",
    "dichiarazione doganale", "prospetto dichiarazione doganale", "tilgungsplan", "amortisation schedule",
    "amortization schedule", "repayment schedule", "tableau d amortissement", "cuadro de amortizacion",
    "piano di ammortamento", "aflossingsschema",
    # (stop 71, read off a fifth batch, after its first contact) a collection agency's statement of claim, an
    # auditor's balance confirmation, a purchase requisition
    "forderungsaufstellung", "forderungsaufstellung und zahlungsaufforderung", "saldobevestiging",
    "verzoek tot saldobevestiging", "saldenbestatigung", "confirmation de solde", "balance confirmation",
    "purchase requisition",
    # (stop 72, read off a batch of documents that cite an invoice by its own keys) a debt collector's demand, a
    # factoring bank's notice of assignment, a credit insurer's claim, a dispute of an invoice
    "inkassokrav", "abtretungsanzeige", "zessionsanzeige", "schadeaangifte", "melding niet betaling",
    "contestation", "demande d avoir",
    # (stop 72, read off a second such batch after its first contact) an accounts-payable approval slip, a bank's
    # payment guarantee, the e-invoicing exchange's rejection notice
    "attestblad", "betalingsgaranti", "bankgaranti", "payment guarantee", "notifica di scarto",
)
# What a business document that is no invoice says of itself, in a sentence of its own ("This is not a VAT
# invoice. A VAT invoice will be issued on receipt of payment.", "Este documento não serve de fatura", Portugal's
# certified software on every quotation and order; "La presente conferma d'ordine non costituisce fattura"). Only
# sentences about the page itself: an annual gas bill says its instalment notice "ist keine Rechnung im Sinne des UStG"
NOT_AN_INVOICE_SENTENCES = (
    "this is not a vat invoice", "this is not a tax invoice", "this is not an invoice", "this document is not an invoice",
    "this is not a valid tax invoice", "not a vat invoice", "not a tax invoice",
    "dies ist keine rechnung", "dieses dokument ist keine rechnung", "dieses schreiben ist keine rechnung",
    "diese ankaufsabrechnung ist keine rechnung", "diese vorabinformation ist keine rechnung",  # (stop 74)
    "ceci n'est pas une facture", "ce document n'est pas une facture", "ne constitue pas une facture",
    "ce relevé n'est pas une facture", "cet avis n'est pas une facture",  # (stop 74) a marketplace's payout statement
    "ne vaut pas facture", "dit is geen factuur", "dit document is geen factuur", "geldt niet als factuur",
    "dit formulier is geen factuur",
    "non costituisce fattura", "non è una fattura", "non ha valore di fattura",
    "no es una factura", "no constituye factura", "no constituye una factura", "no tiene validez como factura",
    "não serve de fatura", "não é uma fatura", "não constitui fatura",
)
_NOT_AN_INVOICE = tuple(tuple(t for word in sentence.split() for t in key_tokens(word))
                        for sentence in NOT_AN_INVOICE_SENTENCES)
# And what a bill that is titled otherwise says to make itself an invoice: a French insurer's "AVIS D'ÉCHÉANCE" over
# "valant facture", a German "Lieferschein gilt als Rechnung"; read as an invoice's title (none of them is said by a
# page of no invoice, whose sentences say "ne vaut pas facture", "geldt niet als factuur")
AN_INVOICE_SENTENCES = (
    "valant facture", "vaut facture", "tenant lieu de facture", "gilt als rechnung", "dient als rechnung",
    "geldt als factuur", "vale como factura", "vale quale fattura", "valido come fattura", "vale como fatura",
    "serves as an invoice", "serves as a tax invoice", "serves as your tax invoice",
)
_AN_INVOICE = tuple(tuple(t for word in sentence.split() for t in key_tokens(word)) for sentence in AN_INVOICE_SENTENCES)
# Words a reminder or a letter's subject puts before its title ("1. Mahnung", "Deuxième rappel", "Oggetto: sollecito
# di pagamento", "Betreft: bevestiging ontvangst betaling"), as key_tokens gives them
TITLE_ORDINALS = frozenset({"1", "2", "3", "1e", "2e", "3e", "1er", "1re", "2eme", "3eme", "erste", "zweite", "dritte",
                            "letzte", "premier", "premiere", "deuxieme", "troisieme", "dernier", "first", "second",
                            "third", "eerste", "tweede", "derde", "laatste", "primo", "secondo", "terzo", "ultimo",
                            "primer", "segundo", "tercer"})
SUBJECT_KEYS = frozenset({"betreft", "betreff", "oggetto", "objet", "asunto", "subject", "re", "concerne", "onderwerp",
                          "assunto", "amne", "emne", "aihe", "dotyczy", "vec", "vedr", "vedrørende"})
# Words of a line that end its title: "Deuxième rappel – factures impayées", "BETALINGSBERICHT · AVIS DE PAIEMENT"
_TITLE_ENDS = frozenset({"–", "—", "-", "·", "|", "/"})
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
    return {phrase for phrase, _ in _opening_titles(doc, phrases)}


def _opening_titles(doc: Document, phrases: Iterable[str], without_keys: bool = False) -> list[tuple[str, float]]:
    """(phrase, top) of each line of the first two pages that opens with one of ``phrases`` (the second page's tops
    below the first's). ``without_keys``: not a key column's row or a header row's cell ("Fattura n. | 118/2024"
    under "Estremi del documento", the invoice a reminder is about)."""
    wanted = {tuple(key_tokens(p)) for p in phrases}
    found = []
    offset = 0.0
    for page in doc.pages[:2]:
        for line in page.lines:
            texts = [page.words[w].text for w in line.word_indices]
            if len(texts) > 2 and all(len(t) == 1 for t in texts):  # a letter-spaced title: "R E C H N U N G"
                texts = ["".join(texts)]
            tokens = [t for text in texts for t in key_tokens(text)]
            # (not a party's heading: "Bill To", "Invoice to", "Rechnung an")
            opening = [" ".join(tokens[:n]) for n in range(1, min(len(tokens), MAX_TITLE_LINE_TOKENS) + 1)
                       if tuple(tokens[:n]) in wanted and tokens[n:n + 1] not in (["to"], ["an"], ["aan"], ["a"])]
            # (the key cell's test, which looks along the row and down the column, only for a line that opens so)
            if opening and not (without_keys and _a_key_cell(page, line)):
                found.extend((phrase, offset + line.box.top) for phrase in opening)
        offset += page.height
    return found


def _standalone_titles(doc: Document, phrases: Iterable[str]) -> set[str]:
    """Of ``phrases``, those that stand as a title on the first two pages: a whole line, or the first words of a
    short line followed only by a number's sign and the number ("Angebot Nr. 2024-017", "QUOTATION #88")."""
    return {title.phrase for title in _title_lines(doc, phrases)}


@dataclass(frozen=True)
class _Title:
    phrase: str
    top: float  # from the top of the first page, the second page's below it
    numbered: bool  # "Angebot Nr. 2024-017", not a line of its own ("QUOTATION")
    names_an_invoice: bool = False  # "Zahlungserinnerung zur Rechnung Nr. RE-2024-118": about an invoice


def _title_lines(doc: Document, phrases: Iterable[str], led: bool = False) -> list[_Title]:
    """The lines of the first two pages that stand as a title of ``phrases``: the whole line, or its first words
    followed only by a number's sign and the number. ``led``: also after a subject's key or an ordinal ("Betreft:
    bevestiging ontvangst betaling", "1. Mahnung", "Deuxième rappel"), and up to a dash or a dot that ends the title
    ("FINAL DEMAND – overdue account BRL-0092"), with a short tail of numbers and a date after the title words
    ("Kostenvoranschlag Nr. KV-24-0617", "Relevé de compte au 30/06/2024")."""
    wanted = {tuple(key_tokens(p)) for p in phrases}
    found = []
    offset = 0.0
    for page in doc.pages[:2]:
        for line in page.lines:
            texts = [page.words[w].text for w in line.word_indices]
            if not texts or texts[-1].endswith(":"):
                continue
            heads = _title_heads(texts) if led else [texts]
            subject = led and _is_a_subject(texts)
            titles = [title for title in (_title_of(head, wanted, led, subject) for head in heads) if title is not None]
            if titles and not _a_key_cell(page, line) and not _right_of_a_key(page, line):
                # "Bestellung: | B123456789", "Ordine n. | B303954830" in a key column, "Vrachtbrief" in a header row
                # over its number: keys, no titles; nor a key's value ("Votre réf. | Bon de commande 24-0057")
                found.extend(_Title(title[0], offset + line.box.top, title[1], title[2]) for title in titles)
        offset += page.height
    return found


def _title_of(texts: list[str], wanted: set[tuple[str, ...]], led: bool,
              subject: bool = False) -> tuple[str, bool, bool] | None:
    """(phrase, numbered, names an invoice) where ``texts`` stand as a title of ``wanted``, else None. ``subject``: the
    words follow a subject's key, where a title may go on in words ("Assunto: Pedido de emissão de nota de
    crédito")."""
    texts = [text for text in texts if not (text.startswith("(") and text.endswith(")"))]  # "(Zessionsanzeige)"
    tokens = [t for text in texts for t in key_tokens(text)]
    for n in range(1, min(len(tokens), MAX_TITLE_LINE_TOKENS) + 1):
        if tuple(tokens[:n]) not in wanted:
            continue
        rest = tokens[n:]
        numbered = bool(rest) and (rest[0] in _NUMBER_SIGNS or _has_digit(rest[0])) and all(
            _has_digit(token) for token in rest[1:]) and any(_has_digit(token) for token in rest)
        names_an_invoice = led and _names_an_invoice(rest)
        worded = False  # a subject's title that goes on in words
        if led and not numbered and rest and len(rest) <= MAX_TITLE_TAIL_TOKENS:
            numbered = any(_has_digit(token) for token in rest) or names_an_invoice
            worded = subject and not numbered
        elif led and not numbered and names_an_invoice:  # "Rappel : facture n° F-2024-0412 du 15/03/2024 impayée"
            numbered = len(rest) <= MAX_TITLE_TAIL_TOKENS_ABOUT_AN_INVOICE
        # (a key with a colon before its value is no title, "Lieferschein-Nr.: 4711", unless the value is the
        # invoice the document is about: "Rappel : facture n° F-2024-0412 impayée")
        if not rest or worded or numbered and (names_an_invoice or not line_keys_a_value(texts)):
            return " ".join(tokens[:n]), numbered, names_an_invoice
    return None


# An invoice named in a title's tail: the invoice the document is about ("Zahlungserinnerung zur Rechnung Nr.
# RE-2024-118", "Lieferschein zu Rechnung 4711", "Rekeningoverzicht facturen")
_INVOICE_WORDS = frozenset(t for title in ("invoice", "invoices", "rechnung", "rechnungen", "facture", "factures",
                                           "factuur", "facturen", "fattura", "fatture", "factura", "facturas")
                           for t in key_tokens(title))


def _names_an_invoice(tokens: list[str]) -> bool:
    return any(token in _INVOICE_WORDS for token in tokens)


MAX_TITLE_TAIL_TOKENS = 6
MAX_TITLE_TAIL_TOKENS_ABOUT_AN_INVOICE = 10
_INVOICE_TITLE_HEADS = tuple(" ".join(key_tokens(title)) + " " for title in INVOICE_TITLES)
MAX_TITLE_TOP_OF_PAGE = 0.4  # a title of no invoice stands in the first page's top 40 %


def _a_key_cell(page: Page, line: Line) -> bool:
    """Whether a line is a key's cell, not a title: a key column's row or a header row's cell."""
    return _keys_a_value_right_of_it(page, line) or _heads_a_column(page, line)


def _right_of_a_key(page: Page, line: Line) -> bool:
    """Whether the nearest line left of ``line`` on its row is a whole key: ``line`` is its value, no title (a
    lawyer's "Votre réf. | Bon de commande 24-0057" in the key column of its fee note)."""
    left = line_left_of(page.lines, line)
    return left is not None and bool(whole_key_fields([t for w in left.word_indices
                                                       for t in key_tokens(page.words[w].text)]))


def _keys_a_value_right_of_it(page: Page, line: Line) -> bool:
    """Whether the nearest line right of ``line`` on its row opens with a number: a key column's row."""
    right = line_right_of(page.lines, line)
    return right is not None and _has_digit(page.words[right.word_indices[0]].text)


def _heads_a_column(page: Page, line: Line) -> bool:
    """Whether ``line`` is a cell of a header row ("Factuurnr. | Datum | Vrachtbrief" over "2400731 | 08-03-2024 |
    VB-118"): two more lines share its row, and the nearest line under it, overlapping it and aligned with it, opens
    with a number."""
    height = max(line.box.height, 1e-6)
    row = [other for other in page.lines
           if other is not line and other.box.vertical_overlap(line.box) > 0.5 * min(other.box.height, height)]
    if len(row) < MIN_OTHER_HEADER_CELLS:
        return False
    below = [other for other in page.lines if other.box.top >= line.box.bottom - 0.3 * height
             and other.box.top - line.box.bottom <= HEADER_GAP_OF_HEIGHT * height
             and other.box.horizontal_overlap(line.box) > 0]
    if not below:
        return False
    nearest = min(below, key=lambda other: other.box.top)
    return abs(nearest.box.x0 - line.box.x0) <= height and _has_digit(page.words[nearest.word_indices[0]].text)


HEADER_GAP_OF_HEIGHT = 1.5  # a header cell's value stands within this many of its heights under it, aligned
MIN_OTHER_HEADER_CELLS = 2  # a header row has three cells or more (a title may share its row with a date)


def _is_a_subject(texts: list[str]) -> bool:
    """Whether a line opens with a subject's key ("Betreff:", "Objet :")."""
    first = key_tokens(texts[0]) if texts else []
    return bool(first) and first[-1] in SUBJECT_KEYS and (texts[0].endswith(":") or texts[1:2] == [":"])


def _title_heads(texts: list[str]) -> list[list[str]]:
    """A line's words as a title: without a subject's key or an ordinal before it, up to a word that ends it; and
    in a subject's line, each part after such a word that is a whole title ("Re: Invoice INV-3318 – final notice")."""
    subject = _is_a_subject(texts)
    if subject:
        texts = texts[1:] if texts[0].endswith(":") else texts[2:]  # "Betreff: ...", "Objet : ..."
    parts: list[list[str]] = [[]]
    for text in texts:
        if text in _TITLE_ENDS:
            parts.append([])
        else:
            parts[-1].append(text)
    heads = [_without_ordinal(parts[0])]
    if subject:  # (a part after the first only as a whole title, never with a number: "Rechnung 12 – Angebot 7")
        heads += [part for part in map(_without_ordinal, parts[1:])
                  if part and not any(_has_digit(text) for text in part)]
    return heads


def _without_ordinal(texts: list[str]) -> list[str]:
    if texts and key_tokens(texts[0]) and all(t in TITLE_ORDINALS for t in key_tokens(texts[0])):
        return texts[1:]
    return texts


_NUMBER_SIGNS = frozenset({"no", "nr", "n", "number", "nummer", "numero", "num"})


def _has_digit(token: str) -> bool:
    return any(ch.isdigit() for ch in token)


def line_keys_a_value(texts: list[str]) -> bool:
    """Whether a line reads as a key with a colon before its value ("Lieferschein-Nr.: 4711"): no title's."""
    return any(text.endswith(":") or text == ":" for text in texts[:-1])


@dataclass(frozen=True)
class _KeyedValues:
    fields: set[str]  # the invoice fields keyed before a value of their type
    numbers_of_no_invoice: set[str]  # the keys of a number of no invoice before or over a number
    invoice_in_a_key: bool  # some key of them names an invoice ("Rechnungsbetrag", "Invoice date")
    receipt_number: bool = False  # a receipt's number keyed ("Bon-Nr.: 27514"): a receipt's sign, no invoice's


def _keys_before_values(doc: Document) -> _KeyedValues:
    """The invoice fields that a whole key names right before a value of their type, anywhere in the document: on its
    row, or, for a number or date, over it in a header row ("Número | Fecha" over "24/002318 | 30/11/2024": a Spanish
    wholesaler's invoice that keys nothing on a row; an amount under "TOTAL" is a receipt's as often); and, from the
    same pass, the keys of a number of no invoice (:data:`NOT_INVOICE_NUMBER_KEYS`: "N° de devis", "Angebots-Nr.")
    that stand before or over a number, and whether a key of an invoice field names an invoice."""
    index = line_index(doc)
    candidates = generate(doc, index, document_locale(doc), document_date_year(doc))
    kinds = {"identifier": {"invoice_number", "purchase_order"}, "date": {"invoice_date", "due_date"},
             "amount": set(AMOUNT_KEY_LABELS)}
    found: set[str] = set()
    numbers_of_no_invoice: set[str] = set()
    invoice_in_a_key = receipt_number = False
    for kind, labels in kinds.items():
        listed = _over_another_of_their_kind(index, candidates[kind]) if kind != "amount" else set()
        for candidate in candidates[kind]:
            hit = key_left(index, candidate.words, KEY_LABELS)
            if hit is None and kind != "amount" and candidate.words[0] not in listed:
                hit = key_above(index, candidate.words, KEY_LABELS)
            if hit is None:
                continue
            tokens = [t for r in hit.words for t in key_tokens(doc.word(r).text)]
            if kind == "identifier" and " ".join(trim_context(tokens)) in _RECEIPT_NUMBER_KEYS:
                receipt_number = True
                continue
            found |= hit.labels & labels
            invoice_in_a_key |= bool(hit.labels & labels) and any(t.startswith(_INVOICE_STEMS) for t in tokens)
            if kind == "identifier" and "other_number" in hit.labels and " ".join(tokens) in _NOT_INVOICE_NUMBER_KEYS:
                numbers_of_no_invoice.add(" ".join(tokens))
    text = [t for p in doc.pages for w in p.words for t in key_tokens(w.text)]
    if "iban" in text:
        found.add("iban")
    return _KeyedValues(found & INVOICE_KEY_FIELDS, numbers_of_no_invoice, invoice_in_a_key, receipt_number)


def _over_another_of_their_kind(index: LineIndex, candidates: Sequence[Candidate]) -> set[WordRef]:
    """The first words of the values that stand over another value of their kind in their column: the first row of a
    list ("Rechnungs-Nr. | Rechnungsdatum" over four invoices' numbers and dates in a factoring bank's notice, a
    statement, a credit insurer's claim), whose header keys the invoices listed, not the page's own."""
    doc = index.doc
    by_word = {ref: candidate for candidate in candidates for ref in candidate.words}
    listed: set[WordRef] = set()
    for candidate in candidates:
        first = candidate.words[0]
        line = index.line(first)
        if line is None or line.word_indices[0] != first.word_index:
            continue  # (a cell of its own: not "Su pedido nº 4700021893" under the invoice's number)
        found = line_above(index, candidate.words)
        if found is None:
            continue
        above, box = found
        for w in above.word_indices:
            ref = WordRef(first.page_index, w)
            if ref not in by_word or by_word[ref].words[0] != ref:
                continue
            over = Box.enclosing([doc.word(r).box for r in by_word[ref].words])
            if min(abs(over.x0 - box.x0), abs(over.x1 - box.x1)) <= box.height:  # aligned in its column
                listed.add(ref)
    return listed


# A key's word that names an invoice: "Rechnungsbetrag", "Invoice date", "Montant facture", "Factuurbedrag"
_INVOICE_STEMS = ("invoice", "rechnung", "factur", "fattur", "faktur", "lasku", "fatura")


_NOT_INVOICE_NUMBER_KEYS = frozenset(NOT_INVOICE_NUMBER_KEYS)
_RECEIPT_NUMBER_KEYS = frozenset(" ".join(key_tokens(key)) for key in RECEIPT_NUMBER_KEYS)


def document_type(doc: Document) -> DocumentType:
    """The document's type and the signals that decided it."""
    tokens = [t for page in doc.pages for w in page.words for t in key_tokens(w.text)]
    words = len(tokens)
    keyed_values = _keys_before_values(doc) if words else _KeyedValues(set(), set(), False)
    keys = keyed_values.fields
    invoice_titles = _titles(doc, INVOICE_TITLES) | _standalone_titles(doc, STANDALONE_INVOICE_TITLES)
    credit_titles = _titles(doc, CREDIT_TITLES)
    other_titles = _titles_of_no_invoice(doc, keys, keyed_values.numbers_of_no_invoice,
                                         bool(invoice_titles or credit_titles))
    contract_density = sum(t in CONTRACT_WORDS for t in tokens) / words if words else 0.0
    receipt_words = {t for t in tokens if t in RECEIPT_WORDS}
    self_billed = _self_billed(tokens)
    not_an_invoice = _said(tokens, _NOT_AN_INVOICE)
    an_invoice = _said(tokens, _AN_INVOICE)
    signals = {"words": words, "keyed_fields": sorted(keys), "invoice_titles": sorted(invoice_titles),
               "credit_titles": sorted(credit_titles), "contract_density": round(contract_density, 4),
               "receipt_words": sorted(receipt_words), "other_titles": sorted(other_titles),
               "self_billed": self_billed, "says_it_is_no_invoice": bool(not_an_invoice),
               "says_it_is_an_invoice": bool(an_invoice)}
    amount_keys = keys & AMOUNT_KEY_LABELS
    strong = keys & STRONG_KEY_FIELDS
    titled = bool(invoice_titles or credit_titles or an_invoice)
    invoice_like = len(strong) >= MIN_STRONG_KEYS or titled and bool(strong) or len(keys) >= MIN_INVOICE_KEYS and bool(strong)
    # an invoice says it is one: by its title or in a key ("Rechnungsnummer", an insurer's untitled premium bill's
    # "Rechnungsbetrag"); a payslip, a tax assessment, a card statement key amounts, dates and an IBAN as an invoice
    # does, and name no invoice
    invoice_like = invoice_like and (titled or "invoice_number" in keys or keyed_values.invoice_in_a_key or self_billed)
    keyed = f"keys before values: {', '.join(sorted(keys))}" if keys else "no invoice key before a value"
    if words >= MIN_CONTRACT_WORDS and contract_density >= MIN_CONTRACT_DENSITY and not invoice_like:
        return DocumentType("contract", (f"contract wording ({contract_density:.1%} of {words} words)", keyed), signals)
    if other_titles:
        return DocumentType("other", (f"title of no invoice: {', '.join(sorted(other_titles))}", keyed), signals)
    credit_note = invoice_like and bool(credit_titles) and not _credit_named_in_the_body(doc, credit_titles,
                                                                                        invoice_titles)
    # (a credit note is no invoice, and some say so: a Portuguese "Nota de Crédito" under certified software's
    # "Este documento não serve de fatura")
    if not_an_invoice and not credit_note:
        return DocumentType("other", (f"says it is no invoice: {' '.join(not_an_invoice)}", keyed), signals)
    if invoice_like and self_billed:
        return DocumentType("invoice", ("self-billed: issued by the buyer", keyed), signals)
    if credit_note:
        return DocumentType("credit_note", (f"title: {', '.join(sorted(credit_titles))}", keyed), signals)
    if invoice_like:
        reasons = (f"title: {', '.join(sorted(invoice_titles))}",) if invoice_titles else (
            (f"says it is an invoice: {' '.join(an_invoice)}",) if an_invoice else ())
        return DocumentType("invoice", (*reasons, keyed), signals)
    amounts = len(generate(doc, line_index(doc), "en_US", None)["amount"]) if words <= MAX_RECEIPT_WORDS else 0
    # (a receipt's keyed number counts as one more receipt word: a filling station's "Bon-Nr.", a taxi's "Receipt No.")
    receipt_signs = len(receipt_words) + keyed_values.receipt_number
    receipt_like = (amount_keys and (receipt_words or invoice_titles or keyed_values.receipt_number)
                    or receipt_signs >= MIN_RECEIPT_WORDS and amounts >= MIN_RECEIPT_AMOUNTS)
    if receipt_like and words <= MAX_RECEIPT_WORDS and not keys & {"invoice_number", "due_date", "iban"}:
        evidence = ", ".join(sorted(receipt_words or invoice_titles) + ["its number's key"] * keyed_values.receipt_number)
        return DocumentType("receipt", (f"amounts and receipt words: {evidence}", keyed), signals)
    return DocumentType("other", (keyed, "no invoice, receipt or contract evidence"), signals)


def _titles_of_no_invoice(doc: Document, keys: set[str], numbers_of_no_invoice: set[str],
                          invoice_titled: bool) -> set[str]:
    """The titles that say the page is no invoice (:data:`NOT_INVOICE_TITLES`), where they are its title: above any
    line that opens with an invoice's or a credit note's title ("1. Mahnung" over a table headed "Rechnungs-Nr.",
    "Deuxième rappel – factures impayées" over "Facture n°"), or a number of no invoice keyed and none of an
    invoice ("N° de devis | Date" over "D-24-118 | 12/06/2024" under the letterhead, the word "Devis" nowhere else).
    Where some line opens with an invoice's title, a title with a number after it ("Sales order 4500123") is only
    a reference when the page keys an invoice's number too."""
    # (a title heads the first page: not a remittance slip at its foot)
    others = [title for title in _title_lines(doc, NOT_INVOICE_TITLES, led=True)
              if title.top < MAX_TITLE_TOP_OF_PAGE * doc.pages[0].height]
    if invoice_titled and "invoice_number" in keys:
        # (but "Faktura pro forma nr PF 112/11/2024": the invoice's title word is the other title's own)
        # and "Lieferschein zu Rechnung 4711": a title about an invoice names its number)
        others = [title for title in others if not title.numbered or title.names_an_invoice
                  or title.phrase.startswith(_INVOICE_TITLE_HEADS)]
    # (an invoice's keys in a key column or a header row are the invoice a letter is about: "Fattura n. | 118/2024"
    # over "Oggetto: sollecito di pagamento", "Faktura nr. | 20418" beside a "FØLGESEDDEL")
    invoices = [top for _, top in _opening_titles(doc, INVOICE_TITLES + CREDIT_TITLES, without_keys=True)]
    # (on one line, the longer title of no invoice: "Faktura pro forma" opens with an invoice's "Faktura")
    if others and (not invoices or min(t.top for t in others) <= min(invoices)):
        return {title.phrase for title in others}
    if not invoices and "invoice_number" not in keys:
        return numbers_of_no_invoice
    return set()


def _credit_named_in_the_body(doc: Document, credit_titles: set[str], invoice_titles: set[str]) -> bool:
    """Whether the credit note's words open only a line of the body that refers to one ("Avoir n° 2024/A-041 du
    15/10/2024 à déduire" on an invoice that deducts it) while an invoice's title stands as one ("FACTURE") above it
    (not a key's "Rekening" in a refund's block under "Creditfactuur bij factuur NL-KP-2024-5519032")."""
    if not invoice_titles or _standalone_titles(doc, credit_titles):
        return False
    invoice_tops = [title.top for title in _title_lines(doc, invoice_titles)]
    credit_tops = [top for _, top in _opening_titles(doc, credit_titles)]
    return bool(invoice_tops) and (not credit_tops or min(invoice_tops) < min(credit_tops))


def _said(tokens: list[str], sentences: tuple[tuple[str, ...], ...]) -> tuple[str, ...]:
    """The first of ``sentences`` (:data:`NOT_AN_INVOICE_SENTENCES`, :data:`AN_INVOICE_SENTENCES` as key_tokens gives
    them) the words say, () where none."""
    starts = {sentence[0] for sentence in sentences}
    for i, token in enumerate(tokens):
        if token in starts:
            for sentence in sentences:
                if tuple(tokens[i:i + len(sentence)]) == sentence:
                    return sentence
    return ()


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
