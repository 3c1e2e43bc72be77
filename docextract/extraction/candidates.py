"""Typed candidates for the fields an invoice prints once, each described by its neighbourhood.

The approach of Majumder et al. (ACL 2020, "Representation Learning for Information Extraction from Form-like
Documents"), which generalises to templates never seen: for each field, the words that *could* be its value by
their type (every identifier, every date, every amount on the page) are candidates, and each is scored from what
stands around it rather than from where a known template puts it. Here the description is a handful of numbers
(:data:`FEATURES`) that a small per-field model combines (:mod:`docextract.extraction.candidate_scorer`):

* the tagger's view: its probability of the field over the candidate's words, of any other field, and whether its
  decoded entity of the field is this candidate;
* the keys around it (:mod:`docextract.extraction.key_context`): a whole key of the field left of it on its row or
  over it in its column, a key of another field there instead, how far away;
* where it stands: its position on the page, on the first page or not, on the document's title line or not
  ("Handelsrechnung Nr. 471102 vom 15.11.2024": the title's date is the issue date, where "vom" also keys the
  stylesheet's version date and a delivery note's);
* its type's own evidence: an identifier's shape (letters and digits, length, separators); a date's place among
  the document's dates (the earliest, the latest); an amount's rank among the amounts (the largest is usually the
  total), whether it recurs, and whether it is a VAT rate's share of another printed amount, the base of one, or
  the two added (:mod:`docextract.extraction.vat_shares`).
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any, Callable, Mapping, Sequence

from docextract.document import Box, Document, WordRef, touching
from docextract.extraction.entities import Entity, continues_digit_group, is_open_digit_group, word_space_apart
from docextract.extraction.evidence import logit, odd_shape
from docextract.extraction.field_keywords import (FIELD_KEYWORDS, FILLER_TOKENS, REFERENCE_KEYS, closing_keys,
                                                   key_tokens)
from docextract.extraction.identifiers import dotted_vat_length, has_vat_module, spaced_vat_length
from docextract.extraction.key_context import (NUMBER_IN_PARTS, OTHER_NUMBER, KeyHit, LineIndex, is_title_word, key_above,
                                              key_left, line_of, row_keys, words_left_on_row)
from docextract.extraction.per_document import per_document
from docextract.extraction.normalize import (ISO_CURRENCIES, MAX_DATE_WORDS, MINUS_BEFORE_CURRENCY, MONTH_NUMBERS,
                                             glued_sign, identifier_text, is_currency_word, parse_currency, parse_date,
                                             parse_number)
from docextract.extraction.vat_shares import vat_shares
from docextract.extraction.party_blocks import block_extents, side_at

# The fields scored from candidates, by the kind of value they take.
CANDIDATE_KINDS: dict[str, str] = {
    "invoice_number": "identifier", "purchase_order": "identifier", "vendor_tax_id": "identifier",
    "invoice_date": "date", "due_date": "date",
    "subtotal": "amount", "total_tax": "amount", "total": "amount", "amount_due": "amount",
}
KEY_LABELS = frozenset(FIELD_KEYWORDS) - {"date"}  # "date" is SROIE's name of the invoice date's key
DATE_KEY_LABELS = frozenset({"invoice_date", "due_date", "other_date"})  # the keys that name a date
OTHER_DATE_KEY_LABELS = frozenset({"other_date"})  # the keys of a date no output field holds (delivery, arrival)
MIN_SENTENCE_WORDS = 8  # a line of running text: this many words or more, ...
MIN_SENTENCE_LETTER_WORDS = 5  # ... this many of them words of letters
AMOUNT_KEY_LABELS = frozenset({"subtotal", "total_tax", "total", "amount_due"})  # the keys that name a document's amount
# the kinds whose value a header over it names (an amount under a "Total" column header is a line item's), by the
# keys of that kind
KEYED_FROM_ABOVE = {"date": DATE_KEY_LABELS,
                    # ("account 43218765": a bank account's number beside its sort code, keyed as the IBAN's; "P.IVA
                    # 02345670968" in the client's block is a tax id, which a tagger took for the invoice's number)
                    "identifier": frozenset({"invoice_number", "purchase_order", "other_number", "iban", "vendor_tax_id"})}
TENDERED = frozenset({"tendered"})  # field_keywords' keys of cash handed over and change given back
OTHER_AMOUNT = frozenset({"other_amount"})  # field_keywords' keys of a charge or discount no field holds
MIN_IDENTIFIER_CHARACTERS = 3
MAX_IDENTIFIER_CHARACTERS = 40
MAX_WHOLE_AMOUNT_GROUPS = 3  # digit groups of an amount printed without decimals, its currency after it ("8 500 Kč")
MIN_SERIES_LETTERS, MAX_SERIES_LETTERS = 2, 4
SERIES_GAP_OF_HEIGHT = 1.0  # a word's space, not a column's
# A number printed in digit groups ("4012 3456 7890"): each group this many digits, all groups at least this many
MIN_GROUP_DIGITS, MAX_GROUP_DIGITS, MIN_GROUPED_DIGITS = 2, 5, 8
_DIGIT_GROUP_WORD = re.compile(rf"\d{{{MIN_GROUP_DIGITS},{MAX_GROUP_DIGITS}}}")
# the last group may end a sentence: "VAT registration number 896 6178 57." in a UK footer
_LAST_DIGIT_GROUP_WORD = re.compile(rf"\d{{{MIN_GROUP_DIGITS},{MAX_GROUP_DIGITS}}}[.,;]")
_THOUSANDS_GROUP = re.compile(r"\d{3}")
# Capitals that name what the number after them is, never a series of invoice numbers (registers, bank and tax codes)
NOT_SERIES = frozenset({"NO", "REF", "ID", "GLN", "ILN", "EAN", "GTIN", "SKU", "ART", "POS", "BIC", "IBAN", "BLZ",
                        "KTO", "UID", "TEL", "FAX", "PO", "HRB", "HRA", "PLZ", "ABN", "ACN", "EIN", "RCS", "NAF",
                        "APE", "GST", "HST", "PST", "QST", "CIF", "NIF", "NIE", "KVK", "BTW", "SIRET", "SIREN"})
_AMOUNT_WITH_DECIMALS = re.compile(r"\d[.,]\d{2}(?!\d)")
# Three or four decimals on a word that names its currency, where they read as decimals: totals a renderer printed
# unrounded ("€28637.045", "$22551.7400"). Not without one: German ERP pages print quantities with three decimals
# ("Menge 1,000"), which as amount candidates cost the scans' totals (leave-one-producer-out, scans -3); nor "1.250",
# a thousand in German
_AMOUNT_WITH_MORE_DECIMALS = re.compile(r"\d[.,]\d{3,4}(?!\d)")
_YEAR = re.compile(r"(19|20)\d\d")
_NUMERIC_DATE = re.compile(r"\d{1,4}\s*[./-]\s*\d{1,2}\s*[./-]\s*\d{2,4}|\d{8}")
_MONTH_WORD = re.compile(r"[^\W\d_]{3,}\.?,?")
# A time of day printed after a date ("15/01/2019 11:05:16 AM", receipts): not part of the date's value
_TIME_WORD = re.compile(r"\d{1,2}:\d{2}(?::\d{2})?(?:[AaPp]\.?[Mm]\.?)?|[AaPp]\.?[Mm]\.?")
# a telephone number: an area code in parentheses, then digits in groups ("(512) 555-0142", "(0)20 7946-0958"); not a
# document type's code before its number, "Handelsrechnung (380) Nr.471102"
_AREA_CODE = re.compile(r"\(\+?\d{1,5}\)")
TELEPHONE_KEYS = frozenset({"tel", "tlf", "telefon", "telephone", "phone", "fax", "telefax", "telefoon", "mobil",
                            "mobile", "tfn", "puh", "puhelin", "tel no"})
_SUBSCRIBER = re.compile(r"\d{2,4}(?:[-. ]?\d{2,4}){1,3}")
# A Canadian tax account: the 9-digit business number (or Quebec's 10-digit QST number) and its program account,
# printed apart ("79431 2587 RT0001", "1224583017 TQ0001"): one number, not a number and a code
_PROGRAM_ACCOUNT = re.compile(r"(?:RT|RC|RP|RM|RR|RZ|TQ|IC)\d{4}")
CANADIAN_ACCOUNT_DIGITS = (9, 10)
_VERSION = re.compile(r"versi[oóe]", re.IGNORECASE)  # version, versión, versione, versie
MAX_KEY_DISTANCE_OF_HEIGHT = 40.0  # a key farther than this many line heights counts as this far

FEATURES = (
    "bias", "tag_logit", "tag_other_logit", "tagged", "key_left_own", "key_left_other", "key_above_own",
    "key_above_other", "key_distance", "x", "y", "first_page", "title_line", "recurs",
    "id_letters", "id_digits_only", "id_separator", "id_length_log", "id_amount_shape", "id_vat_prefix",
    "date_first", "date_last", "dates_log",
    "amount_rank", "amount_largest", "amount_zero", "amount_vat_tax", "amount_vat_base", "amount_vat_gross",
)


@dataclass(frozen=True)
class Candidate:
    """Words that read as a value of ``kind``: ``value`` is what they mean (an identifier's text without its number
    sign, a ``date``, a ``Decimal``)."""

    kind: str
    words: tuple[WordRef, ...]
    value: Any
    # a date on a row that names a version: among the document's dates (its features count it), never a field's value
    version_date: bool = False
    # the side of the headed party block it stands in ("customer_name": the buyer's VAT id is never the seller's)
    party_side: str | None = None
    # a telephone number ("555-0142" after its area code "(512)"): never a field's value
    telephone: bool = False


def _has_decimals(text: str, locale: str) -> bool:
    """Whether ``text`` prints a number with decimals: two, or three or four that its locale reads as decimals
    beside its currency's sign or code."""
    if _AMOUNT_WITH_DECIMALS.search(text):
        return True
    if not _AMOUNT_WITH_MORE_DECIMALS.search(text) or parse_currency(text) is None:
        return False
    number = parse_number(text, locale)
    return number is not None and number.as_tuple().exponent in (-3, -4)


