"""A party's name read from its labelled block: a heading that names the side, then "Name: ..." under it.

Many invoices print each party as a small block under a heading::

    Verkäufer                      Käufer/Leistungsempfänger
    Nummer: 549910                 Nummer: GE2020211
    Name: Lieferant GmbH           Name: Kunden AG Mitte
    Anschrift: Lieferantenstraße 20

The heading says whose block it is (a seller's or a buyer's word, :data:`SIDE_WORDS`); the line that starts with a
name key (:data:`NAME_KEYS`) in the block gives the name. A block runs down its heading's column for at most
:data:`MAX_BLOCK_LINES` lines and ends at the next heading. :func:`party_names` is one more rule of
:mod:`docextract.extraction.key_values`: it fills a party name the model left empty or gave an unusable value.
"""

from __future__ import annotations

from typing import Iterator, Sequence

from docextract.document import Document, Line, WordRef
from docextract.extraction.field_keywords import key_tokens
from docextract.extraction.key_context import is_separator

# The words of a heading, per side: every token of the heading is one of its side's (after "/" and "-" split it).
SIDE_WORDS = {
    "vendor_name": frozenset({
        "seller", "supplier", "vendor", "from", "issuer", "verkaufer", "lieferant", "rechnungssteller",
        "leistungserbringer", "auftragnehmer", "fournisseur", "vendeur", "emetteur", "leverancier", "verkoper",
        "fornitore", "venditore", "cedente", "proveedor", "vendedor", "emisor"}),
    "customer_name": frozenset({
        "buyer", "customer", "client", "bill", "billed", "to", "invoice", "recipient", "kaufer", "kunde",
        "leistungsempfanger", "rechnungsempfanger", "empfanger", "auftraggeber", "acheteur", "destinataire",
        "koper", "klant", "afnemer", "acquirente", "committente", "cessionario", "comprador", "cliente",
        "destinatario"}),
}
NAME_KEYS = frozenset({("name",), ("firma",), ("company",), ("company", "name"), ("nom",), ("raison", "sociale"),
                       ("naam",), ("bedrijfsnaam",), ("nome",), ("ragione", "sociale"), ("nombre",),
                       ("razon", "social")})
MAX_HEADING_TOKENS = 4
MAX_BLOCK_LINES = 8
COLUMN_TOLERANCE_OF_HEIGHT = 2.0  # a block's lines start within this many text heights of its heading's left edge


def _side(tokens: Sequence[str]) -> str | None:
    if not tokens or len(tokens) > MAX_HEADING_TOKENS:
        return None
    sides = [side for side, words in SIDE_WORDS.items() if set(tokens) <= words]
    # "invoice" and "to" alone are no heading; a heading names one side only
    if len(sides) != 1 or set(tokens) <= {"invoice", "to", "from", "bill"} and len(tokens) == 1:
        return None
    return sides[0]


def _tokens(doc: Document, refs: Sequence[WordRef]) -> list[str]:
    return [t for r in refs for t in key_tokens(doc.word(r).text.replace("/", " ").replace("-", " "))]


def _headings(doc: Document) -> Iterator[tuple[str, int, Line]]:
    for p, page in enumerate(doc.pages):
        for line in page.lines:
            side = _side(_tokens(doc, [WordRef(p, w) for w in line.word_indices]))
            if side is not None:
                yield side, p, line


def _name_key_length(doc: Document, refs: Sequence[WordRef]) -> int:
    """How many words at the start of ``refs`` are a name key and its separators ("Name:"), 0 when none."""
    tokens: list[str] = []
    for n, ref in enumerate(refs[:3], 1):
        tokens += key_tokens(doc.word(ref).text)
        if tuple(tokens) in NAME_KEYS:
            while n < len(refs) and is_separator(doc.word(refs[n]).text):
                n += 1
            return n
    return 0


def _right_of(page, p: int, line: Line) -> tuple[WordRef, ...]:
    """The words of the nearest line right of ``line`` on its row (a key column and a value column)."""
    row = [other for other in page.lines if other is not line and other.box.x0 >= line.box.x1 - 1
           and other.box.vertical_overlap(line.box) > 0.5 * min(other.box.height, line.box.height)]
    if not row:
        return ()
    return tuple(WordRef(p, w) for w in min(row, key=lambda other: other.box.x0).word_indices)


def party_names(doc: Document, labels: Sequence[str]) -> dict[str, tuple[WordRef, ...]]:
    """The name of each of ``labels`` (vendor_name, customer_name) that a labelled block prints, first block first."""
    headings = list(_headings(doc))
    found: dict[str, tuple[WordRef, ...]] = {}
    for side, p, heading in headings:
        if side not in labels or side in found:
            continue
        page = doc.pages[p]
        height = max(heading.box.height, 1e-6)
        below = sorted((line for line in page.lines if line.box.top >= heading.box.bottom - height / 2
                        and abs(line.box.x0 - heading.box.x0) <= COLUMN_TOLERANCE_OF_HEIGHT * height
                        and line is not heading), key=lambda line: line.box.top)
        for line in below[:MAX_BLOCK_LINES]:
            if any(other is line for _, q, other in headings if q == p):
                break  # the next block
            refs = [WordRef(p, w) for w in line.word_indices]
            key_length = _name_key_length(doc, refs)
            if not key_length:
                continue
            name = tuple(refs[key_length:]) or _right_of(page, p, line)  # "Name:" alone: its value in the next column
            if name:
                found[side] = name
                break
    return found
