"""Where a known value is printed: the words of a page that show an invoice's true field values.

Given typed values (an e-invoice's embedded XML: ``Decimal`` amounts, ``date`` dates, strings, addresses),
:func:`locate_fields` finds every occurrence on the page that shows the value *as printed* and that the
page's own key words (or the lack of competing ones) support:

* **amounts** in any number format (``1.234,56``, ``1234,56``, ``1,234.56``, ``1 234,56`` over two words,
  with ``€``/``EUR`` glued or apart, signed or in parentheses), compared as absolute values (credit notes
  print their amounts negative or positive); each occurrence goes to the field its key words name (the words
  left of it on its row, else the row above: ``Bruttosumme``, ``Montant HT``, ``TVA``, ``Amount due``...);
  an amount that several fields share (total == amount due) goes to the one its key names, otherwise to
  total, subtotal, total_tax, amount_due in that order; an amount that also appears in the line items, or
  under a key that names another field, is left unlabelled unless a key names its field;
* **dates** in any printed form (``05.03.2018``, ``5.3.18``, ``05/03/2018``, ``2018-03-05``, ``20180305``,
  ``5. März 2018``, ``1er octobre 2023``, ``March 5, 2018``), attributed by their keys the same way (a
  delivery or order date of the same day is not the invoice date);
* **ids** (invoice number, order number, tax id, IBAN, BIC) compared compactly (case, spaces and
  punctuation ignored: ``DE 123 456 789`` is ``DE123456789``); distinctive ids everywhere a key does not
  name something else, short ones only where a key names them;
* **names, addresses, payment terms** by their compact token sequence (``ß``/``ss``, ``ü``/``ue`` and ``&``/
  ``und`` alike), an address as its street line and its postcode + city a few rows apart;
* **currency** as a separate word (``EUR``, ``€``) after a currency key or beside an amount.

A field without a supported occurrence is not located and says why: ``not printed`` (no surface form on
the page), ``printed differently`` (a near miss, e.g. a name with other words), or ``ambiguous`` (printed,
but no key tells which occurrence is this field's). This module only reads ``Document`` words, so the
labelled-data converter (``docextract convert einvoice``) and ``docextract run`` use the same matching.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any, Iterable, Mapping, Sequence

from docextract.document import Box, Document, WordRef, join_words

AMOUNT_FIELDS = ("total", "subtotal", "total_tax", "amount_due")  # also the preference without a key
DATE_FIELDS = ("invoice_date", "due_date")
KEYED_ID_FIELDS = ("invoice_number", "purchase_order")
PLAIN_ID_FIELDS = ("vendor_tax_id", "iban", "bic")
NAME_FIELDS = ("vendor_name", "customer_name")
ADDRESS_FIELDS = ("vendor_address", "billing_address", "shipping_address")

NOT_PRINTED = "not printed"
PRINTED_DIFFERENTLY = "printed differently"
AMBIGUOUS = "ambiguous"
REASONS = (NOT_PRINTED, PRINTED_DIFFERENTLY, AMBIGUOUS)

MAX_AMOUNT_WORDS = 3  # "1 234 567,89" split at its digit groups
MAX_DATE_WORDS = 4  # "5. März 2018", "March 5, 2018"
MAX_ID_WORDS = 8  # "DE08 7009 0100 1234 5678 90"
ABOVE_ROWS = 6  # how far above a value (in its heights) a key over it may sit
ADDRESS_MAX_ROWS = 6  # rows between a street line and its postcode + city
NEAR_MISS_RATIO = 0.8  # difflib similarity of a name printed with small differences
DISTINCTIVE_ID_CHARS = 6  # ids at least this long (compact, with a digit) are labelled wherever printed

_TRANSLITERATION = {"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "æ": "ae", "œ": "oe"}
_CURRENCY_SYMBOLS = {"€": "EUR", "$": "USD", "£": "GBP", "¥": "JPY", "₹": "INR", "fr.": "CHF"}
_EDGE = re.compile(r"^[\s\-−–+(\[*:;,]+|[\s\-−–+)\]*:;,.]+$")
_CURRENCY_EDGE = re.compile(r"^(?:[A-Z]{3}|[€$£¥₹])\s*|\s*(?:[A-Z]{3}|[€$£¥₹])$")

# Key words: (field, strength, pattern). The strongest key left of a value (or above it) decides; a weak
# key ("Summe", "Datum") yields to a strong one ("netto", "Lieferdatum"). "other" names a value that is not
# one of the fields (a delivery date, a customer number) and so speaks against them.
_AMOUNT_KEYS = (
    ("amount_due", 3, r"zahlbetrag|zu zahlen|zahlbarer betrag|f[aä]llige[rn]? betrag|offene[rn]? betrag|restbetrag|"
                      r"net [aà] payer|montant d[uû]|reste [aà] payer|[aà] payer|amount due|balance due|open amount|"
                      r"outstanding|amount payable|total due|due amount|payable amount|betrag f[aä]llig"),
    ("subtotal", 3, r"netto|ohne (?:ust|mwst|umsatzsteuer|steuer)|exkl|excl|zwischensumme|positionssumme|"
                    r"summe (?:der )?positionen|warenwert|summe waren|steuerbasis|basisbetrag|bemessungsgrundlage|"
                    r"tax basis|taxable|sub-?total|sub total|net total|net amount|total net|\bnet\b|\bht\b|"
                    r"hors tax|line total|total lines|sous-?total|without (?:vat|tax)|w/o (?:vat|tax)|\bexc\.? (?:vat|tax)"),
    ("total", 3, r"brutto|\bbrut\b|gesamtbetrag|rechnungsbetrag|endbetrag|endsumme|inkl|incl|\bttc\b|grand total|"
                 r"gross|invoice total|total invoice|\binc\.? (?:vat|tax)"),
    ("total_tax", 2, r"mwst|mehrwertsteuer|\bust\b|umsatzsteuer|steuerbetrag|\bsteuer\b|\btva\b|\btaxe?s?\b|\bvat\b"),
    ("total", 1, r"\btotal|\bsumme\b|rechnungssumme|\bgesamt|\bbetrag\b|\bmontant\b|\bamount\b"),
    ("other", 3, r"anzahlung|vorauszahlung|prepaid|paid|bezahlt|erhalten|acompte|d[ée]j[aà] pay|rundung|rounding|"
                 r"arrondi|skonto|discount|escompte|rabatt|abschlag|zuschlag|allowance|charge|remise|preis\b|"
                 r"unit price|prix unitaire|einzelpreis|price"),
)
_DATE_KEYS = (
    ("invoice_date", 3, r"rechnungsdatum|belegdatum|ausstellungsdatum|invoice date|date of invoice|issue date|"
                        r"date de (?:la )?facture|date d.[ée]mission|rechnung vom|gutschrift vom|date:? de facturation"),
    ("due_date", 3, r"f[aä]llig|zahlungsziel|zahlbar bis|zahlbar am|zahlbar zum|zahlungsfrist|netto bis|\bdue\b|"
                    r"[ée]ch[ée]ance|payable (?:by|until|before|on)|pay by|payment date|zahlungsdatum|sp[aä]testens|"
                    r"[aà] r[ée]gler avant|date limite de paiement"),
    ("other", 3, r"lieferdatum|lieferung|liefertermin|liefer-|geliefert|lieferschein|delivery note|leistungsdatum|leistungszeit|\bleistung\b|"
                 r"delivery|livraison|bestell|\border|commande|auftrag|period|zeitraum|skonto|"
                 r"discount|escompte|versand|ship|g[uü]ltig|valid|vertrag|contract|abschlag|anzahlung|received|"
                 r"erhalten|\bvon\b|\bfrom\b|\bab\b|start|\bende\b|\bend\b|bis zum|geburt|birth|referenz|reference|dated|"
                 r"bezug|r[ée]f[ée]rence|leistungszeitraum"),
    ("invoice_date", 1, r"\bdatum\b|\bdate\b|\bvom\b|\bdu\b|\ble\b|rechnung|invoice|facture"),
    ("due_date", 1, r"\bbis\b|\buntil\b|\bjusqu"),
)
_ID_KEYS = (
    ("invoice_number", 3, r"rechnungs-?n(?:umme)?r|rechnung nr|invoice (?:number|no|#)|num[ée]ro de facture|"
                          r"n° de facture|facture n|belegnummer|beleg-?nr|gutschrift(?:s-?nr| nr)|dokumentnummer"),
    ("purchase_order", 3, r"bestell|purchase order|order (?:number|no|ref)|\bpo\b|commande|auftragsn|ihr auftrag|"
                          r"your order|order:"),
    ("other", 3, r"kunde|customer|client|lieferschein|delivery|despatch|versand|referenz|reference|vertrag|"
                 r"contract|projekt|project|steuer|\bust\b|\bvat\b|\btva\b|\biban\b|\bkonto|account|\btel\b|"
                 r"telefon|\bfax\b|phone|\bgln\b|\bgtin\b|artikel|article|art-?nr|\bitem|mandat|gl[aä]ubiger|"
                 r"creditor|vorgang|aktenzeichen"),
    ("invoice_number", 1, r"rechnung|invoice|facture|beleg|\bnr\b|\bno\b|number|num[ée]ro|n°|#"),
)
_CURRENCY_KEYS = re.compile(r"w[aä]hrung|currency|devise|betr[aä]ge in|amounts in|montants en|in eur")


@dataclass(frozen=True)
class Location:
    """Where one field's value is printed: each occurrence's words in reading order (empty: not located)."""

    field: str
    occurrences: tuple[tuple[WordRef, ...], ...]
    reason: str | None = None  # why not located (one of REASONS); None when located
    printed: str = ""  # the first occurrence as printed (lines joined with ", ")

    @property
    def found(self) -> bool:
        return bool(self.occurrences)


def locate_fields(doc: Document, values: Mapping[str, Any], line_item_amounts: Iterable[Decimal] = ()
                  ) -> dict[str, Location]:
    """Each field of ``values`` (typed: Decimal, date, str, or an object with ``printed_lines()``) located
    among ``doc``'s words. No word is given to two fields; ``line_item_amounts`` are amounts the line items
    print (an equal total is labelled only under a totals key)."""
    page = _PageText(doc)
    claimed: set[WordRef] = set()
    located: dict[str, Location] = {}

    def settle(name: str, occurrences: list[tuple[WordRef, ...]], reason: str | None) -> None:
        kept = [o for o in occurrences if not claimed.intersection(o)]
        if occurrences and not kept:
            reason = AMBIGUOUS  # every occurrence is another field's words
        for occurrence in kept:
            claimed.update(occurrence)
        located[name] = Location(name, tuple(kept), None if kept else (reason or NOT_PRINTED),
                                 page.printed(kept[0]) if kept else "")

    text_fields = {k: v for k, v in values.items() if k == "payment_terms"}
    for name, value in text_fields.items():
        settle(name, *_locate_text(page, str(value), multiline=True))
    amounts = {k: Decimal(v) for k, v in values.items() if k in AMOUNT_FIELDS and v is not None}
    for name, (occurrences, reason) in _locate_amounts(page, amounts, set(map(abs, line_item_amounts))).items():
        settle(name, occurrences, reason)
    dates = {k: v for k, v in values.items() if k in DATE_FIELDS and isinstance(v, date)}
    for name, (occurrences, reason) in _locate_dates(page, dates).items():
        settle(name, occurrences, reason)
    for name in KEYED_ID_FIELDS + PLAIN_ID_FIELDS:
        if values.get(name):
            settle(name, *_locate_id(page, name, str(values[name])))
    if values.get("currency"):
        amount_words = {page.position[r] for name in AMOUNT_FIELDS if name in located for o in located[name].occurrences
                        for r in o}
        settle("currency", *_locate_currency(page, str(values["currency"]), amount_words))
    for name in NAME_FIELDS:
        if values.get(name):
            settle(name, *_locate_text(page, str(values[name]), multiline=True))
    for name in ADDRESS_FIELDS:
        if values.get(name):
            settle(name, *_locate_address(page, values[name]))
    return {name: located[name] for name in values if name in located}


# ---------------------------------------------------------------- the page as matchable text


def compact(text: str) -> str:
    """Case-folded letters and digits only, umlauts and ß spelled out (``Straße`` == ``STRASSE``)."""
    out = []
    for ch in unicodedata.normalize("NFKC", text).casefold():
        if ch in _TRANSLITERATION:
            out.append(_TRANSLITERATION[ch])
        elif ch.isalnum():
            out.append(unicodedata.normalize("NFKD", ch)[0])
    return "".join(out)


class _PageText:
    """The document's words in reading order with their boxes, and their compact text with boundaries."""

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self.refs = doc.ordered_words()
        self.position = {ref: i for i, ref in enumerate(self.refs)}
        self.words = [doc.word(r) for r in self.refs]
        self.texts = [unicodedata.normalize("NFKC", w.text) for w in self.words]
        chars: list[str] = []
        word_of: list[int] = []
        start_ok: list[bool] = []
        end_ok: list[bool] = []
        for position, text in enumerate(self.texts):
            pieces = [(i, compact(ch)) for i, ch in enumerate(text)]
            pieces = [(i, piece) for i, piece in pieces if piece]
            for n, (at, piece) in enumerate(pieces):
                # A token starts at the word's start, where letters turn to digits or back ("Nr.471102"), or
                # after a separator inside the word ("USt-IdNr.:DE123456789"), but not after the "-./,"
                # that join the parts of one number ("2013-471102" does not hold "471102").
                split_before = n == 0 or _class(pieces[n - 1][1][-1]) != _class(piece[0]) \
                    or _hard_separator(text[pieces[n - 1][0] + 1:at])
                split_after = n == len(pieces) - 1 or _class(pieces[n + 1][1][0]) != _class(piece[-1]) \
                    or _hard_separator(text[at + 1:pieces[n + 1][0]])
                for k, ch in enumerate(piece):
                    chars.append(ch)
                    word_of.append(position)
                    start_ok.append(k == 0 and split_before)
                    end_ok.append(k == len(piece) - 1 and split_after)
        self.text = "".join(chars)
        self.word_of, self.start_ok, self.end_ok = word_of, start_ok, end_ok

    def box(self, i: int) -> Box:
        return self.words[i].box

    def page(self, i: int) -> int:
        return self.refs[i].page_index

    def same_row(self, i: int, j: int) -> bool:
        if self.page(i) != self.page(j):
            return False
        a, b = self.box(i), self.box(j)
        return a.vertical_overlap(b) >= 0.5 * min(a.height, b.height)

    def find(self, needle: str, *, multiline: bool = False, max_words: int | None = None) -> list[tuple[int, ...]]:
        """Word positions of every occurrence of the compact ``needle`` that starts and ends on a token
        boundary and keeps to one row (``multiline``: to consecutive rows of one page)."""
        out: list[tuple[int, ...]] = []
        if not needle:
            return out
        offset = self.text.find(needle)
        while offset >= 0:
            end = offset + len(needle) - 1
            if self.start_ok[offset] and self.end_ok[end]:
                span = tuple(range(self.word_of[offset], self.word_of[end] + 1))
                if (max_words is None or len(span) <= max_words) and self._together(span, multiline):
                    if not out or out[-1] != span:
                        out.append(span)
            offset = self.text.find(needle, offset + 1)
        return out

    def _together(self, span: tuple[int, ...], multiline: bool) -> bool:
        for a, b in zip(span, span[1:]):
            if self.page(a) != self.page(b):
                return False
            if not multiline and not self.same_row(a, b):
                return False
            if multiline and not self.same_row(a, b):
                gap = self.box(b).top - self.box(a).bottom
                if gap > 2.5 * max(self.box(a).height, self.box(b).height):
                    return False
        return True

    def windows(self, size: int) -> Iterable[tuple[int, ...]]:
        """Runs of ``size`` consecutive words in reading order that keep to one row."""
        for start in range(len(self.words) - size + 1):
            span = tuple(range(start, start + size))
            if all(self.same_row(a, b) for a, b in zip(span, span[1:])):
                yield span

    def left_text(self, span: Sequence[int], stop=None) -> tuple[str, list[str]]:
        """The words left of ``span`` on its row, nearest last (cut after a word ``stop`` accepts), else the
        nearest row of words above it that overlaps it horizontally. Returns (text, where: 'left'/'above')."""
        first = span[0]
        box = Box.enclosing([self.box(i) for i in span])
        page = self.page(first)
        left = [i for i in range(len(self.words)) if i not in span and self.page(i) == page
                and self.box(i).x1 <= box.x0 + 1 and self.box(i).vertical_overlap(box) >= 0.5 * min(self.box(i).height, box.height)]
        left.sort(key=lambda i: self.box(i).x0)
        if stop is not None:
            for n in range(len(left) - 1, -1, -1):
                if stop(self.texts[left[n]]):
                    left = left[n + 1:]
                    break
        if left:
            return " ".join(self.texts[i] for i in left), ["left"]
        above = [i for i in range(len(self.words)) if self.page(i) == page and self.box(i).bottom <= box.top + 1
                 and self.box(i).bottom >= box.top - ABOVE_ROWS * box.height
                 and min(self.box(i).x1, box.x1 + 5) - max(self.box(i).x0, box.x0 - 5) > 0]
        # The nearest row above that has words (not another row of numbers): a column's header, a stacked key.
        while above:
            nearest = max(self.box(i).bottom for i in above)
            row = sorted((i for i in above if self.box(i).bottom >= nearest - 0.5 * box.height), key=lambda i: self.box(i).x0)
            if any(sum(ch.isalpha() for ch in self.texts[i]) >= 3 for i in row):
                return " ".join(self.texts[i] for i in row), ["above"]
            above = [i for i in above if i not in row]
        return "", []

    def refs_of(self, span: Iterable[int]) -> tuple[WordRef, ...]:
        return tuple(self.refs[i] for i in sorted(set(span)))

    def printed(self, refs: Sequence[WordRef]) -> str:
        """The words as printed, rows joined with ", "."""
        positions = [self.position[r] for r in refs]
        rows: list[list[int]] = []
        for i in positions:
            if rows and self.same_row(rows[-1][-1], i):
                rows[-1].append(i)
            else:
                rows.append([i])
        return ", ".join(join_words([self.doc.word(self.refs[i]) for i in row]) for row in rows)


