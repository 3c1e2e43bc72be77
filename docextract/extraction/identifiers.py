"""Bank and tax identifiers checked the way their issuers define them, by python-stdnum.

Bank details and tax ids are what invoice fraud changes first, and a misread digit makes a payment go
astray, so a payer needs to know whether each one is well formed. A bare mod-97 checksum is not enough
(``DE6537040044053201300012`` passes it with 24 characters where a German IBAN has 22); python-stdnum
knows every country's IBAN length and format, BIC structure, and the check digits of the EU VAT numbers
and many national tax ids.

* IBAN: country, length and format of the national part (ISO 13616 registry), mod-97 checksum.
* BIC: ISO 9362 structure (bank, country, location, optional branch).
* Tax ids: a number with a country prefix (``DE136695976``, ``GB 123 4567 89``) is checked as that
  country's VAT number; one without a prefix against the tax ids of the document's country (the region
  of its locale: a US EIN, a German Steuernummer, a French SIREN). Where no scheme applies (no prefix and
  a country stdnum has no tax ids for) ``valid`` is None: unknown, not wrong.
"""

from __future__ import annotations

import itertools
import math
import re
import unicodedata
from dataclasses import dataclass
from typing import Sequence

from stdnum import bic, iban, numdb, vatin
from stdnum.ch import uid as ch_uid
from stdnum.in_ import gstin
from stdnum.exceptions import InvalidChecksum, ValidationError
from stdnum.util import get_cc_module

# A value that fails its check is at best misread and at worst a changed bank account: whatever the model's
# confidence, the field's is capped here, below the review threshold (checks.REVIEW_CONFIDENCE).
INVALID_IDENTIFIER_MAX_CONFIDENCE = 0.25

# Tax ids tried for a number printed without a country prefix, by the document's country (stdnum module
# names; "vat" is each country's VAT number).
NATIONAL_TAX_IDS: dict[str, tuple[str, ...]] = {
    "us": ("ein", "tin"),
    "gb": ("vat", "utr"),
    "de": ("vat", "stnr"),
    "fr": ("tva", "siren", "siret"),
    "nl": ("vat",),
    "it": ("iva", "codicefiscale"),
    "es": ("nif", "cif"),
    "au": ("abn",),
    "ca": ("bn",), "mx": ("rfc",), "nz": ("ird",), "sg": ("uen",), "ar": ("cuit",), "cl": ("rut",), "se": ("orgnr",), "dk": ("cvr",), "no": ("mva", "orgnr"), "fi": ("ytunnus",), "pt": ("nif",), "pl": ("nip",), "cz": ("dic",),
}
_IBAN_SHAPE = re.compile(r"[A-Z]{2}\d{2}[A-Z0-9]{8,32}")
_GSTIN_SHAPE = re.compile(r"\d{2}[A-Z]{5}\d{4}[A-Z][0-9A-Z]Z[0-9A-Z]")


@dataclass(frozen=True)
class CheckedIdentifier:
    normalized: str | None  # canonical form (no spaces, upper case); None when the text is not of the kind at all
    valid: bool | None  # None: no scheme applies
    scheme: str | None  # what it was checked as: "iban", "bic", "de.vat", "us.ein", ...
    error: str | None = None  # why it is invalid, in stdnum's words

    def extra(self) -> dict:
        """The field object's keys for this check (output schema: ``valid``, ``id_scheme``, ``invalid_reason``)."""
        out: dict = {}
        if self.valid is not None:
            out["valid"] = self.valid
        if self.scheme:
            out["id_scheme"] = self.scheme
        if self.error:
            out["invalid_reason"] = self.error
        return out


def _compact(text: str) -> str:
    # ":;," too: OCR glues a key's colon or a list's comma to the number (":DEO2120300...", "DE75...,")
    return re.sub(r"[\s\-./:;,]", "", unicodedata.normalize("NFKC", text)).upper()


def _reason(error: ValidationError) -> str:
    return str(error).rstrip(".").lower() or type(error).__name__


_CHECKSUM_REASON = _reason(InvalidChecksum())