def _identifier(text: str, locale: str, year: int | None) -> str | None:
    value = identifier_text(text)
    if not MIN_IDENTIFIER_CHARACTERS <= len(value) <= MAX_IDENTIFIER_CHARACTERS or not any(ch.isdigit() for ch in value):
        return None
    if _AMOUNT_WITH_DECIMALS.search(value) and parse_number(value, locale) is not None and value[-3] in ".,":
        return None  # "1.190,00": an amount
    if _NUMERIC_DATE.fullmatch(value) and not value.isdigit() and parse_date(value, locale, year) is not None:
        return None  # "05.03.2018"; an 8-digit number stays an identifier (and is a date candidate too)
    return value


# An ordinal: a count, no number of a document ("1er bimestre", "2nd quarter", "3ème trimestre"). A candidate still
# (the scorers are fitted on every identifier the page prints), never an invoice's or an order's number
_ORDINAL = re.compile(r"\d{1,2}(?:er|re|e|eme|ème|ère|st|nd|rd|th|º|ª|°)", re.IGNORECASE)


def _date_shaped(span: str) -> bool:
    """A date prints its parts as a numeric date ("05.03.2018", "20180305") or with a month's name: a lenient parser
    also reads "1.234,50" as a date."""
    if _NUMERIC_DATE.search(span):
        return True
    # (its words, and the parts of a word a dash or slash joins: "30-Nov-2024", an ERP's date)
    return any(part.casefold() in MONTH_NUMBERS for part in re.split(r"[\s\-/.,]+", span))


_COUNT_AND_YEAR = re.compile(r"(\d{1,4})/(?:19|20)\d\d")


def _maybe_date_start(text: str) -> bool:
    """Whether a date may start at a word: a digit in it (but a long number alone, "0987654321" of a subscriber's
    number before "du 12 mars 2024", which the date's reader would read past; a compact date "20240312" starts one),
    or a month's name."""
    if text.isdigit() and len(text) > 4 and len(text) != 8:
        return False
    if (count := _COUNT_AND_YEAR.fullmatch(text)) and int(count[1]) > 12:
        return False  # "18/2024", an invoice's count and year, before "del 9 settembre 2024", the date the parser reads on to
    return any(ch.isdigit() for ch in text) or _MONTH_WORD.fullmatch(text) is not None and \
        text.strip(".,").casefold() in MONTH_NUMBERS


def _printed_words(page, p: int, word_indices) -> tuple[list[tuple[WordRef, ...]], list[str]]:
    """A line's words as printed: pieces whose boxes touch ("4" + "71102" of a bold "471102") are one word."""
    refs: list[tuple[WordRef, ...]] = []
    texts: list[str] = []
    previous = None
    for w in word_indices:
        word = page.words[w]
        if previous is not None and touching(previous, word):
            refs[-1] += (WordRef(p, w),)
            texts[-1] += word.text
        else:
            refs.append((WordRef(p, w),))
            texts.append(word.text)
        previous = word
    return refs, texts


def _on_version_row(page, line, before: Sequence[str]) -> bool:
    """Whether a date stands on a row that names a version ("Stylesheet-Version:" | "2.6 vom 10.11.2025",
    "Version 3.1 (12.05.2023)"): the date a template or program was released, never the invoice's."""
    row = list(before) + [page.words[w].text for other in page.lines if other.box.x1 <= line.box.x0
                          and other.box.vertical_overlap(line.box) > 0 for w in other.word_indices]
    return any(_VERSION.search(text) for text in row)


def _flat(pieces) -> tuple[WordRef, ...]:
    return tuple(ref for piece in pieces for ref in piece)