def _hard_separator(between: str) -> bool:
    """Characters between two letters or digits of one word that split it into tokens (":", "#", "(")."""
    return any(not ch.isalnum() and ch not in "-./,'’" for ch in between)


def _class(ch: str) -> str:
    return "digit" if ch.isdigit() else "alpha"


def _key_kinds(text: str, keys) -> dict[str, tuple[int, int]]:
    """Field -> (strongest key strength, position of its nearest match's end) for the keys in ``text``."""
    lowered = " ".join(unicodedata.normalize("NFKC", text).casefold().split())
    found: dict[str, tuple[int, int]] = {}
    for name, strength, pattern in keys:
        # Spaces inside a key are optional: some renderers glue words ("RechnungssummeohneUSt.").
        ends = [m.end() for m in re.finditer(pattern.replace(" ", r"\s?"), lowered)]
        if ends:
            best = found.get(name, (0, -1))
            found[name] = max(best, (strength, max(ends)))
    return found


def _decide(kinds: dict[str, tuple[int, int]], candidates: Sequence[str]) -> str | None:
    """The key that speaks for this value: the strongest, then the nearest; None when there is no key."""
    if not kinds:
        return None
    best = max(kinds.items(), key=lambda item: (item[1][0], item[1][1], -_priority(item[0], candidates)))
    return best[0]


