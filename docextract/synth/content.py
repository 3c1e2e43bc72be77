"""What a synthetic invoice says: a seeded sampler of vendors, customers, dates, amounts and line items.

Everything is drawn from small built-in word lists per locale, so the same ``random.Random`` state always
gives the same invoice. :class:`InvoiceContent` carries each value twice: as printed in the locale
(``15.03.2024``, ``1.234,56``) and normalised (``2024-03-15``, ``1234.56``, ISO 4217 ``EUR``), so
evaluation can compare normalised values whatever the layout printed.

Every string here must be encodable in cp1252: the PDFs use the PDF core fonts (see canvas.py).
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

LOCALES = ("en_US", "en_GB", "de_DE", "fr_FR")
CENT = Decimal("0.01")

# ---------------------------------------------------------------- locale formats


@dataclass(frozen=True)
class LocaleFormat:
    code: str
    language: str  # "en" | "de" | "fr": picks label wording and word lists
    thousands: str
    decimal: str
    default_currency: str
    date_styles: tuple[str, ...]  # names understood by format_date
    tax_rates: tuple[Decimal, ...]  # percent


LOCALE_FORMATS = {
    "en_US": LocaleFormat("en_US", "en", ",", ".", "USD", ("us_numeric", "us_long", "us_short", "iso"),
                          (Decimal("0"), Decimal("6.25"), Decimal("7"), Decimal("8.875"))),
    "en_GB": LocaleFormat("en_GB", "en", ",", ".", "GBP", ("eu_slash", "gb_long", "gb_short"),
                          (Decimal("20"), Decimal("5"))),
    "de_DE": LocaleFormat("de_DE", "de", ".", ",", "EUR", ("de_numeric", "de_long", "iso"),
                          (Decimal("19"), Decimal("7"))),
    "fr_FR": LocaleFormat("fr_FR", "fr", " ", ",", "EUR", ("eu_slash", "fr_long"),
                          (Decimal("20"), Decimal("10"), Decimal("5.5"))),
}

MONTHS = {
    "en": ("January", "February", "March", "April", "May", "June", "July", "August", "September",
           "October", "November", "December"),
    "de": ("Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September",
           "Oktober", "November", "Dezember"),
    "fr": ("janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre",
           "octobre", "novembre", "décembre"),
}


def format_date(day: dt.date, style: str) -> str:
    """``day`` printed in one of the locale date styles (see LOCALE_FORMATS)."""
    en, de, fr = MONTHS["en"][day.month - 1], MONTHS["de"][day.month - 1], MONTHS["fr"][day.month - 1]
    return {
        "us_numeric": f"{day.month:02d}/{day.day:02d}/{day.year}",
        "us_long": f"{en} {day.day}, {day.year}",
        "us_short": f"{en[:3]} {day.day}, {day.year}",
        "eu_slash": f"{day.day:02d}/{day.month:02d}/{day.year}",
        "gb_long": f"{day.day} {en} {day.year}",
        "gb_short": f"{day.day:02d}-{en[:3]}-{day.year}",
        "de_numeric": f"{day.day:02d}.{day.month:02d}.{day.year}",
        "de_long": f"{day.day}. {de} {day.year}",
        "fr_long": f"{day.day} {fr} {day.year}",
        "iso": day.isoformat(),
    }[style]


def format_number(value: Decimal, fmt: LocaleFormat, places: int = 2, grouping: bool = True) -> str:
    """``1234.5`` -> ``1,234.50`` (en), ``1.234,50`` (de), ``1 234,50`` (fr)."""
    quantum = Decimal(1).scaleb(-places) if places else Decimal(1)
    text = f"{abs(value.quantize(quantum, ROUND_HALF_UP)):,.{places}f}"  # "1,234.50"
    integer, _, fraction = text.partition(".")
    integer = integer.replace(",", fmt.thousands if grouping else "")
    sign = "-" if value < 0 else ""
    return sign + integer + (fmt.decimal + fraction if places else "")


def format_quantity(value: Decimal, fmt: LocaleFormat) -> str:
    """Whole quantities without decimals (``3``), fractional ones as the locale writes them (``7,5``)."""
    if value == value.to_integral_value():
        return format_number(value, fmt, places=0)
    return format_number(value, fmt, places=2 if value * 10 != (value * 10).to_integral_value() else 1)


# ---------------------------------------------------------------- money display

CURRENCY_SYMBOLS = {"USD": "$", "GBP": "£", "EUR": "€", "CHF": "CHF"}
MONEY_STYLES = ("symbol_glued", "symbol_after", "code_before", "code_after", "bare")


@dataclass(frozen=True)
class MoneyStyle:
    """How an amount carries its currency on this invoice: ``$1,234.56``, ``1.234,56 €``, ``EUR 1,234.56`` or bare."""

    kind: str  # one of MONEY_STYLES
    currency: str  # ISO 4217

    def parts(self, amount_text: str) -> tuple[tuple[str, bool], ...]:
        """(text, is_currency) pieces separated by spaces when printed. A glued symbol stays with the amount."""
        symbol = CURRENCY_SYMBOLS[self.currency]
        if self.kind == "symbol_glued":
            return ((symbol + amount_text, False),)
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


@dataclass(frozen=True)
class Party:
    name: str
    address: tuple[str, ...]  # printed lines
    tax_id: str = ""  # printed
    tax_id_normalized: str = ""
    email: str = ""
    phone: str = ""


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
    subtotal: str
    subtotal_value: Decimal
    tax_rate: str  # printed percent, e.g. "19" or "8,875"
    total_tax: str
    total_tax_value: Decimal
    total: str
    total_value: Decimal
    amount_due: str  # "" when the invoice shows no separate amount due
    amount_due_value: Decimal
    deposit: str  # a prepayment line between total and amount due ("" when none)
    notes: tuple[str, ...]

    def normalized_fields(self) -> dict[str, str]:
        """Field name -> normalised value, only for the fields this invoice prints."""
        out = {
            "invoice_number": self.invoice_number,
            "invoice_date": self.invoice_date_value.isoformat(),
            "vendor_name": self.vendor.name,
            "vendor_address": ", ".join(self.vendor.address),
            "customer_name": self.customer.name,
            "billing_address": ", ".join(self.customer.address),
            "subtotal": str(self.subtotal_value),
            "total_tax": str(self.total_tax_value),
            "total": str(self.total_value),
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
            out["amount_due"] = str(self.amount_due_value)
        if self.payment_terms:
            out["payment_terms"] = self.payment_terms
        if self.iban:
            out["iban"] = self.iban.replace(" ", "")
        return out

    def normalized_line_items(self) -> list[dict[str, str]]:
        return [
            {"description": li.description, "quantity": str(li.quantity_value.normalize()),
             "unit_price": str(li.unit_price_value), "amount": str(li.amount_value)}
            for li in self.line_items
        ]


# ---------------------------------------------------------------- word lists

SURNAMES = {
    "en": ("Smith", "Johnson", "Walker", "Harper", "Bennett", "Carter", "Hughes", "Foster", "Porter", "Reed",
           "Sullivan", "Hayes", "Brooks", "Palmer", "Fletcher", "Turner"),
    "de": ("Müller", "Schmidt", "Schneider", "Fischer", "Weber", "Becker", "Hoffmann", "Schäfer", "Koch",
           "Bauer", "Richter", "Klein", "Wolf", "Schröder", "Neumann", "Krüger"),
    "fr": ("Dupont", "Martin", "Bernard", "Lefèvre", "Moreau", "Laurent", "Girard", "Fournier", "Mercier",
           "Rousseau", "Blanc", "Garnier", "Chevalier", "Lambert", "Faure", "Gauthier"),
}
COMPANY_WORDS = {
    "en": ("Consulting", "Supplies", "Logistics", "Software", "Print", "Engineering", "Office", "Media",
           "Facilities", "Design", "Electrical", "Catering"),
    "de": ("Bürotechnik", "Logistik", "Software", "Druck", "Maschinenbau", "Beratung", "Elektro", "Medien",
           "Gebäudeservice", "Handel", "Metallbau", "Catering"),
    "fr": ("Conseil", "Logistique", "Informatique", "Imprimerie", "Bâtiment", "Fournitures", "Électricité",
           "Médias", "Services", "Transports", "Traiteur", "Design"),
}
COMPANY_SUFFIXES = {
    "en_US": ("Inc.", "LLC", "Corp.", "Co."), "en_GB": ("Ltd", "Limited", "LLP", "& Sons Ltd"),
    "de_DE": ("GmbH", "AG", "GmbH & Co. KG", "e.K."), "fr_FR": ("SARL", "SAS", "SA", "EURL"),
}
STREETS = {
    "en_US": ("Oak Street", "Maple Avenue", "Main Street", "Park Road", "Cedar Lane", "Elm Drive", "Lake Blvd"),
    "en_GB": ("High Street", "Station Road", "Church Lane", "Victoria Road", "Mill Lane", "King Street"),
    "de_DE": ("Hauptstraße", "Bahnhofstraße", "Gartenweg", "Lindenallee", "Schulstraße", "Industriestraße"),
    "fr_FR": ("rue de la Paix", "avenue Victor Hugo", "boulevard Voltaire", "rue des Lilas", "place du Marché"),
}
CITIES = {
    "en_US": (("Springfield", "IL", "62704"), ("Austin", "TX", "73301"), ("Portland", "OR", "97205"),
              ("Columbus", "OH", "43215"), ("Denver", "CO", "80202"), ("Madison", "WI", "53703")),
    "en_GB": (("London", "", "SW1A 1AA"), ("Leeds", "", "LS1 4DY"), ("Bristol", "", "BS1 5TR"),
              ("Manchester", "", "M1 2AB"), ("York", "", "YO1 7HH")),
    "de_DE": (("Berlin", "", "10115"), ("München", "", "80331"), ("Köln", "", "50667"),
              ("Hamburg", "", "20095"), ("Leipzig", "", "04109"), ("Nürnberg", "", "90402")),
    "fr_FR": (("Paris", "", "75002"), ("Lyon", "", "69002"), ("Marseille", "", "13001"),
              ("Toulouse", "", "31000"), ("Nantes", "", "44000"), ("Lille", "", "59000")),
}
ITEMS = {
    "en": (("Consulting services", "h"), ("Server maintenance", "h"), ("Office chair", "pcs"),
           ("Printer toner cartridge", "pcs"), ("Website hosting", "month"), ("Software licence", "pcs"),
           ("Project management", "h"), ("Network cabling", "m"), ("Desk lamp", "pcs"), ("Copy paper A4", "box"),
           ("Delivery charge", ""), ("Installation", "h"), ("Training workshop", "day"), ("USB-C docking station", "pcs"),
           ("Cloud storage plan", "month"), ("Graphic design", "h"), ("Monitor 27 inch", "pcs"), ("Cleaning service", "h")),
    "de": (("Beratungsleistung", "Std."), ("Wartung Server", "Std."), ("Bürostuhl", "Stk."), ("Tonerkartusche", "Stk."),
           ("Webhosting", "Monat"), ("Softwarelizenz", "Stk."), ("Projektleitung", "Std."), ("Netzwerkkabel", "m"),
           ("Schreibtischlampe", "Stk."), ("Kopierpapier A4", "Karton"), ("Versandkosten", ""), ("Montage", "Std."),
           ("Schulung", "Tag"), ("Dockingstation USB-C", "Stk."), ("Cloud-Speicher", "Monat"), ("Grafikdesign", "Std."),
           ("Monitor 27 Zoll", "Stk."), ("Reinigung Büroräume", "Std.")),
    "fr": (("Prestation de conseil", "h"), ("Maintenance serveur", "h"), ("Chaise de bureau", "pce"),
           ("Cartouche de toner", "pce"), ("Hébergement web", "mois"), ("Licence logiciel", "pce"),
           ("Gestion de projet", "h"), ("Câblage réseau", "m"), ("Lampe de bureau", "pce"), ("Papier A4", "carton"),
           ("Frais de livraison", ""), ("Installation", "h"), ("Formation", "jour"), ("Station d'accueil USB-C", "pce"),
           ("Stockage cloud", "mois"), ("Conception graphique", "h"), ("Écran 27 pouces", "pce"), ("Nettoyage", "h")),
}
ITEM_DETAILS = {
    "en": ("", "", "standard", "premium", "phase 2", "on site", "remote", "model X-200", "pack of 10", "annual"),
    "de": ("", "", "Standard", "Premium", "Phase 2", "vor Ort", "remote", "Modell X-200", "10er Pack", "jährlich"),
    "fr": ("", "", "standard", "premium", "phase 2", "sur site", "à distance", "modèle X-200", "lot de 10", "annuel"),
}
PAYMENT_TERMS = {
    "en": ("Net 30", "Net 14", "Due on receipt", "Payment within 30 days", "2% 10, Net 30", "Net 60"),
    "de": ("Zahlbar innerhalb von 14 Tagen ohne Abzug", "Zahlbar sofort ohne Abzug", "30 Tage netto",
           "14 Tage 2% Skonto, 30 Tage netto"),
    "fr": ("Paiement à 30 jours", "Paiement à réception", "45 jours fin de mois", "Paiement à 30 jours net"),
}
NOTES = {
    "en": ("Thank you for your business.", "Please include the invoice number with your payment.",
           "Goods remain our property until paid in full.", "Questions about this invoice? Contact our accounts team.",
           "Late payments may incur interest of 1.5% per month."),
    "de": ("Vielen Dank für Ihren Auftrag.", "Bitte geben Sie bei Zahlung die Rechnungsnummer an.",
           "Die Ware bleibt bis zur vollständigen Bezahlung unser Eigentum.", "Leistungsdatum entspricht Rechnungsdatum.",
           "Bei Fragen wenden Sie sich bitte an unsere Buchhaltung."),
    "fr": ("Merci pour votre confiance.", "Merci de rappeler le numéro de facture lors du paiement.",
           "En cas de retard, une pénalité de 3 fois le taux légal sera appliquée.",
           "Indemnité forfaitaire pour frais de recouvrement : 40 EUR.", "Pas d'escompte pour paiement anticipé."),
}
FIRST_NAMES = ("Anna", "James", "Laura", "Thomas", "Claire", "Lukas", "Emma", "Pierre", "Sophie", "Daniel")
IBAN_COUNTRIES = {"de_DE": ("DE", 18), "fr_FR": ("FR", 23), "en_GB": ("GB", 18), "en_US": ("DE", 18)}


# ---------------------------------------------------------------- sampling


def _company(rng: random.Random, locale: str, language: str) -> str:
    surname = rng.choice(SURNAMES[language])
    shape = rng.random()
    if shape < 0.45:
        return f"{surname} {rng.choice(COMPANY_WORDS[language])} {rng.choice(COMPANY_SUFFIXES[locale])}"
    if shape < 0.75:
        return f"{surname} {rng.choice(COMPANY_SUFFIXES[locale])}"
    other = rng.choice(SURNAMES[language])
    return f"{surname} & {other} {rng.choice(COMPANY_SUFFIXES[locale])}"


def _address(rng: random.Random, locale: str) -> tuple[str, ...]:
    street = rng.choice(STREETS[locale])
    number = rng.randint(1, 250)
    city, state, postcode = rng.choice(CITIES[locale])
    extra: tuple[str, ...] = ()
    if locale == "en_US":
        lines = (f"{number * 10 + rng.randint(0, 9)} {street}",)
        if rng.random() < 0.3:
            extra = (f"Suite {rng.randint(100, 900)}",)
        return lines + extra + (f"{city}, {state} {postcode}",)
    if locale == "en_GB":
        if rng.random() < 0.3:
            extra = (f"Unit {rng.randint(1, 40)}",)
        return extra + (f"{number} {street}", city, postcode)
    if locale == "de_DE":
        return (f"{street} {number}", f"{postcode} {city}")
    return (f"{number} {street}", f"{postcode} {city}")


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
    digits = f"{rng.randint(10, 99)}{rng.randint(100000000, 999999999)}"
    printed = rng.choice((f"FR{digits}", f"FR {digits[:2]} {digits[2:5]} {digits[5:8]} {digits[8:]}"))
    return printed, f"FR{digits}"


def _iban(rng: random.Random, locale: str) -> str:
    """A checksum-valid IBAN (ISO 13616 mod 97), printed in groups of four or as one block."""
    country, length = IBAN_COUNTRIES[locale]
    if country == "GB":
        bban = "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in range(4)) + "".join(
            str(rng.randint(0, 9)) for _ in range(14))
    else:
        bban = "".join(str(rng.randint(0, 9)) for _ in range(length))
    numeric = "".join(str(int(c, 36)) for c in bban + country + "00")
    check = 98 - int(numeric) % 97
    iban = f"{country}{check:02d}{bban}"
    if rng.random() < 0.7:
        return " ".join(iban[i:i + 4] for i in range(0, len(iban), 4))
    return iban


def _invoice_number(rng: random.Random, year: int, language: str) -> str:
    n = rng.randint(1, 9999)
    prefix = {"en": "INV", "de": "RE", "fr": "FA"}[language]
    return rng.choice((f"{prefix}-{year}-{n:04d}", f"{prefix}{year % 100:02d}{n:05d}", f"{rng.randint(10000, 999999)}",
                       f"{year}/{n:04d}", f"{prefix}-{n:05d}"))


def _line_item(rng: random.Random, fmt: LocaleFormat) -> LineItem:
    name, unit = rng.choice(ITEMS[fmt.language])
    detail = rng.choice(ITEM_DETAILS[fmt.language])
    description = f"{name} {detail}".strip() if detail else name
    if unit in ("h", "Std."):
        quantity = Decimal(rng.randint(1, 40)) / 2
    else:
        quantity = Decimal(rng.choice((1, 1, 1, 2, 3, 4, 5, 10, 12, 20, 25, 50)))
    # Log-uniform prices between ~1.50 and ~2,500: cheap consumables and expensive services alike.
    unit_price = Decimal(str(round(10 ** rng.uniform(0.18, 3.4), 2))).quantize(CENT)
    if rng.random() < 0.4:
        unit_price = unit_price.to_integral_value() or Decimal(1)
        unit_price = unit_price.quantize(CENT)
    amount = (quantity * unit_price).quantize(CENT, ROUND_HALF_UP)
    return LineItem(description, format_quantity(quantity, fmt), format_number(unit_price, fmt),
                    format_number(amount, fmt), quantity, unit_price, amount, unit)


def sample_invoice(rng: random.Random, locale: str | None = None, n_items: int | None = None,
                   max_items: int = 12) -> InvoiceContent:
    """One invoice's content; deterministic given ``rng``'s state.

    ``n_items`` line items exactly, or between 1 and ``max_items`` when it is None.
    """
    locale = locale or rng.choice(LOCALES)
    fmt = LOCALE_FORMATS[locale]
    language = fmt.language
    currency = fmt.default_currency if rng.random() < 0.85 else rng.choice(("USD", "EUR", "GBP", "CHF"))
    kinds = ("symbol_glued", "code_before") if locale.startswith("en") else ("symbol_after", "code_after")
    money_kind = rng.choice(kinds + ("bare",))
    if currency == "CHF" and money_kind == "symbol_glued":
        money_kind = "code_before"
    money = MoneyStyle(money_kind, currency)
    grouping = rng.random() < 0.85

    date_style = rng.choice(fmt.date_styles)
    issued = dt.date(2019, 1, 1) + dt.timedelta(days=rng.randint(0, 7 * 365))
    due = issued + dt.timedelta(days=rng.choice((7, 14, 30, 45, 60))) if rng.random() < 0.8 else None

    vendor_tax, vendor_tax_norm = _tax_id(rng, locale) if rng.random() < 0.85 else ("", "")
    vendor = Party(_company(rng, locale, language), _address(rng, locale), vendor_tax, vendor_tax_norm,
                   email=f"billing@{rng.choice(SURNAMES['en']).lower()}.example", phone=f"+{rng.randint(1, 49)} "
                   f"{rng.randint(100, 999)} {rng.randint(100000, 9999999)}")
    customer_name = _company(rng, locale, language) if rng.random() < 0.8 else (
        f"{rng.choice(FIRST_NAMES)} {rng.choice(SURNAMES[language])}")
    customer = Party(customer_name, _address(rng, locale))
    shipping = _address(rng, locale) if rng.random() < 0.35 else ()

    count = n_items if n_items is not None else rng.randint(1, max(1, max_items))
    items = tuple(_line_item(rng, fmt) for _ in range(max(1, count)))
    subtotal = sum((li.amount_value for li in items), Decimal("0.00"))
    rate = rng.choice(fmt.tax_rates)
    tax = (subtotal * rate / 100).quantize(CENT, ROUND_HALF_UP)
    total = subtotal + tax
    deposit = (total * Decimal(rng.choice((10, 20, 30, 50))) / 100).quantize(CENT) if rng.random() < 0.15 else Decimal(0)
    amount_due = total - deposit
    show_due = deposit > 0 or rng.random() < 0.6
    rate_text = format_number(rate, fmt, places=0 if rate == rate.to_integral_value() else
                              (1 if rate * 10 == (rate * 10).to_integral_value() else 3))
    has_iban = rng.random() < (0.25 if locale == "en_US" else 0.9)
    return InvoiceContent(
        locale=locale, language=language, currency=currency, money=money, vendor=vendor, customer=customer,
        shipping_address=shipping,
        invoice_number=_invoice_number(rng, issued.year, language),
        invoice_date=format_date(issued, date_style), invoice_date_value=issued,
        due_date=format_date(due, date_style) if due else "", due_date_value=due,
        purchase_order=(rng.choice((f"PO-{rng.randint(10000, 99999)}", f"45{rng.randint(10000000, 99999999)}",
                                    f"PO{rng.randint(1000, 9999)}")) if rng.random() < 0.55 else ""),
        payment_terms=rng.choice(PAYMENT_TERMS[language]) if rng.random() < 0.65 else "",
        iban=_iban(rng, locale) if has_iban else "",
        line_items=items,
        subtotal=format_number(subtotal, fmt, grouping=grouping), subtotal_value=subtotal,
        tax_rate=rate_text,
        total_tax=format_number(tax, fmt, grouping=grouping), total_tax_value=tax,
        total=format_number(total, fmt, grouping=grouping), total_value=total,
        amount_due=format_number(amount_due, fmt, grouping=grouping) if show_due else "",
        amount_due_value=amount_due,
        deposit=format_number(deposit, fmt, grouping=grouping) if deposit > 0 else "",
        notes=tuple(rng.sample(NOTES[language], k=rng.randint(0, 2))),
    )
