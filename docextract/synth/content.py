"""What a synthetic invoice says: a seeded sampler of vendors, customers, dates, amounts and line items.

Everything is drawn from the word lists of wordlists.py per locale, so the same ``random.Random`` state
always gives the same invoice. :class:`InvoiceContent` carries each value twice: as printed in the locale
(``15.03.2024``, ``1.234,56``) and normalised (``2024-03-15``, ``1234.56``, ISO 4217 ``EUR``), so
evaluation can compare normalised values whatever the layout printed.

Besides the fields, an invoice carries what real invoices print around them and what a model must not
take for a field: other numbers and dates (:class:`Reference`: customer number, GLN, delivery date,
service period, ...), a totals block with several VAT rates (:class:`TaxLine`), discounts and charges
(:class:`Adjustment`), prepaid and rounding rows, notes with dates and amounts in sentences, article
numbers and GTIN lines under items. A credit note has negative amounts (``-7,90``, ``7,90-``).
:class:`ContentProfile` says how often each of these happens; a layout family may raise it.

Every string here must be encodable in cp1252: the PDFs use the PDF core fonts (see canvas.py).
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from docextract.synth import wordlists as w

LOCALES = ("en_US", "en_GB", "de_DE", "fr_FR", "nl_NL", "it_IT", "es_ES")
# How often a locale is drawn when none is given: the real invoices the model meets are mostly German,
# French and English; Dutch, Italian and Spanish ones come from "several countries".
LOCALE_WEIGHTS = {"en_US": 3, "en_GB": 2, "de_DE": 5, "fr_FR": 4, "nl_NL": 1, "it_IT": 1, "es_ES": 1}
CENT = Decimal("0.01")

# ---------------------------------------------------------------- locale formats


@dataclass(frozen=True)
class LocaleFormat:
    code: str
    language: str  # "en" | "de" | "fr" | "nl" | "it" | "es": picks label wording and word lists
    thousands: str
    decimal: str
    default_currency: str
    date_styles: tuple[str, ...]  # names understood by format_date
    tax_rates: tuple[Decimal, ...]  # percent, the standard rate first


LOCALE_FORMATS = {
    "en_US": LocaleFormat("en_US", "en", ",", ".", "USD", ("us_numeric", "us_long", "us_short", "iso"),
                          (Decimal("0"), Decimal("6.25"), Decimal("7"), Decimal("8.875"))),
    "en_GB": LocaleFormat("en_GB", "en", ",", ".", "GBP", ("eu_slash", "gb_long", "gb_short"),
                          (Decimal("20"), Decimal("5"))),
    "de_DE": LocaleFormat("de_DE", "de", ".", ",", "EUR", ("de_numeric", "de_numeric", "de_long", "iso", "de_short"),
                          (Decimal("19"), Decimal("7"))),
    "fr_FR": LocaleFormat("fr_FR", "fr", " ", ",", "EUR", ("eu_slash", "fr_long"),
                          (Decimal("20"), Decimal("10"), Decimal("5.5"))),
    "nl_NL": LocaleFormat("nl_NL", "nl", ".", ",", "EUR", ("nl_dash", "nl_long", "iso"),
                          (Decimal("21"), Decimal("9"))),
    "it_IT": LocaleFormat("it_IT", "it", ".", ",", "EUR", ("eu_slash", "it_long"),
                          (Decimal("22"), Decimal("10"), Decimal("4"))),
    "es_ES": LocaleFormat("es_ES", "es", ".", ",", "EUR", ("eu_slash", "es_long", "eu_dash"),
                          (Decimal("21"), Decimal("10"), Decimal("4"))),
}

MONTHS = {
    "en": ("January", "February", "March", "April", "May", "June", "July", "August", "September",
           "October", "November", "December"),
    "de": ("Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September",
           "Oktober", "November", "Dezember"),
    "fr": ("janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre",
           "octobre", "novembre", "décembre"),
    "nl": ("januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus", "september",
           "oktober", "november", "december"),
    "it": ("gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre",
           "ottobre", "novembre", "dicembre"),
    "es": ("enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre",
           "octubre", "noviembre", "diciembre"),
}
DATE_STYLE_LANGUAGE = {"us_long": "en", "us_short": "en", "gb_long": "en", "gb_short": "en", "de_long": "de",
                       "fr_long": "fr", "nl_long": "nl", "it_long": "it", "es_long": "es"}


def format_date(day: dt.date, style: str) -> str:
    """``day`` printed in one of the locale date styles (see LOCALE_FORMATS)."""
    m = {lang: months[day.month - 1] for lang, months in MONTHS.items()}
    return {
        "us_numeric": f"{day.month:02d}/{day.day:02d}/{day.year}",
        "us_long": f"{m['en']} {day.day}, {day.year}",
        "us_short": f"{m['en'][:3]} {day.day}, {day.year}",
        "eu_slash": f"{day.day:02d}/{day.month:02d}/{day.year}",
        "eu_dash": f"{day.day:02d}-{day.month:02d}-{day.year}",
        "gb_long": f"{day.day} {m['en']} {day.year}",
        "gb_short": f"{day.day:02d}-{m['en'][:3]}-{day.year}",
        "de_numeric": f"{day.day:02d}.{day.month:02d}.{day.year}",
        "de_short": f"{day.day:02d}.{day.month:02d}.{day.year % 100:02d}",
        "de_long": f"{day.day}. {m['de']} {day.year}",
        "fr_long": f"{'1er' if day.day == 1 else day.day} {m['fr']} {day.year}",
        "nl_dash": f"{day.day:02d}-{day.month:02d}-{day.year}",
        "nl_long": f"{day.day} {m['nl']} {day.year}",
        "it_long": f"{day.day} {m['it']} {day.year}",
        "es_long": f"{day.day} de {m['es']} de {day.year}",
        "iso": day.isoformat(),
    }[style]


def format_partial_date(day: dt.date, language: str) -> str:
    """A date without its year, as notes write it: "July 31", "31. Juli", "31 juillet"."""
    month = MONTHS[language][day.month - 1]
    return {"en": f"{month} {day.day}", "de": f"{day.day}. {month}", "es": f"{day.day} de {month}"}.get(
        language, f"{day.day} {month}")


def format_number(value: Decimal, fmt: LocaleFormat, places: int = 2, grouping: bool = True,
                  negative: str = "lead") -> str:
    """``1234.5`` -> ``1,234.50`` (en), ``1.234,50`` (de), ``1 234,50`` (fr). A negative value as
    ``negative`` says: "lead" ``-7,90``, "trail" ``7,90-`` (German ERP print-outs), "paren" ``(7.90)``."""
    quantum = Decimal(1).scaleb(-places) if places else Decimal(1)
    text = f"{abs(value.quantize(quantum, ROUND_HALF_UP)):,.{places}f}"  # "1,234.50"
    integer, _, fraction = text.partition(".")
    integer = integer.replace(",", fmt.thousands if grouping else "")
    body = integer + (fmt.decimal + fraction if places else "")
    if value >= 0:
        return body
    return {"trail": body + "-", "paren": f"({body})"}.get(negative, "-" + body)


def format_quantity(value: Decimal, fmt: LocaleFormat, places: int | None = None) -> str:
    """Whole quantities without decimals (``3``), fractional ones as the locale writes them (``7,5``);
    ``places`` fixes the decimals (``5,000``, ``1,0000``) as some invoicing software prints every quantity."""
    if places is not None:
        return format_number(value, fmt, places=places, grouping=False)
    if value == value.to_integral_value():
        return format_number(value, fmt, places=0)
    return format_number(value, fmt, places=2 if value * 10 != (value * 10).to_integral_value() else 1)


def decimal_text(value: Decimal, places: int | None = None) -> str:
    """A normalised decimal string without exponent: ``50``, ``7.5``, ``-7.90``; ``places`` fixes the
    decimals (amounts: 2), else trailing zeros go but at least two places stay for a fractional price."""
    if places is not None:
        return f"{value.quantize(Decimal(1).scaleb(-places), ROUND_HALF_UP):f}"
    return f"{value.normalize():f}"


def price_text(value: Decimal) -> str:
    """A unit price normalised: cents when it has no more (``9.90`` for a printed ``9,9000``), else all of
    its places (``0.0325``)."""
    return decimal_text(value, 2) if value == value.quantize(CENT) else decimal_text(value)


# ---------------------------------------------------------------- money display

CURRENCY_SYMBOLS = {"USD": "$", "GBP": "£", "EUR": "€", "CHF": "CHF"}
MONEY_STYLES = ("symbol_glued", "symbol_before", "symbol_after", "code_before", "code_after", "bare")


@dataclass(frozen=True)
class MoneyStyle:
    """How an amount carries its currency on this invoice: ``$1,234.56``, ``€ 1.234,56``, ``1.234,56 €``,
    ``EUR 1,234.56`` or bare."""

    kind: str  # one of MONEY_STYLES
    currency: str  # ISO 4217

    def parts(self, amount_text: str) -> tuple[tuple[str, bool], ...]:
        """(text, is_currency) pieces separated by spaces when printed. A glued symbol stays with the amount
        (after a leading sign or bracket: ``-$7.90``, ``($7.90)``)."""
        symbol = CURRENCY_SYMBOLS[self.currency]
        if self.kind == "symbol_glued":
            sign = amount_text[0] if amount_text[:1] in ("-", "(") else ""
            return ((sign + symbol + amount_text[len(sign):], False),)
        if self.kind == "symbol_before":
            return ((symbol, True), (amount_text, False))
        if self.kind == "symbol_after":
            return ((amount_text, False), (symbol, True))
        if self.kind == "code_before":
            return ((self.currency, True), (amount_text, False))
        if self.kind == "code_after":
            return ((amount_text, False), (self.currency, True))
        return ((amount_text, False),)


# ---------------------------------------------------------------- the content types


@dataclass(frozen=True)
class LineItem:
    description: str
    quantity: str  # as printed
    unit_price: str
    amount: str
    quantity_value: Decimal
    unit_price_value: Decimal
    amount_value: Decimal
    unit: str = ""  # "h", "Stk.", "pcs" (printed, unlabelled)
    tax_rate: str = ""  # this line's VAT rate as printed ("19", "5,5"), unlabelled
    tax_rate_value: Decimal = Decimal(0)
    article: str = ""  # the seller's article number ("55T01"), printed in an article column, unlabelled
    subline: str = ""  # an unlabelled second line under the description ("GTIN: 4012345001235")


@dataclass(frozen=True)
class Party:
    name: str
    address: tuple[str, ...]  # printed lines
    tax_id: str = ""  # printed
    tax_id_normalized: str = ""
    email: str = ""
    phone: str = ""
    salutation: str = ""  # "Herrn", "Firma", "Mme": an unlabelled line above a customer's name
    attention: str = ""  # "z. Hd. Erika Mustermann": an unlabelled line under a customer's name
    number: str = ""  # the party's id in the issuer's system ("549910"), unlabelled
    director: str = ""  # managing director, printed in legal footers
    register: str = ""  # trade register entry, printed in legal footers ("HRB 123456")
    tax_number: str = ""  # a national tax number beside the VAT id ("201/113/40209"), unlabelled


@dataclass(frozen=True)
class Reference:
    """Another number or date the invoice prints beside its fields: ``key`` is a vocab key
    ("customer_number", "delivery_date", ...), ``text`` the printed value. Never labelled."""

    key: str
    text: str


@dataclass(frozen=True)
class TaxLine:
    """One VAT rate's row: its rate, the net amount taxed at it and the tax (printed and values)."""

    rate: str
    basis: str
    tax: str
    rate_value: Decimal
    basis_value: Decimal
    tax_value: Decimal


