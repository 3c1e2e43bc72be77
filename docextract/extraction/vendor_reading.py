"""Which of the tagger's readings of the vendor's name is the vendor's.

On a layout never seen the tagger often reads two or three spans as the vendor's name at nearly the same
probability: the letterhead's company beside a tagline under its logo ("Coworking & Events" under "De Werkplaats"),
or beside an item line that opens with the brand ("Stratus Web Services Charges (...)" under "Stratus Cloud Services
EMEA SARL"). Its most probable reading is then a coin toss. A company's name carries evidence that a tagline or an
item does not: it ends in its legal form, it stands over an address or a tax id, the page prints it again (a logo
and its legal footer), it fills its line's first cell. Among the readings within :data:`READING_MARGIN` of the most
probable, the one with the most of that evidence is the field's value (assigned; the others stay alternatives);
a tie keeps the tagger's order.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from docextract.document import Document, WordRef
from docextract.extraction.entities import Entity
from docextract.extraction.field_keywords import is_legal_form, key_tokens
from docextract.extraction.key_context import first_cell, line_of
from docextract.extraction.party_blocks import STACKED_GAP_OF_HEIGHT, has_digit, printed_again, under

READING_MARGIN = 0.1  # readings this much less probable than the tagger's best still compete on evidence
STRONG_EVIDENCE = 2  # ... and any reading this much evidence shows, where the best shows none


def company_evidence(doc: Document, entity: Entity) -> int:
    """How many signs of a company's name a reading shows: its legal form last, a line with a digit (a street, a
    tax id) right under it, its words printed again at the start of another line, its line's first cell whole."""
    p = entity.words[0].page_index
    line = line_of(doc, entity.words[0])
    if line is None:
        return 0
    legal_form = is_legal_form(doc.word(entity.words[-1]).text.rstrip(",.;"))
    over_address = any(under(doc, p, line, other, STACKED_GAP_OF_HEIGHT)
                       and has_digit(doc, [WordRef(p, w) for w in other.word_indices])
                       for other in doc.pages[p].lines if other is not line)
    whole_cell = set(first_cell(doc, p, line)) <= set(entity.words)
    return legal_form + over_address + printed_again(doc, entity.words) + whole_cell


# Academic and professional titles, as key_tokens reads them ("Dr.-Ing." is "dr", "ing")
TITLE_TOKENS = frozenset({"dr", "ing", "dipl", "prof", "mag", "rer", "nat", "med", "phil", "jur", "oec", "ir", "drs",
                          "mr", "ma", "msc", "bsc", "mba", "phd"})


def _reading_evidence(doc: Document, entity: Entity) -> int:
    """:func:`company_evidence`, one less for a reading without a capital letter: a tagline's word ("fotografie" of
    "fotografie voor bedrijven en events" under "Noor Lindeman"), which no name is."""
    return company_evidence(doc, entity) - (not any(doc.word(r).text[:1].isupper() for r in entity.words))


def _only_titles(doc: Document, entity: Entity) -> bool:
    """Whether a reading is an academic title alone, or a legal form alone ("B.V." of "Timmer- en Montagebedrijf Van
    Wijngaarden B.V.", whose other words the tagger left out): neither names anyone."""
    tokens = [t for r in entity.words for t in key_tokens(doc.word(r).text)]
    return bool(tokens) and (set(tokens) <= TITLE_TOKENS or all(is_legal_form(doc.word(r).text) for r in entity.words))


def vendor_reading_by_evidence(doc: Document, entities: Sequence[Entity]) -> list[Entity]:
    """``entities`` with the vendor's name reading of most company evidence (:func:`company_evidence`) among those
    near the tagger's best assigned, where it is not the best already; nothing changes where a reading is assigned."""
    readings = sorted((e for e in entities if e.label == "vendor_name"), key=Entity.rank)
    if len(readings) < 2 or readings[0].assigned:
        return list(entities)
    best = readings[0]
    # (an academic title alone, "Dr.-Ing." of "Dr.-Ing. Felix Ruoff", names no one: its words printed again at other
    # lines' starts are the title's, no company's evidence)
    rivals = [e for e in readings if e.confidence >= best.confidence - READING_MARGIN and not _only_titles(doc, e)]
    if rivals and _reading_evidence(doc, best) <= 0:
        # a best reading with no sign of a company's name, a piece of its line ("Épicerie" of a wholesaler's tagline
        # "Épicerie fine - vins - produits régionaux en gros", 0.96): a reading at any probability whose name the page
        # prints again and that shows one more sign (its letterhead "Les Saveurs du Quercy", 0.58) competes too
        rivals += [e for e in readings if e not in rivals and printed_again(doc, e.words)
                   and company_evidence(doc, e) >= STRONG_EVIDENCE and not _only_titles(doc, e)]
    if not rivals:
        return list(entities)
    chosen = max(rivals, key=lambda e: (_reading_evidence(doc, e), e is best))
    return [replace(e, assigned=True) if e is chosen and e is not best else e for e in entities]