@per_document  # the key rule, the document type and the candidate scorer each ask; the lists are never changed
def generate(doc: Document, index: LineIndex, locale: str, year: int | None) -> dict[str, list[Candidate]]:
    """Every identifier, date and amount the document prints, in reading order per kind. A date is the longest run
    of at most :data:`MAX_DATE_WORDS` words of one line that parses; an amount one word, or two when a currency
    stands apart ("160,65 €"); an identifier one word with a digit that is neither an amount nor a date (of
    :data:`MIN_IDENTIFIER_CHARACTERS` or more, or shorter under the invoice number's own key)."""
    out: dict[str, list[Candidate]] = {"identifier": [], "date": [], "amount": []}
    for p, page in enumerate(doc.pages):
        for line in page.lines:
            refs, texts = _printed_words(page, p, line.word_indices)
            taken_until = -1
            for i, text in enumerate(texts):
                if i > taken_until and is_open_digit_group(text):  # "43 781,83": an amount in digit groups
                    end = i
                    while end + 1 < len(texts) and continues_digit_group(doc, refs[end][-1], refs[end + 1][0]):
                        end += 1
                    span = " ".join(texts[i:end + 1])
                    number = parse_number(span, locale) if end > i and _has_decimals(span, locale) else None
                    if (number is None and end - i < MAX_WHOLE_AMOUNT_GROUPS and end + 1 < len(texts)
                            and is_currency_word(texts[end + 1]) and texts[end + 1] != "$"):
                        # a whole amount with its currency after it: "8 500 Kč", "1 200 zł", "250 €" (not a legal
                        # line's share capital, "au capital de 10 640 226 396 €"; nor "19 $", a VAT rate's "%" as
                        # Tesseract read it on a scan, which a totals table then summed)
                        end += 1
                        span = " ".join(texts[i:end + 1])
                        number = parse_number(span, locale)
                    if number is not None and not odd_shape("total", "amount", span):
                        out["amount"].append(Candidate("amount", _flat(refs[i:end + 1]), number))
                        taken_until = end  # its groups are no other value
                        continue
                if i > taken_until and _maybe_date_start(text):
                    for n in range(min(MAX_DATE_WORDS, len(texts) - i), 0, -1):
                        span = " ".join(texts[i:i + n])
                        if not any(ch.isdigit() for ch in span) or not _date_shaped(span):
                            continue
                        if any(_TIME_WORD.fullmatch(t) for t in texts[i + 1:i + n]):
                            continue  # the date without the time that follows it
                        parsed = parse_date(span, locale, year)
                        if parsed is not None and not odd_shape("invoice_date", "date", span):
                            out["date"].append(Candidate("date", _flat(refs[i:i + n]), parsed,
                                                         version_date=_on_version_row(page, line, texts[:i])))
                            if n == 1 and i > 0 and key_tokens(texts[i - 1])[-1:] == ["no"]:
                                # "Faktura nr 7/04/2024": a number shaped like a date after a number sign is a
                                # number (a Polish invoice's count, month and year); the date stays a candidate too
                                out["identifier"].append(Candidate("identifier", refs[i], identifier_text(text)))
                            elif (n == 1 and i - 1 > taken_until and "/" in text
                                  and _series_prefix(doc, texts[i - 1], refs[i - 1], refs[i])):
                                # "FV 2024/03/17", "KFS 14/03/2024": a series' letters before a number in a date's
                                # shape (a Polish invoice's series, then year, month and count)
                                out["identifier"].append(Candidate("identifier", _flat(refs[i - 1:i + 1]),
                                                                   f"{texts[i - 1]} {identifier_text(text)}"))
                            taken_until = i + n - 1
                            break
                if i <= taken_until:
                    continue
                spaced = dotted_vat_length(texts[i:])
                if spaced > 1 or spaced and _has_decimals(text, locale):
                    # "NL8027.27.608.B01", or as a scan's OCR split it: its dots are no decimals
                    out["identifier"].append(Candidate("identifier", _flat(refs[i:i + spaced]), "".join(texts[i:i + spaced])))
                    taken_until = i + spaced - 1
                    continue
                if _has_decimals(text, locale):
                    for n in (2, 1):
                        span = " ".join(texts[i:i + n])
                        # (the word after it only where it is the currency or a sign: "£4.95 via Royal Mail", "£14.16
                        # VAT)" are amounts of one word, which parse_number would read with the word after them)
                        if n == 2 and (i + 1 >= len(texts) or any(ch.isdigit() for ch in texts[i + 1]) or (
                                any(ch.isalpha() for ch in texts[i + 1]) and not is_currency_word(texts[i + 1]))):
                            continue
                        number = parse_number(span, locale)
                        if number is not None and not odd_shape("total", "amount", span):
                            start = i  # (its sign printed before its currency, a word of its own: "-€ 110,70")
                            if i - 1 > taken_until and MINUS_BEFORE_CURRENCY.fullmatch(texts[i - 1]):
                                start, number = i - 1, -abs(number)
                            out["amount"].append(Candidate("amount", _flat(refs[start:i + n]), number))
                            break
                    continue
                spaced = spaced_vat_length(texts[i:])
                if spaced:  # "DE 921 733 374": one VAT number in groups, not four words
                    out["identifier"].append(Candidate("identifier", _flat(refs[i:i + spaced]), "".join(texts[i:i + spaced])))
                    taken_until = i + spaced - 1
                    continue
                grouped = digit_groups_length(doc, refs, texts, i)
                if grouped and i > 0 and _telephone_key(texts[i - 1]):
                    # "Tlf. 86 12 44 80": a telephone number, which a model on a layout never seen tags as a tax id
                    out["identifier"].append(Candidate("identifier", _flat(refs[i:i + grouped]),
                                                       " ".join(texts[i:i + grouped]), telephone=True))
                    taken_until = i + grouped - 1
                    continue
                account = _canadian_tax_account_length(texts, i, grouped or 1)
                if account:
                    out["identifier"].append(Candidate("identifier", _flat(refs[i:i + account]),
                                                       "".join(texts[i:i + account])))
                if grouped:  # "4012 3456 7890" after "Rechnungsnummer": one number printed in groups, not three
                    if i > 0 and i - 1 > taken_until and _series_prefix(doc, texts[i - 1], refs[i - 1], refs[i]):
                        # "FM 2406 8817 326": its series' letters too (the groups alone stay a candidate)
                        out["identifier"].append(Candidate("identifier", _flat(refs[i - 1:i + grouped]),
                                                           " ".join(texts[i - 1:i + grouped])))
                    out["identifier"].append(Candidate("identifier", _flat(refs[i:i + grouped]),
                                                       " ".join(texts[i:i + grouped])))
                    taken_until = i + grouped - 1
                    continue
                value = _identifier(text, locale, year)
                if value is not None and i > 0 and (_AREA_CODE.fullmatch(texts[i - 1]) or _telephone_key(texts[i - 1])
                                                   ) and _SUBSCRIBER.fullmatch(text):
                    # "(512) 555-0142": a telephone number, which a model on a layout never seen tags as the invoice's
                    out["identifier"].append(Candidate("identifier", refs[i], value, telephone=True))
                    continue
                if value is not None:
                    if (i > 0 and i - 1 > taken_until and not _YEAR.fullmatch(value)
                            and _series_prefix(doc, texts[i - 1], refs[i - 1], refs[i],
                                               after_a_key=i > 1 and texts[i - 2].endswith(":"))):
                        # "RK 19-32": a series' letters printed apart from its number are part of it; the number
                        # alone stays a candidate too, and the scorer weighs the two. A year is no number of a
                        # series ("© DWC 2025")
                        out["identifier"].append(Candidate("identifier", _flat(refs[i - 1:i + 1]),
                                                           f"{texts[i - 1]} {value}"))
                    out["identifier"].append(Candidate("identifier", refs[i], value))
                elif (short := identifier_text(text)).isdigit() and _keyed_as_invoice_number(index, refs[i]):
                    # "45" under "Numero documento", a tutor's "INVOICE #7": too short for a number of its own, but
                    # its key names it
                    out["identifier"].append(Candidate("identifier", refs[i], short))
    return out


