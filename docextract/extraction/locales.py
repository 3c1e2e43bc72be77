"""The locale a document is written in, from evidence that cannot collide.

A locale decides how printed values are read (:mod:`docextract.extraction.normalize`): ``03/04/2024`` is
the 4th of March in en_US and the 3rd of April everywhere else; ``1,234`` is a thousand in English and
1.234 in German. Guessing it wrongly silently swaps days and months and scales amounts by a thousand,
so the guess uses only evidence that means one thing:

* **words**, matched as whole words (never substrings: "Customer" holds the German "ust", "August" too):
  each language's invoice vocabulary (:data:`docextract.vocabulary.LANGUAGE_WORDS`), counted once per distinct word. The
  language with the most decides; a tie is broken by the conventions below.
* **the number format printed**: amounts with two decimals (``1.234,50`` vs ``1,234.50``, ``12,50`` vs
  ``12.50``) and numbers grouped in thousands only (``1.234.567``).
* **date forms only one reading allows**: a numeric date whose first part is above 12 is day-first, one
  whose second part is above 12 month-first; dotted dates (``03.04.2024``) and "3 April 2024" are
  day-first, "April 3, 2024" month-first.
* **currencies**: symbols and ISO codes (``$``, ``USD``, ``£``, ``€``, ``RM``) point to a region; a bare ``$`` to every
  dollar (and peso) country's.

Within the chosen language, the locale whose conventions agree best wins (dates weigh most, since a
wrong day-month order is the costliest error), then the currency, then region words ("VAT", "Sdn Bhd").
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass

from docextract.extraction.normalize import (
    BARE_SIGN,
    DEFAULT_LOCALE,
    LOCALE_CONVENTIONS,
    MONTH_NUMBERS,
    SIGN_FAMILIES,
    currencies_in,
)
from docextract.vocabulary import LANGUAGE_WORDS, text_words, word_counts

# Words (and word pairs) that point to one region of a language.
REGION_WORDS: dict[str, tuple[str, ...]] = {
    "en_US": ("ein", "zip", "usa", "united states"),
    "en_GB": ("vat", "postcode", "sort code", "ltd", "plc", "united kingdom", "england"),
    "en_MY": ("sdn", "bhd", "gst", "malaysia", "jalan"),
    "en_AU": ("abn", "acn", "pty", "australia"),
    "en_NZ": ("ird", "new zealand", "aotearoa"),
    "en_SG": ("uen", "singapore", "pte"),
    "en_ZA": ("south africa", "cape town", "johannesburg", "pretoria", "durban", "gauteng", "sars"),
    "en_AE": ("trn", "uae", "dubai", "abu dhabi", "sharjah"),
    "en_CA": ("hst", "gst hst", "canada", "ontario", "alberta", "british columbia", "manitoba", "nova scotia"),
    "fr_CA": ("quebec", "québec", "canada", "montreal", "montréal", "tps", "tvq"),
    "es_MX": ("rfc", "cfdi", "mexico", "méxico", "sat", "c v", "m n"),  # "S.A. de C.V.", "PESOS 00/100 M.N."
    "es_AR": ("cuit", "afip", "argentina", "caba", "ingresos brutos"),
    "es_CL": ("rut", "sii", "chile", "santiago", "giro"),
    "es_US": ("ein", "sales tax", "usa", "ee uu", "estados unidos", "florida", "texas", "california", "miami",
              "houston", "los angeles", "new york", "ach", "routing"),
}

# Printed shapes that point to a region as its words do: a Canadian postal code ("L8P 1A1", "H3A 1H6": letter,
# digit, letter, then digit, letter, digit; a British postcode ends in two letters)
_CANADIAN_POSTCODE = re.compile(r"(?<![\w-])[A-Z]\d[A-Z] \d[A-Z]\d(?![\w-])")
REGION_PATTERNS: dict[str, re.Pattern] = {"en_CA": _CANADIAN_POSTCODE, "fr_CA": _CANADIAN_POSTCODE}

# Weights of agreeing conventions when choosing a locale within a language (see the module docstring).
DATE_ORDER_WEIGHT, CURRENCY_WEIGHT, DECIMAL_WEIGHT, REGION_WORD_WEIGHT = 4, 2, 2, 1
# Region words counted up to two: an Australian "ABN" and "Pty" outweigh the "Ltd" of "Pty Ltd", which the UK's too
MAX_REGION_WORDS = 2

# A two-decimal amount, optionally grouped in thousands: the decimal separator is group 2. It must not
# continue into more digits or separators ("18.02.2025" is a date, "10,0000" a four-decimal price).
_DECIMAL_AMOUNT = re.compile(r"(?<![\d.,])\d{1,3}(?:([.,\u00a0\u202f' ])\d{3})*([.,])\d{2}(?![.,]?\d)")
_GROUPED_ONLY = re.compile(r"(?<![\d.,])\d{1,3}(?:([.,])\d{3}){2,}(?![.,]?\d)")  # "1.234.567"
_NUMERIC_DATE = re.compile(r"(?<![\d.,/-])(\d{1,2})([./-])(\d{1,2})\2(\d{4}|\d{2})(?![\d.,/-]?\d)")
_MONTHS = "|".join(sorted((re.escape(m) for m in MONTH_NUMBERS), key=len, reverse=True))
_MONTH_FIRST = re.compile(rf"(?<![^\W\d_])(?:{_MONTHS})\.?\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}\b", re.IGNORECASE)
_DAY_FIRST = re.compile(rf"\b\d{{1,2}}(?:\.|st|nd|rd|th|er)?\s+(?:{_MONTHS})(?![^\W\d_])\.?,?\s+\d{{4}}\b", re.IGNORECASE)


@dataclass(frozen=True)
class LocaleEvidence:
    """What a document's text says about its locale (see the module docstring)."""

    words: dict[str, int]  # language -> distinct invoice words found
    comma_decimals: int  # amounts printed with a decimal comma (or thousands dots)
    dot_decimals: int
    day_first_dates: int  # dates only a day-first reading allows
    month_first_dates: int
    currencies: Counter  # ISO 4217 code -> times printed (symbol or code)
    region_words: dict[str, int]  # locale -> region words (and shapes: REGION_PATTERNS) found
    # the dollars printed are bare "$" signs, no "USD" or "US$": a dollar of any of the dollar countries
    bare_dollar: bool = False

    @property
    def decimal(self) -> str | None:
        if self.comma_decimals == self.dot_decimals:
            return None
        return "," if self.comma_decimals > self.dot_decimals else "."

    @property
    def day_first(self) -> bool | None:
        if self.day_first_dates == self.month_first_dates:
            return None
        return self.day_first_dates > self.month_first_dates

    @property
    def currency(self) -> str | None:
        """The currency printed most often (ties: the first printed)."""
        return self.currencies.most_common(1)[0][0] if self.currencies else None