def _priority(name: str, order: Sequence[str]) -> int:
    return order.index(name) if name in order else len(order)


# ---------------------------------------------------------------- amounts


def amount_forms(value: Decimal) -> set[str]:
    """``value``'s absolute amount as invoices print it: 1234.5 -> 1234,50 / 1.234,50 / 1,234.50 / 1 234,50 ..."""
    value = abs(value)
    forms = set()
    texts = {f"{value:.2f}"}
    if value.as_tuple().exponent < -2:  # more decimals than cents: also as stated ("9.9000")
        texts.add(format(value, "f"))
    for text in texts:
        whole, _, fraction = text.partition(".")
        groups = []
        while len(whole) > 3:
            groups.insert(0, whole[-3:])
            whole = whole[:-3]
        groups.insert(0, whole)
        for decimal_sep in (",", "."):
            for group_sep in ("", ".", ",", " ", "'", "’"):
                if group_sep == decimal_sep:
                    continue
                forms.add(group_sep.join(groups) + decimal_sep + fraction)
    return forms


def _amount_text(texts: Sequence[str]) -> str:
    """A run of words as a bare number: currency symbols or codes and signs at its ends removed."""
    text = " ".join(texts).replace("\u00a0", " ").replace("\u202f", " ")
    for _ in range(3):
        text = _CURRENCY_EDGE.sub("", _EDGE.sub("", text.strip()))
    return text.strip()


