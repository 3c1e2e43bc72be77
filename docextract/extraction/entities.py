"""Tags to entities: spans of words, their confidence, and typed, normalised field values.

The model gives every word a tag (BIO or BIESO) and the probability of that tag. This module
turns those into entities (the words of one printed value), picks the best entity per field,
normalises its value by the field's type, and groups line-item cells into rows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any, Callable, Sequence

from docextract.document import Box, Document, TaggedWord, WordRef, join_words  # noqa: F401  (TaggedWord: where it has always been)
from docextract.extraction.identifiers import (
    INVALID_IDENTIFIER_MAX_CONFIDENCE,
    check_bic,
    check_iban,
    check_tax_id,
)
from docextract.extraction.key_context import OCR_TEXT_HEIGHT_OF_INK
from docextract.extraction.locales import document_year, guess_locale, locale_evidence
from docextract.extraction.normalize import (
    BARE_SIGN,
    CURRENCY_SYMBOLS,
    SIGN_FAMILIES,
    bare_sign,
    conventions,
    currencies_in,
    identifier_text,
    named_in_family,
    parse_amount,
    parse_currency,
    parse_date,
    parse_number,
)
from docextract.extraction.per_document import per_document
from docextract.vocabulary import split_tag  # noqa: F401  (where it has always been)

# Field type by label name; every label not listed is a plain string.
FIELD_TYPES = {
    "invoice_date": "date", "due_date": "date", "date": "date", "effective_date": "date",
    "subtotal": "amount", "total_tax": "amount", "total": "amount", "amount_due": "amount",
    "line_item_unit_price": "amount", "line_item_amount": "amount",
    "line_item_quantity": "number",
    "currency": "currency_code",
    "iban": "iban", "bic": "bic",
    "vendor_tax_id": "vat_id", "customer_tax_id": "vat_id",
    "vendor_address": "address", "billing_address": "address", "shipping_address": "address", "address": "address",
}
LINE_ITEM_PREFIX = "line_item_"
IDENTIFIER_FIELDS = ("invoice_number", "purchase_order")  # normalised without a leading "#", "n°", "Nr."


@dataclass(frozen=True)
class Entity:
    label: str
    words: tuple[WordRef, ...]
    confidence: float
    method: str = "model"  # "rule": read from a key the page prints (docextract.extraction.key_values)
    # The joint decoding of one-value fields chose this entity as its label's value (docextract.extraction.fields):
    # it is the field, whatever the confidence of other entities of the label, which become its alternatives.
    assigned: bool = False

    def rank(self) -> tuple[bool, float]:
        """Sort key of the entities of one label, the field's value first: assigned, then most confident."""
        return (not self.assigned, -self.confidence)

    def text(self, doc: Document) -> str:
        """The value as printed: words joined by spaces, lines by newlines; words whose boxes touch with no gap
        (a text layer that breaks "471102" into "4" and "71102" at a font change) joined as they print."""
        lines: list[list[WordRef]] = []
        for ref in self.words:
            if lines and same_line(doc, lines[-1][-1], ref):
                lines[-1].append(ref)
            else:
                lines.append([ref])
        return "\n".join(join_words([doc.word(r) for r in line]) for line in lines)


def same_line(doc: Document, a: WordRef, b: WordRef) -> bool:
    if a.page_index != b.page_index:
        return False
    box_a, box_b = doc.word(a).box, doc.word(b).box
    return box_a.vertical_overlap(box_b) > 0.5 * min(box_a.height, box_b.height)


def decode_entities(tagged: Sequence[TaggedWord]) -> list[Entity]:
    """Spans from BIO or BIESO tags, tolerant of what models really emit.

    An ``I-``/``E-`` tag whose label differs from the open entity continues it when both are document fields
    (the model hesitates between two labels inside one value: "Musterstr./B-vendor_address
    18/I-billing_address DE/I-billing_address 76138 Karlsruhe"), and the span takes the label with the most
    probability over its words; between line-item cells, or without probabilities, it starts a new entity
    (as seqeval's default mode does). No labelled word is ever dropped. Confidence is the mean probability
    of the span's label (the mean tag probability where only tags are known).
    """
    entities: list[Entity] = []
    current: list[tuple[TaggedWord, str]] = []

    def close() -> None:
        nonlocal current
        if current:
            entities.append(_span_entity(current))
        current = []

    for word in tagged:
        prefix, label = split_tag(word.tag)
        if label is None:
            close()
            continue
        open_label = current[-1][1] if current else None
        if prefix in ("B", "S") or (label != open_label and not _continues(word, label, open_label)):
            close()
        current.append((word, label))
        if prefix in ("E", "S"):
            close()
    close()
    return entities


