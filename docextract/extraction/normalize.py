"""Typed values from printed text: dates to ISO 8601, amounts to decimal strings with ISO 4217 codes.

Parsing respects the document's locale: ``03/04/2024`` is the 4th of March in an en_US document
and the 3rd of April in a de_DE, fr_FR, nl_NL, it_IT or es_ES one; ``1.234,56`` is 1234.56 there.
Each parser returns ``None`` when the text cannot be read as that type; it never guesses wildly.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation

from dateutil import parser as date_parser

DEFAULT_LOCALE = "en_US"
DAY_FIRST_LOCALES = ("en_GB", "de_DE", "fr_FR", "nl_NL", "it_IT", "es_ES")
COMMA_DECIMAL_LOCALES = ("de_DE", "fr_FR", "nl_NL", "it_IT", "es_ES")

# dateutil knows English month names only; German, French, Dutch, Italian and Spanish ones are mapped first.
_FOREIGN_MONTHS = {
    # German
    "januar": "January", "jänner": "January", "februar": "February", "märz": "March", "maerz": "March",
    "mai": "May", "juni": "June", "juli": "July", "oktober": "October", "dezember": "December",
    # French
    "janvier": "January", "février": "February", "fevrier": "February", "mars": "March", "avril": "April",
    "juin": "June", "juillet": "July", "août": "August", "aout": "August", "septembre": "September",
    "octobre": "October", "novembre": "November", "décembre": "December", "decembre": "December",
    # Dutch
    "januari": "January", "februari": "February", "maart": "March", "mei": "May", "augustus": "August",
    # Italian
    "gennaio": "January", "febbraio": "February", "marzo": "March", "aprile": "April", "maggio": "May",
    "giugno": "June", "luglio": "July", "agosto": "August", "settembre": "September", "ottobre": "October",
    "dicembre": "December",
    # Spanish
    "enero": "January", "febrero": "February", "abril": "April", "mayo": "May", "junio": "June", "julio": "July",
    "septiembre": "September", "setiembre": "September", "octubre": "October", "noviembre": "November",
    "diciembre": "December",
    # abbreviations seen on invoices
    "jan.": "Jan", "févr.": "Feb", "fév.": "Feb", "mär.": "Mar", "avr.": "Apr", "juil.": "Jul",
    "déc.": "Dec", "dez.": "Dec", "okt.": "Oct",
}
# A whole word only: "Januar" must not match the start of "January" (which dateutil reads itself).
_MONTH_PATTERN = re.compile(r"\b(" + "|".join(re.escape(k) for k in sorted(_FOREIGN_MONTHS, key=len, reverse=True))
                            + r")(?![^\W\d_])", re.IGNORECASE)
_SPANISH_DE = re.compile(r"\s+del?\s+", re.IGNORECASE)  # "5 de marzo de 2024"
_ORDINAL_DOT = re.compile(r"\b(\d{1,2})\.\s+(?=[A-Za-zÀ-ÿ])")  # "15. März 2024" -> "15 März 2024"

CURRENCY_SYMBOLS = {
    "€": "EUR", "$": "USD", "£": "GBP", "¥": "JPY", "₹": "INR", "CHF": "CHF", "Fr.": "CHF",
    "US$": "USD", "A$": "AUD", "C$": "CAD", "RM": "MYR", "S$": "SGD", "kr": "SEK", "zł": "PLN",
}
ISO_CURRENCIES = ("EUR", "USD", "GBP", "CHF", "JPY", "CAD", "AUD", "MYR", "SGD", "SEK", "NOK", "DKK", "PLN", "CZK", "INR", "CNY")
_CURRENCY_CODE = re.compile(r"\b(" + "|".join(ISO_CURRENCIES) + r")\b")
_AMOUNT_NUMBER = re.compile(r"[-−(]?\d[\d.,' \u00a0\u202f]*")


@dataclass(frozen=True)
class Money:
    amount: str  # a decimal string, e.g. "1234.56"
    currency: str | None  # ISO 4217, or None when the document does not say

    def to_dict(self) -> dict[str, str | None]:
        return {"amount": self.amount, "currency": self.currency}


def _clean(text: str) -> str:
    return unicodedata.normalize("NFKC", text).strip()


def parse_date(text: str, locale: str = DEFAULT_LOCALE) -> date | None:
    """A printed date -> ``datetime.date``, day-first unless the locale writes month first (en_US)."""
    cleaned = _clean(text).strip(" ,;:")
    if not cleaned or not any(ch.isdigit() for ch in cleaned):
        return None
    cleaned = _ORDINAL_DOT.sub(r"\1 ", cleaned)
    cleaned = re.sub(r"\b1er\b", "1", cleaned)  # French "1er août"
    cleaned, foreign = _MONTH_PATTERN.subn(lambda m: _FOREIGN_MONTHS[m.group(1).lower()], cleaned)
    if foreign:
        cleaned = _SPANISH_DE.sub(" ", cleaned)
    iso_like = re.fullmatch(r"\d{4}[-/.]\d{1,2}[-/.]\d{1,2}", cleaned)
    try:
        parsed = date_parser.parse(
            cleaned, dayfirst=(locale in DAY_FIRST_LOCALES) and not iso_like, yearfirst=bool(iso_like), fuzzy=False,
        )
    except (ValueError, OverflowError, TypeError):
        return None
    if not 1900 <= parsed.year <= 2100:
        return None
    return parsed.date()


def parse_currency(text: str) -> str | None:
    """ISO 4217 code named or symbolised in ``text`` (``"1.190,00 €"`` -> ``"EUR"``), else None."""
    cleaned = _clean(text)
    code = _CURRENCY_CODE.search(cleaned.upper())
    if code:
        return code.group(1)
    for symbol in sorted(CURRENCY_SYMBOLS, key=len, reverse=True):
        if symbol in cleaned:
            return CURRENCY_SYMBOLS[symbol]
    return None


def parse_number(text: str, locale: str = DEFAULT_LOCALE) -> Decimal | None:
    """A printed number -> Decimal, reading ``,`` and ``.`` the way the locale writes them."""
    match = _AMOUNT_NUMBER.search(_clean(text))
    if not match:
        return None
    raw = match.group(0).strip()
    negative = raw.startswith(("-", "−", "(")) or _clean(text).endswith("-")
    digits = re.sub(r"[-−() '\u00a0\u202f]", "", raw)
    digits = digits.rstrip(".,")
    if not digits:
        return None
    decimal_sep = _decimal_separator(digits, locale)
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
        # "1,234" is a thousand in English; "1.234" a thousand in German/French; "1,234" there is 1.234.
        locale_decimal = "," if locale in COMMA_DECIMAL_LOCALES else "."
        return sep if sep == locale_decimal else None
    return sep


def parse_amount(text: str, locale: str = DEFAULT_LOCALE, default_currency: str | None = None) -> Money | None:
    """``"1.190,00 €"`` -> ``Money("1190.00", "EUR")``; two decimal places kept as printed."""
    number = parse_number(text, locale)
    if number is None:
        return None
    return Money(amount=f"{number:.2f}" if number == number.quantize(Decimal("0.01")) else str(number),
                 currency=parse_currency(text) or default_currency)


def normalize_iban(text: str) -> tuple[str, bool] | None:
    """Canonical IBAN (no spaces, upper case) and whether its ISO 13616 mod-97 checksum holds."""
    compact = re.sub(r"[\s-]", "", _clean(text)).upper()
    if not re.fullmatch(r"[A-Z]{2}\d{2}[A-Z0-9]{10,30}", compact):
        return None
    rearranged = compact[4:] + compact[:4]
    numeric = "".join(str(int(ch, 36)) for ch in rearranged)
    return compact, int(numeric) % 97 == 1


# Words that give away a document's language; numbers settle the rest.
_LOCALE_HINTS = {
    "de_DE": ("rechnung", "datum", "betrag", "summe", "mwst", "ust", "gesamt", "zahlbar", "netto", "brutto", "steuernummer"),
    "fr_FR": ("facture", "montant", "tva", "total ttc", "total ht", "échéance", "date d'émission", "règlement", "quantité"),
    "nl_NL": ("factuur", "btw", "bedrag", "totaal", "omschrijving", "aantal", "te betalen"),
    "it_IT": ("fattura", "imponibile", "partita iva", "aliquota", "quantità", "scadenza", "totale"),
    "es_ES": ("factura", "base imponible", "importe", "vencimiento", "cantidad", "forma de pago"),
    "en_GB": ("vat", "£", "postcode", "sort code"),
}


def guess_locale(text: str) -> str:
    """The locale a document is most likely written in (en_US, en_GB, de_DE, fr_FR, nl_NL, it_IT or es_ES), from
    words and numbers."""
    lowered = _clean(text).lower()
    scores = {loc: sum(lowered.count(hint) for hint in hints) for loc, hints in _LOCALE_HINTS.items()}
    comma_decimals = len(re.findall(r"\d,\d{2}\b", lowered))
    dot_decimals = len(re.findall(r"\d\.\d{2}\b", lowered))
    best = max(scores, key=scores.get)
    if scores[best] == 0:
        return "de_DE" if comma_decimals > dot_decimals else DEFAULT_LOCALE
    if best == "en_GB" and comma_decimals > dot_decimals:
        return "de_DE"
    return best
