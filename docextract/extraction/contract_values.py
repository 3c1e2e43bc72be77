"""Contract values as Kleister-NDA writes them: dates, terms, US jurisdictions and party names.

Every normaliser takes a mention as printed and returns the value in Kleister's form **with spaces**
(the form ``LabelledDocument.fields`` keeps; ``expected.tsv`` writes the spaces as underscores, see
:func:`kleister_form`), or ``None`` when the text does not hold such a value:

* :func:`normalize_effective_date`: ``"the 1st day of May, 2019"`` -> ``"2019-05-01"`` (ISO 8601);
* :func:`normalize_term`: ``"three (3) years"`` / ``"thirty-six months"`` / ``"one-year"`` ->
  ``"3 years"`` / ``"36 months"`` / ``"1 year"`` (the unit as printed, singular for one);
* :func:`normalize_jurisdiction`: ``"laws of the State of New York"`` -> ``"New York"``;
* :func:`normalize_party`: ``"NIKE, Inc.,"`` -> ``"Nike Inc."``: commas dropped, ``&`` as ``and``, outer
  quotes/parentheses/punctuation cleaned, company suffixes in Kleister's spelling (``Inc.``, ``LLC``,
  ``LP``, ``Ltd.``, ``Corp.``, ``Co.``), and the name in Kleister's case (:func:`kleister_case`): every
  name in ``expected.tsv`` is written so, whatever case the contract prints it in ("COMPUDYNE CORPORATION",
  "NeoGenomics" -> "Compudyne Corporation", "Neogenomics"). Kleister's main metric upper-cases; its
  true-case F1 compares this form, and one spelling per name is what a user's records want too.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata

from dateutil import parser as date_parser

MIN_YEAR, MAX_YEAR = 1900, 2100  # contract dates outside these are misreadings
# Two defaults: a date component the text does not give differs between the two parses, so it is caught.
_DATE_DEFAULTS = (dt.datetime(1, 1, 1), dt.datetime(2, 2, 2))
_ORDINAL_SUFFIX = re.compile(r"\b(\d{1,2})(st|nd|rd|th)\b", re.IGNORECASE)

_NUMBER_WORDS = {
    w: n for n, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
        "seventeen eighteen nineteen".split())
}
_TENS_WORDS = {w: 10 * n for n, w in enumerate("_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()) if n >= 2}
_TERM_UNITS = {"year": "year", "years": "year", "month": "month", "months": "month", "day": "day", "days": "day",
               "week": "week", "weeks": "week"}
TERM_LOOKBACK_TOKENS = 4  # "three (3) calendar years": the number is at most this many tokens before the unit
_TERM_FILLERS = {"calendar", "full", "consecutive", "additional", "a", "an"}  # may sit between number and unit

US_STATES = (
    "Alabama", "Alaska", "Arizona", "Arkansas", "California", "Colorado", "Connecticut", "Delaware", "Florida",
    "Georgia", "Hawaii", "Idaho", "Illinois", "Indiana", "Iowa", "Kansas", "Kentucky", "Louisiana", "Maine",
    "Maryland", "Massachusetts", "Michigan", "Minnesota", "Mississippi", "Missouri", "Montana", "Nebraska",
    "Nevada", "New Hampshire", "New Jersey", "New Mexico", "New York", "North Carolina", "North Dakota", "Ohio",
    "Oklahoma", "Oregon", "Pennsylvania", "Rhode Island", "South Carolina", "South Dakota", "Tennessee", "Texas",
    "Utah", "Vermont", "Virginia", "Washington", "West Virginia", "Wisconsin", "Wyoming", "District of Columbia",
)
# Longest names first, so "West Virginia" is found before "Virginia" and "Arkansas" is not read as "Kansas".
_STATE_PATTERN = re.compile(
    r"\b(" + "|".join(re.escape(s).replace(r"\ ", r"\s+") for s in sorted(US_STATES, key=len, reverse=True)) + r")\b",
    re.IGNORECASE,
)
_STATE_BY_KEY = {" ".join(s.lower().split()): s for s in US_STATES}
_DC_FORMS = re.compile(r"\b(Washington,?\s+D\.?\s?C\.?|D\.\s?C\.)", re.IGNORECASE)

# Company suffixes as printed (dots and case ignored) -> Kleister's spelling.
COMPANY_SUFFIX_FORMS = {
    "inc": "Inc.", "incorporated": "Inc.", "limited": "Ltd.", "llc": "LLC", "lp": "LP", "ltd": "Ltd.", "corp": "Corp.", "co": "Co.",
    "plc": "PLC", "nv": "N.V.", "llp": "LLP",
}
NAME_ABBREVIATIONS = ("jr", "sr", "esq", "bros")  # keep their full stop at the end of a name
_POSSESSIVE = re.compile(r"['’]s$", re.IGNORECASE)
_OUTER_JUNK = "_\"'“”‘’«»()[]{},;:"  # cleaned from both ends of a party name


def kleister_form(value: str, upper: bool = True) -> str:
    """The form the Kleister metric compares: spaces as underscores, upper-cased (``"Nike Inc."`` -> ``"NIKE_INC."``);
    ``upper=False``: the case kept, for Kleister's true-case F1."""
    form = "_".join(unicodedata.normalize("NFKC", value).split())
    return form.upper() if upper else form


# Kleister's party names: each run of ASCII letters (with one "'" inside: "Colt's", "O'donovan") capitalised,
# the rest lower-case (Python's documented titlecase recipe; a curly apostrophe starts a new run: "Roundy’S"),
# "and" lower-case and these legal forms upper-case. It writes all 471 names of expected.tsv's train split from
# their upper-cased forms.
_CASE_RUN = re.compile(r"[A-Za-z]+('[A-Za-z]+)?")
_UPPER_LEGAL_FORMS = frozenset({"LLC", "LP", "PLC", "LLP"})