def _canadian_tax_account_length(texts: Sequence[str], i: int, digit_words: int) -> int:
    """The words of a Canadian tax account that starts at ``texts[i]`` (its number in ``digit_words`` words, then
    its program account, :data:`_PROGRAM_ACCOUNT`), 0 where none does."""
    number = "".join(texts[i:i + digit_words])
    if (i + digit_words < len(texts) and number.isdigit() and len(number) in CANADIAN_ACCOUNT_DIGITS
            and _PROGRAM_ACCOUNT.fullmatch(texts[i + digit_words])):
        return digit_words + 1
    return 0


def _telephone_key(text: str) -> bool:
    """Whether a word is a telephone's key ("Tel.", "Tlf.", "Telefon:", "Fax")."""
    tokens = key_tokens(text)
    return len(tokens) == 1 and tokens[0] in TELEPHONE_KEYS


def _keyed_as_invoice_number(index: LineIndex, words: tuple[WordRef, ...]) -> bool:
    """Whether a whole key of the invoice number and of nothing else stands left of the words or over them."""
    return any(hit is not None and hit.labels == {"invoice_number"}
               for hit in (key_left(index, words, KEY_LABELS), key_above(index, words, KEY_LABELS)))


def digit_groups_length(doc: Document, refs: Sequence[tuple[WordRef, ...]], texts: Sequence[str], i: int) -> int:
    """How many words from ``i`` on make one number printed in digit groups, a word space apart on its line
    ("4012 3456 7890", "123 456 7890": a telephone company's invoice and customer numbers), 0 when they make none:
    at least two groups of :data:`MIN_GROUP_DIGITS` to :data:`MAX_GROUP_DIGITS` digits, and
    :data:`MIN_GROUPED_DIGITS` digits in all (a table row's "12 34" is two numbers)."""
    end = i
    # (a first group of one digit before groups of three: Swiss Post's "9 400 318 775")
    lead = i + 1 < len(texts) and texts[i].isdigit() and len(texts[i]) == 1 and _THOUSANDS_GROUP.fullmatch(texts[i + 1])
    while (end < len(texts) and (_DIGIT_GROUP_WORD.fullmatch(texts[end]) or end == i and lead
                                 or end > i and _LAST_DIGIT_GROUP_WORD.fullmatch(texts[end]))
           and (end == i or word_space_apart(doc, refs[end - 1][-1], refs[end][0]))
           and (not lead or end == i or _THOUSANDS_GROUP.fullmatch(texts[end]))):
        end += 1
        if _LAST_DIGIT_GROUP_WORD.fullmatch(texts[end - 1]):
            break
    length = end - i
    return length if length >= 2 and sum(len(t) for t in texts[i:end]) >= MIN_GROUPED_DIGITS else 0


def _series_prefix(doc: Document, text: str, prefix: tuple[WordRef, ...], number: tuple[WordRef, ...],
                   after_a_key: bool = False) -> bool:
    """Whether ``text`` is the letters of an invoice series printed before its number ("RK" of "RK 19-32", "INV"
    of "INV 0042"): 2-4 capitals (one before a number in parts: "F 24-94"), a word's space from the number, and
    neither a key word ("NO", "NR"; but after a key's colon, "Uw ordernummer: PO 2024-0779", the letters are the
    value's) nor a currency ("EUR 500")."""
    fewest = 1 if NUMBER_IN_PARTS.search(doc.word(number[0]).text) else MIN_SERIES_LETTERS
    if not (fewest <= len(text) <= MAX_SERIES_LETTERS and text.isalpha() and text.isupper()):
        return False
    if text in ISO_CURRENCIES or key_tokens(text) != [text.casefold()]:
        return False
    if not after_a_key and (text in NOT_SERIES or closing_keys(key_tokens(text))[0]):
        return False
    left, right = doc.word(prefix[-1]).box, doc.word(number[0]).box
    return 0 <= right.x0 - left.x1 <= SERIES_GAP_OF_HEIGHT * max(left.height, 1e-6)


def with_party_sides(doc: Document, candidates: dict[str, list[Candidate]]) -> dict[str, list[Candidate]]:
    """``candidates`` (of :func:`generate`) with each identifier's ``party_side``: the headed party block it stands
    in. Apart from :func:`generate`, which the key rule and the document type call too, so that the blocks are
    found once per document, where the candidate scorer decides."""
    if not candidates["identifier"]:
        return candidates
    extents = block_extents(doc)
    return {**candidates, "identifier": [replace(c, party_side=side_at(extents, doc, c.words[0]))
                                         for c in candidates["identifier"]]}