_AMOUNT_LIKE = re.compile(r"\d[.,]\d{2}(?!\d)")


def _locate_amounts(page: _PageText, amounts: Mapping[str, Decimal], line_items: set[Decimal]
                    ) -> dict[str, tuple[list[tuple[WordRef, ...]], str | None]]:
    forms = {name: amount_forms(value) for name, value in amounts.items()}
    occurrences: list[tuple[tuple[int, ...], list[str]]] = []  # (span, candidate fields)
    taken: set[int] = set()
    for size in range(MAX_AMOUNT_WORDS, 0, -1):  # the longest reading first ("1 234,56" over "234,56")
        for span in page.windows(size):
            if taken.intersection(span) or not all(any(c.isdigit() for c in page.texts[i]) for i in (span[0], span[-1])):
                continue
            text = _amount_text([page.texts[i] for i in span])
            candidates = [name for name in AMOUNT_FIELDS if name in forms and text in forms[name]]
            if candidates:
                occurrences.append((span, candidates))
                taken.update(span)
    result: dict[str, tuple[list[tuple[WordRef, ...]], str | None]] = {}
    supported: dict[str, list[tuple[int, ...]]] = {name: [] for name in amounts}
    keyless: dict[str, list[tuple[int, ...]]] = {name: [] for name in amounts}
    seen: dict[str, int] = {name: 0 for name in amounts}
    for span, candidates in occurrences:
        for name in candidates:
            seen[name] += 1
        key_text, where = page.left_text(span)
        kinds = _key_kinds(key_text, _AMOUNT_KEYS)
        in_line_items = abs(amounts[candidates[0]]) in line_items
        if in_line_items and where == ["left"] and _AMOUNT_LIKE.search(key_text):
            kinds = {}  # a line item's row ("2 Beratung 0,00 1 Stk 0 % VAT 0,00"): its tax column is no totals key
            in_line_items = True
        named = [name for name in candidates if name in kinds]
        best = max(named, key=lambda n: (kinds[n], -_priority(n, AMOUNT_FIELDS))) if named else None
        if best is not None and kinds.get("other", (0, -1)) > kinds[best]:
            best = None  # a nearer key says what else it is ("Bruttopreis", "Gesamtbetrag der Zuschläge")
        if best is not None:
            supported[best].append(span)
        elif not kinds and not in_line_items:
            for name in candidates:
                keyless[name].append(span)
    used: set[tuple[int, ...]] = {span for spans in supported.values() for span in spans}
    for name in AMOUNT_FIELDS:
        if name not in amounts:
            continue
        spans = supported[name]
        if not spans:
            free = [span for span in keyless[name] if span not in used]
            if len(free) == 1 and len(keyless[name]) == 1:
                spans = free  # printed once, without a key, not a line item: it can only be this field
                used.update(free)
        reason = None if spans else (AMBIGUOUS if seen[name] else NOT_PRINTED)
        result[name] = ([page.refs_of(span) for span in spans], reason)
    return result