@dataclass(frozen=True)
class Adjustment:
    """A document-level discount (negative) or charge (positive) between the line items and the net total."""

    kind: str  # "discount" | "charge"
    percent: str  # printed percent ("10") or "" for a fixed amount
    amount: str  # printed, signed
    amount_value: Decimal
    rate_value: Decimal  # the VAT rate it belongs to


NotePart = tuple[str, "str | None"]  # (text, label or None)
Note = tuple[NotePart, ...]


@dataclass(frozen=True)
class ContentProfile:
    """How often an invoice has each complication real invoices have (probabilities per invoice)."""

    credit_note: float = 0.04
    multi_rate: float = 0.22  # several VAT rates, one tax line each (locales with more than one rate)
    adjustments: float = 0.18  # a discount and/or a charge in the totals block
    sublines: float = 0.2  # GTIN / packaging lines under item descriptions
    articles: float = 0.25  # article numbers (shown by tables with an article column)
    four_decimal_prices: float = 0.12  # unit prices printed with four decimals ("5,5000")
    fixed_quantity_places: float = 0.22  # quantities printed with 2-4 decimals ("1,0000")
    references: float = 1.0  # scales how many other numbers and dates the invoice prints


DEFAULT_PROFILE = ContentProfile()


@dataclass(frozen=True)
class InvoiceContent:
    """One invoice's words, printed as the locale prints them, with their true normalised values."""

    locale: str
    language: str
    currency: str  # ISO 4217
    money: MoneyStyle
    vendor: Party
    customer: Party
    shipping_address: tuple[str, ...]  # () when the invoice shows no separate shipping address
    invoice_number: str
    invoice_date: str
    invoice_date_value: dt.date
    due_date: str  # "" when not shown
    due_date_value: dt.date | None
    purchase_order: str
    payment_terms: str
    iban: str  # printed (maybe grouped in fours); "" when not shown
    line_items: tuple[LineItem, ...]
    subtotal: str  # the net total (tax basis): line items + charges - discounts
    subtotal_value: Decimal
    tax_rate: str  # printed percent of the first tax line, e.g. "19" or "8,875"
    total_tax: str
    total_tax_value: Decimal
    total: str
    total_value: Decimal
    amount_due: str  # "" when the invoice shows no separate amount due
    amount_due_value: Decimal
    deposit: str  # a prepayment row between total and amount due ("" when none), printed negative
    notes: tuple[Note, ...]
    document_type: str = "invoice"  # "invoice" | "credit_note"
    items_total: str = ""  # sum of the line amounts, printed
    items_total_value: Decimal = Decimal(0)
    tax_lines: tuple[TaxLine, ...] = ()
    adjustments: tuple[Adjustment, ...] = ()
    rounding: str = ""  # a rounding row before the amount due ("" when none)
    rounding_value: Decimal = Decimal(0)
    references: tuple[Reference, ...] = ()
    due_in_meta: bool = True  # False: the due date is printed only in a payment sentence of the notes
    negative_style: str = "lead"  # how negative amounts are printed (format_number)
    grouping: bool = True  # thousands separators in amounts
    date_style: str = "iso"  # how this invoice prints dates (format_date)
    original_invoice_date: str = ""  # a credit note's corrected invoice: its date (its number is a Reference)

    @property
    def is_credit_note(self) -> bool:
        return self.document_type == "credit_note"

    @property
    def multi_rate(self) -> bool:
        return len(self.tax_lines) > 1

    def money_text(self, value: Decimal) -> str:
        """Any amount of this invoice printed as its totals are."""
        return format_number(value, LOCALE_FORMATS[self.locale], grouping=self.grouping, negative=self.negative_style)

    def normalized_fields(self) -> dict[str, str]:
        """Field name -> normalised value, only for the fields this invoice prints."""
        out = {
            "invoice_number": self.invoice_number,
            "invoice_date": self.invoice_date_value.isoformat(),
            "vendor_name": self.vendor.name,
            "vendor_address": ", ".join(self.vendor.address),
            "customer_name": self.customer.name,
            "billing_address": ", ".join(self.customer.address),
            "subtotal": decimal_text(self.subtotal_value, 2),
            "total_tax": decimal_text(self.total_tax_value, 2),
            "total": decimal_text(self.total_value, 2),
            "currency": self.currency,
        }
        if self.due_date_value is not None:
            out["due_date"] = self.due_date_value.isoformat()
        if self.purchase_order:
            out["purchase_order"] = self.purchase_order
        if self.vendor.tax_id:
            out["vendor_tax_id"] = self.vendor.tax_id_normalized
        if self.shipping_address:
            out["shipping_address"] = ", ".join(self.shipping_address)
        if self.amount_due:
            out["amount_due"] = decimal_text(self.amount_due_value, 2)
        if self.payment_terms:
            out["payment_terms"] = self.payment_terms
        if self.iban:
            out["iban"] = self.iban.replace(" ", "")
        return out

    def normalized_line_items(self) -> list[dict[str, str]]:
        return [
            {"description": li.description, "quantity": decimal_text(li.quantity_value),
             "unit_price": price_text(li.unit_price_value), "amount": decimal_text(li.amount_value, 2)}
            for li in self.line_items
        ]