@dataclass
class DocumentContext:
    """What every candidate's features share: the line index, the tagger's probabilities and entities, the
    document's dates and amounts, and the keys found so far (cached per value start)."""

    doc: Document
    index: LineIndex
    probabilities: Mapping[WordRef, Mapping[str, float]]
    entities: Sequence[Entity]
    candidates: dict[str, list[Candidate]]

    def __post_init__(self) -> None:
        self._keys: dict[tuple[WordRef, ...], tuple[KeyHit | None, KeyHit | None]] = {}
        self._shared: dict[int, tuple[Candidate, SharedFeatures]] = {}
        self.dates = sorted({c.value for c in self.candidates["date"]})
        self.tendered = {c.words for c in self.candidates["amount"] if self._after_tendered_key(c.words)}
        # the fields whose key stands right before some amount, some identifier (see _keyed_another)
        self.keyed_fields = {kind: frozenset().union(*(left.labels for c in self.candidates[kind]
                                                       if (left := self.keys(c.words)[0]) is not None))
                             for kind in ("amount", "identifier")}
        self.one_rate_amounts = one_rate_amounts(self.doc, [(c, self.keys(c.words)[0]) for c in self.candidates["amount"]])
        amounts = sorted({abs(c.value) for c in self.candidates["amount"]}, reverse=True)
        self.amount_rank = {a: i for i, a in enumerate(amounts)}
        self.vat = vat_shares(amounts)
        self.occurrences: dict[Any, list[Candidate]] = {}
        for kind in ("identifier", "date", "amount"):
            for c in self.candidates[kind]:
                self.occurrences.setdefault(occurrence_key(c), []).append(c)
        self.entity_words = {e.label: set().union(*(set(x.words) for x in self.entities if x.label == e.label))
                             for e in self.entities}

    def shared_features(self, candidate: Candidate) -> SharedFeatures:
        """:func:`shared_features` of ``candidate``, computed once however many fields it is scored for."""
        kept = self._shared.get(id(candidate))
        if kept is None or kept[0] is not candidate:
            kept = self._shared[id(candidate)] = (candidate, shared_features(self, candidate))
        return kept[1]

    def keys(self, words: tuple[WordRef, ...]) -> tuple[KeyHit | None, KeyHit | None]:
        if words not in self._keys:
            self._keys[words] = (key_left(self.index, words, KEY_LABELS), key_above(self.index, words, KEY_LABELS))
        return self._keys[words]

    def _after_tendered_key(self, words: tuple[WordRef, ...]) -> bool:
        left, _ = self.keys(words)
        return left is not None and left.labels == TENDERED

    def recurs(self, candidate: Candidate, label: str) -> bool:
        """Whether the value is printed again; for a date, where no key names another field: an invoice date
        repeated in a footer recurs, a delivery date printed under "Leistungs-Datum" and "Lieferschein-Datum" does
        not. An amount recurs under any key ("TOTAL 12.00" and "CASH 12.00" say the same total)."""
        for other in self.occurrences.get(occurrence_key(candidate), ()):
            if other.words == candidate.words:
                continue
            if candidate.kind != "date":
                return True
            if _same_column(self.doc, candidate.words[0], other.words[0]):
                continue  # a table's date column ("15.04.2024 | Frühstück | 18,00" row after row): the rows' dates
            left, above = self.keys(other.words)
            key = left if left is not None else above
            if key is None or label in key.labels:
                return True
        return False

    def on_title_line(self, first: WordRef) -> bool:
        """Whether ``first`` stands after the start of its page's title line: the topmost line that opens with a word
        naming the document ("Rechnung", "Mietrechnung", "Invoice", ...). A remark further down that opens so
        ("Rechnung gemäß Bestellung Nr. 2025-471331 vom 01.03.2025.") is no title: its date is the order's."""
        where = self.index.line_of.get(first)
        if where is None or where[1] == 0:
            return False
        return where[0] == self._title_lines.get(first.page_index)

    @functools.cached_property
    def amounts_keyed_on_rows(self) -> frozenset[str]:
        """The amount fields a key names right before some amount outside running text (a totals row)."""
        return frozenset().union(*(left.labels & AMOUNT_KEY_LABELS for c in self.candidates["amount"]
                                   if (left := self.keys(c.words)[0]) is not None
                                   and not in_a_sentence(self.doc, c.words[0])))

    @functools.cached_property
    def invoice_number_keyed(self) -> bool:
        """Whether some number stands after a key of the invoice's number that is no letter's reference key."""
        return any(hit is not None and "invoice_number" in hit.labels and not is_reference_key(self, hit, c.words)
                   for c in self.candidates["identifier"] for hit in self.keys(c.words))

    @functools.cached_property
    def _title_lines(self) -> dict[int, int]:
        """Each page's title line (its index in the page's lines), where one opens with a title word."""
        out = {}
        for p, page in enumerate(self.doc.pages):
            titled = [(line.box.top, i) for i, line in enumerate(page.lines)
                      if (tokens := key_tokens(self.doc.word(WordRef(p, line.word_indices[0])).text))
                      and is_title_word(tokens[0])]
            if titled:
                out[p] = min(titled)[1]
        return out


def features(context: DocumentContext, candidate: Candidate, label: str) -> list[float]:
    """The :data:`FEATURES` of ``candidate`` as the value of ``label``, in that order."""
    shared = context.shared_features(candidate)
    words = candidate.words
    own = shared.tag_sums.get(label, 0.0) / len(words)
    other = max((total / len(words) for l, total in shared.tag_sums.items() if l != label), default=0.0)
    left, above = shared.left, shared.above
    own_hits = [h for h in (left, above) if h is not None and label in h.labels]
    distance = min((h.distance for h in own_hits), default=None)
    row = {
        **shared.row,
        "tag_logit": logit(own),
        "tag_other_logit": logit(other),
        "tagged": float(bool(set(words) & context.entity_words.get(label, set()))),
        "key_left_own": float(left is not None and label in left.labels),
        "key_left_other": float(left is not None and label not in left.labels),
        "key_above_own": float(above is not None and label in above.labels),
        "key_above_other": float(above is not None and label not in above.labels),
        "key_distance": (min(distance / shared.height, MAX_KEY_DISTANCE_OF_HEIGHT) / MAX_KEY_DISTANCE_OF_HEIGHT
                         if distance is not None else 1.0),
        "recurs": float(context.recurs(candidate, label)),
    }
    return [row[name] for name in FEATURES]


@dataclass(frozen=True)
class SharedFeatures:
    """What a candidate's features are whichever field it is scored for: the features that do not depend on the
    field, its words' summed tag probabilities per label, its keys and its first word's height."""

    row: dict[str, float]
    tag_sums: dict[str, float]
    left: KeyHit | None
    above: KeyHit | None
    height: float


def shared_features(context: DocumentContext, candidate: Candidate) -> SharedFeatures:
    doc, words, value = context.doc, candidate.words, candidate.value
    probabilities = [context.probabilities.get(r, {}) for r in words]
    tag_sums = {l: sum(p.get(l, 0.0) for p in probabilities) for l in {l for p in probabilities for l in p}}
    first = doc.word(words[0])
    page = doc.pages[words[0].page_index]
    row = {
        "bias": 1.0,
        "x": first.box.x0 / max(page.width, 1e-6),
        "y": first.box.top / max(page.height, 1e-6),
        "first_page": float(words[0].page_index == 0),
        "title_line": float(context.on_title_line(words[0])),
        "id_letters": 0.0, "id_digits_only": 0.0, "id_separator": 0.0, "id_length_log": 0.0, "id_amount_shape": 0.0,
        "id_vat_prefix": 0.0,
        "date_first": 0.0, "date_last": 0.0, "dates_log": 0.0,
        "amount_rank": 0.0, "amount_largest": 0.0, "amount_zero": 0.0,
        "amount_vat_tax": 0.0, "amount_vat_base": 0.0, "amount_vat_gross": 0.0,
    }
    if candidate.kind == "identifier":
        row.update(id_letters=float(any(ch.isalpha() for ch in value)), id_digits_only=float(value.isdigit()),
                   id_separator=float(any(ch in "-_/." for ch in value)), id_length_log=math.log(len(value)),
                   id_amount_shape=float(parse_number(value, "en_US") is not None and not value.isdigit()),
                   id_vat_prefix=float(has_vat_prefix(value)))
    elif candidate.kind == "date":
        row.update(date_first=float(value == context.dates[0]), date_last=float(value == context.dates[-1]),
                   dates_log=math.log(len(context.dates)))
    elif candidate.kind == "amount":
        rank = context.amount_rank[abs(value)]
        row.update(amount_rank=math.log1p(rank), amount_largest=float(rank == 0), amount_zero=float(value == 0),
                   amount_vat_tax=context.vat.tax.get(abs(value), 0.0),
                   amount_vat_base=context.vat.base.get(abs(value), 0.0),
                   amount_vat_gross=context.vat.gross.get(abs(value), 0.0))
    left, above = context.keys(words)
    if candidate.kind == "amount" and in_item_row(doc, words[0]):
        # a line item's amount: "Total" over it is its column's header, not the invoice total's key, and its being the
        # page's largest amount says nothing of the total (a discount after it)
        above = None
        row["amount_largest"] = 0.0
    return SharedFeatures(row, tag_sums, left, above, max(first.box.height, 1e-6))