def _continues(word: TaggedWord, label: str, open_label: str | None) -> bool:
    """Whether an I-/E- tag of ``label`` continues an open entity of another label (see decode_entities)."""
    return (open_label is not None and word.label_probabilities is not None
            and not label.startswith(LINE_ITEM_PREFIX) and not open_label.startswith(LINE_ITEM_PREFIX))


def _span_entity(span: list[tuple[TaggedWord, str]]) -> Entity:
    refs = tuple(w.ref for w, _ in span)
    labels = {label for _, label in span}
    if len(labels) == 1:
        return Entity(span[0][1], refs, sum(w.probability for w, _ in span) / len(span))
    mass = {label: sum(w.label_probabilities.get(label, 0.0) for w, _ in span) for label in labels}
    label = max(sorted(labels), key=lambda l: mass[l])
    return Entity(label, refs, mass[label] / len(span))


_OPEN_DIGIT_GROUP = re.compile(r"[-−]?\d{1,3}")  # "333" of "333 890,41", or "890" of "1 890 000,00": more may follow
_DIGIT_GROUP = re.compile(r"\d{3}(?:[.,]\d{1,2})?")  # a following group: "890,41", "890"
GROUP_GAP_OF_HEIGHT = 0.5  # a thousands space is about a quarter of the text height; table columns are far wider


def join_digit_groups(doc: Document, entities: Sequence[Entity], tagged: Sequence[TaggedWord]) -> list[Entity]:
    """Amounts printed with spaces between digit groups ("333 890,41", French style) are several words, and
    the model often starts a new entity (or another label) at the second group, cutting the value. An
    amount entity that ends in a group of 1-3 digits directly followed, on its line and a space's width
    away, by a 3-digit group takes that word (and any further groups) from wherever it was. ``tagged``: every
    word in reading order; an entity whose words change gets the mean tag probability of its new words."""
    order = [w.ref for w in tagged]
    following = dict(zip(order, order[1:]))
    owner = {ref: i for i, e in enumerate(entities) for ref in e.words}
    words = [list(e.words) for e in entities]
    for i, entity in enumerate(entities):
        if FIELD_TYPES.get(entity.label) != "amount":
            continue
        while words[i] and _OPEN_DIGIT_GROUP.fullmatch(doc.word(words[i][-1]).text):
            last = words[i][-1]
            nxt = following.get(last)
            if nxt is None or owner.get(nxt) == i or not continues_digit_group(doc, last, nxt):
                break
            if nxt in owner:
                words[owner[nxt]].remove(nxt)
            words[i].append(nxt)
            owner[nxt] = i
    probability = {w.ref: w.probability for w in tagged}
    return [e if tuple(w) == e.words else Entity(e.label, tuple(w), sum(probability[r] for r in w) / len(w))
            for e, w in zip(entities, words) if w]


def is_open_digit_group(text: str) -> bool:
    """A word that may start a number printed in digit groups: "43" of "43 781,83"."""
    return bool(_OPEN_DIGIT_GROUP.fullmatch(text))


def continues_digit_group(doc: Document, last: WordRef, nxt: WordRef) -> bool:
    """Whether ``nxt`` is the next 3-digit group of the number ``last`` ends, a space's width away on its line."""
    return (bool(_DIGIT_GROUP.fullmatch(doc.word(nxt).text)) and same_line(doc, last, nxt)
            and word_space_apart(doc, last, nxt))


def word_space_apart(doc: Document, left: WordRef, right: WordRef) -> bool:
    """Whether ``right`` starts a word space after ``left`` ends: the gap between a number's digit groups, not a
    column's."""
    a, b = doc.word(left).box, doc.word(right).box
    height = min(a.height, b.height)
    if doc.pages[left.page_index].text_source == "ocr":
        height *= OCR_TEXT_HEIGHT_OF_INK  # Tesseract boxes a digit's ink: "1 221,00 €" read as "1" and "221,00"
    return 0 <= b.x0 - a.x1 <= GROUP_GAP_OF_HEIGHT * height


def page_of(entity: Entity) -> int:
    return entity.words[0].page_index