# ---------------------------------------------------------------- names and addresses


def _brand(rng: random.Random) -> str:
    return rng.choice(w.BRAND_STEMS) + rng.choice(w.BRAND_ENDINGS)


def _acronym(rng: random.Random) -> str:
    return "".join(rng.choice("ABCDEFGHIKLMNPRSTVW") for _ in range(rng.randint(2, 4)))


def person_name(rng: random.Random, language: str) -> str:
    return f"{rng.choice(w.FIRST_NAMES[language])} {rng.choice(w.SURNAMES[language])}"


def company_name(rng: random.Random, locale: str, language: str) -> str:
    """A vendor or customer company, in one of many shapes: "Becker Metallbau GmbH", "Novatec GmbH",
    "Autohaus Becker", "Gebäudeservice Leipzig GmbH", "MVM Versicherungsmakler a.G.", "Logopädin
    Heike Seidel", "Global Goods Inc."; some with no legal suffix, some in capitals."""
    surname, other = rng.choice(w.SURNAMES[language]), rng.choice(w.SURNAMES[language])
    word = rng.choice(w.COMPANY_WORDS[language])
    suffix = rng.choice(w.COMPANY_SUFFIXES[locale])
    city = rng.choice(w.CITIES[locale])[0]
    shape = rng.random()
    if shape < 0.20:
        name = f"{surname} {word} {suffix}"
    elif shape < 0.31:
        name = f"{surname} {suffix}"
    elif shape < 0.38:
        name = f"{surname} & {other} {suffix}"
    elif shape < 0.50:
        name = f"{_brand(rng)} {suffix}" if rng.random() < 0.6 else f"{_brand(rng)} {word} {suffix}"
    elif shape < 0.59:
        name = f"{word} {surname}"  # "Autohaus Becker", "Imprimerie Martin": no legal form
    elif shape < 0.66:
        name = f"{word} {city} {suffix}"
    elif shape < 0.73:
        name = f"{_acronym(rng)} {word} {suffix}" if rng.random() < 0.6 else f"{_acronym(rng)} {suffix}"
    elif shape < 0.83:
        profession = rng.choice(w.PROFESSIONS[language])
        person = person_name(rng, language)
        name = f"{person} {profession}" if w.PROFESSION_AFTER[language] else f"{profession} {person}"
    elif shape < 0.91 and language == "en":
        name = f"{rng.choice(w.ENGLISH_ADJECTIVES)} {rng.choice(w.ENGLISH_NOUNS)} {suffix}"
    elif shape < 0.91:
        name = f"{_brand(rng)} {word}"
    else:
        name = f"{surname} {word}"
    if rng.random() < 0.12:
        name = name.upper()
    return name