# What OCR reads for a printed character of an IBAN: a letter for a digit ("DEO2", "DEI2", "DES4") and, in the country
# code, a digit for a letter ("0E75..." for "DE75..."). An IBAN read with such a misreading is repaired where exactly
# one reading of its ambiguous characters has valid check digits and the country's format: every letter after the
# country code a digit ("DEO2 12O3 ..."), or any mix where at most MAX_IBAN_READINGS are possible, so that a repair
# stays far from a chance match (mod 97: about 1 in 97 each).
_DIGIT_READ_AS = {"O": "0", "D": "0", "Q": "0", "I": "1", "L": "1", "S": "5", "B": "8", "Z": "2", "G": "6"}
_LETTER_READ_AS = {"0": "DO", "1": "I", "5": "S", "8": "B", "2": "Z", "6": "G", "£": "E", "€": "E"}
MAX_IBAN_READINGS = 16
MIN_IBAN_CHARACTERS = 15  # Norway's, the shortest (ISO 13616 registry)
_IBAN_REGISTRY = numdb.get("iban")  # each country's IBAN length and structure (stdnum's copy of ISO 13616's)


def _ocr_readings(compact: str) -> list[str]:
    """``compact`` with its OCR-ambiguous characters read other ways (:data:`_DIGIT_READ_AS`)."""
    options = [(ch, *_LETTER_READ_AS.get(ch, "")) if n < 2 else (ch, _DIGIT_READ_AS[ch]) if ch in _DIGIT_READ_AS else (ch,)
               for n, ch in enumerate(compact)]
    count = math.prod(len(choices) for choices in options)
    every_letter_a_digit = "".join(choices[-1] if n >= 2 else choices[0] for n, choices in enumerate(options))
    readings = {every_letter_a_digit} | ({"".join(r) for r in itertools.product(*options)} if count <= MAX_IBAN_READINGS
                                         else set())
    return sorted(readings - {compact})


def _country_structure(compact: str) -> tuple[str, str | None]:
    """``compact``'s first two characters read as letters (a country code), and that country's BBAN structure in the
    ISO 13616 registry (via stdnum); None where no country of that code has IBANs."""
    country = "".join(_LETTER_READ_AS.get(ch, ch)[0] for ch in compact[:2])
    if not re.fullmatch(r"[A-Z]{2}", country):
        return country, None
    return country, (_IBAN_REGISTRY.info(country + "00")[0][1] or {}).get("bban")


def _structured_reading(compact: str) -> str | None:
    """``compact`` with each OCR-ambiguous character read as the kind its position holds in the country's IBAN
    (ISO 13616 registry, via stdnum: "DE" 18 digits, "GB" 4 letters then 14 digits), the check digits as digits;
    None where no country's structure fits. "DEI2 1234 5678 9012 3456 78" is then "DE12123456789012345678" even
    where its check digits fail (a sample's made-up IBAN, or one more misread digit): the value the page prints,
    shown invalid, instead of no IBAN at all."""
    country, structure = _country_structure(compact)
    if not structure:
        return None
    kinds = "nn" + "".join(kind * int(count) for count, kind in re.findall(r"(\d+)!([nac])", structure))
    if len(kinds) != len(compact) - 2:
        return None
    read = country + "".join(_DIGIT_READ_AS.get(ch, ch) if kind == "n" else ch for ch, kind in zip(compact[2:], kinds))
    digits_where_due = all(ch.isdigit() for ch, kind in zip(read[2:], kinds) if kind == "n")
    return read if digits_where_due and re.fullmatch(r"[A-Z0-9]+", read) else None


def _check_digits_reading(compact: str) -> str | None:
    """``compact`` with its country code read as letters and its check digits as digits ("DES4...", "DEI2..."), the
    rest as printed: for an IBAN no country's structure fits (a sample's made-up IBAN of the wrong length), whose
    first four characters every IBAN shares the kinds of. None unless the country is one that has IBANs (so that a
    run of digits, "1234 4321 ...", is no IBAN of country "IZ") and it is as long as the shortest IBAN (a tax number
    "DEO9687654321" is none)."""
    country, structure = _country_structure(compact)
    if len(compact) < MIN_IBAN_CHARACTERS or not structure:
        return None
    return country + "".join(_DIGIT_READ_AS.get(ch, ch) for ch in compact[2:4]) + compact[4:]


