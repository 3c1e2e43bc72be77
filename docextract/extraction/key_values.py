"""Fields the model left empty, read from the key the page prints before them.

A model tags words by the layouts it learned; on a producer's layout it never saw, it may tag nothing for a
field whose key the page prints plainly ("Invoice Number:" and below it "INV-2023-EASY-001"), or stop a date
after its first word ("October" of "October 1, 2023"). Every invoice tool prints such keys, in every
language (:mod:`docextract.extraction.field_keywords`), so two repairs hold across producers:

* :func:`complete_dates`: a date entity that does not parse takes the next words of its line until it does;
  :func:`complete_ibans`: an IBAN entity cut after a group of four takes the rest of its printed groups;
  :func:`complete_party_names`: a vendor or customer name cut before its legal form ("GmbH") takes it;
  :func:`complete_addresses`: an address cut at the end of its street line takes the postcode + city line below.
* :func:`key_value_entities`: a field the model gave no entity at all gets one (``method: "rule"``) where a
  line starts with a *whole* key of that field and of no other ("Delivery Date:" is not an invoice date's
  key: "date" is, but "delivery" stands before it), followed by a value of the field's shape: the rest of
  the line, else the line right of it on the same row, else the next line in reading order. Shapes: a date
  that parses (up to :data:`MAX_DATE_WORDS` words), an amount that parses, an identifier with a digit
  (one word), and for ``iban`` any IBAN on the page whose check digits hold; a vendor or customer name from the
  party's labelled block ("Verkäufer" over "Name: Lieferant GmbH", :mod:`docextract.extraction.party_blocks`).
  :func:`complete_payment_terms`: terms cut to their number take the sentence of their cell, continued on the lines
  stacked under it; terms under a heading of their own are read from there (:mod:`terms_section`).

A rule entity's confidence is the model's own mean probability of that label over its words: usually low,
so such a field stays under review until its evidence (:mod:`docextract.extraction.evidence`: its key, its
checks) says otherwise. A field the model did tag is never replaced here, except by a party's block and by terms
under their heading.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Iterator, Mapping, Sequence

from docextract.document import Box, Document, WordRef
from docextract.extraction.candidates import (CANDIDATE_KINDS, KEY_LABELS, SUM_ROW_FIELDS,
                                             amount_before_another_of_its_key, generate, in_item_row,
                                             one_rate_amounts, with_party_sides)
from docextract.extraction.entities import FIELD_TYPES, LINE_ITEM_PREFIX, Entity, same_line
from docextract.extraction.evidence import NAME_JOINERS, PARTY_NAME_LABELS, odd_shape
from docextract.extraction.field_keywords import (DEBIT_WORDS, closing_keys, is_legal_form, key_form, key_tokens,
                                                  names_the_buyers_order, trim_context, whole_key_fields)
from docextract.extraction.identifiers import check_iban, check_tax_id, is_vat_number, misshapen
from docextract.extraction.key_context import (KeyHit, LineIndex, cell_around, cell_break, cells_keying, first_cell,
                                              in_a_totals_strip, is_separator, is_title_word, key_above, key_left,
                                              line_above, line_index, line_of, line_right_of, whole_key,
                                              words_left_on_row)
from docextract.extraction.normalize import (ISO_CURRENCIES, MAX_DATE_WORDS, is_currency_word, parse_currency,
                                             parse_date, parse_number)
from docextract.extraction.party_blocks import (ADDRESS_OF_SIDE, MIN_HEADING_NAME_CHARACTERS, SALUTATIONS,
                                               SHIPPING_SIDE, STACKED_GAP_OF_HEIGHT, addressed, block_extents,
                                               company_over, compact_words, dated, ends_with_postcode, headed_by,
                                               heads_its_block, is_postcode_line, is_salutation, labels_side_by_side,
                                               name_over,
                                               named_block_address, only_title, party_fields, side_at,
                                               trading_as_fields, under, window_envelope_fields, window_recipient)
from docextract.extraction.per_document import per_document
from docextract.extraction.terms_section import MAX_TERMS_WORDS, continued, terms_under_heading

# The fields read from a key, by the value shape they take. Names and addresses are not: their extent
# (where a name ends, how many lines an address has) is what the model is for.
DATE_LABELS = ("invoice_date", "due_date")
AMOUNT_LABELS = ("subtotal", "total_tax", "total", "amount_due")
IDENTIFIER_LABELS = ("invoice_number", "purchase_order")
CUSTOMER_LABELS = frozenset({"customer_name"})
# the seller's tax id: read from its key only where its check digits hold (for the page's country where it is
# printed without a prefix: "CIF: B12345674") and outside the buyer's and the delivery's blocks
TAX_ID_LABELS = ("vendor_tax_id",)
MAX_KEY_WORDS = 6  # a key is a short label, not a sentence
MAX_IBAN_WORDS = 9  # an IBAN printed in groups of four: "DE89 3704 0044 0532 0130 00"
MIN_IDENTIFIER_CHARACTERS = 3
LETTERHEAD_OF_BODY = 1.3  # a letterhead's name is printed at least this many times the body's line height
_IBAN_GROUP = re.compile(r"(?=[A-Z]*\d)[A-Z0-9]{1,4}")  # one printed group of an IBAN, with a digit
MAX_IBAN_CHARACTERS = 34
MAX_NAME_WORDS_BEFORE_START = 2  # words of its line's first cell a party's name may take before where the model began
MAX_NAME_WORDS_BEFORE_FORM = 2  # "Kaffeehaus" of "Auftraggeber" + "Kaffeehaus GmbH"  # the longest IBAN (ISO 13616)
ADDRESS_LABELS = ("vendor_address", "billing_address", "shipping_address")
BLOCK_LABELS = (*ADDRESS_OF_SIDE, *ADDRESS_OF_SIDE.values())  # what party_fields reads
# free text a model may spill onto a party block (a seller's name in its block read as a line item's description)
SPILLED_LABELS = ("shipping_address", "payment_terms", "line_item_description")
SENTENCE_LABELS = ("payment_terms",)  # fields whose value is a sentence, which may name another field's value
_IBAN_SHAPE = re.compile(r"[A-Z]{2}\d{2}[A-Z0-9]{11,30}")  # country, check digits, 11-30 characters of account
_COUNTRY_AND_CHECK_DIGITS = re.compile(r"[:;]?[A-Z0-9]{4}")  # an IBAN's first printed group, maybe with a colon
_YEAR_SHOWN = re.compile(r"\d{4}|\d{1,2}\s*[./-]\s*\d{1,2}\s*[./-]\s*\d{2}")  # a year, or a numeric date with one

LabelProbabilities = Mapping[WordRef, Mapping[str, float]]


def complete_dates(doc: Document, entities: Sequence[Entity], locale: str, year: int | None) -> list[Entity]:
    """``entities`` with each date entity that does not parse, or shows no year ("October 1,"), extended by the
    next words of its line: the longest extension that parses (at most :data:`MAX_DATE_WORDS` words in all);
    left as it is when none does."""
    out = list(entities)
    for i, entity in enumerate(out):
        text = entity.text(doc)
        if FIELD_TYPES.get(entity.label) != "date" or (
                parse_date(text, locale, year) is not None and _YEAR_SHOWN.search(text)):
            continue
        last = entity.words[-1]
        line = _line_words(doc, last)
        following = line[line.index(last) + 1:] if last in line else []
        for extra in range(min(MAX_DATE_WORDS - len(entity.words), len(following)), 0, -1):
            longer = replace(entity, words=entity.words + tuple(following[:extra]))
            text = longer.text(doc)
            if parse_date(text, locale, year) is not None and not odd_shape(entity.label, "date", text):
                out[i] = longer
                break
    return out


def complete_ibans(doc: Document, entities: Sequence[Entity]) -> list[Entity]:
    """``entities`` with each IBAN entity that stops inside its printed groups extended by the rest of them:
    when its last word is a full group of four and its check digits do not hold, the next words of its line
    that are groups of one to four capitals and digits with a digit ("00" of "DE12 1234 4321 9876 00"), up to
    :data:`MAX_IBAN_CHARACTERS` in all. A key or a BIC after it ("BIC:", "WELADED1") is no such group."""
    out = list(entities)
    for i, entity in enumerate(out):
        if entity.label != "iban":
            continue
        # (run-on cut again once the country's group is back: "CZ67 0300 ... 3102" | "20240418", the variable
        # symbol in the next column, read on by a model that had left "CZ67" out)
        entity = out[i] = _iban_printed_again(doc, _iban_around(doc, _iban_without_run_on(
            doc, _iban_with_country_before(doc, _iban_without_run_on(doc, entity)))))
        if len(doc.word(entity.words[-1]).text) != 4:
            continue
        compact = "".join(doc.word(r).text for r in entity.words)
        if check_iban(compact).valid:
            continue
        last = entity.words[-1]
        line = _line_words(doc, last)
        extra: list[WordRef] = []
        for ref in line[line.index(last) + 1:] if last in line else []:
            text = doc.word(ref).text
            if not _IBAN_GROUP.fullmatch(text) or len(compact) + len(text) > MAX_IBAN_CHARACTERS:
                break
            compact += text
            extra.append(ref)
            if len(text) < 4:  # a short group ends an IBAN
                break
        if extra:
            out[i] = replace(entity, words=entity.words + tuple(extra))
    return out


def _iban_around(doc: Document, entity: Entity) -> Entity:
    """``entity`` (an IBAN whose check digits do not hold) as the run of words of its line around it that is a valid
    IBAN, where one is: a model read "4567 89", the end of "NL02 ABNA 0123 4567 89" inside a payment sentence."""
    if check_iban(entity.text(doc)).valid:
        return entity
    line = _line_words(doc, entity.words[0])
    if entity.words[0] not in line or entity.words[-1] not in line:
        return entity
    first, last = line.index(entity.words[0]), line.index(entity.words[-1])
    for start in range(first, max(-1, first - MAX_IBAN_WORDS), -1):
        for end in range(last + 1, min(len(line), start + MAX_IBAN_WORDS) + 1):
            if check_iban(" ".join(doc.word(r).text for r in line[start:end])).valid:
                return replace(entity, words=tuple(line[start:end]))
    return entity


def _iban_without_run_on(doc: Document, entity: Entity) -> Entity:
    """``entity`` cut after the longest run of its first words that is a valid IBAN, where all its words are not: a
    model that read on from the IBAN into the next line ("DE08 7009 0100 1234 5678 90" | "700 901 00", the bank
    code under it on a scan)."""
    words = entity.words
    if len(words) < 2 or check_iban(entity.text(doc)).valid:
        return entity
    for n in range(len(words) - 1, 0, -1):
        if check_iban(" ".join(doc.word(r).text for r in words[:n])).valid:
            return replace(entity, words=words[:n])
    return entity


def _iban_with_country_before(doc: Document, entity: Entity) -> Entity:
    """``entity`` with the word before it on its line where the model left out the IBAN's first group (its country
    and check digits) and that group reads as one: ":DEI2" before "12344321 9876 00", OCR having glued the key's
    colon to it and read a 1 as I."""
    first = entity.words[0]
    if re.match(r"[A-Z]{2}", _compact(doc.word(first).text)):
        return entity
    line = _line_words(doc, first)
    at = line.index(first) if first in line else 0
    if at == 0 or not _COUNTRY_AND_CHECK_DIGITS.fullmatch(doc.word(line[at - 1]).text):
        return entity
    words = (line[at - 1], *entity.words)
    return replace(entity, words=words) if _iban_shaped(" ".join(doc.word(r).text for r in words)) else entity


def complete_party_names(doc: Document, entities: Sequence[Entity],
                         word_probability: Mapping[WordRef, float] | None = None) -> list[Entity]:
    """``entities`` with each vendor or customer name that stops before its legal form extended to it: the
    next words of its line up to and including a run of legal-form words ("GmbH", "& Co. KG", "Ltd."), with at
    most :data:`MAX_NAME_WORDS_BEFORE_FORM` other words before the run ("Metallbau" + "Leipzig GmbH & Co.
    KG"). A name is rarely printed without its legal form, and the model often stops one word short of it. A name
    that starts one or two words into the first cell of its line takes them where they are name words too ("MVM" of
    "MVM Musterhafter": :func:`_name_start`). A party's name on a bank-details line is the bank's, and dropped. A name
    cut to some of its words gets their mean tag probability (``word_probability``: each word's, None keeps it)."""
    # ("Sparkasse KölnBonn · IBAN DE89 ...", which a model on a layout never seen read as the vendor's name at 0.995;
    # "Domiciliation bancaire : CRÉDIT AGRICOLE CENTRE-EST", whose "AGRICOLE" one read as the customer's at 0.46 and
    # so kept the unheaded window label beside the letterhead from being the customer)
    out = [e for e in entities
           if not (e.label in PARTY_NAME_LABELS and (_on_bank_details_line(doc, e) or _only_a_key(doc, e)))]
    for i, read in enumerate(out):
        if read.label not in PARTY_NAME_LABELS:
            continue
        entity = _without_owner_key(doc, _name_end(doc, _letterhead_name(doc, _name_start(
            doc, _name_after_salutation(doc, _without_own_key_line(doc, _without_smaller_line(
                doc, _without_line_after_legal_form(doc, _name_printed_twice(doc, _name_in_one_cell(
                    doc, _without_address_line(doc, _company_over_attention_line(
                        doc, _name_read_on_elsewhere(doc, read)))))))))))))
        if word_probability is not None and set(entity.words) < set(read.words):
            entity = replace(entity, confidence=sum(word_probability[r] for r in entity.words) / len(entity.words))
        out[i] = entity
        last = entity.words[-1]
        line = _line_words(doc, last)
        following = line[line.index(last) + 1:] if last in line else []
        end = 0  # how many following words the name takes
        for n, ref in enumerate(following[:MAX_NAME_WORDS_BEFORE_FORM + 4], 1):
            if doc.word(ref).text in PART_SEPARATORS:
                break  # a legal line's next part: "Bureau Confort Distribution – SARL au capital de 50 000 €"
            if _legal_form_word(doc.word(ref).text) or key_form(doc.word(ref).text) in ORGANISATION_WORDS:
                end = n  # (an association's word ends its name as a legal form does: "... Designers Association")
            elif end or n > MAX_NAME_WORDS_BEFORE_FORM:
                break
        if end:
            out[i] = replace(entity, words=entity.words + tuple(following[:end]))
    return out


# The words that end the name of an association or a foundation, which has no legal form of a company's
ORGANISATION_WORDS = frozenset({"association", "society", "foundation", "institute", "federation", "verein",
                                "verband", "stiftung", "vereniging", "stichting", "federatie", "fondation",
                                "associazione", "fondazione", "asociacion", "fundacion"})
# (not "bank" or "banque": a bank's own invoice prints its name, "Deutsche Bank AG", as the vendor's)
_BANK_KEYS = frozenset({"iban", "bic", "swift", "blz", "domiciliation", "bancaire", "bancaires", "bankverbindung"})
FOOTER_SHARE = 0.15  # a page's footer: the lowest share of its height
MAX_FOOTER_NAME_WORDS = 4  # words of a company's name before its legal form at the start of a footer's line


def footer_company_name(doc: Document) -> tuple[WordRef, ...]:
    """The company name that opens a line of the first page's footer: up to :data:`MAX_FOOTER_NAME_WORDS` words
    without a digit or a key, then its legal form ("Maison Nordique France SAS au capital de ...", "bol.com b.v. ·
    Papendorpseweg 100"); not on a bank details line (the bank's "Commerzbank AG · IBAN ..."). () where none does."""
    page = doc.pages[0]
    for line in sorted(page.lines, key=lambda line: line.box.top):
        if line.box.top < (1 - FOOTER_SHARE) * page.height:
            continue
        words = [WordRef(0, w) for w in line.word_indices]
        if _bank_details_beside(doc, words, words[0]):
            continue
        for n, ref in enumerate(words[:MAX_FOOTER_NAME_WORDS + 1]):
            text = doc.word(ref).text
            if n and _legal_form_word(text.rstrip(",;")):
                return tuple(words[:n + 1])
            tokens = key_tokens(text)
            if not tokens or any(ch.isdigit() for ch in text) or text.endswith(":") or closing_keys(tokens)[0]:
                break
    return ()


def payee_name(doc: Document) -> tuple[WordRef, ...]:
    """The company a page says to pay ("Make checks payable to Summit Events Group LLC, PO Box 1180, ..."): the words
    after "payable to" up to its legal form, at most :data:`MAX_FOOTER_NAME_WORDS` words and no digit. () where none."""
    for p, page in enumerate(doc.pages):
        for line in page.lines:
            words = [WordRef(p, w) for w in line.word_indices]
            texts = [doc.word(r).text.lower().rstrip(":") for r in words]
            start = next((i + 2 for i in range(len(texts) - 2) if texts[i:i + 2] == ["payable", "to"]), None)
            if start is None:
                continue
            for n, ref in enumerate(words[start:start + MAX_FOOTER_NAME_WORDS + 1]):
                text = doc.word(ref).text
                if n and _legal_form_word(text.rstrip(",;.")) and text.lower() not in NAME_JOINERS:
                    return tuple(words[start:start + n + 1])
                if any(ch.isdigit() for ch in text) or text.endswith((",", ";", ":")):
                    break
    return ()


def _only_a_key(doc: Document, entity: Entity) -> bool:
    """Whether a party's name is a whole key of some field and nothing else ("Votre référence" of a key column)."""
    hit = whole_key(doc, entity.words)
    return hit is not None and hit.words == entity.words


def _on_bank_details_line(doc: Document, entity: Entity) -> bool:
    """Whether the entity's line prints bank details (an IBAN, BIC or SWIFT key), or is a bank's name right over the
    line that opens with them ("Société Générale Lyon Cordeliers" over "IBAN : FR76 ...", under "Règlement par
    virement bancaire"), no key of its own on it."""
    words = _line_words(doc, entity.words[0])
    if entity.words[0] in words and _bank_details_beside(doc, words, entity.words[0]):
        return True
    line = line_of(doc, entity.words[0])
    if line is None or any(doc.word(r).text.endswith(":") for r in words):
        return False
    p = entity.words[0].page_index
    below = [other for other in doc.pages[p].lines
             if other is not line and under(doc, p, line, other, STACKED_GAP_OF_HEIGHT)
             and abs(other.box.x0 - line.box.x0) <= line.box.height]
    return any(_prints_bank_details(doc, [WordRef(p, other.word_indices[0])]) for other in below)


def _prints_bank_details(doc: Document, words: Sequence[WordRef]) -> bool:
    return any(set(key_tokens(doc.word(r).text)) & _BANK_KEYS for r in words)


# The signs a footer's line sets between its parts ("RailNed Reizigers B.V. · Croeselaan 321 · ... · IBAN NL54 ...")
PART_SEPARATORS = frozenset({"·", "|", "•", "–", "-", "—"})


def _bank_details_beside(doc: Document, words: Sequence[WordRef], ref: WordRef) -> bool:
    """Whether a line's part that holds ``ref``, or a part next to it, prints bank details: "Bankverbindung: Sparkasse
    KölnBonn", "Sparkasse KölnBonn · IBAN DE89 ...", not a company's name that opens a legal line whose fifth part is
    its IBAN."""
    parts: list[list[WordRef]] = [[]]
    for r in words:
        if doc.word(r).text in PART_SEPARATORS:
            parts.append([])
        else:
            parts[-1].append(r)
    at = next((i for i, part in enumerate(parts) if ref in part), None)
    if at is None:
        return _prints_bank_details(doc, words)
    return any(_prints_bank_details(doc, part) for part in parts[max(0, at - 1):at + 2])


def _letterhead_name(doc: Document, entity: Entity) -> Entity:
    """``entity`` (the vendor's name) with the rest of its cell where it starts a line printed larger than the page's
    body (:data:`LETTERHEAD_OF_BODY`) and stops inside it, each word after it a name word: a letterhead's
    "Fietsenmakerij De Spaak", which a model cut to "Fietsenmakerij"."""
    first, last = entity.words[0], entity.words[-1]
    line = line_of(doc, first)
    if entity.label != "vendor_name" or line is None or line.word_indices[0] != first.word_index:
        return entity
    heights = sorted(other.box.height for other in doc.pages[first.page_index].lines)
    if line.box.height < LETTERHEAD_OF_BODY * heights[len(heights) // 2]:
        return entity  # printed no larger than the page's body
    words = _line_words(doc, first)
    if last not in words:
        return entity
    height = max(line.box.height, 1e-6)
    following: list[WordRef] = []
    rest = words[words.index(last):]
    for n, (before, ref) in enumerate(zip(rest, rest[1:]), 2):
        if cell_break(doc, before, ref, height):
            break
        if _name_word(doc.word(ref).text):
            following.append(ref)
        elif not (doc.word(ref).text in NAME_PARTICLES and n < len(rest) and _name_word(doc.word(rest[n]).text)
                  and not cell_break(doc, ref, rest[n], height)):
            break
        else:
            following.append(ref)  # "du" of "Les Saveurs du Quercy", a name word after it
    return replace(entity, words=entity.words + tuple(following)) if following else entity


# Lower-case words inside a name, between two of its words: "Les Saveurs du Quercy", "Huis van Oranje"
NAME_PARTICLES = frozenset({"du", "de", "des", "la", "le", "les", "d'", "van", "von", "der", "den", "di", "da", "del",
                            "della", "dos", "das", "y", "et", "und", "and", "&"})


# Words that open a contact's line under a company's name: "v/ Ole Hansen" (Norwegian, Danish: ved), "c/o", "Att.:"
# (a line's first word, lower case, "." and ":" off)
CONTACT_OPENINGS = frozenset({"v/", "c/o", "att", "attn", "fao", "t.a.v"})


def _company_over_attention_line(doc: Document, entity: Entity) -> Entity:
    """``entity`` (the customer's name) read on an attention line ("Attn: Ellen Marsh, General Counsel", "t.a.v.
    Femke de Graaf") replaced by the company name right over it, the company the contact works for ("Brookside
    Manufacturing Co."); as it is where no such name is there."""
    line = _line_words(doc, entity.words[0])
    if entity.label != "customer_name" or not line or doc.word(line[0]).text.lower().rstrip(".:") not in CONTACT_OPENINGS:
        return entity
    company = company_over(doc, line[0])
    return replace(entity, words=company) if company else entity


def _without_address_line(doc: Document, entity: Entity) -> Entity:
    """``entity`` (a party's name over more than one line) cut before the first later line that starts the address or
    names a contact: a house number ("Maria Fernandes" | "Rua das Flores, 22,", also where the model's span ended
    right before the number: the word after it in its cell) or "v/", "c/o", "Att." ("Hansen Bygg AS" | "v/ Ole
    Hansen"), which a model read on into. A line whose part in the name ends with a legal form is the name's
    ("ExpressColis SAS - 9 rue du Fret")."""
    for n, (before, ref) in enumerate(zip(entity.words, entity.words[1:]), 1):
        if same_line(doc, before, ref):
            continue
        own = [r for r in entity.words[n:] if same_line(doc, ref, r)]
        texts = [doc.word(r).text for r in own]
        line = _line_words(doc, own[-1])
        after = line[line.index(own[-1]) + 1:][:1] if own[-1] in line else []
        if after and (is_legal_form(texts[-1].rstrip(",")) or cell_break(
                doc, own[-1], after[0], max(doc.word(own[-1]).box.height, 1e-6))):
            after = []
        if any(ch.isdigit() for text in texts + [doc.word(r).text for r in after] for ch in text) or (
                texts[0].lower().rstrip(".:") in CONTACT_OPENINGS):
            return replace(entity, words=entity.words[:n])
    return entity


def _name_in_one_cell(doc: Document, entity: Entity) -> Entity:
    """``entity`` (a party's name) cut at the first wide gap inside one of its lines (:func:`cell_break`): the title a
    letterhead prints on the name's row ("Fjellsport AS" ... "FAKTURA"), which a model read on into."""
    for n, (before, ref) in enumerate(zip(entity.words, entity.words[1:]), 1):
        height = max(doc.word(before).box.height, 1e-6)
        if same_line(doc, before, ref) and cell_break(doc, before, ref, height):
            return replace(entity, words=entity.words[:n])
    return entity


def _name_read_on_elsewhere(doc: Document, entity: Entity) -> Entity:
    """``entity`` (a party's name over two lines) as its second line alone where that line does not continue the
    first under it but stands above it or in another column: a tagline under a logo ("drukwerk & uitgeefdiensten")
    that a model read on into the company block at the page's top right ("Drukkerij Vanhove BV")."""
    first = line_of(doc, entity.words[0])
    rest = [r for r in entity.words if not same_line(doc, entity.words[0], r)]
    second = line_of(doc, rest[0]) if rest else None
    if first is None or second is None or any(not same_line(doc, rest[0], r) for r in rest):
        return entity
    above = second.box.bottom <= first.box.top
    elsewhere = second.box.horizontal_overlap(first.box) <= 0 and second.box.vertical_overlap(first.box) <= 0
    return replace(entity, words=tuple(rest)) if above or elsewhere else entity


def _without_smaller_line(doc: Document, entity: Entity) -> Entity:
    """``entity`` (a party's name over two lines) as its first line alone where the next line is printed much smaller:
    a letterhead's "Les Saveurs de Marthe" over "Traiteur - 4 place du Marché", whose first word a model read on."""
    first = line_of(doc, entity.words[0])
    if first is None:
        return entity
    on_first = tuple(r for r in entity.words if line_of(doc, r) is first)
    rest = [r for r in entity.words if r not in on_first]
    if not rest or not on_first:
        return entity
    smaller = max(doc.word(r).box.height for r in rest)
    return replace(entity, words=on_first) if first.box.height >= LETTERHEAD_OF_BODY * smaller else entity


def _without_line_after_legal_form(doc: Document, entity: Entity) -> Entity:
    """``entity`` (a party's name over two lines) as its first line alone where that line ends in a legal form and the
    next holds other words: a letterhead's "Rheintal Elektrotechnik Anstalt" over its trades "Elektroinstallationen ·
    Telematik", which a model read on (a legal form ends a company's name; "... GmbH & Co." over "KG" goes on)."""
    first = line_of(doc, entity.words[0])
    on_first = tuple(r for r in entity.words if line_of(doc, r) is first)
    rest = entity.words[len(on_first):]
    if first is None or not rest or entity.words[:len(on_first)] != on_first:
        return entity
    last = doc.word(on_first[-1]).text.rstrip(",")
    if not is_legal_form(last) or all(_legal_form_word(doc.word(r).text) for r in rest):
        return entity
    return replace(entity, words=on_first)


def _name_printed_twice(doc: Document, entity: Entity) -> Entity:
    """``entity`` (a party's name over two lines) as its second line alone where that line starts with the first: a
    logo's "ExpressColis" over the letterhead's "ExpressColis SAS - 9 rue du Fret", which a model read as one name."""
    first_line = [r for r in entity.words if same_line(doc, entity.words[0], r)]
    rest = entity.words[len(first_line):]
    if not rest or entity.words[:len(first_line)] != tuple(first_line) or any(not same_line(doc, rest[0], r) for r in rest):
        return entity
    head = compact_words(doc, first_line)
    return replace(entity, words=tuple(rest)) if compact_words(doc, rest).startswith(head) else entity


def _name_end(doc: Document, entity: Entity) -> Entity:
    """``entity`` (a party's name) cut after a legal form that a comma ends, where more words follow on its line: a
    letterhead's line "TripNest Travel B.V., Herengracht 500, 1017 CB Amsterdam" names the company up to its form."""
    for n, ref in enumerate(entity.words[:-1]):
        text = doc.word(ref).text
        if text.endswith(",") and is_legal_form(text.rstrip(",")) and same_line(doc, ref, entity.words[n + 1]):
            return replace(entity, words=entity.words[:n + 1])
    return entity


def _without_own_key_line(doc: Document, entity: Entity) -> Entity:
    """``entity`` (a party's name over more than one line) without a first line that is only a key of its own field:
    "Spett.le" (Italian: "to the esteemed") over "Bianchi Costruzioni S.p.A.", "Bill to" over the name."""
    first_line = [r for r in entity.words if same_line(doc, entity.words[0], r)]
    if len(first_line) == len(entity.words):
        return entity
    if entity.label not in whole_key_fields([t for r in first_line for t in key_tokens(doc.word(r).text)]):
        return entity
    return replace(entity, words=tuple(r for r in entity.words if r not in first_line))


# Words that say whose business a sole trader's name is ("Inh. Kemal Demir" under "Fliesen Demir"): a key, not a name
_OWNER_KEYS = frozenset({"inh", "inhaber", "inhaberin", "owner", "proprietor", "prop", "eigenaar", "titulaire"})


def _without_owner_key(doc: Document, entity: Entity) -> Entity:
    """``entity`` (a party's name) without an owner's key before the name ("Inh." of "Inh. Kemal Demir")."""
    words = list(entity.words)
    while len(words) > 1 and doc.word(words[0]).text.strip(".:").casefold() in _OWNER_KEYS:
        words.pop(0)
    return entity if len(words) == len(entity.words) else replace(entity, words=tuple(words))


def _name_after_salutation(doc: Document, entity: Entity) -> Entity:
    """``entity`` (a party's name) that is only a salutation ("Mr" of "Mr John Smith") with the name words after it in
    its line's cell; other names as they are."""
    if not is_salutation(doc, entity.words):
        return entity
    last = entity.words[-1]
    line = _line_words(doc, last)
    following = line[line.index(last) + 1:] if last in line else []
    height = max(doc.word(last).box.height, 1e-6)
    taken: list[WordRef] = []
    for before, ref in zip([last, *following], following):
        if cell_break(doc, before, ref, height) or not _name_word(doc.word(ref).text):
            break
        taken.append(ref)
    return replace(entity, words=entity.words + tuple(taken)) if taken else entity


def _name_start(doc: Document, entity: Entity) -> Entity:
    """``entity`` (a party's name) with the words before it in its line's first cell, when there are at most
    :data:`MAX_NAME_WORDS_BEFORE_START` and each is a name word: capitalised, no digit, no key or title word, no
    salutation, not ending in a colon ("MVM" of "MVM Musterhafter"; not "Verkäufer:", "Herrn", "Rechnung"). A name
    that is only a legal form ("b.v." of "bol.com b.v.") takes them lower-case too: a form alone names no one."""
    first = entity.words[0]
    line = _line_words(doc, first)
    if first not in line:
        return entity
    before = line[:line.index(first)]
    only_form = all(_legal_form_word(doc.word(r).text.rstrip(",")) for r in entity.words)
    if not before or len(before) > MAX_NAME_WORDS_BEFORE_START or any(
            not _name_word(doc.word(r).text, any_case=only_form) for r in before):
        return entity
    height = max(doc.word(first).box.height, 1e-6)
    if any(cell_break(doc, a, b, height) for a, b in zip(before, [*before[1:], first])):
        return entity  # a key or another column's words left of the name
    return replace(entity, words=tuple(before) + entity.words)


def _name_word(text: str, any_case: bool = False) -> bool:
    text = text.strip()
    tokens = key_tokens(text.replace("-", ""))  # one word, hyphenated or not ("Méca-Alsace")
    return (bool(text) and (any_case or text[0].isupper()) and not any(ch.isdigit() for ch in text)
            and not text.endswith(":")
            and (len(tokens) == 1 or any_case and bool(tokens)) and not closing_keys(tokens)[0]
            and not is_title_word(tokens[0])
            and (tokens[0],) not in SALUTATIONS)


def complete_addresses(doc: Document, entities: Sequence[Entity]) -> list[Entity]:
    """``entities`` with each address that ends its street line extended by the line right below it
    ("Lieferantenstraße 20" + "80333 München"; "Bahnhof Strasse 1" + "AT 1234 Muster Ort"): the model often stops
    at the line break, or starts a second entity of the same label there. The rest of its last line is
    taken where the whole line is a city + postcode line (:func:`_with_postcode_after`). The line below (:func:`_line_below`)
    is taken when it starts an entity of the same label (merged in), or when it is a postcode + city line (it
    starts with a postcode and is short: :func:`~docextract.extraction.party_blocks.is_postcode_line`) whose
    words are in no entity of another label."""
    out = list(entities)
    owner = {ref: i for i, e in enumerate(out) for ref in e.words}
    dropped: set[int] = set()
    for i, entity in enumerate(out):
        if entity.label not in ADDRESS_LABELS or i in dropped:
            continue
        entity = out[i] = _with_postcode_after(doc, entity, owner)
        below = _line_below(doc, entity.words[-1])
        if not below or below[0] in entity.words:
            continue
        others = {owner[r] for r in below if r in owner}
        if i in others or any(j in dropped or out[j].label != entity.label for j in others):
            continue  # the line below holds another field's value
        if len(others) == 1 and out[next(iter(others))].words[0] == below[0]:  # it starts an entity of this label
            j = others.pop()
            dropped.add(j)
            out[i] = replace(entity, words=entity.words + out[j].words)
        elif all(set(out[j].words) <= set(below) for j in others) and is_postcode_line(doc, below):
            dropped |= others  # "1234" of "AT 1234 Muster Ort" tagged alone: the whole line is the address's
            out[i] = replace(entity, words=entity.words + tuple(below))
    return [e for i, e in enumerate(out) if i not in dropped]


def _with_postcode_after(doc: Document, entity: Entity, owner: Mapping[WordRef, int]) -> Entity:
    """``entity`` (an address) with the rest of its last line where that line, whole, is a city and postcode line
    and the rest is no other entity's: the model stops before a postal code it rarely saw ("Montréal (Québec)" of
    "Montréal (Québec) H3A 1H6")."""
    line = _line_words(doc, entity.words[-1])
    rest = line[line.index(entity.words[-1]) + 1:] if line else []
    if not rest or any(r in owner for r in rest):
        return entity
    last_line = [r for r in line if r in entity.words] + rest
    return replace(entity, words=entity.words + tuple(rest)) if ends_with_postcode(doc, last_line) else entity


# A date alone on a line ("2023-12-17", "17.12.2023"): never an address's line. The model takes one in where a
# header's date stands beside the address block's first line (gen-invoice's "Date:" left of the vendor's street).
_DATE_LINE = re.compile(r"\d{1,4}[./-]\d{1,2}[./-]\d{1,4}[.,]?")


def addresses_without_date_lines(doc: Document, entities: Sequence[Entity]) -> list[Entity]:
    """``entities`` with each address's first and last lines that are a date alone dropped (an address of dates only
    is no address)."""
    out = []
    for entity in entities:
        if entity.label in ADDRESS_LABELS:
            lines: list[list[WordRef]] = []
            for ref in entity.words:
                if lines and line_of(doc, ref) is line_of(doc, lines[-1][-1]) is not None:
                    lines[-1].append(ref)
                else:
                    lines.append([ref])
            dated = [bool(_DATE_LINE.fullmatch("".join(doc.word(r).text for r in line))) for line in lines]
            first = next((n for n, date in enumerate(dated) if not date), len(lines))
            last = len(lines) - next((n for n, date in enumerate(reversed(dated)) if not date), len(lines))
            if first >= last:
                continue
            if (first, last) != (0, len(lines)):
                entity = replace(entity, words=tuple(ref for line in lines[first:last] for ref in line))
        out.append(entity)
    return out


def complete_payment_terms(doc: Document, entities: Sequence[Entity]) -> list[Entity]:
    """``entities`` with each payment-terms value that the model cut to a phrase ("30", "within 30 days") extended
    to the sentence its line prints in that cell ("Please pay the given amount within 30 days from invoice
    date."): the words of its line between cell gaps, after any key of the terms ("Payment terms:"). Terms are
    a sentence, and the model, taught on synthetic terms, often tags only their number. A cell of more than
    :data:`MAX_TERMS_WORDS` words is a paragraph, left as tagged."""
    out = list(entities)
    for i, entity in enumerate(out):
        if entity.label != "payment_terms" or len({r.page_index for r in entity.words}) != 1:
            continue
        line = _line_words(doc, entity.words[0])
        if not line or any(r not in line for r in entity.words):
            continue
        height = max(doc.word(entity.words[0]).box.height, 1e-6)
        cell = cell_around(doc, line, line.index(entity.words[0]), line.index(entity.words[-1]), height)
        key = set(cell[:_terms_key_length(doc, cell)])
        cell = [ref for ref in cell if ref not in key]
        words = {ref for ref in entity.words if ref not in key}  # a key the model took in ("Balance due: Net 14")
        if not cell or not words or len(cell) > MAX_TERMS_WORDS or not words <= set(cell):
            continue
        out[i] = replace(entity, words=continued(doc, tuple(cell)))
    return out


# Keys of other fields that a page prints before its terms too, with a colon ("Balance due: Net 14", "Due: within 30
# days"); without one they are the terms' own words ("Due within 30 days")
_TERMS_KEY_FIELDS_WITH_COLON = frozenset({"due_date", "amount_due"})


def _terms_key_length(doc: Document, cell: Sequence[WordRef]) -> int:
    """How many words at the start of ``cell`` are a key the payment terms stand after ("Payment terms:", or another
    field's key with a colon), and its separators."""
    tokens: list[str] = []
    length = 0
    for n, ref in enumerate(cell[:MAX_KEY_WORDS], 1):
        tokens += key_tokens(doc.word(ref).text)
        keys, key_length = closing_keys(tokens)
        if key_length != len(trim_context(tokens)):
            continue
        colon = doc.word(ref).text.endswith(":") or (n < len(cell) and doc.word(cell[n]).text == ":")
        if "payment_terms" in keys or (keys & _TERMS_KEY_FIELDS_WITH_COLON and colon):
            length = n
    while length < len(cell) and is_separator(doc.word(cell[length]).text):
        length += 1
    return length


def _line_below(doc: Document, last: WordRef) -> list[WordRef]:
    """The words of the line right below ``last``'s line, when ``last`` ends its line: the nearest line that starts
    under it (its top from half a line height above the line's bottom to one line height below it) at the same left
    edge (within one line height) or centred on it (within half a line height). Blocks are not required to agree: a
    layout pass often makes each short address line a block."""
    line = line_of(doc, last)
    if line is None or line.word_indices[-1] != last.word_index:
        return []
    height = line.box.height
    # under the line: flush left with it, or centred on it (a letterhead's address lines)
    below = [l for l in doc.pages[last.page_index].lines
             if 0 <= l.box.top - line.box.bottom + height / 2 <= height * 1.5 and (
                 abs(l.box.x0 - line.box.x0) <= height or abs(l.box.center[0] - line.box.center[0]) <= height / 2)]
    if not below:
        return []
    nearest = min(below, key=lambda l: l.box.top)
    return [WordRef(last.page_index, w) for w in nearest.word_indices]


def _legal_form_word(text: str) -> bool:
    return text.strip() == "&" or is_legal_form(text)


def _ends_in_a_legal_form(doc: Document, name: Sequence[WordRef]) -> bool:
    """Whether a name's last word is a legal form ("ATELIERS MERCADIER SAS"): a company's, not a person's."""
    return _legal_form_word(doc.word(name[-1]).text.rstrip(",;."))


def key_value_entities(doc: Document, entities: Sequence[Entity], labels: Sequence[str],
                       label_probabilities: LabelProbabilities, locale: str, year: int | None) -> list[Entity]:
    """Rule entities for the ``labels`` (the model's) that no usable entity has (see the module docstring). A
    model entity that is unusable (a date or amount that does not parse, an identifier without a digit: "-",
    "E") gives way to a rule entity of its label and is dropped; usable ones are never touched."""
    # (the buyer's account a direct debit takes the amount from is no iban field, a title no party's name: dropped,
    # not only unusable)
    # (nor the customer's name after its key a seller's: a remittance slip's "Customer: | Saltwater Kitchen & Bar Pty
    # Ltd", which a model on a layout never seen read as the vendor)
    entities = [e for e in entities if not (e.label == "iban" and debited_account(doc, e.words)
                                            or e.label in PARTY_NAME_LABELS and only_title(doc, e.words)
                                            or e.label == "vendor_name" and _keyed_as_the_customers(doc, e))]
    # (and an invoice number the model read right after another number's key, "4471 2093" of "Account number: 4471 2093
    # 8821": it gives way to a value of its own key where one is printed, and stands where none is)
    unusable = {id(e) for e in entities if not _usable(doc, e, locale, year)
                or e.label == "invoice_number" and _keyed_as_another_field(doc, e)}
    # the tagger's tax ids that fail their check give way to a VAT number whose check digits hold after its own key
    # ("N° TVA intracommunautaire : FR75 812946739" beside the tagger's "12 45 78 90" of a telephone number)
    unusable |= _unchecked_tax_ids(doc, [e for e in entities if id(e) not in unusable], labels, locale, year)
    usable = {e.label for e in entities if id(e) not in unusable}
    wanted = [label for label in (*DATE_LABELS, *AMOUNT_LABELS, *IDENTIFIER_LABELS, *TAX_ID_LABELS, "iban") if label in labels
              and label not in usable]
    # (the model's tax id stays an owner even where unusable: "222" of a block's "August-Spindler-Strasse 222", which a
    # model on a scan read as the VAT id, goes to the block's address)
    taken = {r: e for e in entities if e.label not in wanted or e.label in TAX_ID_LABELS for r in e.words}
    decided = {e.label for e in entities if e.assigned}
    found: dict[str, Entity] = {}
    relabelled: set[int] = set()
    trimmed: dict[int, Entity] = {}  # model entities a keyed value took a stray line from, without it
    if wanted:
        for label, words in _keyed_candidates(doc, wanted, locale, year):
            if label in found or label == "iban" and debited_account(doc, words):
                continue
            # (a sentence's words are another field's value too: a legal footer line "Gemeindewerke Buchtal · MWST-Nr.
            # CHE-402.047.204 MWST · Einwendungen ...", which a model read as the payment terms, holds the VAT number)
            owners = {id(taken[r]): taken[r] for r in words if r in taken and taken[r].label not in SENTENCE_LABELS}
            strays = {key for key, owner in owners.items() if not _may_take(doc, label, owner, words, decided)
                      and _stray_line(doc, owner, words)}
            if all(_may_take(doc, label, owner, words, decided) or key in strays for key, owner in owners.items()):
                found[label] = Entity(label, words, mean_probability(words, label, label_probabilities), "rule")
                relabelled |= set(owners) - strays
                trimmed.update({key: replace(owners[key], words=tuple(r for r in owners[key].words if r not in words))
                                for key in strays})
    if "vendor_tax_id" in wanted and "vendor_tax_id" not in found:
        # no key the rules read names the seller's VAT number (a scan's OCR read "USt-IdNr." as "UStdNr."): the one
        # VAT number the page prints whose check digits hold, outside the buyer's block
        words = _only_vat_number(doc, locale, year)
        if words and not any(r in taken and id(taken[r]) not in unusable for r in words):
            found["vendor_tax_id"] = Entity("vendor_tax_id", words,
                                            mean_probability(words, "vendor_tax_id", label_probabilities), "rule")
    if "iban" in wanted and "iban" not in found:
        # words an entity of another label holds are not free, unless that entity cannot be right: a model on a scan
        # tags the IBAN beside "IBAN:" as a second VAT id, which gives way to it. A payment sentence holds the account
        # it names ("Gelieve te betalen op BE71 0961 ... met ..."): its words stay the terms' and are the IBAN's too
        words = _first_iban(doc, {r for r, owner in taken.items() if id(owner) not in unusable
                                  and owner.label not in SENTENCE_LABELS})
        if words:
            found["iban"] = Entity("iban", words, mean_probability(words, "iban", label_probabilities), "rule")
            relabelled |= {id(taken[r]) for r in words if r in taken and taken[r].label not in SENTENCE_LABELS}
    # a party's name and address from its labelled block, over the model's: on a layout never seen the model takes
    # a footer's address or the other party's name as readily, and a block under a heading that names the side
    # says whose they are. The model's entities of the party fields on the block's words give way to it.
    block_labels = [label for label in BLOCK_LABELS if label in labels]
    parties = party_fields(doc, block_labels)
    if "customer_name" in parties and "billing_address" in block_labels and "billing_address" not in parties:
        # a heading's person alone, no address under it (a hotel folio's "Client" over its guest), where the window
        # holds a company's label with its address (the guest's employer, billed): the window's is the customer
        recipient = window_recipient(doc)
        name = recipient.get("customer_name", ())
        # (not a block another heading gives: "From" over the seller's "CloudDrop, LLC" beside "Bill to")
        if "billing_address" in recipient and name and not set(name) & {r for words in parties.values() for r in words} \
                and side_at(block_extents(doc), doc, name[0]) in (None, "customer_name") and _ends_in_a_legal_form(doc, name):
            parties.update({label: words for label, words in recipient.items() if label in block_labels})
    # where no heading names the parties, a window-envelope letter's return address and recipient block; its first
    # part is often a person ("Sandra Keller · Commerce Dr 1 · ..."), so the model's own vendor name stands
    model_named_vendor = any(e.label == "vendor_name" for e in entities)
    # (the tagger's vendor is its most confident reading: "Brightwell Dental Practice" beside "Customer" on Xero's
    # payment slip is one of its readings too)
    model_vendor = min((e for e in entities if e.label == "vendor_name"), key=Entity.rank, default=None)
    for label, words in window_envelope_fields(doc).items():
        if label in block_labels and label not in parties and not (label == "vendor_name" and model_named_vendor):
            parties[label] = words
    # a sole trader's "NAME trading as: BUSINESS" and the business's address under it, outside the customer's block
    trading = trading_as_fields(doc)
    extents = block_extents(doc) if trading else []
    for label, words in trading.items():
        if label in block_labels and label not in parties and side_at(extents, doc, words[0]) in (None, "vendor_name"):
            parties[label] = words
    # no block gave the vendor's address: a block that prints the vendor's name again over its address does
    vendor = parties.get("vendor_name") or next((e.words for e in entities if e.label == "vendor_name"), ())
    if "vendor_address" in block_labels and "vendor_address" not in parties and vendor:
        address = named_block_address(doc, vendor, "vendor_name")
        if address and not set(address) & {r for words in parties.values() for r in words}:
            parties["vendor_address"] = address
    # no heading and no return line named the customer: the vendor's label and another beside it on the same row
    # ("From | To" boxes without headings), or else the address label in a letter's envelope window
    if "customer_name" in block_labels and "customer_name" not in parties:
        beside = {label: words for label, words in labels_side_by_side(doc, vendor).items()
                  if label in block_labels and label not in parties}
        if not {r for words in beside.values() for r in words} & {r for words in parties.values() for r in words}:
            parties.update(beside)
    # (the window's label where it is not the vendor's name and the tagger's customer, if any, stands inside it:
    # "Lemaire" of "Lemaire Communication", "Müller" of the contact "Herr Urs Müller" under "Müller Treuhand GmbH")
    if "customer_name" in block_labels and "customer_name" not in parties:
        recipient = window_recipient(doc)
        vendor_names = {compact_words(doc, words) for words in (
            parties.get("vendor_name", ()), model_vendor.words if model_vendor else ())}
        # (the tagger's customer that spells the vendor's name or the label's own is none elsewhere: Xero's payment
        # slip "To: Pixel & Pine Ltd" and "Customer | Brightwell Dental Practice")
        spelled = vendor_names | {compact_words(doc, recipient.get("customer_name", ()))}
        # (nor one that stands in the vendor's own block: a vet's name under the clinic's letterhead, a Belgian
        # seller's register line "RPM Liège, division Namur"; nor words without a capital, "porte" of a sentence)
        # (a reading that holds the vendor's logo word spells its name too: "Studio Gletscherblau GmbH" of a QR-bill's
        # "Zahlbar an" beside the logo "gletscherblau")
        readings = [e for e in entities if e.label == "customer_name" and compact_words(doc, e.words)
                    not in spelled and not any(len(name) >= MIN_HEADING_NAME_CHARACTERS and name in compact_words(
                        doc, e.words) for name in vendor_names) and not _keyed_as_another_field(doc, e)
                    and not headed_by(doc, e.words[0], vendor_names - {""})
                    and any(doc.word(r).text[:1].isupper() for r in e.words) and not _on_a_dated_line(doc, e)]
        tagged = [set(e.words) for e in readings]
        # (where the tagger's customers stand elsewhere too, the label still stands if it heads its block and one of
        # them is on its name line, "Bakker" of "Fam. Bakker" beside "Keizersgracht" of the project line below, or a
        # salutation opens it, "M. et Mme Rousseau" where the tagger read the pet "Filou"; not inside a block: a
        # scan's band may cut between "Beispiel GmbH" and its contact "Frau Anna Schmidt")
        # (its name no part of the vendor's: a letterhead's second name line in the window's band is the sender's;
        # unless a salutation opens it, "Mevrouw S. Jansen", which the model took for the vendor's name)
        label_name = recipient.get("customer_name", ())
        # (or the tagger's most confident reading is the contact under a company's name in the label, "Herrn
        # Jan-Hendrik Wohlers" under "Zimmerei Wohlers GmbH", where it read a salesperson elsewhere too)
        best = min(readings, key=Entity.rank, default=None)
        contact = best is not None and bool(label_name) and _inside_label(doc, set(best.words), recipient) and (
            _ends_in_a_legal_form(doc, label_name))
        inside = bool(recipient) and (contact or _inside_label(doc, {r for words in tagged for r in words}, recipient) or (
            heads_its_block(doc, label_name) and (any(words & set(label_name) for words in tagged)
                                                   or addressed(doc, label_name))))
        if inside and (addressed(doc, label_name) or not any(
                compact_words(doc, label_name) in name for name in vendor_names)):
            parties.update({label: words for label, words in recipient.items() if label in block_labels})
    # no heading, return line or model named the vendor (but the customer's name): the company that opens the
    # footer's legal line does ("Apple Distribution International Ltd., Hollyhill Industrial Estate, ..."), or the
    # name that heads the block of the seller's tax id ("Hotel Lakeview Residency" over its street and "GSTIN: ...")
    customer_words = set(parties.get("customer_name", ()))
    if "vendor_name" in block_labels and "vendor_name" not in parties and not any(
            e.label == "vendor_name" and not set(e.words) <= customer_words
            and not odd_shape("vendor_name", "string", e.text(doc)) for e in entities):
        # (the customer's name: its block's where one gave it, which overrides the model's)
        customers = {compact_words(doc, words) for words in ([parties["customer_name"]] if "customer_name" in parties
                                                            else [e.words for e in entities if e.label == "customer_name"])}
        tax_ids = sorted((e for e in [*entities, *found.values()] if e.label == "vendor_tax_id"), key=Entity.rank)
        for name in (footer_company_name(doc), name_over(doc, tax_ids[0].words[0]) if tax_ids else ()):
            if name and compact_words(doc, name) not in customers:
                parties["vendor_name"] = name
                break
    # the tagger's vendor no company (a conference's "SUMMIT 2024" of its title) where the page says which company to
    # pay: that company
    if "vendor_name" in block_labels and "vendor_name" not in parties:
        payee = payee_name(doc) if model_vendor is not None and not any(
            _legal_form_word(doc.word(r).text.rstrip(",;.")) for r in model_vendor.words) else ()
        if payee and compact_words(doc, payee) != compact_words(doc, parties.get("customer_name", ())):
            parties["vendor_name"] = payee
    # (a block's name that is a key is none: NAV's salesperson "Vendeur | Sandrine Molina" read as the seller's heading
    # over its key column's "Votre référence")
    parties = {label: words for label, words in parties.items()
               if label not in PARTY_NAME_LABELS or not _only_a_key(doc, Entity(label, tuple(words), 0.0))}
    block_words = {r for words in parties.values() for r in words}
    for label, words in parties.items():
        owners = {id(taken[r]): taken[r] for r in words if r in taken}
        if all(_block_may_take(owner, block_words, decided) or id(owner) in unusable for owner in owners.values()):
            found[label] = Entity(label, words, mean_probability(words, label, label_probabilities), "block")
            relabelled |= set(owners)
    # payment terms under a heading of their own, over the model's (which, on a layout never seen, reads the line
    # items or a tax note there); words the terms share with a date of another field stay that field's too
    if "payment_terms" in labels:
        terms = terms_under_heading(doc)
        if terms:
            found["payment_terms"] = Entity("payment_terms", terms,
                                            mean_probability(terms, "payment_terms", label_probabilities), "rule")
    # dropped: unusable entities of the labels found, and entities whose words a key gave to another label
    kept = [trimmed.get(id(e), e) for e in entities if e.label not in found and id(e) not in relabelled]
    out = total_that_is_due([*kept, *found.values()], doc, labels, label_probabilities, locale)
    out = _currency_of_the_total(out, doc, labels, label_probabilities)
    return _currency_read_most(_currency_the_totals_key_names(out, doc, labels, label_probabilities), doc)


# The amounts whose currency word is the document's currency field where the model tagged none, first to last
CURRENCY_OF = ("total", "amount_due", "subtotal")


def _currency_of_the_total(entities: list[Entity], doc: Document, labels: Sequence[str],
                           label_probabilities: LabelProbabilities) -> list[Entity]:
    """``entities`` with the currency read from the total's own currency word, in it or right beside it on its line,
    where the model tagged no currency ("847,00 Kč", "2 460,00 PLN": a sign it never saw in training), as the labelled
    data marks it (the currency's own word beside a located total)."""
    if "currency" not in labels or any(e.label == "currency" for e in entities):
        return entities
    for label in CURRENCY_OF:
        amount = min((e for e in entities if e.label == label), key=Entity.rank, default=None)
        if amount is None:
            continue
        line = _line_words(doc, amount.words[-1])
        after = line[line.index(amount.words[-1]) + 1:][:1] if amount.words[-1] in line else []
        sign = next((r for r in (*amount.words, *after) if is_currency_word(doc.word(r).text)), None)
        start = line.index(amount.words[0]) if amount.words[0] in line else 0
        before = line[start - 1] if start > 0 else None
        if sign is None and before is not None and not any(ch.isdigit() for ch in doc.word(before).text) and parse_currency(
                " ".join(doc.word(r).text for r in (before, *amount.words))):
            sign = before  # a sign that is one only before an amount: the rand's "R 39 675,00"
        if sign is not None:
            return [*entities, Entity("currency", (sign,), mean_probability((sign,), "currency", label_probabilities),
                                      "rule")]
    return entities


def _currency_the_totals_key_names(entities: list[Entity], doc: Document, labels: Sequence[str],
                                   label_probabilities: LabelProbabilities) -> list[Entity]:
    """``entities`` with the currency the total's own key names by its code ("TOTAL (SGD)", "Amount Due SGD") as the
    document's, over another the model read: a Singapore forwarder's "USD at 1.3520" exchange note, its charges in USD,
    its total in SGD (held out: "USD" accepted as the invoice's currency)."""
    if "currency" not in labels:
        return entities
    index = line_index(doc)
    for label in ("total", "amount_due"):
        amount = min((e for e in entities if e.label == label), key=Entity.rank, default=None)
        hit = key_left(index, amount.words, KEY_LABELS) if amount is not None else None
        if hit is None:
            continue
        named = [r for r in hit.words if doc.word(r).text.strip("():,") in ISO_CURRENCIES]
        if len(named) != 1:
            continue
        code = doc.word(named[0]).text.strip("():,")
        currencies = [e for e in entities if e.label == "currency"]
        if currencies and all(parse_currency(e.text(doc)) == code for e in currencies):
            return entities
        return [*(e for e in entities if e.label != "currency"),
                Entity("currency", (named[0],), mean_probability((named[0],), "currency", label_probabilities), "rule")]
    return entities


def _currency_read_most(entities: list[Entity], doc: Document) -> list[Entity]:
    """``entities`` with the currency the tagger read most (its readings' confidences summed per currency) as the
    field, where it read several: a Swiss invoice's four "CHF" over its total's "EUR" equivalent "for information"."""
    readings = [(e, parse_currency(e.text(doc))) for e in entities if e.label == "currency"]
    weight: dict[str, float] = {}
    for entity, code in readings:
        if code is not None:
            weight[code] = weight.get(code, 0.0) + entity.confidence
    if len(weight) < 2:
        return entities
    most = max(weight, key=weight.__getitem__)
    chosen = max((e for e, code in readings if code == most), key=lambda e: e.confidence)
    return [replace(e, assigned=e is chosen) if e.label == "currency" else e for e in entities]


def total_that_is_due(entities: list[Entity], doc: Document, labels: Sequence[str],
                      label_probabilities: LabelProbabilities, locale: str) -> list[Entity]:
    """``entities`` with the total read from the amount due where nothing else gave a total and the amount due's
    key names a total ("TOTAL DUE $385.65", "Total due £1,915.00": one amount under two names; where something was
    paid before, the page prints its total under a key of its own), or the subtotal and the tax add up to the
    amount due (nothing was paid before: "Maatstaf van heffing 8.634,41 | BTW verlegd 0,00 | Te betalen 8.634,41"
    under a reverse charge, no total printed; the field's value then, assigned)."""
    if "total" not in labels or any(e.label == "total" for e in entities):
        return entities
    first = {}  # each amount label's field value: its entities' first by rank
    for entity in sorted(entities, key=Entity.rank):
        if entity.label in ("subtotal", "total_tax", "amount_due"):
            first.setdefault(entity.label, entity)
    due = first.get("amount_due")
    if due is None:
        return entities
    hit = key_left(line_index(doc), due.words, KEY_LABELS)
    if hit is not None and "total" in {token for r in hit.words for token in key_tokens(doc.word(r).text)}:
        return [*entities, Entity("total", due.words, mean_probability(due.words, "total", label_probabilities), "rule")]
    if "subtotal" not in first or "total_tax" not in first:
        return entities
    subtotal, tax, amount = (parse_number(first[label].text(doc), locale) for label in ("subtotal", "total_tax", "amount_due"))
    if None in (subtotal, tax, amount) or subtotal + tax != amount:
        return entities
    return [*entities, Entity("total", due.words, due.confidence, "rule", assigned=True)]


def _on_a_dated_line(doc: Document, entity: Entity) -> bool:
    """Whether the reading's line holds a date: "Intervention atelier mobile le 21/11/24", no name's line."""
    line = line_of(doc, entity.words[0])
    return line is not None and dated(doc, [WordRef(entity.words[0].page_index, w) for w in line.word_indices])


def _keyed_as_another_field(doc: Document, entity: Entity) -> bool:
    """Whether a key of another field stands right before ``entity`` on its line: the buyer's contact after "Er
    referens" ("your reference") in a key column, which a model read as the customer's name, names no party."""
    hit = key_left(line_index(doc), entity.words, KEY_LABELS)
    return hit is not None and entity.label not in hit.labels


def _keyed_as_the_customers(doc: Document, entity: Entity) -> bool:
    """Whether a key of the customer's name stands right before ``entity`` on its row ("Customer:", "Bill to:")."""
    hit = key_left(line_index(doc), entity.words, KEY_LABELS)
    return hit is not None and "customer_name" in hit.labels


def _inside_label(doc: Document, tagged: set[WordRef], label: Mapping[str, Sequence[WordRef]]) -> bool:
    """Whether the model's customer words (none, or some) stand inside the address label: its name line or a line
    between it and the address's last ("Herr Urs Müller", the contact under "Müller Treuhand GmbH")."""
    words = [r for refs in label.values() for r in refs]
    box = Box.enclosing([doc.word(r).box for r in words])
    return all(r.page_index == words[0].page_index and box.x0 <= doc.word(r).box.center[0] <= box.x1
               and box.top <= doc.word(r).box.center[1] <= box.bottom for r in tagged)


def _block_may_take(owner: Entity, block_words: set[WordRef], decided: set[str]) -> bool:
    """Whether a party block's fields may take words from the model's entity ``owner``: a party field's, or a
    free-text field's that starts in the party blocks (a model on a layout never seen reads "Kunden AG Mitte"
    under "Käufer" as payment terms, and completing the terms may run them on below the block), or a typed value's
    that is only an alternative of a field ``decided`` elsewhere (a model on a layout never seen tags the postcode
    "DE 98765" of "Anschrift:" as the VAT id, which the candidate scorer found beside "USt.-Id.-Nr."); never the
    value a typed field holds. Nor is a line item's cell ever in a party's block: "Musterstr. 12" under "Anschrift:"
    that a model on a layout never seen read as a quantity is the street."""
    return (owner.label in BLOCK_LABELS or (owner.label in SPILLED_LABELS and owner.words[0] in block_words)
            or (owner.label in decided and not owner.assigned) or owner.label.startswith(LINE_ITEM_PREFIX))


def _keyed_candidates(doc: Document, wanted: Sequence[str], locale: str, year: int | None
                      ) -> Iterator[tuple[str, tuple[WordRef, ...]]]:
    """(label, value words) for each value of a wanted label's type that a whole key of that label (and of no other
    field of its type) stands before: left of it on its row, or, for dates and identifiers, over it in its column
    (an amount under a "Total" column header is a line item's; but for one in a strip of totals,
    :func:`~docextract.extraction.key_context.in_a_totals_strip`). Values with a key on their row first, then in
    reading order, a key that names no field of another type before one that does ("Steuerbetrag" before "VAT",
    also the VAT id's); an IBAN is read as a whole run of groups after "IBAN:"."""
    index = line_index(doc)
    candidates = generate(doc, index, locale, year)
    kinds = {label: CANDIDATE_KINDS[label] for label in wanted if label in CANDIDATE_KINDS}
    rows, columns = [], []
    extents = block_extents(doc) if "vendor_tax_id" in kinds else []
    # each amount's key, read once for the rate shares and the rows below
    amount_keys = ({c.words: key_left(index, c.words, KEY_LABELS) for c in candidates["amount"]}
                   if "amount" in kinds.values() else {})
    one_rate = (one_rate_amounts(doc, [(c, amount_keys[c.words]) for c in candidates["amount"]])
                if {"total_tax", "subtotal"} & set(kinds) else {})
    for kind in sorted(set(kinds.values())):
        same_kind = {label for label, k in CANDIDATE_KINDS.items() if k == kind}
        for candidate in candidates[kind]:
            if _closes_parenthetical(doc, candidate.words) or candidate.version_date or candidate.telephone:
                # "Value Added Tax (19.00% of €121.50) €23.09": the base the key names, not its value; "Version 2.6
                # vom 10.11.2025": the release of a template, though "vom" keys invoice dates
                continue
            left = amount_keys[candidate.words] if kind == "amount" else key_left(index, candidate.words, KEY_LABELS)
            above = key_above(index, candidate.words, KEY_LABELS) if left is None else None
            if kind == "amount" and above is not None and not in_a_totals_strip(index, above.words, candidate.words):
                above = None
            for hit, out in ((left, rows), (above, columns)):
                named = hit.labels & same_kind if hit is not None else set()
                if len(named) == 1 and (label := next(iter(named))) in kinds:
                    if candidate.words in one_rate.get(label, ()):
                        continue  # "MwSt 7 % 15,57" beside "MwSt 19 % 7,66": one rate's share, not the field
                    if label in SUM_ROW_FIELDS and hit is left and amount_before_another_of_its_key(
                            doc, candidates["amount"], candidate, amount_keys.get):
                        continue  # "Totaal | 6.033,61 | 348,70 | 368,90": a row of column sums, not the total
                    if label in TAX_ID_LABELS and (not _sellers_tax_id(doc, extents, candidate.words, locale)
                                                   or _under_the_customers_key(index, hit)):
                        continue
                    # the buyer's order by its key ("Bestellnummer des Kunden") before an order that may be the
                    # seller's ("Auftrag" in SAP's header grid, earlier in the reading order)
                    sellers = label == "purchase_order" and not names_the_buyers_order(
                        [t for r in hit.words for t in key_tokens(doc.word(r).text)])
                    if sellers and keys_the_buyers_own_order(doc):
                        continue  # (the buyer's own reference keyed in words: this order is the seller's)
                    if sellers and hit is above and _another_orders_key_on_the_row(index, hit):
                        continue  # "Uw referentie | Bestelbon | Leveringsbon": which is the buyer's order, no key says
                    out.append(((sellers, len(hit.labels) > 1), label, candidate.words))
    # a key that names this field alone first: "Steuerbetrag 20,16" over "19 % VAT (S) -1,00" earlier in the
    # reading order, whose "VAT" also keys the VAT id (sorted is stable: reading order within each)
    for _, label, words in [*sorted(rows, key=lambda row: row[0]), *sorted(columns, key=lambda row: row[0])]:
        yield label, words
    for label in wanted:
        if label == "iban":
            for iban_label, value_words in _keyed_values(doc, {"iban"}):
                words = _value(doc, iban_label, value_words, locale, year)
                if words:
                    yield "iban", words


def _another_orders_key_on_the_row(index: LineIndex, hit: KeyHit) -> bool:
    """Whether the header row of an order's key holds another cell that keys an order (a Belgian wholesaler's "Uw
    referentie | Bestelbon | Leveringsbon" over the buyer's reference and the seller's order form: held out, the
    order form's number accepted as the buyer's order)."""
    line = index.line(hit.words[0])
    return line is not None and cells_keying(index.doc, hit.words[0].page_index, line, "purchase_order") > 1


@per_document
def keys_the_buyers_own_order(doc: Document) -> bool:
    """Whether a line's first cell is a whole key of the buyer's own order ("Jeres rekv.", "Ihre Bestellung:"): an
    order under a key that does not say whose is then the seller's (a Danish wholesaler's "Ordrenr. | 1771904" over
    "Jeres rekv. | Sag 2417 Ørbækvej", the buyer's reference in words, accepted as the order)."""
    for p, page in enumerate(doc.pages):
        for line in page.lines:
            tokens = [t for r in first_cell(doc, p, line) for t in key_tokens(doc.word(r).text)]
            if "purchase_order" in whole_key_fields(tokens) and names_the_buyers_order(tokens):
                return True
    return False


def _sellers_tax_id(doc: Document, extents, words: Sequence[WordRef], locale: str) -> bool:
    """Whether ``words`` are a tax id whose check digits hold (for the page's country where printed without a
    prefix; where no scheme is known for it, at least :data:`MIN_UNCHECKED_TAX_ID_DIGITS` digits: the Gulf's TRN) and
    that stands in no buyer's or delivery's block."""
    text = " ".join(doc.word(r).text for r in words)
    valid = check_tax_id(text, locale.partition("_")[2] or None).valid
    if valid is False or valid is None and sum(ch.isdigit() for ch in text) < MIN_UNCHECKED_TAX_ID_DIGITS:
        return False
    return side_at(extents, doc, words[0]) not in ("customer_name", SHIPPING_SIDE)


MIN_UNCHECKED_TAX_ID_DIGITS = 9  # a keyed tax id no scheme checks: the UAE's 15-digit TRN, not a "No. 12"


def _under_the_customers_key(index: LineIndex, hit: KeyHit) -> bool:
    """Whether a tax id's key stands right under a key of the customer in a key column ("Titular: Javier Moreno" |
    "NIF: 28734519K" in a utility bill's contract data): the buyer's id, not the seller's."""
    found = line_above(index, hit.words)
    if found is None:
        return False
    cell = first_cell(index.doc, hit.words[0].page_index, found[0])
    above = whole_key(index.doc, [r for r in cell if not is_separator(index.doc.word(r).text)], CUSTOMER_LABELS)
    return above is not None and index.doc.word(cell[0]).box.horizontal_overlap(found[1]) > 0


def _closes_parenthetical(doc: Document, words: Sequence[WordRef]) -> bool:
    """Whether a value ends a parenthesis opened before it ("(19.00% of €121.50)"); "(121.50)" is a negative amount."""
    first, last = doc.word(words[0]).text, doc.word(words[-1]).text.rstrip(".,:;")
    return last.endswith(")") and not first.startswith("(")


def keyed_values(doc: Document, labels: Sequence[str], locale: str, year: int | None
                 ) -> Iterator[tuple[int, str, tuple[WordRef, ...]]]:
    """(page index, label, value words) for every value of ``labels`` that a page prints after a whole key of
    that label (the same keys and value shapes as :func:`key_value_entities`, without the model): what
    :mod:`docextract.extraction.segments` reads to tell where one invoice of a stack ends. ``labels``: every
    label the keys are told apart from (a key of two of them is nobody's)."""
    for label, value_words in _keyed_values(doc, set(labels)):
        words = _value(doc, label, value_words, locale, year)
        if words:
            yield words[0].page_index, label, words


def _stray_line(doc: Document, owner: Entity, words: tuple[WordRef, ...]) -> bool:
    """Whether ``words`` are a line of the model's address entity ``owner`` that stands apart from the rest of it, in
    another column: the model read on in reading order from "407 Sunset Boulevard, Austin, TX 73301" into the number
    under "Invoice Number:" beside it, or from a name into the order number beside it ("Helen Carter" |
    "5318-2290-7741" under "Order number"). Such a line is the keyed value's, and the entity keeps the rest."""
    if owner.label not in (*ADDRESS_LABELS, *PARTY_NAME_LABELS) or not set(words) < set(owner.words):
        return False
    line = line_of(doc, words[0])
    if line is None or any(line_of(doc, r) is not line for r in words):
        return False
    rest = [r for r in owner.words if r not in words]
    box = Box.enclosing([doc.word(r).box for r in words])
    return all(line_of(doc, r) is not line and doc.word(r).box.horizontal_overlap(box) <= 0 for r in rest)


# The model's confidence in an amount field under which a whole key of another amount field takes that amount from it
FAINT_AMOUNT_CONFIDENCE = 0.25


def _may_take(doc: Document, label: str, owner: Entity, words: tuple[WordRef, ...],
              decided: set[str] = frozenset()) -> bool:
    """Whether the words a whole key of ``label`` points at may be taken from the model entity ``owner``: only
    its whole value, and never an amount (a totals block prints one amount under two names: total and amount
    due), nor for an amount label. An IBAN the model called a VAT id, right after "IBAN:", is the IBAN. A currency
    the model read on a whole printed amount ("Value Added Tax (19.00%) €25.65" tagged as the currency) or on its sign
    alone ("210,00 €") is that amount's, for any label. A line item's amount the model read under the items, in no item's row, is free for its key.
    An amount the model read as another amount field whose value was ``decided`` elsewhere
    (an alternative, not that field's) is free for the key that names it ("Total VAT 5970.38" read as a second
    subtotal), and so is one the model read as another amount field only faintly (below
    :data:`FAINT_AMOUNT_CONFIDENCE`)."""
    if owner.label == "currency" and set(owner.words) <= set(words):
        return True  # (the whole amount, or only its sign: "210,00 €" whose "€" the model read as the currency)
    if label in AMOUNT_LABELS and owner.label in AMOUNT_LABELS and set(owner.words) <= set(words) and (
            (owner.label in decided and not owner.assigned)
            # "(includes £14.16 VAT)" under a web shop's total, which a model read as the amount due at 0.15
            or owner.confidence < FAINT_AMOUNT_CONFIDENCE):
        return True
    if owner.label.startswith("line_item") and set(owner.words) <= set(words) and not in_item_row(doc, words[0]):
        return True  # "Sales Tax 7.5% 25.65" under the items, which a model read as one more item's amount
    if label in AMOUNT_LABELS or FIELD_TYPES.get(owner.label) == "amount" or owner.label.startswith("line_item"):
        return False
    return set(owner.words) <= set(words)


# The fewest digits of a VAT id or tax number: 8 (Luxembourg's, Denmark's, Finland's VAT numbers), 6 with room for a
# digit OCR lost
MIN_TAX_ID_DIGITS = 6


def _only_vat_number(doc: Document, locale: str, year: int | None) -> tuple[WordRef, ...]:
    """The words of the one VAT number (its country's prefix, its check digits holding) the document prints outside
    the buyer's and the delivery's blocks and after no key of another field; () where it prints none or several."""
    country = locale.split("_")[1] if "_" in locale else None
    index = line_index(doc)
    found: dict[str, tuple[WordRef, ...]] = {}
    for candidate in with_party_sides(doc, generate(doc, index, locale, year))["identifier"]:
        if candidate.telephone or candidate.party_side not in (None, "vendor_name"):
            continue
        checked = check_tax_id(" ".join(doc.word(r).text for r in candidate.words), country)
        if not is_vat_number(checked):
            continue
        key = key_left(index, candidate.words, KEY_LABELS)
        if key is not None and "vendor_tax_id" not in key.labels:
            continue
        found.setdefault(checked.normalized, candidate.words)
    return next(iter(found.values())) if len(found) == 1 else ()


def _unchecked_tax_ids(doc: Document, entities: Sequence[Entity], labels: Sequence[str], locale: str,
                       year: int | None) -> set[int]:
    """The ids of the tagger's tax-id entities that have no tax id's shape at all (:func:`misshapen`: not a wrong check
    digit, which a sample's made-up number has too) or stand after another field's key, where a key of the tax id
    stands before a VAT number whose check digits hold; none otherwise."""
    country = locale.split("_")[1] if "_" in locale else None
    # (or a number after another field's key: a phone bill's "Account number 8 2047 3391" read as the tax id)
    unchecked = {id(e) for e in entities if e.label in TAX_ID_LABELS and e.label in labels
                 and (misshapen(check_tax_id(e.text(doc), country)) or _keyed_as_another_field(doc, e))}
    if not unchecked:
        return set()
    keyed = next((words for label, words in _keyed_candidates(doc, TAX_ID_LABELS, locale, year)
                  if is_vat_number(check_tax_id(" ".join(doc.word(r).text for r in words), country))), None)
    return unchecked if keyed is not None else set()


def _usable(doc: Document, entity: Entity, locale: str, year: int | None) -> bool:
    """Whether a model entity's value can be right at all: it parses as its kind and has its kind's shape."""
    text = entity.text(doc)
    kind = FIELD_TYPES.get(entity.label, "string")
    if kind == "date" and parse_date(text, locale, year) is None:
        return False
    if kind == "amount" and parse_number(text, locale) is None:
        return False
    if entity.label == "iban":
        return _iban_shaped(text)
    if kind == "vat_id" and (check_iban(text).valid is True or sum(ch.isdigit() for ch in text) < MIN_TAX_ID_DIGITS):
        # the IBAN beside "IBAN:", or a house number ("222" of "August-Spindler-Strasse 222" in a party's block),
        # that a model on a scan tagged as the VAT id: a VAT id is never an IBAN, nor as short
        return False
    return not odd_shape(entity.label, kind, text)


def _keyed_values(doc: Document, labels: set[str]) -> Iterator[tuple[str, list[WordRef]]]:
    """(label, the words that may hold its value) for every line that starts with a whole key of exactly one of
    ``labels`` (a lone "VAT" keys both the tax amount and the VAT id: neither)."""
    for p, page in enumerate(doc.pages):
        order = page.block_order or tuple(range(len(page.blocks)))
        lines = [page.lines[li] for b in order for li in page.blocks[b].line_indices] if page.blocks else page.lines
        for n, line in enumerate(lines):
            words = [WordRef(p, w) for w in line.word_indices]
            tokens: list[str] = []
            for k, ref in enumerate(words[:MAX_KEY_WORDS]):
                tokens += key_tokens(doc.word(ref).text)
                trimmed = trim_context(tokens)
                keys, length = closing_keys(trimmed)
                keys = keys & labels
                if len(keys) != 1 or length != len(trimmed):
                    continue
                (label,) = keys
                rest = words[k + 1:]
                if not rest:
                    rest = _right_of(doc, p, line, page.lines) or (
                        [WordRef(p, w) for w in lines[n + 1].word_indices] if n + 1 < len(lines) else [])
                yield label, rest


def _right_of(doc: Document, p: int, line, lines) -> list[WordRef]:
    """The words of the nearest line right of ``line`` on the same row (a key and its value in two columns)."""
    right = line_right_of(lines, line)
    return [] if right is None else [WordRef(p, w) for w in right.word_indices]


def _value(doc: Document, label: str, words: list[WordRef], locale: str, year: int | None) -> tuple[WordRef, ...]:
    """The first words of ``words`` that have ``label``'s shape, or ``()``."""
    if not words:
        return ()
    if label in DATE_LABELS:
        for n in range(min(MAX_DATE_WORDS, len(words)), 0, -1):  # the longest date: "October 1, 2023" over "October"
            text = " ".join(doc.word(r).text for r in words[:n])
            if parse_date(text, locale, year) is not None and not odd_shape(label, "date", text):
                return tuple(words[:n])
        return ()
    if label in AMOUNT_LABELS:
        for n in (2, 1):  # "€ 160,65" or "160,65 €" in two words
            text = " ".join(doc.word(r).text for r in words[:n])
            if len(words) >= n and parse_number(text, locale) is not None and not odd_shape(label, "amount", text):
                return tuple(words[:n])
        return ()
    if label == "iban":  # printed whole, or in groups of at most four characters ("DE89 3704 0044 ...")
        while words and not any(ch.isalnum() for ch in doc.word(words[0]).text):
            words = words[1:]  # the key's colon read apart from it (": :DEO2...")
        if not words:
            return ()
        if _iban_shaped(doc.word(words[0]).text):
            return (words[0],)
        best, text = (), ""
        for n, ref in enumerate(words[:MAX_IBAN_WORDS], start=1):
            group = _compact(doc.word(ref).text).lstrip(":") if n == 1 else _compact(doc.word(ref).text)
            if len(group) > 4 or not group.isalnum():
                break
            text += group
            if _iban_shaped(text):
                best = tuple(words[:n])
        return best
    text = doc.word(words[0]).text.strip(":;,")
    if (len(text) >= MIN_IDENTIFIER_CHARACTERS and any(ch.isdigit() for ch in text)
            and parse_date(text, locale, year) is None):
        return (words[0],)
    return ()


def _first_iban(doc: Document, taken: set[WordRef]) -> tuple[WordRef, ...]:
    """The first run of words on a line that is a valid IBAN (check digits hold), in reading order."""
    return next((words for words in _valid_ibans(doc) if not taken.intersection(words)), ())


_ANY_OPENING = re.compile(r".*[A-Za-z0-9]")  # a word with a letter or digit: a colon alone opens no IBAN


def _valid_ibans(doc: Document, opening: re.Pattern = _ANY_OPENING) -> Iterator[tuple[WordRef, ...]]:
    """Each run of words on a line that is a valid IBAN (check digits hold) and no debited account, in reading order
    (of runs that start at one word, the shortest), its first word one that ``opening`` matches."""
    for p, page in enumerate(doc.pages):
        for line in page.lines:
            words = [WordRef(p, w) for w in line.word_indices]
            for start in range(len(words)):
                if not opening.match(doc.word(words[start]).text):
                    continue  # (a colon OCR read apart from its key is no part of the IBAN after it)
                text = ""
                for end in range(start, min(start + MAX_IBAN_WORDS, len(words))):
                    text += doc.word(words[end]).text
                    if len(text) > 34:  # the longest IBAN
                        break
                    if (len(text) >= 15 and check_iban(text).valid is True
                            and not debited_account(doc, words[start:end + 1])):
                        yield tuple(words[start:end + 1])
                        break


# An IBAN's first word as a text layer prints it: its country code and check digits ("CH18", "DE89370400440532013000")
_IBAN_OPENING = re.compile(r"[A-Z]{2}\d{2}")


def _iban_printed_again(doc: Document, entity: Entity) -> Entity:
    """``entity`` (a valid IBAN the page prints once) as the one other valid IBAN the page prints more than once,
    where there is one: the account a payment slip repeats (a Swiss QR-bill's receipt and payment part print the EUR
    account under "Zahlung in EUR", the footer lists the CHF account too, which a model took)."""
    counts: dict[str, list[tuple[WordRef, ...]]] = {}
    for words in _valid_ibans(doc, _IBAN_OPENING):
        counts.setdefault(check_iban(" ".join(doc.word(r).text for r in words)).normalized, []).append(words)
    own = check_iban(entity.text(doc))
    if not own.valid or len(counts.get(own.normalized, ())) != 1:
        return entity
    again = [runs for value, runs in counts.items() if value != own.normalized and len(runs) > 1]
    return replace(entity, words=again[0][0]) if len(again) == 1 else entity


# A Dutch G-rekening: the blocked account a contractor's wage-tax share is paid into under the chain-liability act
# ("G-rekening (Wet ketenaansprakelijkheid): NL67 INGB ..."), beside the account the rest of the invoice is paid into
BLOCKED_ACCOUNT_WORDS = frozenset({"grekening", "ketenaansprakelijkheid"})


def debited_account(doc: Document, words: Sequence[WordRef]) -> bool:
    """Whether ``words`` (an IBAN) follow a word of debiting on their row (:data:`DEBIT_WORDS`): the buyer's account
    the amount is taken from, which a payer does not pay into; or a blocked account's (:data:`BLOCKED_ACCOUNT_WORDS`),
    which takes a share only; or a refund's (:data:`REFUND_WORDS`), on their row or, where nothing stands left of
    them, on the line over them ("Sposób zwrotu: przelew na rachunek nabywcy" over the buyer's account)."""
    row = [key_tokens(doc.word(r).text) for r in words_left_on_row(doc, words[0])]
    debits = [i for i, tokens in enumerate(row) if set(tokens) & DEBIT_WORDS or "".join(tokens) in BLOCKED_ACCOUNT_WORDS]
    transfers = [i for i, tokens in enumerate(row) if set(tokens) & TRANSFER_WORDS]
    # (a transfer after the debit: "In caso di revoca dell'addebito: bonifico su IBAN IT46 ...", the payee's account)
    if debits and not (transfers and transfers[-1] > debits[-1]):
        return True
    if not row and (above := line_above(line_index(doc), words)) is not None:
        page = doc.pages[words[0].page_index]
        row = [key_tokens(page.words[w].text) for w in above[0].word_indices]
    return any(set(tokens) & REFUND_WORDS for tokens in row)


# A transfer the payer makes, into the account named after it
TRANSFER_WORDS = frozenset({"transfer", "bonifico", "uberweisung", "uberweisen", "virement", "overschrijving",
                            "overmaken", "transferencia"})
# An account a refund is paid into: the buyer's, on a credit note
REFUND_WORDS = frozenset({"refund", "refunded", "erstattung", "ruckerstattung", "erstatten", "remboursement",
                          "rembourse", "terugbetaling", "terugbetaald", "rimborso", "rimborsato", "reembolso",
                          "devolucion", "zwrot", "zwrotu"})


def _compact(text: str) -> str:
    return "".join(text.split()).upper()


def _iban_shaped(text: str) -> bool:
    """Whether ``text`` reads as an IBAN (country, check digits, 11-30 more), its OCR misreadings repaired as
    :func:`check_iban` repairs them ("DES4 6789 ..." is "DE54 6789 ..."); its check digits need not hold."""
    return bool(_IBAN_SHAPE.fullmatch(check_iban(text).normalized or ""))


def _line_words(doc: Document, ref: WordRef) -> list[WordRef]:
    line = line_of(doc, ref)
    return [] if line is None else [WordRef(ref.page_index, w) for w in line.word_indices]


def mean_probability(words: Sequence[WordRef], label: str, label_probabilities: LabelProbabilities) -> float:
    return sum(label_probabilities.get(w, {}).get(label, 0.0) for w in words) / len(words)