def _address(rng: random.Random, locale: str) -> tuple[str, ...]:
    street = rng.choice(w.STREETS[locale])
    number = rng.randint(1, 250)
    city, state, postcode = rng.choice(w.CITIES[locale])
    extra: tuple[str, ...] = ()
    country = (rng.choice(w.COUNTRY_NAMES[locale]),) if rng.random() < 0.2 else ()
    code = f"{w.COUNTRY_CODES[locale]} " if locale not in ("en_US", "en_GB") and rng.random() < 0.1 else ""
    if locale == "en_US":
        lines = (f"{number * 10 + rng.randint(0, 9)} {street}",)
        if rng.random() < 0.3:
            extra = (f"Suite {rng.randint(100, 900)}",)
        return lines + extra + (f"{city}, {state} {postcode}",) + country
    if locale == "en_GB":
        if rng.random() < 0.3:
            extra = (f"Unit {rng.randint(1, 40)}",)
        return extra + (f"{number} {street}", city, postcode) + country
    if locale in ("de_DE", "nl_NL"):
        if rng.random() < 0.08:
            extra = (f"Postfach {rng.randint(10, 99)} {rng.randint(10, 99)}",) if locale == "de_DE" else (
                f"Postbus {rng.randint(100, 9999)}",)
        return (f"{street} {number}",) + extra + (f"{code}{postcode} {city}",) + country
    if locale == "it_IT":
        return (f"{street} {number}", f"{code}{postcode} {city} ({state})" if rng.random() < 0.6 else
                f"{code}{postcode} {city} {state}") + country
    if locale == "es_ES":
        return (f"{street}, {number}", f"{code}{postcode} {city}") + country
    return (f"{number} {street}", f"{code}{postcode} {city}") + country


def _tax_id(rng: random.Random, locale: str) -> tuple[str, str]:
    """(printed, normalised) VAT/tax id."""
    if locale == "en_US":
        value = f"{rng.randint(10, 99)}-{rng.randint(1000000, 9999999)}"
        return value, value
    if locale == "en_GB":
        digits = f"{rng.randint(100000000, 999999999)}"
        printed = rng.choice((f"GB{digits}", f"GB {digits[:3]} {digits[3:7]} {digits[7:]}"))
        return printed, f"GB{digits}"
    if locale == "de_DE":
        digits = f"{rng.randint(100000000, 999999999)}"
        printed = rng.choice((f"DE{digits}", f"DE {digits[:3]} {digits[3:6]} {digits[6:]}"))
        return printed, f"DE{digits}"
    if locale == "nl_NL":
        digits = f"{rng.randint(100000000, 999999999)}B{rng.randint(1, 99):02d}"
        printed = rng.choice((f"NL{digits}", f"NL {digits[:9]} {digits[9:]}"))
        return printed, f"NL{digits}"
    if locale == "it_IT":
        digits = f"{rng.randint(10000000000, 99999999999)}"
        printed = rng.choice((f"IT{digits}", f"IT {digits}", digits))
        return printed, printed.replace(" ", "") if printed.startswith("IT") else digits
    if locale == "es_ES":
        digits = f"{rng.choice('ABGQ')}{rng.randint(10000000, 99999999)}"
        printed = rng.choice((f"ES{digits}", digits, f"ES {digits}"))
        return printed, printed.replace(" ", "")
    digits = f"{rng.randint(10, 99)}{rng.randint(100000000, 999999999)}"
    printed = rng.choice((f"FR{digits}", f"FR {digits[:2]} {digits[2:5]} {digits[5:8]} {digits[8:]}"))
    return printed, f"FR{digits}"


def _national_tax_number(rng: random.Random, locale: str) -> str:
    """The number printed beside the VAT id: Steuernummer, SIRET, KvK, codice fiscale."""
    return {
        "de_DE": f"{rng.randint(100, 299)}/{rng.randint(100, 999)}/{rng.randint(10000, 99999)}",
        "fr_FR": f"{rng.randint(100, 999)} {rng.randint(100, 999)} {rng.randint(100, 999)} {rng.randint(10000, 99999)}",
        "nl_NL": f"{rng.randint(10000000, 99999999)}",
        "it_IT": f"{rng.randint(10000000000, 99999999999)}",
        "es_ES": f"Tomo {rng.randint(1000, 40000)}, Folio {rng.randint(1, 200)}",
        "en_GB": f"{rng.randint(1000000, 9999999):08d}",
    }.get(locale, f"{rng.randint(10, 99)}-{rng.randint(1000000, 9999999)}")


def _register(rng: random.Random, locale: str) -> str:
    return {
        "de_DE": f"HRB {rng.randint(100, 99999)}", "fr_FR": f"B {rng.randint(100, 999)} {rng.randint(100, 999)} "
        f"{rng.randint(100, 999)}", "nl_NL": f"{rng.randint(10000000, 99999999)}",
        "it_IT": f"MI-{rng.randint(100000, 2999999)}", "es_ES": f"Hoja M-{rng.randint(10000, 999999)}",
        "en_GB": f"{rng.randint(1000000, 9999999):08d}",
    }.get(locale, f"{rng.randint(1000000, 9999999)}")


IBAN_FORMATS = {  # country, BBAN shape: "A" a capital letter, "9" a digit
    "de_DE": ("DE", "9" * 18), "fr_FR": ("FR", "9" * 23), "en_GB": ("GB", "AAAA" + "9" * 14),
    "en_US": ("DE", "9" * 18), "nl_NL": ("NL", "AAAA" + "9" * 10), "it_IT": ("IT", "A" + "9" * 22),
    "es_ES": ("ES", "9" * 20),
}