def entity_box(doc: Document, entity: Entity) -> Box:
    """Union of the entity's word boxes on its first page."""
    page = page_of(entity)
    return Box.enclosing([doc.word(r).box for r in entity.words if r.page_index == page])


_LINE_BREAK_HYPHEN = re.compile(r"(?<=[^\W\d_])-\n(?=[^\W\d_])")
# A speck before a scanned line that Tesseract reads as an opening quote ("‘Apex Solutions Ltd.", "‚Gartenstraße 1212"):
# dropped where nothing closes it on the line (not the apostrophe of "’s-Hertogenbosch")
_OPENING_QUOTE_SPECK = re.compile(r"(?m)^[‘‚`´]+(?![st][- ])(?=\w)(?![^\n]*[’'])")
# A box's left border that OCR read as a bar before a framed block's line ("| Lefèvre Laboratoires S.A.R.L."): dropped
_BORDER_SPECK = re.compile(r"(?m)^[|¦]\s+(?=\w)")
# A country code that OCR glued to its postcode ("DE80333 München" printed "DE 80333 München"): parted again
_GLUED_COUNTRY_POSTCODE = re.compile(r"(?m)^(AT|BE|CH|CZ|DE|DK|ES|FI|FR|IT|LU|NL|NO|PL|PT|SE)(\d{4,5}) (?=[^\W\d])")
# A speck OCR read as a sign after a postcode line's country code or postcode ("DE. 80333 München", "DE: 99199",
# "DE 31157. SARSTEDT"; party_blocks reads such lines as postcode lines): dropped. (Not after "NO": a receipt's
# "NO: 1234 JALAN ..." is a house number's key, printed so.)
_POSTCODE_LINE_SPECK = re.compile(r"(?m)^(AT|BE|CH|CZ|DE|DK|ES|FI|FR|IT|LU|NL|PL|PT|SE)[.:;,](?= \d{4,6} [^\W\d])"
                                  r"|^((?:[A-Z]{2} )?\d{4,6})[.:;,](?= [^\W\d])")
# The dots between a return address's parts as a scan's OCR glues them to its words ("St-", "A»", "»12345"): never part
# of an address. (Not a colon nor a leading hyphen: "NO: 28", "LOT 1851 -A" are printed so, SROIE's truth keeps them.)
_ADDRESS_EDGE_JUNK = re.compile(r"(?<=\S)[-»«+=*°•·]+(?=\s|$)|(?<!\S)[»«+=*°•·]+(?=\S)")
# A colon OCR read after the word before the place's line ("Building A: 12345 Seller City", "Commerce Street: M1 1AA
# Manchester"): never part of an address. (Not after "NO", a house number's key: "NO: 2820 JALAN BUNGA".)
_COLON_BEFORE_PLACE = re.compile(r"(?<=[^\W\d_])(?<!\bNO)(?<!\bNo):(?=\s+(?:[A-Z]{1,2}\d[A-Z\d]? \d[A-Z]{2}\b"
                                 r"|(?:[A-Z]{1,2}[- ])?\d{4,6} [^\W\d]))")
# A street abbreviation whose dot OCR read as a comma before the house number ("Marktstr, 153")
_STREET_ABBREVIATION_COMMA = re.compile(r"(?i)(?<=str),(?= ?\d)")
# A sign alone between an address's parts on one line ("1358 Maple Avenue - Portland, OR 97205", a footer's
# "Street · Postcode City"): a separator, read as the comma it stands for. A dash only before the place's line (a
# postcode first, "D-30159", or a US city with state and ZIP): a range of house numbers ("5 - 7") and a name's own
# dash ("1 UTAMA SHOPPING CENTRE - PHASE 2", as SROIE's truth keeps it) stay
_ADDRESS_PART_SEPARATOR = re.compile(r"(?<=\S) (?:[·•|]|[-–—](?= (?:[A-Z]{1,2}-)?\d{4,6}\b"  # postcode first
                                     r"| [^\W\d][^,\n]*, [A-Z]{2} \d{5}\b))"  # "Portland, OR 97205"
                                     r" (?=\S)")