# A Polish account number (NRB) is its IBAN without the country code: 26 digits, check digits first ("02 1240 1747
# 1111 0010 4567 8901"), as Polish invoices print the seller's account
_NRB = re.compile(r"\d{26}")


def check_iban(text: str) -> CheckedIdentifier:
    compact = _compact(text)
    if _NRB.fullmatch(compact) and iban.is_valid("PL" + compact):
        return CheckedIdentifier(iban.validate("PL" + compact), True, "iban")
    if not iban.is_valid(compact):
        repaired = {reading for reading in _ocr_readings(compact)
                    if _IBAN_SHAPE.fullmatch(reading) and iban.is_valid(reading)}
        if len(repaired) == 1:
            return CheckedIdentifier(iban.validate(repaired.pop()), True, "iban")
        compact = _structured_reading(compact) or _check_digits_reading(compact) or compact
    if not _IBAN_SHAPE.fullmatch(compact):
        return CheckedIdentifier(None, False, "iban", "not an IBAN")
    try:
        return CheckedIdentifier(iban.validate(compact), True, "iban")
    except ValidationError as error:
        return CheckedIdentifier(compact, False, "iban", _reason(error))


def check_bic(text: str) -> CheckedIdentifier:
    compact = _compact(text)
    try:
        return CheckedIdentifier(bic.validate(compact), True, "bic")
    except ValidationError as error:
        return CheckedIdentifier(compact, False, "bic", _reason(error))


def check_tax_id(text: str, country: str | None = None) -> CheckedIdentifier:
    """A VAT number or national tax id; ``country`` (ISO 3166 alpha-2) is the document's, for numbers
    printed without a prefix. ``normalized`` keeps the printed characters (spaces removed, upper case), but for a
    VAT number whose check digits hold (its canonical form, without the dots and dashes some countries print) and
    for a letter OCR read for a digit where that broke the format (:func:`_vat_read_again`)."""
    normalized = "".join(text.split()).upper().rstrip(".,;:")  # (a sentence's full stop after it is not its own)
    compact = _compact(text)
    if compact.startswith("CHE") and ch_uid.is_valid(compact):
        return CheckedIdentifier(normalized, True, "ch.uid")  # "CHE-100.999.380", its "MWST" printed apart
    if _GSTIN_SHAPE.fullmatch(compact):  # India's GST number: its state, the PAN, a check character; no prefix
        return CheckedIdentifier(compact, gstin.is_valid(compact), "in.gstin",
                                 None if gstin.is_valid(compact) else "invalid checksum")
    read_prefix = _prefix_read_as_letters(compact)
    if read_prefix is not None:
        return CheckedIdentifier(read_prefix, True, f"{read_prefix[:2].lower()}.vat")
    prefix = compact[:2]
    if re.fullmatch(r"[A-Z]{2}", prefix) and _vat_module(prefix) is not None:
        try:
            vatin.validate(compact)
            # its canonical form: a Belgian VAT number printed "BE 0123.456.749" is BE0123456749
            return CheckedIdentifier(compact, True, f"{prefix.lower()}.vat")
        except InvalidChecksum as error:
            return CheckedIdentifier(normalized, False, f"{prefix.lower()}.vat", _reason(error))
        except ValidationError as error:
            return _vat_read_again(compact) or CheckedIdentifier(normalized, False, f"{prefix.lower()}.vat",
                                                                 _reason(error))
    modules = [(name, get_cc_module(country.lower(), name)) for name in NATIONAL_TAX_IDS.get((country or "").lower(), ())]
    modules = [(name, module) for name, module in modules if module is not None]
    if not modules:
        return CheckedIdentifier(normalized, None, None)
    first_error = None
    for name, module in modules:
        try:
            module.validate(compact)
            return CheckedIdentifier(normalized, True, f"{country.lower()}.{name}")
        except ValidationError as error:
            first_error = first_error or _reason(error)
    schemes = "/".join(f"{country.lower()}.{name}" for name, _ in modules)
    return CheckedIdentifier(normalized, False, schemes, first_error)