def _iban(rng: random.Random, locale: str) -> str:
    """A checksum-valid IBAN (ISO 13616 mod 97), printed in groups of four or as one block."""
    country, shape = IBAN_FORMATS[locale]
    bban = "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") if ch == "A" else str(rng.randint(0, 9)) for ch in shape)
    numeric = "".join(str(int(c, 36)) for c in bban + country + "00")
    check = 98 - int(numeric) % 97
    iban = f"{country}{check:02d}{bban}"
    if rng.random() < 0.7:
        return " ".join(iban[i:i + 4] for i in range(0, len(iban), 4))
    return iban


INVOICE_PREFIXES = {"en": ("INV", "IN", "DOC", "SI"), "de": ("RE", "R", "RG", "AR", "RK"), "fr": ("FA", "F", "FAC"),
                    "nl": ("F", "FACT", "VF"), "it": ("FT", "FATT", "FV"), "es": ("F", "FAC", "FV")}


def _invoice_number(rng: random.Random, year: int, language: str) -> str:
    n = rng.randint(1, 9999)
    prefix = rng.choice(INVOICE_PREFIXES[language])
    shapes = (f"{prefix}-{year}-{n:04d}", f"{prefix}{year % 100:02d}{n:05d}", f"{rng.randint(10000, 999999)}",
              f"{year}/{n:04d}", f"{prefix}-{n:05d}", f"{n}", f"{year}-{n:03d}", f"{prefix}/{year}/{n:05d}",
              f"{n:05d}/{year % 100:02d}", f"{prefix} {year % 100:02d}-{n % 100}", f"{prefix}{rng.randint(10000000, 99999999)}",
              f"{year % 100:02d}{rng.randint(1, 12):02d}-{n:04d}")
    return rng.choice(shapes)


def _gtin(rng: random.Random) -> str:
    """A 13-digit GTIN/GLN with its check digit."""
    body = "40" + "".join(str(rng.randint(0, 9)) for _ in range(10))
    total = sum(int(d) * (3 if i % 2 else 1) for i, d in enumerate(body))
    return body + str((10 - total % 10) % 10)


def _article_number(rng: random.Random) -> str:
    letters = "".join(rng.choice("ABCDEFGHKLMNPRSTZ") for _ in range(rng.randint(1, 3)))
    return rng.choice((f"{letters}{rng.randint(10, 999)}", f"{rng.randint(10, 99)}T{rng.randint(1, 99):02d}",
                       f"{rng.randint(100000, 999999)}", f"ART-{rng.randint(1000, 9999)}", f"{letters}{rng.randint(100, 999)}A4"))


# ---------------------------------------------------------------- line items and amounts


@dataclass(frozen=True)
class _ItemStyle:
    """Per-invoice printing choices for the items: quantity decimals, price decimals, articles, sublines."""

    quantity_places: int | None
    price_places: int
    articles: bool
    sublines: float  # share of items with a second line


def _line_item(rng: random.Random, fmt: LocaleFormat, style: _ItemStyle, rate: Decimal, credit: bool) -> LineItem:
    name, unit = rng.choice(w.ITEMS[fmt.language])
    detail = rng.choice(w.ITEM_DETAILS[fmt.language])
    description = f"{name} {detail}".strip() if detail else name
    if unit in ("h", "Std.", "uur"):
        quantity = Decimal(rng.randint(1, 40)) / 2
    elif unit in w.DECIMAL_UNITS and rng.random() < 0.5:
        quantity = (Decimal(rng.randint(5, 400)) / 4).quantize(Decimal("0.01"))
    else:
        quantity = Decimal(rng.choice((1, 1, 1, 2, 3, 4, 5, 10, 12, 20, 25, 50)))
    # Log-uniform prices between ~1.50 and ~2,500: cheap consumables and expensive services alike.
    unit_price = Decimal(str(round(10 ** rng.uniform(0.18, 3.4), 2))).quantize(CENT)
    if rng.random() < 0.4:
        unit_price = unit_price.to_integral_value() or Decimal(1)
        unit_price = unit_price.quantize(CENT)
    if style.price_places == 4 and rng.random() < 0.25:  # a real sub-cent price: many cheap units
        unit_price = Decimal(str(round(rng.uniform(0.01, 2.5), 4)))
        quantity = Decimal(rng.choice((100, 250, 500, 1000, 2500, 5000)))
    if credit:
        quantity = -quantity
    amount = (quantity * unit_price).quantize(CENT, ROUND_HALF_UP)
    quantity_places = style.quantity_places
    if quantity_places is not None and quantity != quantity.quantize(Decimal(1).scaleb(-quantity_places)):
        quantity_places = None
    subline = ""
    if rng.random() < style.sublines:
        subline = (f"GTIN: {_gtin(rng)}" if rng.random() < 0.5 else
                   rng.choice(w.ITEM_SUBLINES[fmt.language]).format(n=rng.randint(10000, 99999)))
    return LineItem(description, format_quantity(quantity, fmt, quantity_places),
                    format_number(unit_price, fmt, places=style.price_places if unit_price == unit_price.quantize(CENT)
                                  else 4),
                    format_number(amount, fmt), quantity, unit_price, amount, unit,
                    tax_rate=_rate_text(rate, fmt), tax_rate_value=rate,
                    article=_article_number(rng) if style.articles else "", subline=subline)


def _rate_text(rate: Decimal, fmt: LocaleFormat) -> str:
    return format_number(rate, fmt, places=0 if rate == rate.to_integral_value() else
                         (1 if rate * 10 == (rate * 10).to_integral_value() else 3))


def _adjustments(rng: random.Random, items: tuple[LineItem, ...], rates: list[Decimal], fmt: LocaleFormat,
                 money) -> tuple[Adjustment, ...]:
    out = []
    kinds = rng.choice((("discount",), ("charge",), ("discount", "charge")))
    for kind in kinds:
        rate = rng.choice(rates)
        if kind == "discount":
            group = sum((li.amount_value for li in items if li.tax_rate_value == rate), Decimal(0))
            percent = Decimal(rng.choice((2, 3, 5, 10, 15)))
            if rng.random() < 0.7 and group > 0:
                value = -(group * percent / 100).quantize(CENT, ROUND_HALF_UP)
                percent_text = format_number(percent, fmt, places=0)
            else:
                value, percent_text = -Decimal(rng.choice(("5.00", "10.00", "12.50", "25.00", "50.00"))), ""
            if value == 0 or group + value <= 0:
                continue
        else:
            value = Decimal(rng.choice(("4.90", "5.80", "9.95", "12.50", "25.00", "49.00")))
            percent_text = ""
        out.append(Adjustment(kind, percent_text, money(value), value, rate))
    return tuple(out)