def normalize_value(label: str, text: str, locale: str, default_currency: str | None = None,
                    default_year: int | None = None) -> tuple[str, Any, dict]:
    """``(type, normalized, extra)`` for an entity of ``label`` printed as ``text``; normalized None if unparsable.

    ``default_year``: the year of the document's dates, for dates printed without one. Identifiers get
    ``valid`` (and ``id_scheme``, ``invalid_reason``) from :mod:`docextract.extraction.identifiers`; a tax id
    without a country prefix is checked against the tax ids of the locale's country.
    """
    kind = FIELD_TYPES.get(label, "string")
    extra: dict[str, Any] = {}
    if kind == "date":
        parsed = parse_date(text, locale, default_year)
        return kind, parsed.isoformat() if parsed else None, {"normalization": {"locale": locale}}
    # a bare "$" on a document whose currency is another dollar ("Amount Due (CAD)") is that dollar; "kr" a crown
    sign = bare_sign(text)
    sign_currency = default_currency if sign and default_currency in SIGN_FAMILIES[sign] - {sign} else None
    if kind == "amount":
        money = parse_amount(text, locale, default_currency)
        if money and sign_currency:
            money = replace(money, currency=sign_currency)
        return kind, money.to_dict() if money else None, {"normalization": {"locale": locale}}
    if kind == "number":
        number = parse_number(text, locale)
        return kind, str(number) if number is not None else None, extra
    if kind == "currency_code":
        # (or a sign alone that reads as one only before an amount: the rand's "R")
        return kind, sign_currency or parse_currency(text) or CURRENCY_SYMBOLS.get(text.strip()), extra
    if kind in ("iban", "bic", "vat_id"):
        country = locale.split("_")[1] if "_" in locale else None
        checked = check_iban(text) if kind == "iban" else check_bic(text) if kind == "bic" else check_tax_id(text, country)
        return kind, checked.normalized, checked.extra()
    if label in IDENTIFIER_FIELDS:
        return kind, identifier_text(text) or None, extra
    # a word the line broke at its hyphen is one word again ("SEPA-" | "Lastschriftmandat")
    text = _BORDER_SPECK.sub("", _OPENING_QUOTE_SPECK.sub("", _LINE_BREAK_HYPHEN.sub("-", text)))
    if kind == "address":
        text = _ADDRESS_EDGE_JUNK.sub("", _ADDRESS_PART_SEPARATOR.sub(", ", text))
        text = _GLUED_COUNTRY_POSTCODE.sub(r"\1 \2 ", text)
        text = _POSTCODE_LINE_SPECK.sub(lambda m: m.group(1) or m.group(2), text)
        text = _STREET_ABBREVIATION_COMMA.sub(".", _COLON_BEFORE_PLACE.sub("", text))
    # a comma or semicolon that ends the words is the line's, not the value's ("TripNest Travel B.V.," of
    # "TripNest Travel B.V., Herengracht 500, ...")
    return kind, " ".join(text.split()).rstrip(",;"), extra


def field_object(doc: Document, entity: Entity, locale: str, token_ids: dict[WordRef, str],
                 default_currency: str | None = None, calibration: Callable[[float], float] | None = None,
                 default_year: int | None = None) -> dict[str, Any]:
    """The output schema's field object for one entity (see docextract/schemas/output.schema.json).

    With a field ``calibration`` (:mod:`docextract.extraction.confidence`) ``confidence`` is the calibrated
    probability that the value is right and ``raw_confidence`` the entity's mean tag probability. An
    identifier that fails its check never has a confidence above
    :data:`~docextract.extraction.identifiers.INVALID_IDENTIFIER_MAX_CONFIDENCE`.
    """
    text = entity.text(doc)
    kind, normalized, extra = normalize_value(entity.label, text, locale, default_currency, default_year)
    page = doc.pages[page_of(entity)]
    box = entity_box(doc, entity)
    confidence = entity.confidence if calibration is None else calibration(entity.confidence)
    if extra.get("valid") is False:
        confidence = min(confidence, INVALID_IDENTIFIER_MAX_CONFIDENCE)
    field = {
        "type": kind,
        "value": text,
        "normalized": normalized,
        "confidence": round(confidence, 4),
        **({} if calibration is None else {"raw_confidence": round(entity.confidence, 4)}),
        "page": page.number,
        "bbox": [round(v, 4) for v in box.normalized(page.width, page.height)],
        "source_tokens": [token_ids[r] for r in entity.words],
        "method": entity.method,
    }
    regions = _regions(doc, entity)
    if len(regions) > 1:
        field["regions"] = regions
    field.update(extra)
    return field