def kleister_case(name: str) -> str:
    """A party name in the case Kleister writes names in: ``"NIKE Inc."`` -> ``"Nike Inc."``, ``"GTCR LLC"`` ->
    ``"Gtcr LLC"``, ``"Sears Roebuck and Co."`` stays."""
    def word_case(word: str) -> str:
        if word.upper() in _UPPER_LEGAL_FORMS:
            return word.upper()
        if word.lower() == "and":
            return "and"
        return _CASE_RUN.sub(lambda run: run.group(0).capitalize(), word)
    return " ".join(word_case(word) for word in name.split(" "))


def _clean(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).split())


def _parse_date_twice(text: str, fuzzy: bool) -> dt.date | None:
    """dateutil (month first, as US contracts write) with two defaults: a component missing from the text
    makes the two parses differ, so "May, 2019" gives None instead of today's day."""
    try:
        first, second = (date_parser.parse(text, fuzzy=fuzzy, default=d) for d in _DATE_DEFAULTS)
    except (ValueError, OverflowError, TypeError):
        return None
    return first.date() if first == second else None


def normalize_effective_date(text: str) -> str | None:
    """A printed date -> ``YYYY-MM-DD``; every component must come from the text (no default day or month)."""
    cleaned = re.sub(r",(?=\S)", ", ", _clean(text)).strip(" ,.;:()")  # "December 11,2014" needs the space
    if not cleaned:
        return None
    parsed = _parse_date_twice(cleaned, fuzzy=False) or _parse_date_twice(_ORDINAL_SUFFIX.sub(r"\1", cleaned), fuzzy=True)
    if parsed is None:
        return None
    if not MIN_YEAR <= parsed.year <= MAX_YEAR:
        return None
    return parsed.isoformat()


def _number_before(tokens: list[str], unit_index: int) -> float | None:
    """The number closest before ``tokens[unit_index]``: digits win ("three (3) years"), else number words."""
    start = max(0, unit_index - TERM_LOOKBACK_TOKENS)
    window = tokens[start:unit_index]
    for token in reversed(window):
        if re.fullmatch(r"\d+(\.\d+)?", token):
            return float(token)
    # number words directly before the unit (fillers allowed): "thirty six", "one", "an additional"
    value, seen = 0, False
    for token in reversed(window):
        if token in _TERM_FILLERS and not seen:
            continue
        if token in _NUMBER_WORDS and (not seen or value < 10):
            value += _NUMBER_WORDS[token]
            seen = True
        elif token in _TENS_WORDS and (not seen or value < 10):
            value += _TENS_WORDS[token]
            seen = True
        else:
            break
    return float(value) if seen else None


def normalize_term(text: str) -> str | None:
    """A printed length of time -> ``"N years"`` / ``"N months"`` / ``"N days"`` (``"1 year"`` for one)."""
    tokens = re.findall(r"\d+(?:\.\d+)?|[a-z]+", _clean(text).lower().replace("-", " "))
    for index, token in enumerate(tokens):
        unit = _TERM_UNITS.get(token)
        if unit is None:
            continue
        amount = _number_before(tokens, index)
        if amount is None or amount <= 0:
            continue
        number = f"{int(amount)}" if amount == int(amount) else f"{amount:g}"
        return f"{number} {unit}" + ("" if amount == 1 else "s")
    return None


def normalize_jurisdiction(text: str) -> str | None:
    """The US state (or DC) a mention names: ``"the laws of the State of New York"`` -> ``"New York"``."""
    cleaned = _clean(text)
    if _DC_FORMS.search(cleaned):
        return "District of Columbia"
    match = _STATE_PATTERN.search(cleaned)
    if match is None:
        return None
    return _STATE_BY_KEY[" ".join(match.group(1).lower().split())]


def normalize_party(text: str) -> str | None:
    """A party's name as printed, cleaned into Kleister's conventions (see the module docstring)."""
    cleaned = _clean(text.replace("\n", " "))  # apostrophes stay as printed: Kleister keeps both ’ and '

    cleaned = re.sub(r"\s+\.", ".", cleaned)  # OCR: "J.H . Cromarty", "L.L .C."
    cleaned = cleaned.replace("&", " and ").replace(",", " ")
    words = cleaned.split()
    while words and words[-1].strip(_OUTER_JUNK + ".") == "":
        words.pop()
    if not words:
        return None
    words[0] = words[0].lstrip(_OUTER_JUNK)
    words[-1] = _POSSESSIVE.sub("", words[-1].rstrip(_OUTER_JUNK))  # "Shire US Inc.’s obligations": the party is Shire US Inc.
    suffix = COMPANY_SUFFIX_FORMS.get(words[-1].replace(".", "").lower())
    if suffix and len(words) == 1:
        return None  # a fragment ("L.L.P.", "Inc."): the name it belongs to was tagged apart or not at all
    if suffix:
        words[-1] = suffix
    elif (words[-1].endswith(".") and len(words[-1].rstrip(".")) > 1 and "." not in words[-1].rstrip(".")
          and words[-1].rstrip(".").lower() not in NAME_ABBREVIATIONS):
        # a sentence's full stop ("... and Eric Dean Sprunk."), not an initial ("J.") or "U.S."
        words[-1] = words[-1].rstrip(".")
    name = " ".join(w for w in words if w)
    return kleister_case(name) if name else None