# ---------------------------------------------------------------- references and notes


def _references(rng: random.Random, locale: str, language: str, issued: dt.date, date_style: str, credit: bool,
                scale: float, vendor: Party, customer: Party, prefix_year: int) -> tuple[Reference, ...]:
    """Other numbers and dates of the invoice, each with its own probability."""
    def maybe(p: float) -> bool:
        return rng.random() < min(1.0, p * scale)

    def date_before(days: int) -> str:
        return format_date(issued - dt.timedelta(days=rng.randint(0, days)), date_style)

    refs: list[Reference] = []
    if maybe(0.45):
        refs.append(Reference("customer_number", rng.choice((f"{rng.randint(10000, 99999)}", f"K-{rng.randint(1000, 99999)}",
                                                            f"KD{rng.randint(1000000, 9999999)}", f"C{rng.randint(100, 9999):04d}",
                                                            f"{rng.randint(100, 999):06d}"))))
    if maybe(0.3):
        refs.append(Reference("delivery_date", date_before(10)))
    if maybe(0.12):
        start = issued.replace(day=1) - dt.timedelta(days=rng.choice((0, 28, 300)))
        start = start.replace(day=1)
        end = (start + dt.timedelta(days=rng.choice((27, 89, 364)))).replace(day=1) - dt.timedelta(days=1)
        if end <= start:
            end = start + dt.timedelta(days=30)
        refs.append(Reference("service_period", f"{format_date(start, date_style)} - {format_date(end, date_style)}"))
    if maybe(0.15):
        refs.append(Reference("delivery_note", rng.choice((f"LS-{prefix_year}-{rng.randint(1000, 9999)}",
                                                          f"L{rng.randint(10000000, 99999999)}", f"{rng.randint(100000, 999999)}",
                                                          f"ASN-{rng.randint(10000, 99999)}"))))
    if maybe(0.1):
        refs.append(Reference("order_date", date_before(40)))
    if maybe(0.1 if locale.startswith("en") else 0.14):
        refs.append(Reference("gln", _gtin(rng) + (" (GLN)" if rng.random() < 0.3 else "")))
    if maybe(0.08):
        refs.append(Reference("contract", rng.choice((f"CON-{rng.randint(10000, 99999)}", f"V-{rng.randint(100, 999)}/{prefix_year}"))))
    if maybe(0.1):
        refs.append(Reference("your_ref", rng.choice((f"AB-{rng.randint(100, 999)}", person_name(rng, language),
                                                     f"{rng.randint(1000, 9999)}/{rng.choice('ABCDEFG')}"))))
    if vendor.tax_number and maybe(0.5):
        refs.append(Reference("tax_number", vendor.tax_number))
    if customer.tax_id and maybe(0.6):
        refs.append(Reference("customer_vat", customer.tax_id))
    if credit and rng.random() < 0.8:
        refs.append(Reference("original_invoice", _invoice_number(rng, prefix_year, language)))
    if maybe(0.04):
        refs.append(Reference("payment_ref", f"{rng.randint(1000000, 9999999)}-{rng.randint(100000, 999999)}"))
    rng.shuffle(refs)
    return tuple(refs)


_PAY_BY = {  # (before, after) the labelled due date in a payment sentence
    "en": (("Please pay by", "at the latest."), ("Payment due on", "by bank transfer."), ("Payable until", "net.")),
    "de": (("Zahlbar bis", "ohne Abzug."), ("Zahlbar innerhalb von 30 Tagen bis", "ohne Abzug."),
           ("Bitte überweisen Sie den Betrag bis", "auf unser Konto.")),
    "fr": (("À régler au plus tard le", "par virement."), ("Date limite de paiement :", "sans escompte.")),
    "nl": (("Gelieve te betalen vóór", "o.v.v. het factuurnummer."), ("Te voldoen uiterlijk", "op onze rekening.")),
    "it": (("Pagamento entro il", "tramite bonifico."), ("Da saldare entro il", "senza sconti.")),
    "es": (("Pago antes del", "mediante transferencia."), ("Vencimiento el", "por transferencia bancaria.")),
}
_QUOTE_NUMBER = {  # (before, after) the labelled invoice number
    "en": ("Please quote", "with your payment."), "de": ("Bitte geben Sie bei Zahlung", "an."),
    "fr": ("Merci d'indiquer la référence", "lors du règlement."), "nl": ("Vermeld bij betaling", "als kenmerk."),
    "it": ("Indicare nella causale", "come riferimento."), "es": ("Indique la referencia", "en el pago."),
}
_ORDER_NOTE = {"en": "Invoice according to your order of {d}.", "de": "Lieferung gemäß Ihrer Bestellung vom {d}.",
               "fr": "Facture selon votre commande du {d}.", "nl": "Factuur conform uw bestelling van {d}.",
               "it": "Fattura relativa al Vs. ordine del {d}.", "es": "Factura según su pedido del {d}."}
_PARTIAL_NOTE = {"en": "Delivery expected {d}.", "de": "Lieferung voraussichtlich bis {d}.",
                 "fr": "Livraison prévue le {d}.", "nl": "Levering verwacht op {d}.",
                 "it": "Consegna prevista il {d}.", "es": "Entrega prevista el {d}."}
_SKONTO_NOTE = {"en": "{p}% early payment discount if paid by {d} ({a}).",
                "de": "{p}% Skonto bei Zahlung bis {d} ({a}).", "fr": "Escompte de {p} % pour paiement avant le {d} ({a}).",
                "nl": "{p}% korting bij betaling vóór {d} ({a}).", "it": "Sconto {p}% per pagamento entro il {d} ({a}).",
                "es": "Descuento del {p}% por pronto pago antes del {d} ({a})."}
_CREDIT_NOTE = {"en": "Credit for invoice {n} of {d}.", "de": "Gutschrift zu Rechnung {n} vom {d}.",
                "fr": "Avoir sur la facture {n} du {d}.", "nl": "Creditering van factuur {n} van {d}.",
                "it": "Storno della fattura {n} del {d}.", "es": "Rectifica la factura {n} de {d}."}