def is_vat_number(checked: CheckedIdentifier) -> bool:
    """Whether a checked identifier is a valid VAT number: its country's prefix and check digits, or a Swiss UID
    ("CHE-416.382.152", its "TVA" or "MWST" printed apart), a Canadian business number with its GST/HST program
    account ("794312587 RT0001"), or an Australian ABN (the GST registration an Australian tax invoice prints)."""
    return checked.valid is True and ((checked.scheme or "").endswith((".vat", "ch.uid")) or checked.scheme == "au.abn"
                                      or checked.scheme == "ca.bn" and "RT" in (checked.normalized or ""))


# Tax ids that a key names by their scheme, outside the EU's VAT numbers: Kenya's "KRA PIN", Peru's "R.U.C.",
# Brazil's "CNPJ", Colombia's "NIT", Mexico's "RFC", Chile's "R.U.T.", the US "EIN" (key_tokens of the key -> stdnum
# module)
SCHEMES_NAMED_BY_KEY: dict[tuple[str, ...], str] = {
    ("kra", "pin"): "ke.pin", ("ruc",): "pe.ruc", ("r", "u", "c"): "pe.ruc", ("cnpj",): "br.cnpj",
    ("nit",): "co.nit", ("rfc",): "mx.rfc", ("rut",): "cl.rut", ("r", "u", "t"): "cl.rut",
    ("ein",): "us.ein", ("fein",): "us.ein", ("usppi", "ein"): "us.ein",  # the US employer number
}


def valid_in_scheme_of_key(key: Sequence[str], text: str) -> bool:
    """Whether ``text`` is a valid number of the tax id scheme its key names (:data:`SCHEMES_NAMED_BY_KEY`)."""
    scheme = SCHEMES_NAMED_BY_KEY.get(tuple(key))
    if scheme is None:
        return False
    module = get_cc_module(*scheme.split("."))
    return module is not None and module.is_valid(_compact(text))


def registration_number(vat: str) -> str | None:
    """The company's number in the trade register that a VAT number is made of, which the seller's legal line prints
    too: France's SIREN (the last nine digits of "FR26836504175", "RCS Mâcon 836 504 175", "SIRET 836504175 00016"),
    Belgium's enterprise number ("BE0741883516", "Ondernemingsnummer 0741.883.516"). None for other countries'."""
    compact = _compact(vat)
    if re.fullmatch(r"FR[0-9A-Z]{2}\d{9}", compact):
        return compact[4:]
    if re.fullmatch(r"BE[01]\d{9}", compact):
        return compact[2:]
    return None


def misshapen(checked: CheckedIdentifier) -> bool:
    """Whether a checked identifier fails its check by its shape (length, format), not by its check digits alone."""
    return checked.valid is False and checked.error != _CHECKSUM_REASON


def _prefix_read_as_letters(compact: str) -> str | None:
    """A VAT number whose country prefix OCR read with a digit or a currency sign for a letter ("1E6388047V",
    "1£8123456C" for Irish "IE..." at 150 dpi): the one reading of the prefix as letters (:data:`_LETTER_READ_AS`)
    whose check digits hold. Only where one of the two characters is a letter or a currency sign already, so that
    a run of digits is never read as a prefix; None where the prefix is letters or no such reading is valid."""
    head = compact[:2]
    if len(compact) < 4 or re.fullmatch(r"[A-Z]{2}", head) or not any(ch.isalpha() or ch in "£€" for ch in head):
        return None
    choices = [(ch, *_LETTER_READ_AS.get(ch, "")) for ch in head]
    valid = {reading for reading in ("".join(pair) + compact[2:] for pair in itertools.product(*choices))
             if re.fullmatch(r"[A-Z]{2}", reading[:2]) and _vat_module(reading[:2]) is not None
             and vatin.is_valid(reading)}
    return valid.pop() if len(valid) == 1 else None