def _regions(doc: Document, entity: Entity) -> list[dict[str, Any]]:
    pages = sorted({r.page_index for r in entity.words})
    regions = []
    for p in pages:
        page = doc.pages[p]
        box = Box.enclosing([doc.word(r).box for r in entity.words if r.page_index == p])
        regions.append({"page": page.number, "bbox": [round(v, 4) for v in box.normalized(page.width, page.height)]})
    return regions


DOCUMENT_TEXT_WORDS = 2000  # the first words in reading order: enough evidence, bounded work on long documents


@per_document
def _document_text(doc: Document) -> str:
    return " ".join(doc.word(r).text for r in doc.ordered_words()[:DOCUMENT_TEXT_WORDS])


@per_document
def document_locale(doc: Document) -> str:
    """The locale the document is written in (:func:`docextract.extraction.locales.guess_locale`)."""
    return guess_locale(_document_text(doc))


@per_document
def document_sign_currencies(doc: Document) -> dict[str, str]:
    """What the bare signs several currencies print are on this document, where not the currency they read as alone
    ({"USD": "CAD"} for a "$" beside "Amount Due (CAD)", {"SEK": "DKK"} for a Danish bill's "kr."): the other member of
    the sign's family the document names by its code (:func:`docextract.extraction.normalize.named_in_family`), else,
    where it names no code of the sign's own, its locale's own currency (an Argentine factura's "$ 181.500,00", an
    Australian tax invoice's "$12.00")."""
    text = _document_text(doc)
    own = conventions(document_locale(doc)).currencies
    named_codes = set(currencies_in(BARE_SIGN.sub(" ", text)))
    out = {}
    for sign, family in SIGN_FAMILIES.items():
        if named := named_in_family(text, sign):
            out[sign] = named
        elif own and own[0] in family - {sign} and sign not in named_codes:  # ("US$" names USD: in named_codes)
            out[sign] = own[0]
    return out


def document_printed_currency(doc: Document) -> str | None:
    """The currency printed most often anywhere on the document (symbols and ISO codes as tokens of their own)."""
    return locale_evidence(_document_text(doc)).currency


@per_document
def document_date_year(doc: Document) -> int | None:
    """The year of the dates the document prints in full: the year of a date printed without one."""
    return document_year(_document_text(doc))


def group_line_items(doc: Document, entities: Sequence[Entity]) -> list[list[Entity]]:
    """Line-item cells grouped into rows, in reading order, rows kept together across lines and pages.

    A row is anchored on each ``line_item_amount`` cell (or, if a document has none, on each
    description): cells whose vertical extent overlaps the anchor's line on the same page join its
    row; cells left over (a description continued on the next line) join the nearest row above
    them on the same page, or the last row of the previous page. Cells of the same column in a row
    are merged into one entity.
    """
    cells = [e for e in entities if e.label.startswith(LINE_ITEM_PREFIX)]
    if not cells:
        return []
    anchor_label = "line_item_amount" if any(c.label == "line_item_amount" for c in cells) else cells[0].label
    anchors = sorted((c for c in cells if c.label == anchor_label), key=lambda c: (page_of(c), entity_box(doc, c).top))
    rows: list[list[Entity]] = [[a] for a in anchors]
    anchor_places = [(entity_box(doc, a), page_of(a)) for a in anchors]  # rows[i][0] is anchors[i]
    for cell in cells:
        if cell.label == anchor_label:
            continue
        box, page = entity_box(doc, cell), page_of(cell)
        best, best_key = None, None
        for i, (a_box, a_page) in enumerate(anchor_places):
            if a_page == page and a_box.vertical_overlap(box) > 0:
                best = i
                break
            # otherwise: the closest anchor above (same page) or on an earlier page
            if (a_page, a_box.top) <= (page, box.top):
                key = (a_page, a_box.top)
                if best_key is None or key > best_key:
                    best, best_key = i, key
        if best is None:
            best = 0
        rows[best].append(cell)
    return [_merge_same_label(row) for row in rows]


def _merge_same_label(row: list[Entity]) -> list[Entity]:
    """One entity per column of a row: a description broken over lines becomes one value again."""
    merged: dict[str, list[Entity]] = {}
    for cell in row:
        merged.setdefault(cell.label, []).append(cell)
    out = []
    for label, parts in merged.items():
        words = tuple(w for part in parts for w in part.words)
        confidence = sum(p.confidence * len(p.words) for p in parts) / len(words)
        out.append(Entity(label, words, confidence))
    return out