def _notes(rng: random.Random, language: str, issued: dt.date, date_style: str, invoice_number: str,
           due_text: str, total_text: str, references: tuple[Reference, ...], original_date: str) -> tuple[Note, ...]:
    notes: list[Note] = [((text, None),) for text in rng.sample(w.NOTES[language], k=rng.randint(0, 2))]
    if rng.random() < 0.12:
        notes.append(((_ORDER_NOTE[language].format(d=format_date(issued - dt.timedelta(days=rng.randint(2, 30)),
                                                                    date_style)), None),))
    if rng.random() < 0.08:
        day = issued + dt.timedelta(days=rng.randint(3, 40))
        notes.append(((_PARTIAL_NOTE[language].format(d=format_partial_date(day, language)), None),))
    if due_text and rng.random() < 0.25:
        before, after = rng.choice(_PAY_BY[language])
        notes.append(((before, None), (due_text, "due_date"), (after, None)))
    if total_text and rng.random() < 0.08:
        skonto = issued + dt.timedelta(days=rng.choice((7, 10, 14)))
        notes.append(((_SKONTO_NOTE[language].format(p=rng.choice((2, 3)), d=format_date(skonto, date_style),
                                                     a=total_text), None),))
    if rng.random() < 0.07:
        before, after = _QUOTE_NUMBER[language]
        notes.append(((before, None), (invoice_number, "invoice_number"), (after, None)))
    original = next((r.text for r in references if r.key == "original_invoice"), "")
    if original and rng.random() < 0.6:
        notes.append(((_CREDIT_NOTE[language].format(n=original, d=original_date), None),))
    rng.shuffle(notes)
    return tuple(notes)


# ---------------------------------------------------------------- the invoice

ATTENTION = {"en": "Attn", "de": "z. Hd.", "fr": "A l'attention de", "nl": "T.a.v.", "it": "Alla c.a.", "es": "Att."}
SALUTATIONS = {"de": ("Herrn", "Frau", "Firma"), "fr": ("M.", "Mme", "Monsieur", "Madame"), "en": ("Mr", "Ms", "Mrs"),
               "nl": ("Dhr.", "Mevr."), "it": ("Sig.", "Sig.ra", "Spett.le"), "es": ("D.", "Dña.", "Sr.")}


def choose_locale(rng: random.Random, locales: tuple[str, ...] = LOCALES) -> str:
    return rng.choices(locales, weights=[LOCALE_WEIGHTS.get(loc, 1) for loc in locales])[0]


def sample_invoice(rng: random.Random, locale: str | None = None, n_items: int | None = None,
                   max_items: int = 12, profile: ContentProfile = DEFAULT_PROFILE) -> InvoiceContent:
    """One invoice's content; deterministic given ``rng``'s state.

    ``n_items`` line items exactly, or between 1 and ``max_items`` when it is None.
    """
    locale = locale or choose_locale(rng)
    fmt = LOCALE_FORMATS[locale]
    language = fmt.language
    credit = rng.random() < profile.credit_note
    currency = fmt.default_currency if rng.random() < 0.85 else rng.choice(("USD", "EUR", "GBP", "CHF"))
    if locale.startswith("en"):
        kinds = ("symbol_glued", "code_before")
    elif locale == "nl_NL":
        kinds = ("symbol_before", "symbol_before", "code_after")
    else:
        kinds = ("symbol_after", "code_after")
    money_kind = rng.choice(kinds + ("bare",))
    if currency == "CHF" and money_kind == "symbol_glued":
        money_kind = "code_before"
    money_style = MoneyStyle(money_kind, currency)
    grouping = rng.random() < 0.85
    negative = rng.choice(("lead", "lead", "trail") if language == "de" else
                          ("lead", "lead", "paren") if language == "en" else ("lead",))

    def money(value: Decimal) -> str:
        return format_number(value, fmt, grouping=grouping, negative=negative)

    date_style = rng.choice(fmt.date_styles)
    issued = dt.date(2019, 1, 1) + dt.timedelta(days=rng.randint(0, 7 * 365))
    due = issued + dt.timedelta(days=rng.choice((7, 14, 30, 45, 60))) if rng.random() < 0.8 else None

    vendor_tax, vendor_tax_norm = _tax_id(rng, locale) if rng.random() < 0.85 else ("", "")
    vendor = Party(company_name(rng, locale, language), _address(rng, locale), vendor_tax, vendor_tax_norm,
                   email=f"billing@{rng.choice(w.SURNAMES['en']).lower().replace(chr(39), '')}.example",
                   phone=f"+{rng.randint(1, 49)} {rng.randint(100, 999)} {rng.randint(100000, 9999999)}",
                   number=f"{rng.randint(100000, 999999)}", director=person_name(rng, language),
                   register=_register(rng, locale),
                   tax_number=_national_tax_number(rng, locale) if rng.random() < 0.5 else "")
    if rng.random() < 0.72:
        customer = Party(company_name(rng, locale, language), _address(rng, locale),
                         tax_id=_tax_id(rng, locale)[0] if rng.random() < 0.2 else "",
                         attention=f"{ATTENTION[language]} {person_name(rng, language)}" if rng.random() < 0.12 else "")
    else:
        customer = Party(person_name(rng, language), _address(rng, locale),
                         salutation=rng.choice(SALUTATIONS[language]) if rng.random() < 0.4 else "")
    shipping = _address(rng, locale) if rng.random() < 0.35 else ()

    count = max(1, n_items if n_items is not None else rng.randint(1, max(1, max_items)))
    standard_rate = rng.choice(fmt.tax_rates)
    rates = [standard_rate]
    if count >= 2 and len(fmt.tax_rates) > 1 and locale != "en_US" and rng.random() < profile.multi_rate:
        rates = [fmt.tax_rates[0]] + rng.sample(fmt.tax_rates[1:], k=rng.randint(1, min(2, len(fmt.tax_rates) - 1)))
    item_style = _ItemStyle(
        quantity_places=rng.choice((2, 3, 4)) if rng.random() < profile.fixed_quantity_places else None,
        price_places=4 if rng.random() < profile.four_decimal_prices else 2,
        articles=rng.random() < profile.articles,
        sublines=rng.choice((0.5, 1.0)) if rng.random() < profile.sublines else 0.0)
    item_rates = [rates[i] if i < len(rates) else rng.choice(rates) for i in range(count)]
    rng.shuffle(item_rates)
    items = tuple(_line_item(rng, fmt, item_style, rate, credit) for rate in item_rates)
    items_total = sum((li.amount_value for li in items), Decimal("0.00"))
    adjustments = (_adjustments(rng, items, rates, fmt, money)
                   if not credit and rng.random() < profile.adjustments else ())

    tax_lines = []
    for rate in sorted(set(item_rates), reverse=True):
        basis = (sum((li.amount_value for li in items if li.tax_rate_value == rate), Decimal("0.00")) +
                 sum((a.amount_value for a in adjustments if a.rate_value == rate), Decimal("0.00")))
        tax = (basis * rate / 100).quantize(CENT, ROUND_HALF_UP)
        tax_lines.append(TaxLine(_rate_text(rate, fmt), money(basis), money(tax), rate, basis, tax))
    subtotal = sum((t.basis_value for t in tax_lines), Decimal("0.00"))
    tax = sum((t.tax_value for t in tax_lines), Decimal("0.00"))
    total = subtotal + tax
    deposit = Decimal(0)
    if not credit and rng.random() < 0.15:
        deposit = (total * Decimal(rng.choice((10, 20, 30, 50))) / 100).quantize(CENT)
    rounding = Decimal(0)
    if currency == "CHF" and not credit:  # Swiss amounts are paid in 5-centime steps
        rounding = (total * 20).quantize(Decimal(1), ROUND_HALF_UP) / 20 - total
    elif not credit and rng.random() < 0.02:
        rounding = Decimal(rng.choice(("0.01", "-0.01", "0.02")))
    amount_due = total - deposit + rounding
    show_due = deposit > 0 or rounding != 0 or rng.random() < 0.6
    has_iban = rng.random() < (0.25 if locale == "en_US" else 0.9)
    invoice_number = _invoice_number(rng, issued.year, language)
    due_text = format_date(due, date_style) if due else ""
    references = _references(rng, locale, language, issued, date_style, credit, profile.references, vendor, customer,
                             issued.year)
    original_date = format_date(issued - dt.timedelta(days=rng.randint(5, 60)), date_style) if credit else ""
    notes = _notes(rng, language, issued, date_style, invoice_number, due_text,
                   money((total * Decimal("0.02")).quantize(CENT)) if not credit else "", references, original_date)
    due_in_note = any(label == "due_date" for note in notes for _, label in note)
    return InvoiceContent(
        locale=locale, language=language, currency=currency, money=money_style, vendor=vendor, customer=customer,
        shipping_address=shipping,
        invoice_number=invoice_number,
        invoice_date=format_date(issued, date_style), invoice_date_value=issued,
        due_date=due_text, due_date_value=due,
        purchase_order=(rng.choice((f"PO-{rng.randint(10000, 99999)}", f"45{rng.randint(10000000, 99999999)}",
                                    f"PO{rng.randint(1000, 9999)}", f"B{rng.randint(100000000, 999999999)}",
                                    f"ORDER-{rng.randint(10000, 99999)}")) if rng.random() < 0.55 else ""),
        payment_terms=rng.choice(w.PAYMENT_TERMS[language]) if rng.random() < 0.65 else "",
        iban=_iban(rng, locale) if has_iban else "",
        line_items=items,
        subtotal=money(subtotal), subtotal_value=subtotal,
        tax_rate=tax_lines[0].rate,
        total_tax=money(tax), total_tax_value=tax,
        total=money(total), total_value=total,
        amount_due=money(amount_due) if show_due else "",
        amount_due_value=amount_due,
        deposit=money(-deposit) if deposit > 0 else "",
        notes=notes,
        document_type="credit_note" if credit else "invoice",
        items_total=money(items_total), items_total_value=items_total,
        tax_lines=tuple(tax_lines), adjustments=adjustments,
        rounding=money(rounding) if rounding else "", rounding_value=rounding,
        references=references,
        due_in_meta=not due_in_note or rng.random() < 0.6,
        negative_style=negative, grouping=grouping, date_style=date_style, original_invoice_date=original_date,
    )


