"""Typed values from printed text: dates to ISO 8601, amounts to decimal strings with ISO 4217 codes.

Parsing respects the document's locale: ``03/04/2024`` is the 4th of March in an en_US document
and the 3rd of April in a de_DE, fr_FR, nl_NL, it_IT or es_ES one; ``1.234,56`` is 1234.56 there.
Each parser returns ``None`` when the text cannot be read as that type; it never guesses wildly.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal, InvalidOperation

from dateutil import parser as date_parser

DEFAULT_LOCALE = "en_US"


@dataclass(frozen=True)
class LocaleConventions:
    """How a locale prints dates and numbers, and the currencies that point to its region."""

    language: str  # ISO 639-1
    day_first: bool  # 03/04/2024 is the 3rd of April
    decimal: str  # "." or ","
    currencies: tuple[str, ...] = ()


# The locales docextract reads (the languages of the real e-invoices, the synthetic ones and receipts).
# Table order breaks ties when a document's evidence fits several: en_US is the default.
LOCALE_CONVENTIONS: dict[str, LocaleConventions] = {
    "en_US": LocaleConventions("en", False, ".", ("USD",)),
    "en_CA": LocaleConventions("en", False, ".", ("CAD",)),  # "April 15, 2024" as in the US; "$" is CAD
    "en_GB": LocaleConventions("en", True, ".", ("GBP",)),
    "en_AU": LocaleConventions("en", True, ".", ("AUD",)),
    "en_NZ": LocaleConventions("en", True, ".", ("NZD",)),
    "en_SG": LocaleConventions("en", True, ".", ("SGD",)),
    "en_AE": LocaleConventions("en", True, ".", ("AED",)),
    "en_ZA": LocaleConventions("en", True, ",", ("ZAR",)),  # "R 39 675,00": the rand's "R", a decimal comma
    "en_MY": LocaleConventions("en", True, ".", ("MYR",)),
    "de_DE": LocaleConventions("de", True, ",", ("EUR",)),
    "fr_FR": LocaleConventions("fr", True, ",", ("EUR",)),
    "fr_CA": LocaleConventions("fr", True, ",", ("CAD",)),  # Quebec: "1 149,75 $" is Canadian dollars
    "nl_NL": LocaleConventions("nl", True, ",", ("EUR",)),
    "it_IT": LocaleConventions("it", True, ",", ("EUR",)),
    "es_ES": LocaleConventions("es", True, ",", ("EUR",)),
    "es_MX": LocaleConventions("es", True, ".", ("MXN",)),  # "$11,600.00": a decimal point, pesos
    "es_AR": LocaleConventions("es", True, ",", ("ARS",)),
    "es_CL": LocaleConventions("es", True, ",", ("CLP",)),
    # Spanish as written in the US: month-first dates, dollars (a Miami florist's "06/08/2024" is June 8)
    "es_US": LocaleConventions("es", False, ".", ("USD",)),
    "sv_SE": LocaleConventions("sv", True, ",", ("SEK",)),
    "da_DK": LocaleConventions("da", True, ",", ("DKK",)),
    "nb_NO": LocaleConventions("nb", True, ",", ("NOK",)),
    "fi_FI": LocaleConventions("fi", True, ",", ("EUR",)),
    "pt_PT": LocaleConventions("pt", True, ",", ("EUR",)),
    "pl_PL": LocaleConventions("pl", True, ",", ("PLN",)),
    "cs_CZ": LocaleConventions("cs", True, ",", ("CZK",)),
}


def conventions(locale: str) -> LocaleConventions:
    """The conventions of ``locale``; a locale outside the table reads like its language (English: day first
    unless en_US; other languages: decimal comma)."""
    if locale in LOCALE_CONVENTIONS:
        return LOCALE_CONVENTIONS[locale]
    language = locale.split("_")[0].lower()
    return LocaleConventions(language, locale != "en_US", "." if language == "en" else ",")


def without_marks(text: str) -> str:
    """``text`` without its accents and other combining marks ("března" -> "brezna"); "ł" and "ø" are letters of
    their own and stay."""
    return "".join(ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch))


# Month names in the languages of LOCALE_CONVENTIONS (dateutil knows English ones only), with the
# abbreviations seen on invoices.
MONTH_NUMBERS: dict[str, int] = {
    **{name: n for n, name in enumerate(("january", "february", "march", "april", "may", "june", "july", "august",
                                          "september", "october", "november", "december"), start=1)},
    **{name: n for n, name in enumerate(("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct",
                                          "nov", "dec"), start=1)},
    "sept": 9,
    # German
    "januar": 1, "jänner": 1, "februar": 2, "märz": 3, "maerz": 3, "mai": 5, "juni": 6, "juli": 7, "oktober": 10,
    "dezember": 12, "mär": 3, "okt": 10, "dez": 12,
    # French
    "janvier": 1, "février": 2, "fevrier": 2, "mars": 3, "avril": 4, "juin": 6, "juillet": 7, "août": 8, "aout": 8,
    "septembre": 9, "octobre": 10, "novembre": 11, "décembre": 12, "decembre": 12, "févr": 2, "fév": 2, "avr": 4,
    "juil": 7, "déc": 12,
    # Dutch
    "januari": 1, "februari": 2, "maart": 3, "mei": 5, "augustus": 8,
    # Italian
    "gennaio": 1, "febbraio": 2, "marzo": 3, "aprile": 4, "maggio": 5, "giugno": 6, "luglio": 7, "agosto": 8,
    "settembre": 9, "ottobre": 10, "dicembre": 12,
    # Spanish
    "enero": 1, "febrero": 2, "abril": 4, "mayo": 5, "junio": 6, "julio": 7, "septiembre": 9, "setiembre": 9,
    "octubre": 10, "noviembre": 11, "diciembre": 12,
    # Swedish, Danish, Norwegian (the names the languages above lack)
    "maj": 5, "augusti": 8, "marts": 3, "desember": 12,
    # Finnish (the name and the partitive a date prints: "8. huhtikuuta 2024")
    **{name: n for n, stem in enumerate(("tammi", "helmi", "maalis", "huhti", "touko", "kesä", "heinä", "elo", "syys",
                                         "loka", "marras", "joulu"), start=1) for name in (f"{stem}kuu", f"{stem}kuuta")},
    # Portuguese
    "janeiro": 1, "fevereiro": 2, "março": 3, "maio": 5, "junho": 6, "julho": 7, "setembro": 9,
    "outubro": 10, "novembro": 11, "dezembro": 12,
    # Polish and Czech: the name and the genitive a date prints ("22 kwietnia 2024", "22. dubna 2024"), also as OCR
    # reads them without their marks
    **{name: n for n, names in enumerate((
        ("styczeń", "stycznia", "leden", "ledna"), ("luty", "lutego", "únor", "února"),
        ("marzec", "marca", "březen", "března"), ("kwiecień", "kwietnia", "duben", "dubna"),
        ("maja", "květen", "května"), ("czerwiec", "czerwca", "červen", "června"),
        ("lipiec", "lipca", "červenec", "července"), ("sierpień", "sierpnia", "srpen", "srpna"),
        ("wrzesień", "września", "září"), ("październik", "października", "říjen", "října"),
        ("listopad", "listopada", "listopadu"), ("grudzień", "grudnia", "prosinec", "prosince")), start=1)
       for spelled in names for name in {spelled, without_marks(spelled)}},
    # (stop 74) Lithuanian (the genitive of "2024 m. gegužės 14 d."), Latvian, Hungarian, Romanian, Croatian (not
    # "listopada": Polish November, Croatian October), Slovenian and Turkish (not "mart", "nisan", "ekim": a shop, a
    # car, a word); also without their marks, as OCR reads them
    **{name: n for n, names in enumerate((
        ("sausio", "janvāris", "janvārī", "január", "ianuarie", "siječnja", "ocak"),
        ("vasario", "februāris", "februārī", "február", "februarie", "veljače", "şubat"),
        ("kovo", "martā", "március", "martie", "ožujka", "marec"),
        ("balandžio", "aprīlis", "aprīlī", "április", "aprilie", "travnja"),
        ("gegužės", "maijs", "maijā", "május", "svibnja", "mayıs"),
        ("birželio", "jūnijs", "jūnijā", "június", "iunie", "lipnja", "junij", "haziran"),
        ("liepos", "jūlijs", "jūlijā", "július", "iulie", "srpnja", "julij", "temmuz"),
        ("rugpjūčio", "augusts", "augustā", "augusztus", "kolovoza", "avgust", "ağustos"),
        ("rugsėjo", "septembris", "septembrī", "szeptember", "septembrie", "rujna", "eylül"),
        ("spalio", "oktobris", "oktobrī", "október", "octombrie"),
        ("lapkričio", "novembris", "novembrī", "noiembrie", "studenoga", "kasım"),
        ("gruodžio", "decembris", "decembrī", "decembrie", "prosinca", "aralık")), start=1)
       for spelled in names for name in {spelled, without_marks(spelled), without_marks(spelled).replace("ı", "i")}},
}
_ENGLISH_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
                   "November", "December")
_FOREIGN_MONTH = re.compile(
    r"(?<![^\W\d_])(" + "|".join(re.escape(k) for k in sorted(MONTH_NUMBERS, key=len, reverse=True)) + r")(?![^\W\d_])\.?",
    re.IGNORECASE)
# The day of the week before a date says nothing dateutil needs, and it reads only English names: "Dienstag, 3.
# Dezember 2024", "mardi 3 décembre 2024", "dinsdag 3 december 2024" are dropped to their date.
_WEEKDAYS = (
    "montag", "dienstag", "mittwoch", "donnerstag", "freitag", "samstag", "sonnabend", "sonntag",
    "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche",
    "maandag", "dinsdag", "woensdag", "donderdag", "vrijdag", "zaterdag", "zondag",
    "lunedì", "martedì", "mercoledì", "giovedì", "venerdì", "sabato", "domenica",
    "lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo",
)
_FOREIGN_WEEKDAY = re.compile(r"(?<![^\W\d_])(" + "|".join(_WEEKDAYS) + r")(?![^\W\d_]),?", re.IGNORECASE)
_SPANISH_DE = re.compile(r"\s+del?\s+", re.IGNORECASE)  # "5 de marzo de 2024"
# The words some languages print after a date's year and day: Lithuanian "2024 m. gegužės 14 d.", Latvian "2024. gada
# 14. maijs", Bulgarian "14.05.2024 г."
_YEAR_AND_DAY_MARKS = re.compile(r"(?<=\d)\.?\s*(?:m\.|d\.|gada|г\.)(?=\s|$)", re.IGNORECASE)
_ORDINAL_DOT = re.compile(r"\b(\d{1,2})\.\s+(?=[A-Za-zÀ-ÿ])")  # "15. März 2024" -> "15 März 2024"

CURRENCY_SYMBOLS = {"€": "EUR", "£": "GBP", "¥": "JPY", "₹": "INR", "zł": "PLN", "Kč": "CZK", "$": "USD", "US$": "USD",
                    "A$": "AUD", "C$": "CAD", "S$": "SGD", "HK$": "HKD", "NZ$": "NZD", "RM": "MYR", "kr": "SEK",
                    "R": "ZAR", "Rs": "INR",
                    "Ft": "HUF", "lei": "RON", "лв": "BGN",  # (stop 73) after an amount: "493 650 Ft", "2.486,04 лв."
                    "R$": "BRL", "₱": "PHP", "S/": "PEN"}  # (stop 74) Brazil's real, the Philippine peso, Peru's sol
# The forint's, the leu's and the lev's signs: a currency only after an amount ("493 650 Ft", not "Ft. Myers")
SIGNS_AFTER_AN_AMOUNT = ("Ft", "lei", "лв")
# The rupee's and the sol's signs: a currency only right before an amount ("Rs. 500", "S/ 8,845.20"; not "S/N")
SIGNS_BEFORE_AN_AMOUNT = ("Rs", "S/")
ISO_CURRENCIES = ("EUR", "USD", "GBP", "CHF", "JPY", "CAD", "AUD", "NZD", "MYR", "SGD", "HKD", "SEK", "NOK", "DKK",
                  "PLN", "CZK", "HUF", "RON", "BGN", "INR", "CNY", "ZAR", "BRL", "MXN",
                  # the Gulf's, Latin America's pesos, and others printed as codes on invoices (not "PEN", "TRY",
                  # "ALL", "PHP": words and names a page prints in capitals)
                  "AED", "SAR", "QAR", "KWD", "BHD", "OMR", "ARS", "CLP", "COP", "ILS", "EGP", "ISK", "UAH",
                  "THB", "IDR", "KRW", "TWD", "VND", "NGN", "KES", "RSD")
# The rand's "R" is a sign only right before an amount with cents ("R 2 800,00", "R1,234.56"; not "R44 Road")
_RAND_AMOUNT = r"\d{1,3}(?:[ \u00a0,.]\d{3})*[.,]\d{2}(?![\d.,])"
# An ISO code or a symbol, as a token of its own: letters next to it make a word ("FORM" holds no "RM",
# "Ukraine" no "kr", "US" alone is a country). "$" may be glued to its prefix (US$, C$) and to digits.
_CURRENCY = re.compile(
    r"(?<![^\W\d_])(" + "|".join(ISO_CURRENCIES) + r"|RM|kr|zł|Kč|(?<=\d )(?:" + "|".join(SIGNS_AFTER_AN_AMOUNT)
    + r"))(?![^\W\d_])"
    r"|(?:(?<![^\W\d_])(US|HK|NZ|A|C|S|R))?\$|([€£¥₹₱]|(?<![^\W\d_])R(?=\s?" + _RAND_AMOUNT + r")"
    r"|(?<![^\W\d_])Rs(?=\.?\s?\d)|(?<![^\W\d_])S/(?=\s?\d))")  # the rupee's "Rs.1,19,454.00", the sol's "S/ 8,845.20"
_CURRENCY_ANY_CASE = re.compile(_CURRENCY.pattern.replace("|RM|kr|zł|Kč|", "|RM|KR|ZŁ|KČ|").replace(  # (upper-cased text)
    "|".join(SIGNS_AFTER_AN_AMOUNT), "|".join(sign.upper() for sign in SIGNS_AFTER_AN_AMOUNT)))
_SYMBOLS_FOLDED = {symbol.casefold(): code for symbol, code in CURRENCY_SYMBOLS.items()}
# Digit groups are separated by ".", ",", spaces, or (Swiss) an apostrophe, typeset as "’" too: "13’116.89"
# "25,-" and "1.234,--": a whole amount as German and Dutch print it, not a negative one (a minus after the cents,
# "25,00-", is one)
_WHOLE_AMOUNT_DASHES = re.compile(r"(?<=\d)[.,][-–—]{1,2}$")
_AMOUNT_NUMBER = re.compile(r"[-−(]?\d[\d.,'\u2019\u02bc \u00a0\u202f]*")
_GROUP_SEPARATORS = re.compile(r"[.,'\u2019\u02bc \u00a0\u202f]")


# An identifier's leading number sign, glued or not: "#4711", "n°562", "Nr.4711", "No:4711"; or the word for invoice
# glued to it by a colon, as a template sets "Nº Factura:FM-24/0871" without a space (it had been read and accepted as
# the number "Factura:FM-24/0871")
_NUMBER_SIGN = re.compile(r"^(?:#|n[°º]\.?|nr\.|no\.|nr:|no:|(?:invoice|factura|fattura|facture|factuur|faktura|rechnung):)"
                          r"\s*", re.IGNORECASE)


def number_sign_glued(text: str) -> bool:
    """Whether a word is a number sign and a value read as one ("Nr.471102", "#4711", "n°562"): OCR joins a key
    to its value where the print sets them tight; a text layer keeps them apart."""
    sign = glued_sign(text)
    return bool(sign) and any(ch.isdigit() for ch in text.strip()[len(sign):])


def glued_sign(text: str) -> str:
    """The number sign (or glued word for invoice) a word opens with: "Nr." of "Nr.4711", "Factura:" of
    "Factura:FM-24/0871"; "" where none."""
    sign = _NUMBER_SIGN.match(text.strip())
    return sign.group(0) if sign else ""


def identifier_text(text: str) -> str:
    """An identifier (invoice or order number) as printed, without a leading number sign or outer punctuation:
    "#BLR_0042" -> "BLR_0042", "n°562" -> "562", "4711," -> "4711"."""
    return _NUMBER_SIGN.sub("", " ".join(text.split())).strip(".,;:)(")


@dataclass(frozen=True)
class Money:
    amount: str  # a decimal string, e.g. "1234.56"
    currency: str | None  # ISO 4217, or None when the document does not say

    def to_dict(self) -> dict[str, str | None]:
        return {"amount": self.amount, "currency": self.currency}


def _clean(text: str) -> str:
    return unicodedata.normalize("NFKC", text).strip()


# The words of the longest date a line prints: "1. Oktober 2023", "October 1, 2023", Spanish and Portuguese "15 de
# abril de 2024"
MAX_DATE_WORDS = 5


def parse_date(text: str, locale: str = DEFAULT_LOCALE, default_year: int | None = None) -> date | None:
    """A printed date -> ``datetime.date``, day-first unless the locale writes month first (en_US).

    A numeric date needs day, month and year ("2.6" is no date). A date printed without its year
    ("July 31") takes ``default_year`` (the year of the document's own
    dates, :func:`docextract.extraction.locales.document_year`); without one it is unparsable (None), never
    today's year. A date without its day ("July 2024") is the first of the month.
    """
    cleaned = _clean(text).strip(" ,;:")
    if not cleaned or not any(ch.isdigit() for ch in cleaned):
        return None
    # a parenthesis opened or closed around the date but not inside it: "(bis zum 22.04.2024)" ends "22.04.2024)"
    if cleaned.endswith(")") and "(" not in cleaned:
        cleaned = cleaned[:-1]
    if cleaned.startswith("(") and ")" not in cleaned:
        cleaned = cleaned[1:]
    cleaned = _YEAR_AND_DAY_MARKS.sub("", cleaned)
    cleaned = _ORDINAL_DOT.sub(r"\1 ", cleaned)
    cleaned = re.sub(r"\b1er\b", "1", cleaned)  # French "1er août"
    cleaned = _FOREIGN_WEEKDAY.sub("", cleaned).strip(" ,")
    cleaned, month_names = _FOREIGN_MONTH.subn(lambda m: _ENGLISH_MONTHS[MONTH_NUMBERS[m.group(1).lower()] - 1], cleaned)
    if month_names:
        cleaned = _SPANISH_DE.sub(" ", cleaned)
    if month_names and len(re.findall(r"\d+", cleaned)) > 2:
        cleaned = _around_month(cleaned)  # "10 Tuesday, January 13, 2009": the 10 is no part of the date
        if len(re.findall(r"\d+", cleaned)) > 2:
            return None  # "10 January 13 2009": three numbers at a month name, which two are the date is a guess
    if not month_names and len(re.findall(r"\d+", cleaned)) < 3 and not re.fullmatch(r"\d{8}", cleaned):
        return None  # "2.6", "12/24": a version, a fraction, a card expiry; a numeric date prints day, month and year
    if _TIME_RANGE.fullmatch(cleaned):
        return None  # "08.30 - 12.30": opening hours, which dateutil read as 8 December
    iso_like = re.fullmatch(r"\d{4}[-/.]\d{1,2}[-/.]\d{1,2}", cleaned)
    options = {"dayfirst": conventions(locale).day_first and not iso_like, "yearfirst": bool(iso_like), "fuzzy": False}
    try:
        # Two leap years as defaults: where they give different years, the text has no year of its own.
        parsed = date_parser.parse(cleaned, default=datetime(2000, 1, 1), **options)
        if parsed.year != date_parser.parse(cleaned, default=datetime(2004, 1, 1), **options).year:
            if default_year is None:
                return None
            parsed = date_parser.parse(cleaned, default=datetime(default_year, 1, 1), **options)
    except (ValueError, OverflowError, TypeError):
        return None
    if not 1900 <= parsed.year <= 2100:
        return None
    return parsed.date()


_TIME_RANGE = re.compile(r"\d{1,2}[.:]\d{2}\s*[-–]\s*\d{1,2}[.:]\d{2}")
_DATE_NUMBER = re.compile(r"\d{1,4}(?:st|nd|rd|th)?[.,]?", re.IGNORECASE)


def _around_month(text: str) -> str:
    """The month name of ``text`` and the numbers right beside it: a date with a month name has at most a day and a
    year, so a number further away (a line number, a count before a weekday) is another value. dateutil would
    take it as the day and the real day as the year: "10 Tuesday, January 13, 2009" gave 2013-01-10."""
    tokens = text.split()
    month = next((i for i, token in enumerate(tokens) if token.strip(".,").capitalize() in _ENGLISH_MONTHS), None)
    if month is None:
        return text
    start, end = month, month + 1
    if start > 0 and _DATE_NUMBER.fullmatch(tokens[start - 1]):  # "13 January": a day before the month
        start -= 1
    # after it: a day and a year at most ("January 13, 2009"), the year last
    while end < len(tokens) and end - month <= 2 and _DATE_NUMBER.fullmatch(tokens[end]):
        end += 1
        if len(re.sub(r"\D", "", tokens[end - 1])) == 4:
            break
    return " ".join(tokens[start:end])


def currencies_in(text: str, *, any_case: bool = False) -> list[str]:
    """Every currency ``text`` names, as ISO 4217 codes in the order printed: codes and symbols standing as
    tokens of their own (``"EUR"``, ``"€"``, ``"US$"``, ``"RM 12.00"``), never letters inside a word or a
    bare country (``"US"``). ``any_case``: also lower-case codes (a field's own text, ``"eur"``)."""
    cleaned = _clean(text)
    found = []
    for match in (_CURRENCY_ANY_CASE.finditer(cleaned.upper()) if any_case else _CURRENCY.finditer(cleaned)):
        code, prefix, symbol = match.group(1), match.group(2), match.group(3)
        if code:
            found.append(code if code in ISO_CURRENCIES else _SYMBOLS_FOLDED.get(code.casefold()))
        else:
            found.append(CURRENCY_SYMBOLS[(prefix or "") + "$"] if symbol is None else CURRENCY_SYMBOLS[symbol])
    return [c for c in found if c]


# Signs that several currencies print, by the currency CURRENCY_SYMBOLS reads them as: a bare "$" (the dollars and the
# pesos), "kr" (the Nordic crowns). Such a sign is the one of its family the document names by its code, or its locale's
# own (docextract.extraction.entities.document_sign_currencies), where the document names no code of the sign's own.
SIGN_FAMILIES = {"USD": frozenset({"USD", "CAD", "AUD", "NZD", "SGD", "HKD", "MXN", "ARS", "CLP", "COP"}),
                 "SEK": frozenset({"SEK", "NOK", "DKK", "ISK"})}
BARE_SIGN = re.compile(r"(?<![A-Za-z])\$|(?<![^\W\d_])kr(?![^\W\d_])")


def named_in_family(text: str, sign: str) -> str | None:
    """The one currency of ``sign``'s family (:data:`SIGN_FAMILIES`) other than ``sign`` itself that ``text`` names by
    its code or prefix ("Amount Due (CAD)", "C$", "DKK"), where it names not ``sign``'s own ("USD", "US$"): what its
    bare signs are. None otherwise."""
    named = set(currencies_in(BARE_SIGN.sub(" ", text))) & SIGN_FAMILIES[sign]
    return named.pop() if len(named) == 1 and sign not in named else None


def bare_sign(text: str) -> str | None:
    """The currency ``text``'s bare sign reads as ("USD" for "$2,599.00", "SEK" for "5.000,00 kr."), where the text
    names no currency by its code ("US$ 12", "12.00 USD"); None otherwise."""
    sign = BARE_SIGN.search(text)
    if sign is None or set(currencies_in(BARE_SIGN.sub(" ", text), any_case=True)):
        return None
    return "USD" if sign.group(0) == "$" else "SEK"


def parse_currency(text: str) -> str | None:
    """The ISO 4217 code named or symbolised in ``text`` (``"1.190,00 €"`` -> ``"EUR"``), else None."""
    found = currencies_in(text, any_case=True)
    return found[0] if found else None


def is_currency_word(text: str) -> bool:
    """A word that is a currency's sign or code alone ("Kč", "zł", "€", "EUR", and the signs printed only after an
    amount: "Ft", "lei", "лв."), no digit in it."""
    return not any(ch.isdigit() for ch in text) and (parse_currency(text) is not None
                                                     or text.rstrip(".") in SIGNS_AFTER_AN_AMOUNT + SIGNS_BEFORE_AN_AMOUNT)


# A minus before the currency that precedes the number: "-€ 110,70", "−$45.00", "- EUR 12,00" (a Dutch marketplace's
# credit note prints its amounts so)
MINUS_BEFORE_CURRENCY = re.compile(r"\s*[-−–]\s*(?:[€$£¥]|[A-Z]{3})\s*")


def parse_number(text: str, locale: str = DEFAULT_LOCALE) -> Decimal | None:
    """A printed number -> Decimal, reading ``,`` and ``.`` the way the locale writes them.

    Separators between digit groups must group thousands (``1.234.567``, or India's ``1,23,456``):
    ``15.12.2024`` is a date and ``2.4.0`` a version, not numbers (None).
    """
    cleaned = _WHOLE_AMOUNT_DASHES.sub("", _clean(text))
    match = _AMOUNT_NUMBER.search(cleaned)
    if not match:
        return None
    raw = match.group(0).strip()
    negative = (raw.startswith(("-", "−", "(")) or cleaned.endswith("-")
                or MINUS_BEFORE_CURRENCY.fullmatch(cleaned[:match.start()]) is not None)
    body = re.sub(r"[-−()]", "", raw).strip().rstrip(".,").strip()
    digits = _GROUP_SEPARATORS.sub(lambda m: m.group(0) if m.group(0) in ".," else "", body)
    if not digits:
        return None
    decimal_sep = _decimal_separator(digits, locale)
    whole_printed = body[:body.rfind(decimal_sep)] if decimal_sep else body
    if not _groups_thousands(whole_printed):
        return None
    if decimal_sep:
        whole, _, frac = digits.rpartition(decimal_sep)
        whole = re.sub(r"[.,]", "", whole)
        number = f"{whole or '0'}.{frac}"
    else:
        number = re.sub(r"[.,]", "", digits)
    try:
        value = Decimal(number)
    except InvalidOperation:
        return None
    return -value if negative else value


def _groups_thousands(whole: str) -> bool:
    """Whether the digit groups of a number's whole part are thousands (or India's lakhs and crores)."""
    groups = _GROUP_SEPARATORS.split(whole.strip())
    if len(groups) == 1:
        return True
    if not 1 <= len(groups[0]) <= 3 or len(groups[-1]) != 3:
        return False
    middle = {len(g) for g in groups[1:-1]}
    return middle <= {3} or middle <= {2}


def _decimal_separator(digits: str, locale: str) -> str | None:
    """Which of ``.``/``,`` is the decimal separator in ``digits`` (None: an integer)."""
    last_dot, last_comma = digits.rfind("."), digits.rfind(",")
    if last_dot >= 0 and last_comma >= 0:
        return "." if last_dot > last_comma else ","
    sep = "." if last_dot >= 0 else "," if last_comma >= 0 else None
    if sep is None:
        return None
    if digits.count(sep) > 1:
        return None  # "1.234.567": thousands separators only
    decimals = len(digits) - digits.rfind(sep) - 1
    if decimals == 3:
        # "1,234" is a thousand in English; "1.234" a thousand in German/French; "1,234" there is 1.234. Where the
        # digits before it can be no group of thousands ("52612.250", "0.250": more than three, or a leading zero),
        # the separator is a decimal one in any locale.
        whole = digits[:digits.rfind(sep)]
        return sep if sep == conventions(locale).decimal or len(whole) > 3 or whole.startswith("0") else None
    return sep


def parse_amount(text: str, locale: str = DEFAULT_LOCALE, default_currency: str | None = None) -> Money | None:
    """``"1.190,00 €"`` -> ``Money("1190.00", "EUR")``; two decimal places kept as printed."""
    number = parse_number(text, locale)
    if number is None:
        return None
    return Money(amount=f"{number:.2f}" if number == number.quantize(Decimal("0.01")) else str(number),
                 currency=parse_currency(text) or default_currency)