def _vat_read_again(compact: str) -> CheckedIdentifier | None:
    """A VAT number whose format OCR broke with a letter for a digit ("DEI23456789"), read as the country's format
    allows: the one reading of its ambiguous characters (:func:`_ocr_readings`) that is valid, else its every letter
    after the prefix a digit where that has the format (its check digits wrong: a sample's made-up number, shown
    invalid, instead of a value no check can read). None where no reading has the country's format."""
    prefix = compact[:2]
    valid = {reading for reading in _ocr_readings(compact) if reading[:2] == prefix and vatin.is_valid(reading)}
    if len(valid) == 1:
        return CheckedIdentifier(valid.pop(), True, f"{prefix.lower()}.vat")
    digits = prefix + "".join(_DIGIT_READ_AS.get(ch, ch) for ch in compact[2:])
    try:
        vatin.validate(digits)
        return CheckedIdentifier(digits, True, f"{prefix.lower()}.vat")
    except InvalidChecksum as error:
        return CheckedIdentifier(digits, False, f"{prefix.lower()}.vat", _reason(error))
    except ValidationError:
        return None


MAX_VAT_GROUPS = 4  # "DE 921 733 374", "FR 50 718452558", "NL 8521 32541 B01"


def _groups_after_prefix(texts: Sequence[str], n: int) -> list[str]:
    """The ``n`` words after a VAT number's first word, its last without the punctuation of the sentence it may end
    ("VAT registration number GB 269 5318 26.")."""
    return [*texts[1:n], texts[n].rstrip(".,;")]


def spaced_vat_length(texts: Sequence[str]) -> int:
    """How many of ``texts`` (a line's words from a country prefix on: "DE", "921", "733", "374") make one VAT number
    printed in groups, 0 when they make none: the country's format and length, its check digits right or not (a
    wrong one is flagged like any other); at most :data:`MAX_VAT_GROUPS` groups after the prefix."""
    if not texts or len(texts[0]) != 2 or not texts[0].isalpha() or not texts[0].isupper() or _vat_module(texts[0]) is None:
        return 0
    for n in range(min(MAX_VAT_GROUPS, len(texts) - 1), 0, -1):
        groups = _groups_after_prefix(texts, n)
        if not all(re.fullmatch(r"[0-9A-Z]{1,9}", g) and any(ch.isdigit() for ch in g) for g in groups):
            continue
        try:
            vatin.validate(texts[0] + "".join(groups))
        except InvalidChecksum:
            pass  # the shape of one, its check digits wrong
        except ValidationError:
            continue
        return n + 1
    return 0


# The start of a VAT number that a scan's OCR split after its prefix and some characters: "NL8027.27.608." | "B01",
# "DEB1" | "1907980" (the "8" of "DE811907980" read as a "B")
_VAT_START = re.compile(r"[A-Z]{2}[0-9A-Z.]*\d[0-9A-Z.]*")


def dotted_vat_length(texts: Sequence[str]) -> int:
    """How many of ``texts`` (a line's words from this one on) make one VAT number that starts with its prefix and
    digits, dots allowed ("NL8027.27.608.B01", whose dots would read as an amount's): 1 where the first word is a
    valid one alone; more where a scan's OCR split it ("NL8027.27.608." | "B01", "DEB1" | "1907980") and the joined
    words are valid (read as OCR may have misread a digit, :func:`_vat_read_again`), so that a VAT id and a register
    number after it stay two; 0 otherwise."""
    if not texts or not _VAT_START.fullmatch(texts[0]) or _vat_module(texts[0][:2]) is None:
        return 0
    if vatin.is_valid(_compact(texts[0])):
        return 1
    for n in range(min(MAX_VAT_GROUPS, len(texts) - 1), 0, -1):
        groups = _groups_after_prefix(texts, n)
        if not all(re.fullmatch(r"[0-9A-Z.]{1,9}", g) and any(ch.isdigit() for ch in g) for g in groups):
            continue
        joined = _compact(texts[0] + "".join(groups))
        if vatin.is_valid(joined) or ((read := _vat_read_again(joined)) is not None and read.valid):
            return n + 1
    return 0


def has_vat_module(prefix: str) -> bool:
    """Whether a two-letter prefix is a country's VAT prefix (stdnum knows its VAT numbers)."""
    return _vat_module(prefix) is not None


def _vat_module(prefix: str):
    """stdnum's VAT module for a number's two-letter prefix (EL is Greece, XI Northern Ireland), or None."""
    country = {"EL": "gr", "XI": "gb"}.get(prefix, prefix.lower())
    return get_cc_module(country, "vat")