# ---------------------------------------------------------------- what an invoice has (for counting)

TRAITS = ("credit_note", "multi_rate", "adjustments", "prepaid", "rounding", "references", "other_dates",
          "customer_number", "gln", "due_only_in_note", "value_in_note", "four_decimal_prices", "fixed_quantity_places",
          "sublines", "articles", "vendor_without_suffix", "vendor_capitals", "country_line",
          "negative_trailing_minus")
_DATE_REFERENCES = ("delivery_date", "service_period", "order_date")


def content_traits(c: InvoiceContent) -> list[str]:
    """Which of the complications real invoices have this one has (names from TRAITS), for labels.jsonl's
    ``synth.traits`` and per-class counts."""
    suffixes = tuple(sfx.lower() for sfx in w.COMPANY_SUFFIXES[c.locale])
    keys = {r.key for r in c.references}
    has = {
        "credit_note": c.is_credit_note,
        "multi_rate": c.multi_rate,
        "adjustments": bool(c.adjustments),
        "prepaid": bool(c.deposit),
        "rounding": bool(c.rounding),
        "references": bool(c.references),
        "other_dates": bool(keys & set(_DATE_REFERENCES)),
        "customer_number": "customer_number" in keys,
        "gln": "gln" in keys,
        "due_only_in_note": bool(c.due_date) and not c.due_in_meta,
        "value_in_note": any(label for note in c.notes for _, label in note),
        "four_decimal_prices": any(len(li.unit_price.rpartition(LOCALE_FORMATS[c.locale].decimal)[2]) == 4
                                   for li in c.line_items),
        "fixed_quantity_places": any(LOCALE_FORMATS[c.locale].decimal in li.quantity and
                                     li.quantity_value == li.quantity_value.to_integral_value() for li in c.line_items),
        "sublines": any(li.subline for li in c.line_items),
        "articles": any(li.article for li in c.line_items),
        "vendor_without_suffix": not c.vendor.name.lower().endswith(suffixes),
        "vendor_capitals": c.vendor.name == c.vendor.name.upper(),
        "country_line": c.vendor.address[-1] in _COUNTRY_LINES or c.customer.address[-1] in _COUNTRY_LINES,
        "negative_trailing_minus": c.is_credit_note and c.negative_style == "trail",
    }
    return [trait for trait in TRAITS if has[trait]]


_COUNTRY_LINES = frozenset(name for names in w.COUNTRY_NAMES.values() for name in names)