def locale_evidence(text: str) -> LocaleEvidence:
    cleaned = unicodedata.normalize("NFKC", text)
    vocabulary, padded = text_words(cleaned)
    comma = dot = 0
    for match in _DECIMAL_AMOUNT.finditer(cleaned):
        group, decimal = match.group(1), match.group(2)
        if group == decimal:
            continue  # "1,234,56": not a number format
        comma, dot = comma + (decimal == ","), dot + (decimal == ".")
    for match in _GROUPED_ONLY.finditer(cleaned):
        comma, dot = comma + (match.group(1) == "."), dot + (match.group(1) == ",")
    day_first = len(_DAY_FIRST.findall(cleaned))
    month_first = len(_MONTH_FIRST.findall(cleaned))
    for first, separator, second, _ in _NUMERIC_DATE.findall(cleaned):
        a, b = int(first), int(second)
        if not (1 <= a <= 31 and 1 <= b <= 31) or (a > 12 and b > 12):
            continue
        if separator == "." or a > 12:
            day_first += 1  # dotted dates are day-first wherever they are printed
        elif b > 12:
            month_first += 1
    region_words = word_counts(REGION_WORDS, vocabulary, padded)
    shapes = {pattern: len(pattern.findall(cleaned)) for pattern in set(REGION_PATTERNS.values())}  # each read once
    for locale, pattern in REGION_PATTERNS.items():
        region_words[locale] = region_words.get(locale, 0) + shapes[pattern]
    currencies = Counter(currencies_in(cleaned))
    return LocaleEvidence(
        words=word_counts(LANGUAGE_WORDS, vocabulary, padded),
        comma_decimals=comma, dot_decimals=dot, day_first_dates=day_first, month_first_dates=month_first,
        currencies=currencies, region_words=region_words,
        bare_dollar=bool(currencies) and currencies.most_common(1)[0][0] == "USD"
        and "USD" not in currencies_in(BARE_SIGN.sub(" ", cleaned)),
    )


def guess_locale(text: str) -> str:
    """The locale ``text`` is most likely written in (one of :data:`LOCALE_CONVENTIONS`); en_US without evidence."""
    return choose_locale(locale_evidence(text))


def choose_locale(evidence: LocaleEvidence) -> str:
    most = max(evidence.words.values())
    languages = {language for language, hits in evidence.words.items() if hits == most} if most else None
    best, best_score = DEFAULT_LOCALE, None
    for locale, conventions in LOCALE_CONVENTIONS.items():  # table order breaks ties: en_US first
        if languages is not None and conventions.language not in languages:
            continue
        score = (DATE_ORDER_WEIGHT * (evidence.day_first == conventions.day_first)
                 + DECIMAL_WEIGHT * (evidence.decimal == conventions.decimal)
                 + CURRENCY_WEIGHT * _currency_fits(evidence, conventions.currencies)
                 + REGION_WORD_WEIGHT * min(MAX_REGION_WORDS, evidence.region_words.get(locale, 0)))
        if best_score is None or score > best_score:
            best, best_score = locale, score
    return best


def _currency_fits(evidence: LocaleEvidence, currencies: tuple[str, ...]) -> bool:
    """Whether the currency printed most points to a locale of ``currencies``: a bare "$" to every dollar (and peso)
    country's, a code or another sign to its own."""
    if evidence.bare_dollar:
        return bool(currencies) and currencies[0] in SIGN_FAMILIES["USD"]
    return evidence.currency in currencies


def document_year(text: str) -> int | None:
    """The year of the dates printed in full in ``text`` (the most frequent; ties: the first printed).
    A date printed without its year ("July 31") belongs to the document's year, not to today's."""
    cleaned = unicodedata.normalize("NFKC", text)
    years: list[tuple[int, int]] = []  # (position, year)
    for match in _NUMERIC_DATE.finditer(cleaned):
        year = match.group(4)
        years.append((match.start(), int(year) if len(year) == 4 else 2000 + int(year)))
    for pattern in (_MONTH_FIRST, _DAY_FIRST):
        years += [(m.start(), int(m.group(0).rstrip()[-4:])) for m in pattern.finditer(cleaned)]
    years += [(m.start(), int(m.group(1))) for m in _ISO_DATE.finditer(cleaned)]
    plausible = [year for _, year in sorted(years) if 1900 <= year <= 2100]
    return Counter(plausible).most_common(1)[0][0] if plausible else None


_ISO_DATE = re.compile(r"(?<![\d.,/-])(\d{4})-(\d{2})-(\d{2})(?!\d)")