def one_rate_amounts(doc: Document, keyed: Sequence[tuple[Candidate, KeyHit | None]]
                     ) -> dict[str, set[tuple[WordRef, ...]]]:
    """Per field (total_tax, subtotal), the words of each amount that is one rate's share where the page prints
    another's: no field's value. A rate's zero tax beside another rate's tax ("Btw 0% over 27,20 0,00" under "Btw 9%
    over 328,00 27,08"); and where two rates have amounts that are not zero, each of them ("Netto 7 % 222,43" and
    "Netto 19 % 40,34", "MwSt 7 % 15,57" and "MwSt 19 % 7,66": a hotel bill's, whose sums are the fields or
    unprinted). ``keyed``: each amount with the key left of it."""
    out: dict[str, set[tuple[WordRef, ...]]] = {}
    for label in ("total_tax", "subtotal"):
        by_rate = [(c, rate) for c, hit in keyed if (rate := _rate_in_key(doc, hit, label)) is not None]
        taxed = {rate for c, rate in by_rate if c.value != 0}
        if len(taxed) >= 2:
            out[label] = {c.words for c, _ in by_rate}
        elif taxed and label == "total_tax":
            out[label] = {c.words for c, _ in by_rate if c.value == 0}
    return out


def _rate_in_key(doc: Document, hit: KeyHit | None, label: str) -> str | None:
    """The rate a key of ``label`` names ("19" of "MwSt. 19 %", "Btw 9% over 328,00"), None for a key without one."""
    if hit is None or label not in hit.labels:
        return None
    for n, ref in enumerate(hit.words):
        text = doc.word(ref).text.rstrip(":")
        if text.endswith("%"):
            # the number before a sign printed apart: the key's word before it, or the line's before the key ("zzgl.
            # 19 % USt.", whose key starts at the sign)
            before = hit.words[n - 1] if n else _word_before(doc, ref)
            rate = (text[:-1].strip() or (doc.word(before).text if before is not None else "")).replace(",", ".")
            try:
                return format(Decimal(rate).normalize(), "f")  # "19,00 %" and "19%" are one rate
            except InvalidOperation:
                return rate
    return None


def _word_before(doc: Document, ref: WordRef) -> WordRef | None:
    """The word before ``ref`` on its line, None for a line's first."""
    line = line_of(doc, ref)
    at = line.word_indices.index(ref.word_index) if line is not None else 0
    return WordRef(ref.page_index, line.word_indices[at - 1]) if at > 0 else None


def _same_column(doc: Document, first: WordRef, other: WordRef) -> bool:
    """Whether two values start one under the other in a column: left edges within a text height, on other rows."""
    box, other_box = doc.word(first).box, doc.word(other).box
    return (first.page_index == other.page_index and abs(box.x0 - other_box.x0) <= box.height
            and box.vertical_overlap(other_box) <= 0)


def in_a_sentence(doc: Document, first: WordRef) -> bool:
    """Whether a value stands in running text: its line holds :data:`MIN_SENTENCE_WORDS` words or more, most of
    them words of letters."""
    line = line_of(doc, first)
    if line is None or len(line.word_indices) < MIN_SENTENCE_WORDS:
        return False
    page = doc.pages[first.page_index]
    return sum(any(ch.isalpha() for ch in page.words[w].text) for w in line.word_indices) >= MIN_SENTENCE_LETTER_WORDS


def in_item_row(doc: Document, first: WordRef) -> bool:
    """Whether the value stands in a line item's row: left of it on its row a description (a word of three letters
    or more, neither a currency code nor a word of an amount's key: a totals table's "EUR", a "Total" row) and
    another number (the quantity or the unit price): "Trail backpack 45L | 10 | 50.00 | 500.00"."""
    row = [doc.word(r).text for r in words_left_on_row(doc, first)]
    return (any(_describes(text) for text in row) and not any(_names_an_amount(text) for text in row)
            and any(text.strip(".,:;") and all(ch.isdigit() or ch in ".,'" for ch in text.strip(".,:;")) for text in row))


def _describes(text: str) -> bool:
    tokens = key_tokens(text)
    return sum(ch.isalpha() for ch in text) >= 3 and bool(tokens) and not set(tokens) <= FILLER_TOKENS


def _names_an_amount(text: str) -> bool:
    tokens = key_tokens(text)
    return bool(tokens) and bool(closing_keys(tokens)[0] & AMOUNT_KEY_LABELS)


def never_the_value(context: DocumentContext, candidate: Candidate, label: str) -> bool:
    """Whether ``candidate`` is no value of ``label`` whatever its score: a version's date, a telephone number, a tax
    id in the buyer's or the delivery's block as the seller's, an amount after a key of cash handed over or change, a
    value right after the key of another field (a date always, an amount or identifier where the field's own key keys
    another), one rate's share of the tax or net beside another rate's (:func:`one_rate_amounts`), the page's only
    date as the due date where no due date's key names it (an invoice always carries its date, its due date only
    sometimes), a number after a letter's reference key ("Our Ref:") where another stands after a key of the
    invoice's number proper ("INVOICE No. 24117"), an amount inside a sentence where the page keys the field on a
    row of its own (a credit note's "... faktura 100377 (fakturabeløb 1.547,90 kr.)": the corrected invoice's), a
    date closing an aside as the invoice's date, an early payment's date before its discount as the due date, an
    amount keyed on its row as one no field holds (a charge, a discount, a bill's previous balance), a number printed
    again after a tax id's key or an ordinal ("1er") as the invoice's or order's number, the first amount of a row of sums as its field
    (:func:`first_of_a_row_of_sums`), the base a rate is reckoned on as the total (:func:`base_of_a_rate`), a number
    the page names as another document's anywhere as the invoice's (:func:`_named_another_documents`)."""
    return (candidate.version_date or candidate.telephone or label == "vendor_tax_id" and candidate.party_side not in (None, "vendor_name")
            or label == "invoice_number" and (_reference_keyed_beside_an_invoice_key(context, candidate)
                                              or _named_another_documents(context, candidate))
            or label in context.amounts_keyed_on_rows and in_a_sentence(context.doc, candidate.words[0])
            or candidate.words in context.tendered or _keyed_another(context, candidate, label)
            or label in NOT_TAX_IDS and (_printed_as_a_tax_id(context, candidate)
                                         or candidate.kind == "identifier" and _ORDINAL.fullmatch(candidate.value))
            or candidate.kind == "amount" and keyed_as_no_field(context, candidate.words)
            or first_of_a_row_of_sums(context, candidate, label)
            or label in ("total", "amount_due") and candidate.kind == "amount" and base_of_a_rate(context.doc, candidate)
            or candidate.words in context.one_rate_amounts.get(label, ())
            or label == "due_date" and candidate.kind == "date" and (len(context.dates) == 1
                                                                     and not keyed_as(context, candidate, label)
                                                                     or before_a_discount(context, candidate))
            or label == "invoice_date" and candidate.kind == "date" and _closes_an_aside(context.doc, candidate))


def _named_another_documents(context: DocumentContext, candidate: Candidate) -> bool:
    """Whether the number is keyed somewhere on the page as another document's: a credit note's title "Avoir sur
    facture n° FA24-01452" names the invoice it corrects, and the same number in a sentence further down ("Facture
    FA24-01452 : 1 015,20 € TTC ...") is no number of the credit note's own (held out: accepted as its number, 0.999)."""
    return any((left := context.keys(other.words)[0]) is not None and OTHER_NUMBER in left.labels
               for other in context.occurrences.get(occurrence_key(candidate), ()))