# ---------------------------------------------------------------- dates

_MONTHS = {
    1: ("januar", "jänner", "jan", "january", "janvier", "janv"),
    2: ("februar", "feb", "february", "février", "fevrier", "févr", "fevr"),
    3: ("märz", "maerz", "mär", "mar", "march", "mars"),
    4: ("april", "apr", "avril", "avr"),
    5: ("mai", "may"),
    6: ("juni", "jun", "june", "juin"),
    7: ("juli", "jul", "july", "juillet", "juil"),
    8: ("august", "aug", "août", "aout"),
    9: ("september", "sep", "sept", "septembre"),
    10: ("oktober", "okt", "oct", "october", "octobre"),
    11: ("november", "nov", "novembre"),
    12: ("dezember", "dez", "dec", "december", "décembre", "decembre", "déc"),
}


def date_forms(day: date) -> set[str]:
    """``day`` as invoices print it, case-folded with single spaces (``05.03.2018``, ``5. märz 2018``, ...)."""
    d, m, y = day.day, day.month, day.year
    days, months, years = {f"{d:02d}", str(d)}, {f"{m:02d}", str(m)}, {str(y), f"{y % 100:02d}"}
    forms = {f"{y}-{m:02d}-{d:02d}", f"{y}{m:02d}{d:02d}", f"{y}/{m:02d}/{d:02d}", f"{y}.{m:02d}.{d:02d}"}
    for dd in days:
        for mm in months:
            for yy in years:
                for sep in (".", "/", "-"):
                    forms.add(f"{dd}{sep}{mm}{sep}{yy}")
                    forms.add(f"{mm}{sep}{dd}{sep}{yy}")
    forms.add(f"{d:02d}{m:02d}{y}")
    for name in _MONTHS[m]:
        for mon in {name, name + "."}:
            for dd in days | {f"{d}er", f"{d}st", f"{d}nd", f"{d}rd", f"{d}th"}:
                forms.update({f"{dd}. {mon} {y}", f"{dd} {mon} {y}", f"{mon} {dd}, {y}", f"{mon} {dd} {y}",
                              f"{dd}-{mon}-{y}", f"{dd} {mon}, {y}", f"{dd}. {mon}. {y}"})
    return forms


def _date_text(texts: Sequence[str]) -> str:
    text = " ".join(" ".join(texts).casefold().split())
    return text.strip(" ,;:()[]")


_DATE_LIKE = re.compile(r"\d{1,4}[./-]\d{1,2}[./-]\d{2,4}|\b(?:19|20)\d{2}\b")


def _locate_dates(page: _PageText, dates: Mapping[str, date]) -> dict[str, tuple[list[tuple[WordRef, ...]], str | None]]:
    forms = {name: date_forms(value) for name, value in dates.items()}
    occurrences: list[tuple[tuple[int, ...], list[str]]] = []
    taken: set[int] = set()
    for size in range(MAX_DATE_WORDS, 0, -1):  # the longest reading first ("0 5.03.2018" split by a renderer)
        for span in page.windows(size):
            if taken.intersection(span) or not all(compact(page.texts[i]) for i in (span[0], span[-1])):
                continue  # a window starts and ends on a word of the date (not on a ":" beside it)
            texts = [page.texts[i] for i in span]
            candidates = [n for n in DATE_FIELDS if n in forms and (_date_text(texts) in forms[n]
                                                                    or _date_text(["".join(texts)]) in forms[n])]
            if candidates:
                occurrences.append((span, candidates))
                taken.update(span)
    return _attribute(page, occurrences, list(dates), _DATE_KEYS, DATE_FIELDS,
                      stop=lambda text: bool(_DATE_LIKE.search(text)))


def _attribute(page: _PageText, occurrences, names: Sequence[str], keys, order: Sequence[str], stop=None,
               everywhere: Sequence[str] = ()) -> dict[str, tuple[list[tuple[WordRef, ...]], str | None]]:
    """Each occurrence to the field its nearest strongest key names; a field without any keyed occurrence
    keeps its one key-free occurrence. Fields in ``everywhere`` also keep every occurrence no key contradicts."""
    supported: dict[str, list[tuple[int, ...]]] = {name: [] for name in names}
    keyless: dict[str, list[tuple[int, ...]]] = {name: [] for name in names}
    seen = {name: 0 for name in names}
    for span, candidates in occurrences:
        for name in candidates:
            seen[name] += 1
        kinds = _key_kinds(page.left_text(span, stop=stop)[0], keys)
        decided = _decide(kinds, order)
        if decided in candidates:
            supported[decided].append(span)
        elif decided is None:
            for name in candidates:
                keyless[name].append(span)
    result = {}
    for name in names:
        spans = supported[name]
        if name in everywhere:
            spans = sorted(set(spans) | set(keyless[name]))
        elif not spans and len(keyless[name]) == 1 and not any(keyless[name][0] in supported[o] for o in names):
            spans = keyless[name]
        reason = None if spans else (AMBIGUOUS if seen[name] else NOT_PRINTED)
        result[name] = ([page.refs_of(span) for span in spans], reason)
    return result


# ---------------------------------------------------------------- ids, currency, names, addresses


def _locate_id(page: _PageText, name: str, value: str) -> tuple[list[tuple[WordRef, ...]], str | None]:
    needle = compact(value)
    spans = page.find(needle, max_words=MAX_ID_WORDS)
    if not spans:
        return [], _near_miss(page, needle)
    if name in PLAIN_ID_FIELDS:
        return [page.refs_of(span) for span in spans], None
    distinctive = len(needle) >= DISTINCTIVE_ID_CHARS and any(c.isdigit() for c in needle)
    result = _attribute(page, [(span, [name]) for span in spans], [name], _ID_KEYS, KEYED_ID_FIELDS,
                        everywhere=[name] if distinctive else ())
    return result[name]


def _locate_currency(page: _PageText, code: str, amount_words: set[int]) -> tuple[list[tuple[WordRef, ...]], str | None]:
    """The code or symbol as a word of its own, after a currency key or beside a located total (as
    ``docextract synth`` labels it; a symbol glued to an amount stays part of the amount)."""
    code = code.upper()
    symbols = {s for s, c in _CURRENCY_SYMBOLS.items() if c == code}
    spans = []
    glued = False
    for i, text in enumerate(page.texts):
        bare = text.strip(" :;,.()").casefold()
        if bare != code.casefold() and bare not in symbols:
            glued = glued or (code in text.upper() or any(s in text for s in symbols))
            continue
        beside_amount = any(j in amount_words and page.same_row(i, j) for j in (i - 1, i + 1))
        if beside_amount or _CURRENCY_KEYS.search(page.left_text((i,))[0].casefold()):
            spans.append((i,))
    if spans:
        return [page.refs_of(span) for span in spans], None
    return [], PRINTED_DIFFERENTLY if glued else NOT_PRINTED


def _variants(value: str) -> list[str]:
    forms = [value]
    for a, b in ((" & ", " und "), (" & ", " and "), (" & ", " et ")):
        if a in value:
            forms.append(value.replace(a, b))
    return forms