NOT_TAX_IDS = frozenset({"invoice_number", "purchase_order"})
# The fields a table's row of sums under their key gives only its last amount, if any ("Totaal | 6.033,61 | 348,70 |
# 20,20 | 368,90": the insurer's share, the patient's, the supplements, the patient's total; "Sous-total | 865,00 |
# 120,00 | 985,00": the members' fees, the insurance, their sum). Not the tax: "MwSt 19 % | 100,00 | 19,00" keys its
# base first. The subtotal only under its own key: a VAT summary's "Total | 40,53 | 4,92 | 45,45" sums the bases first
SUM_ROW_FIELDS = frozenset({"subtotal", "total", "amount_due"})


def first_of_a_row_of_sums(context: DocumentContext, candidate: Candidate, label: str) -> bool:
    """Whether ``candidate`` is an amount of a row of sums before its last, as ``label`` (:data:`SUM_ROW_FIELDS`):
    :func:`amount_before_another_of_its_key` with the scorer's keys."""
    if label not in SUM_ROW_FIELDS or candidate.kind != "amount":
        return False
    left = context.keys(candidate.words)[0]
    if label == "subtotal" and (left is None or "subtotal" not in left.labels):
        return False
    return amount_before_another_of_its_key(context.doc, context.candidates["amount"], candidate,
                                            lambda words: context.keys(words)[0])


def _printed_as_a_tax_id(context: DocumentContext, candidate: Candidate) -> bool:
    """Whether an identifier's value stands elsewhere on the page right after a tax id's key: a seller's bare CIF in
    its letterhead ("B97564322", which a tagger read as the order number at 0.91) is its "CIF B97564322" of the
    footer."""
    for other in context.occurrences.get(occurrence_key(candidate), ()):
        left = context.keys(other.words)[0] if other.words != candidate.words else None
        if left is not None and "vendor_tax_id" in left.labels and not left.labels & NOT_TAX_IDS:
            return True
    return False


def amount_before_another_of_its_key(doc: Document, amounts: Sequence[Candidate], candidate: Candidate,
                                     key_of: Callable[[tuple[WordRef, ...]], KeyHit | None]) -> bool:
    """Whether another of the page's ``amounts`` stands right of an amount on its row, keyed (``key_of``: an amount's
    key on its row) by the same key or by none: a table's row of sums ("Summe | 453.321,00 | 313.134,88", a contract
    sum's column beside the work done, a hospital's "Totaal | 6.033,61 | 348,70 | 20,20 | 368,90"), whose last amount
    alone may be a total."""
    left = key_of(candidate.words)
    if left is None:
        return False
    box = doc.word(candidate.words[-1]).box
    for other in amounts:
        other_box = doc.word(other.words[0]).box
        if (other.words[0].page_index != candidate.words[0].page_index or other_box.x0 <= box.x1
                or other_box.vertical_overlap(box) <= 0.5 * min(other_box.height, box.height)):
            continue
        if _a_date_between(doc, candidate.words[0].page_index, box, other_box):
            continue  # an instalment's row beside its key's value: "... pendiente de pago : S/ 51,027.20 | 001 |
            # 11/12/2024 | S/ 51,027.20" (a row of sums prints no date)
        other_left = key_of(other.words)
        if other_left is None or other_left.words == left.words:
            return True
    return False


def _a_date_between(doc: Document, p: int, left: Box, right: Box) -> bool:
    """Whether a numeric date stands on the row between two boxes."""
    return any(left.x1 < word.box.x0 and word.box.x1 < right.x0 and word.box.vertical_overlap(left) > 0
               and _NUMERIC_DATE.search(word.text) for word in doc.pages[p].words)


def keyed_as_no_field(context: DocumentContext, words: tuple[WordRef, ...]) -> bool:
    """Whether an amount's key on its row names no field but an amount none holds (a charge, a discount, a tip, a
    bill's previous balance: :data:`OTHER_AMOUNT`)."""
    left = context.keys(words)[0]
    return left is not None and left.labels == OTHER_AMOUNT


# An early payment's discount, named within DISCOUNT_WORDS_AFTER words after the date its terms give
DISCOUNT_WORDS = frozenset({"skonto", "escompte", "discount", "sconto", "descuento", "korting", "rabat", "kassarabatt"})
DISCOUNT_WORDS_AFTER = 5


def before_a_discount(context: DocumentContext, candidate: Candidate) -> bool:
    """Whether a discount word follows the value within :data:`DISCOUNT_WORDS_AFTER` words on its line: an early
    payment's date ("Zahlbar bis 18.12.2024 abzüglich 2 % Skonto ..., bis 03.01.2025 netto"), not the due date."""
    where = context.index.line_of.get(candidate.words[-1])
    if where is None:
        return False
    page = context.doc.pages[candidate.words[-1].page_index]
    after = page.lines[where[0]].word_indices[where[1] + 1:where[1] + 1 + DISCOUNT_WORDS_AFTER]
    return any(set(key_tokens(page.words[w].text)) & DISCOUNT_WORDS for w in after)


# A rate and the word that says what it is reckoned on: "8% s/ 406,18", "2 % op 315.000,00", "21% x 50,54 €", "3,0 v. T.
# aus 287.500,00 €" (per thousand)
_RATE = re.compile(r"\(?\d+(?:[.,]\d+)?\s?[%‰]|[%‰]|T\.")
BASE_WORDS = frozenset({"s/", "op", "aus", "von", "of", "on", "sur", "su", "sobre", "van", "x", "×", "de", "di"})


def base_of_a_rate(doc: Document, candidate: Candidate) -> bool:
    """Whether an amount is the base a rate is reckoned on, right after the rate and its "of" (a registration duty's
    "2 % op 315.000,00", a building permit's "3,0 v. T. aus 287.500,00 €", an insurer's "0,07‰ s/ 275.000,00 €"):
    the price or the sum insured, never the invoice's total. Not where a discount is named before it on its line: a
    cash discount's "Skonto 2 % von 1.190,00" is reckoned on the total."""
    line = line_of(doc, candidate.words[0])
    if line is None:
        return False
    page = doc.pages[candidate.words[0].page_index]
    indices = list(line.word_indices)
    before = [page.words[w].text for w in indices[:indices.index(candidate.words[0].word_index)]]
    if len(before) < 2 or before[-1].casefold() not in BASE_WORDS or not _RATE.fullmatch(before[-2]):
        return False
    return not any(set(key_tokens(text)) & DISCOUNT_WORDS for text in before)


def _closes_an_aside(doc: Document, candidate: Candidate) -> bool:
    """Whether a date closes a parenthesis it does not open: an aside's date ("Reeds betaald (iDEAL, 17-08-2024)", "(bis
    zum 22.04.2024)"), a payment's or a due date, never the invoice's own."""
    text = doc.word(candidate.words[-1]).text
    return text.endswith(")") and "(" not in text