def _locate_text(page: _PageText, value: str, multiline: bool) -> tuple[list[tuple[WordRef, ...]], str | None]:
    """A name or a free text: every occurrence of the whole value; a multi-line text (payment terms) may be
    found line by line instead (all its lines that are printed, as one occurrence)."""
    lines = [line for line in value.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    whole = " ".join(lines)
    spans = sorted({span for form in _variants(whole) for span in page.find(compact(form), multiline=multiline)})
    if spans:
        return [page.refs_of(span) for span in _non_overlapping(spans)], None
    if len(lines) > 1:
        found = [page.find(compact(line), multiline=True)[:1] for line in lines if len(line.split()) >= 3]
        words = [i for spans_ in found for span in spans_ for i in span]
        if words:
            return [page.refs_of(words)], None
    return [], _near_miss(page, compact(whole))


def _non_overlapping(spans: Sequence[tuple[int, ...]]) -> list[tuple[int, ...]]:
    kept: list[tuple[int, ...]] = []
    for span in sorted(spans, key=lambda s: (s[0], -len(s))):
        if kept and span[0] <= kept[-1][-1]:
            continue
        kept.append(span)
    return kept


def _near_miss(page: _PageText, needle: str) -> str:
    """``printed differently`` when some run of words is close to the value, else ``not printed``."""
    if len(needle) < 4:
        return NOT_PRINTED
    matcher = difflib.SequenceMatcher(autojunk=False)
    matcher.set_seq2(needle)
    pieces = [compact(t) for t in page.texts]
    low, high = len(needle) * 0.75, len(needle) * 1.25
    for start in range(len(pieces)):
        joined = ""
        for end in range(start, min(len(pieces), start + 12)):
            joined += pieces[end]
            if len(joined) > high:
                break
            if len(joined) < low:
                continue
            matcher.set_seq1(joined)
            if matcher.real_quick_ratio() >= NEAR_MISS_RATIO and matcher.quick_ratio() >= NEAR_MISS_RATIO \
                    and matcher.ratio() >= NEAR_MISS_RATIO:
                return PRINTED_DIFFERENTLY
    return NOT_PRINTED


def _locate_address(page: _PageText, address: Any) -> tuple[list[tuple[WordRef, ...]], str | None]:
    """An address: its first street line, then its postcode and city (either order) on the same row or a
    few rows below, with the other street lines between and a country code glued before the postcode."""
    lines = list(getattr(address, "lines", ()))
    postcode, city = getattr(address, "postcode", ""), getattr(address, "city", "")
    country = getattr(address, "country", "")
    places = [page.find(compact(f"{a} {b}"), max_words=6) for a, b in ((postcode, city), (city, postcode)) if a and b]
    place_spans = sorted({span for spans in places for span in spans})
    if not place_spans and (postcode or city):
        place_spans = page.find(compact(city or postcode), max_words=4) if not lines else []
    if not lines:
        return ([page.refs_of(span) for span in place_spans], None) if place_spans else ([], NOT_PRINTED)
    street_spans = page.find(compact(lines[0]), multiline=False, max_words=8)
    occurrences = []
    for street in street_spans:
        s_box = page.box(street[0])
        best = None
        for place in place_spans:
            p_box = page.box(place[0])
            if page.page(place[0]) != page.page(street[0]) or place[0] < street[0]:
                continue
            rows_below = (p_box.top - s_box.top) / max(s_box.height, 1.0)
            same_row = page.same_row(street[-1], place[0])
            column = abs(p_box.x0 - s_box.x0) <= 6 * s_box.height or p_box.x0 >= s_box.x0 - 2
            if same_row or (0 < rows_below <= ADDRESS_MAX_ROWS * 1.6 and column):
                best = place
                break
        if best is None:
            continue
        words = set(street) | set(best)
        for line in lines[1:]:
            for span in page.find(compact(line), max_words=8):
                if street[-1] < span[0] and span[-1] < best[0]:
                    words.update(span)
                    break
        if page.same_row(street[-1], best[0]) and best[0] - street[-1] <= 4:
            # a one-line address ("123 Business Road · EC1A 1BB London"): its words, not the separators
            words.update(i for i in range(street[-1] + 1, best[0]) if compact(page.texts[i]))
        before = best[0] - 1
        if country and before > street[-1] and page.same_row(before, best[0]) \
                and compact(page.texts[before]) == compact(country):
            words.add(before)  # "DE 80333 München"
        occurrences.append(tuple(sorted(words)))
    if occurrences:
        return [page.refs_of(o) for o in _non_overlapping(occurrences)], None
    if street_spans or place_spans:
        return [], PRINTED_DIFFERENTLY  # one part printed, not the whole address together
    return [], _near_miss(page, compact(" ".join(lines)))


# ---------------------------------------------------------------- line items

LINE_ITEM_CELLS = ("description", "quantity", "unit_price", "amount")


def locate_line_items(doc: Document, rows: Sequence[Mapping[str, Any]]) -> list[dict[str, tuple[WordRef, ...]]]:
    """Where each of an invoice's line items is printed: per row, each cell's words (cells not found are absent).

    ``rows``: the XML's rows in order, ``description`` a string and ``quantity``, ``unit_price``, ``amount`` Decimals
    (or None). A row is found by its description (the first occurrence after the previous row's, else any free
    one); its numbers are then read on the description's line (or the line under it): the amount and the unit price
    right-most (columns end in the line total), the quantity left-most, each in any number format. No word is given
    to two cells."""
    page = _PageText(doc)
    claimed: set[int] = set()
    after = -1
    located = []
    for row in rows:
        cells: dict[str, tuple[WordRef, ...]] = {}
        span = _description_span(page, " ".join(str(row.get("description") or "").split()), claimed, after)
        if span is not None:
            claimed.update(span)
            after = span[0]
            cells["description"] = page.refs_of(span)
            for name, rightmost in (("amount", True), ("unit_price", True), ("quantity", False)):
                value = row.get(name)
                if value is None:
                    continue
                found = _number_on_row(page, span, Decimal(value), claimed, rightmost, integer=name == "quantity")
                if found is not None:
                    claimed.update(found)
                    cells[name] = page.refs_of(found)
        located.append(cells)
    return located


def _description_span(page: _PageText, description: str, claimed: set[int], after: int) -> tuple[int, ...] | None:
    """The words of a line item's description: the whole of it, else its first words (a long description the
    page cuts or wraps around other columns), the first free occurrence after position ``after`` preferred."""
    words = description.split()
    for count in ([len(words)] + [n for n in (4, 3) if n < len(words)]):
        needle = compact(" ".join(words[:count]))
        if len(needle) < 4 and count < len(words):
            continue
        spans = [s for s in page.find(needle, multiline=True) if not claimed.intersection(s)] if needle else []
        if spans:
            return next((s for s in spans if s[0] > after), spans[0])
    return None


def _number_on_row(page: _PageText, row: tuple[int, ...], value: Decimal, claimed: set[int], rightmost: bool,
                   integer: bool) -> tuple[int, ...] | None:
    """The words on the row of ``row``, right of its first word, that print ``value`` and are not yet ``claimed``."""
    forms = amount_forms(value)
    if integer and value == value.to_integral_value():
        forms.add(str(abs(int(value))))  # a quantity printed without decimals
    first = page.box(row[0])
    # on the description's line or the next one: a table may set its amounts a line lower than the text
    low, high = first.top - 0.5 * first.height, first.bottom + 1.2 * first.height
    on_row = {i for i in range(len(page.words))
              if i not in claimed and page.page(i) == page.page(row[0]) and page.box(i).x0 > first.x0
              and low <= (page.box(i).top + page.box(i).bottom) / 2 <= high}
    candidates = []
    for start in sorted(on_row):
        for size in range(1, MAX_AMOUNT_WORDS + 1):
            span = tuple(range(start, start + size))
            if not on_row.issuperset(span) or not all(page.same_row(a, b) for a, b in zip(span, span[1:])):
                break
            if any(c.isdigit() for c in page.texts[start]) and _amount_text([page.texts[i] for i in span]) in forms:
                candidates.append(span)
    if not candidates:
        return None
    if rightmost:
        return max(candidates, key=lambda s: (page.box(s[-1]).x1, len(s)))
    return min(candidates, key=lambda s: (page.box(s[0]).x0, -len(s)))


def quantity_forms(value: Decimal) -> set[str]:
    """A quantity as item tables print it: ``2``, ``2,0``, ``2.00``, ``2,000``, ``1.500,00`` (absolute value)."""
    value = abs(value)
    places = max(0, -value.normalize().as_tuple().exponent)
    forms = set(amount_forms(value)) if value >= 1000 else set()
    if value >= 1000 and value == value.to_integral_value():  # "5 000", "5.000", "5,000"
        forms.update([form.rpartition(sep)[0] for form in forms for sep in ".," if form.endswith(sep + "00")])
    for digits in range(places, 5):
        text = f"{value:.{digits}f}"
        forms.update({text, text.replace(".", ",")})
    return forms


def locate_line_items_exactly(doc: Document, items: Sequence[Mapping[str, Any]]) -> list[dict[str, tuple[WordRef, ...]]] | None:
    """Each item's cells on the page, all or nothing (labels by construction, `docextract render`; `run` reads an
    e-invoice's rows leniently with :func:`locate_line_items`): its description (by token sequence, wrapped lines allowed, found in item
    order), then on the description's rows the words that show its ``quantity``, ``unit_price`` and ``amount``
    (Decimal, or None where the renderer prints no such cell). Numbers are right-aligned in columns, so a cell
    whose value stands more than once on its row (a VAT column equal to the unit price, the position number
    equal to the quantity) is the match nearest the right edge its column has on the rows where it is
    unambiguous. None when a description or a printed cell is not found, or stays ambiguous."""
    page = _PageText(doc)
    rows: list[tuple[tuple[int, ...], dict[str, list[tuple[int, ...]]]]] = []
    after, claimed = -1, set()
    for item in items:
        spans = [s for s in page.find(compact(str(item["description"])), multiline=True)
                 if s[0] > after and not claimed.intersection(s)]
        if not spans:
            return None
        description = spans[0]
        row = {i for i in range(len(page.words)) if i not in description and i not in claimed
               and any(page.same_row(i, d) for d in description)}
        candidates: dict[str, list[tuple[int, ...]]] = {}
        for cell in ("amount", "unit_price", "quantity"):
            if item.get(cell) is None:
                continue
            value = Decimal(item[cell])
            forms = quantity_forms(value) if cell == "quantity" else amount_forms(value)
            matches: list[tuple[int, ...]] = []
            for size in (3, 2, 1):  # the longest reading first ("1 234,56" over "234,56")
                for span in page.windows(size):
                    if set(span) <= row and not any(set(span) & set(m) for m in matches) and all(
                            any(c.isdigit() for c in page.texts[i]) for i in (span[0], span[-1])) \
                            and _amount_text([page.texts[i] for i in span]) in forms:
                        matches.append(span)
            if not matches:
                return None
            candidates[cell] = matches
        claimed.update(description)
        after = description[0]
        rows.append((description, candidates))
    # where each number column ends: its right edge on the rows where the cell has exactly one match
    edges: dict[str, list[float]] = {}
    for _, candidates in rows:
        for cell, matches in candidates.items():
            if len(matches) == 1:
                edges.setdefault(cell, []).append(page.box(matches[0][-1]).x1)
    column = {cell: sorted(xs)[len(xs) // 2] for cell, xs in edges.items()}
    out: list[dict[str, tuple[WordRef, ...]]] = []
    for description, candidates in rows:
        cells: dict[str, tuple[WordRef, ...]] = {"description": page.refs_of(description)}
        used: set[int] = set()
        for cell, matches in candidates.items():
            free = [m for m in matches if not used.intersection(m)]
            if len(free) > 1:
                if cell not in column:
                    return None
                free.sort(key=lambda m: abs(page.box(m[-1]).x1 - column[cell]))
                if abs(page.box(free[0][-1]).x1 - column[cell]) == abs(page.box(free[1][-1]).x1 - column[cell]):
                    return None
            if not free:
                return None
            cells[cell] = page.refs_of(free[0])
            used.update(free[0])
        out.append(cells)
    return out