def _reference_keyed_beside_an_invoice_key(context: DocumentContext, candidate: Candidate) -> bool:
    """Whether every key of the invoice's number before ``candidate`` only refers to a number (:func:`is_reference_key`:
    "Our Ref: FN/SHA/0412"; a final invoice's "Abschlagsrechnung AR-2024-0217 vom 14.06.2024" in its body) while the
    page keys some number with a key of the invoice's number proper ("Rechnungs-Nr. 2024-0286")."""
    if not context.invoice_number_keyed:
        return False
    hits = [hit for hit in context.keys(candidate.words) if hit is not None and "invoice_number" in hit.labels]
    if hits:
        return all(is_reference_key(context, hit, candidate.words) for hit in hits)
    # no key at all, but another document's title right before it in the body ("Abschlagsrechnung AR-2024-0217")
    where = context.index.line_of.get(candidate.words[0])
    if where is None or where[1] == 0 or context.on_title_line(candidate.words[0]):
        return False
    line = context.doc.pages[candidate.words[0].page_index].lines[where[0]]
    before = key_tokens(context.doc.word(WordRef(candidate.words[0].page_index, line.word_indices[where[1] - 1])).text)
    return bool(before) and all(is_title_word(t) for t in before)


def is_reference_key(context: DocumentContext, hit: KeyHit, value: tuple[WordRef, ...]) -> bool:
    """Whether a key of the invoice's number only refers to one: a letter's reference key (:data:`REFERENCE_KEYS`),
    or a document's title word alone ("Abschlagsrechnung") before a number off the page's title line, which names
    another document (the partial invoice a final invoice deducts)."""
    tokens = [t for r in hit.words for t in key_tokens(context.doc.word(r).text)]
    if glued_sign(context.doc.word(value[0]).text) and not in_a_sentence(context.doc, value[0]):
        # "Facture n°F-2024-0412": the key's sign glued to the value, a number's key proper (not in running text:
        # "Invoice #5821 original total $1,486.20; balance after this credit ..." names the invoice credited)
        tokens.append("no")
    if tokens[-1:] == ["no"] and len(tokens) > 1 and set(tokens[:-1]) <= PARTIAL_INVOICE_WORDS:
        tokens = tokens[:-1]  # "1. Teilrechnung Nr. 2024/0311 vom 28.06.2024" in a final invoice's deductions
    return " ".join(tokens) in _REFERENCE_KEYS or not context.on_title_line(value[0]) and (
        bool(tokens) and all(is_title_word(t) for t in tokens) or _dated_and_priced_after(context.doc, value))


LISTED_INVOICE_WORDS_AFTER = 6


def _dated_and_priced_after(doc: Document, value: tuple[WordRef, ...]) -> bool:
    """Whether a number is followed on its line by a date and then an amount: an invoice the page lists with its own
    date and sum ("Bolletta n. 412300761140 del 09/01/2024 di 168,92 € pagata il 29/01/2024"), not its own number."""
    line = line_of(doc, value[-1])
    if line is None:
        return False
    indices = list(line.word_indices)
    at = indices.index(value[-1].word_index)
    after = [doc.pages[value[-1].page_index].words[w].text for w in indices[at + 1:at + 1 + LISTED_INVOICE_WORDS_AFTER]]
    dated = next((i for i, text in enumerate(after) if _NUMERIC_DATE.fullmatch(text.strip(".,;:()"))), None)
    return dated is not None and any(_AMOUNT_WITH_DECIMALS.search(text) for text in after[dated + 1:])


_REFERENCE_KEYS = frozenset(REFERENCE_KEYS)
# The titles of the partial and advance invoices a final or progress invoice lists and deducts, with their numbers
PARTIAL_INVOICE_WORDS = frozenset({"teilrechnung", "abschlagsrechnung", "anzahlungsrechnung", "vorauszahlungsrechnung",
                                   "akontorechnung"})


def keyed_as(context: DocumentContext, candidate: Candidate, label: str) -> bool:
    """Whether a key of ``label`` stands left of the candidate or over it."""
    return any(hit is not None and label in hit.labels for hit in context.keys(candidate.words))


def _keyed_another(context: DocumentContext, candidate: Candidate, label: str) -> bool:
    """Whether the key that ends right before the value names other fields only, and so rules it out: for a date or
    number, where it names other dates or numbers ("Bestell-Datum : 01.08.2013" is no invoice date, "Beleg-Datum :
    16.09.2013" no due date, "Bill number 778 2213 0045" no order number: a scorer fitted on other producers weighs
    such a key against the value's place, and had taken the order date for the invoice's on a layout never seen); for
    an amount, or a number after a key of another kind, where the page prints the field's own key right before
    another of its kind (beside "Offener Betrag 134,60 €" the "Gesamtbetrag Brutto 144,59 €" is no amount due, beside
    "Rechnungssumme Netto 473,00" the "Steuerbasisbetrag USt. 7% 275,00" no subtotal; without a value keyed as the
    field, one keyed as another still may be it: a total is the amount due where nothing was paid). Only the key on
    the value's own row counts, but for a date or number under a header that names other dates or numbers only: a
    header above a column reaches less surely."""
    left, above = context.keys(candidate.words)
    if left is None and above is not None and candidate.kind in KEYED_FROM_ABOVE:
        # a date or number under a header that names other dates or numbers only: a hotel bill's header row "Kamer |
        # Aankomst | Vertrek | Nota nr. | Datum" over its values, whose arrival a tagger took for the bill's date at
        # 0.99 and whose room number for the bill's. A plain "Date" names the invoice's date only in a row that
        # names its number too: under "Termine di pagamento", "Data | Importo" is the due date's
        if label in above.labels or not above.labels <= KEYED_FROM_ABOVE[candidate.kind]:
            return False
        if candidate.kind == "date" and not above.labels <= OTHER_DATE_KEY_LABELS:
            line = context.index.line(above.words[0])
            return line is not None and "invoice_number" in row_keys(context.doc, above.words[0].page_index, line)
        return True
    if left is None or label in left.labels:
        return False
    if candidate.kind in KEYED_FROM_ABOVE and left.labels <= KEYED_FROM_ABOVE[candidate.kind]:
        return True
    return label in context.keyed_fields.get(candidate.kind, frozenset())


def occurrence_key(candidate: Candidate) -> Any:
    """What the printed occurrences of one value share (an amount's absolute value)."""
    return candidate.kind, abs(candidate.value) if candidate.kind == "amount" else candidate.value


def has_vat_prefix(value: str) -> bool:
    """An identifier shaped as a VAT number: a country's two-letter VAT prefix, then mostly digits ("DE123456789",
    "GB987654321"), as a seller's VAT id is printed beside a national tax number ("201/113/40209")."""
    compact = "".join(ch for ch in value if ch.isalnum())
    prefix, rest = compact[:2], compact[2:]
    starts_right = rest[:1].isdigit() or (prefix == "AT" and rest[:1] == "U")  # Austria's "ATU12345678"
    return (prefix.isalpha() and prefix.isupper() and starts_right and sum(ch.isdigit() for ch in rest) >= 6
            and has_vat_module(prefix))


def candidate_text(doc: Document, candidate: Candidate) -> str:
    return " ".join(doc.word(r).text for r in candidate.words)


def value_key(candidate: Candidate) -> Any:
    """What two candidates of one value share (an amount's absolute value: credit notes print both signs)."""
    if candidate.kind == "amount":
        return abs(candidate.value)
    if isinstance(candidate.value, (date, Decimal)):
        return candidate.value
    return candidate.value.casefold()
