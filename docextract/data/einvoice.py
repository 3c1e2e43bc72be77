"""E-invoices (PDFs that carry their invoice as embedded XML) -> labelled documents for the invoice model.

Each PDF's embedded invoice (:mod:`docextract.readers.einvoice`: ZUGFeRD, Factur-X, XRechnung; CII, ZUGFeRD 1
or UBL) is the truth; its values are located on the page words that docextract itself reads
(``read_document`` then ``analyze_layout``, as ``run`` sees them) by :mod:`docextract.extraction.locate`:
amounts in the document's number format and attributed by their key words, dates in any printed form,
ids compactly, names, addresses and payment terms by their token sequence. Every supported occurrence is
labelled as its own entity; line items are not labelled.

A record's ``label_set`` lists only the document-level fields whose value was located on its pages: a
field the page does not show (or shows where no key tells which occurrence it is) is left out, so that
training, which masks what a record's label set does not cover, never learns that its words are O.
``fields`` holds the located fields' true values in the form ``docextract synth`` writes (ISO dates,
decimal amounts, ISO 4217 codes; an address as its printed lines joined with ", ").

``group`` names the invoice a record is a rendering of: the file's scenario name without profile,
version, tool and language parts (``zugferd_2p1_EN16931_Einfach`` -> ``einfach``), merged with every other
record of the same invoice number, seller and grand total (the FeRD samples reuse one invoice for many
scenarios: SEPA pre-notification, deviating payee, due date variants are renderings of ``einfach``). ``docextract split`` keeps a group on one side.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from pathlib import Path
from typing import Callable, Iterable, Sequence

from docextract.data.kleister import clipped_to_pages
from docextract.data.labelled import OUTSIDE, LabelledDocument
from docextract.data.report import ConvertReport, DocumentProgress, MatchTally, count_entities
from docextract.document import Document
from docextract.errors import InputError
from docextract.layout import analyze_layout
from docextract.extraction.locate import Location, compact, locate_fields
from docextract.readers.einvoice import EmbeddedInvoice, normalized_text, read_embedded_invoice
from docextract.vocabulary import DOCUMENT_LABELS

# The invoice model's document-level labels (the product's vocabulary). Line items are never labelled here.
LABEL_FIELDS = DOCUMENT_LABELS
# Parts of a file name that say how an invoice was rendered, not which invoice it is.
_RENDERING_TOKENS = {
    "minimum", "basic", "basicwl", "wl", "comfort", "en16931", "extended", "xrechnung", "embedded",
    "zugferd", "zf", "facturx", "fx", "de", "en", "fr",
}
_VERSION_TOKEN = re.compile(r"^v?\d+p\d+$")


def default_reader() -> Callable[[Path], Document]:
    from docextract.readers import read_document

    return read_document


def find_pdfs(src: Path) -> list[Path]:
    if src.is_file():
        return [src]
    if not src.is_dir():
        raise InputError("no such file or folder", path=str(src), code="INPUT_NOT_FOUND")
    return sorted(p for p in src.rglob("*") if p.is_file() and p.suffix.lower() == ".pdf")


def scenario_name(stem: str) -> str:
    """The invoice a file name names: profile, version, tool and language parts removed, lower case."""
    tokens = [t for t in re.split(r"[_\s]+", stem.replace("BASIC-WL", "BASICWL").replace("Factur-X", "FacturX")) if t]
    kept = [t.lower() for t in tokens if t.lower() not in _RENDERING_TOKENS and not _VERSION_TOKEN.match(t.lower())]
    return "_".join(kept) or stem.lower()


def invoice_identity(invoice: EmbeddedInvoice) -> tuple[str, str, str] | None:
    """(invoice number, seller, grand total) in a comparable form; None when the XML lacks one of them."""
    if not (invoice.invoice_number and invoice.vendor_name and invoice.total is not None):
        return None
    return compact(invoice.invoice_number), compact(invoice.vendor_name), normalized_text(abs(invoice.total))


def assign_groups(names: Sequence[str], identities: Sequence[tuple[str, str, str] | None]) -> list[str]:
    """One group per record: records sharing a scenario name or an invoice identity are one group,
    named by its most common scenario name (the smallest of equally common ones)."""
    parent = list(range(len(names)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    first: dict[object, int] = {}
    for i, keys in enumerate(zip(names, identities)):
        for key in (("name", keys[0]), ("identity", keys[1])):
            if key[1] is None:
                continue
            if key in first:
                parent[root(i)] = root(first[key])
            else:
                first[key] = i
    members: dict[int, list[int]] = {}
    for i in range(len(names)):
        members.setdefault(root(i), []).append(i)
    group_of = [""] * len(names)
    for indices in members.values():
        counts = Counter(names[i] for i in indices)
        label = min(counts, key=lambda name: (-counts[name], name))  # its most common name
        for i in indices:
            group_of[i] = label
    return group_of


def field_value(name: str, invoice: EmbeddedInvoice, location: Location) -> str:
    """A located field's true value as the labelled data writes it."""
    if name.endswith("_address"):
        return location.printed  # the lines as this page prints them (as `docextract synth` writes addresses)
    if name == "payment_terms":
        return " ".join(invoice.payment_terms.split())
    return normalized_text(getattr(invoice, name))


def label_document(record_id: str, document: Document, invoice: EmbeddedInvoice, tally: MatchTally
                   ) -> LabelledDocument:
    """The document with every located occurrence of the invoice's values labelled as its own entity."""
    values = {k: v for k, v in invoice.field_values().items() if k in LABEL_FIELDS}
    locations = locate_fields(document, values, invoice.line_item_amounts())
    labels = [[OUTSIDE] * len(p.words) for p in document.pages]
    entities: list[list[int | None]] = [[None] * len(p.words) for p in document.pages]
    next_entity = 0
    fields: dict[str, tuple[str, ...]] = {}
    for name in LABEL_FIELDS:
        location = locations.get(name)
        if location is None:
            continue
        if not location.found:
            tally.missed(name, location.reason or "not printed", f"{record_id}: {normalized_text(values[name])[:80]}")
            continue
        tally.found(name)
        fields[name] = (field_value(name, invoice, location),)
        for occurrence in location.occurrences:
            for ref in occurrence:
                labels[ref.page_index][ref.word_index] = name
                entities[ref.page_index][ref.word_index] = next_entity
            next_entity += 1
    label_set = tuple(name for name in LABEL_FIELDS if name in fields)
    return LabelledDocument(record_id, document, tuple(map(tuple, labels)), tuple(map(tuple, entities)),
                            label_set, fields)


def convert_einvoices(sources: Path | Iterable[Path], read_document: Callable[[Path], Document] | None = None, *,
                      on_document: DocumentProgress | None = None) -> tuple[list[LabelledDocument], ConvertReport]:
    """Every PDF under ``sources`` (files or folders, searched recursively) that carries an invoice.
    ``on_document(done, total)`` after each PDF, with or without an invoice."""
    sources = [Path(sources)] if isinstance(sources, (str, Path)) else [Path(s) for s in sources]
    read_document = read_document or default_reader()
    tally, notes = MatchTally(), Counter()
    docs, names, identities = [], [], []
    found = [(source, pdf) for source in sources for pdf in find_pdfs(source)]
    for done, (source, pdf) in enumerate(found, start=1):
        record = _einvoice_record(source, pdf, read_document, tally, notes)
        if record is not None:
            docs.append(record[0])
            names.append(record[1])
            identities.append(record[2])
        if on_document:
            on_document(done, len(found))
    groups = assign_groups(names, identities)
    docs = [dataclasses.replace(doc, group=group) for doc, group in zip(docs, groups)]
    if docs:
        notes["invoice groups"] = len(set(groups))
    return docs, einvoice_report(docs, tally, notes)


def _einvoice_record(source: Path, pdf: Path, read_document: Callable[[Path], Document], tally: MatchTally,
                     notes: Counter) -> tuple[LabelledDocument, str, tuple[str, str, str] | None] | None:
    """One PDF's labelled document, scenario name and invoice identity; None (with a note) when it carries no
    invoice or no words."""
    invoice = read_embedded_invoice(pdf)
    if invoice is None:
        notes["PDFs without an embedded invoice (skipped)"] += 1
        return None
    document, clipped = clipped_to_pages(read_document(pdf))
    document = analyze_layout(document)  # the lines, blocks and reading order `run` reads in
    if clipped:
        notes["boxes clipped to the page"] += clipped
    if document.word_count == 0:
        notes["PDFs without words (skipped)"] += 1
        return None
    record_id = (pdf.relative_to(source.parent) if source.is_dir() else Path(pdf.name)).with_suffix("").as_posix()
    return label_document(record_id, document, invoice, tally), scenario_name(pdf.stem), invoice_identity(invoice)


def einvoice_report(docs: list[LabelledDocument], tally: MatchTally, notes: Counter) -> ConvertReport:
    """Per field: values in the XMLs (``expected``), not located (``unmatched``) and why."""
    entities = count_entities(docs)
    return ConvertReport(
        dataset="einvoice", split="all", documents=len(docs), words=sum(d.document.word_count for d in docs),
        entities_per_label={name: entities.get(name, 0) for name in LABEL_FIELDS},
        expected={name: tally.expected[name] for name in LABEL_FIELDS if tally.expected[name]},
        unmatched={name: tally.unmatched.get(name, 0) for name in LABEL_FIELDS if tally.expected[name]},
        unmatched_reasons=dict(sorted(tally.reasons.items())),
        unmatched_examples=tally.examples,
        notes=dict(sorted(notes.items())),
    )


def distinct_invoices(sources: Path | Iterable[Path]) -> list[tuple[str, str, EmbeddedInvoice]]:
    """Each distinct invoice the PDFs under ``sources`` embed, once: ``(group, file, invoice)``, the group as
    :func:`convert_einvoices` names it (all sources grouped together), one invoice per identity (number,
    seller, grand total; per scenario name where the XML lacks one), the XML stating most values and items."""
    sources = [Path(sources)] if isinstance(sources, (str, Path)) else [Path(s) for s in sources]
    found: list[tuple[Path, EmbeddedInvoice]] = []
    for source in sources:
        for pdf in find_pdfs(source):
            try:
                invoice = read_embedded_invoice(pdf)
            except InputError:
                continue  # a broken attachment: convert einvoice reports it; nothing to render from
            if invoice is not None:
                found.append((pdf, invoice))
    names = [scenario_name(pdf.stem) for pdf, _ in found]
    groups = assign_groups(names, [invoice_identity(invoice) for _, invoice in found])
    best: dict[object, tuple[tuple[int, int, str], str, Path, EmbeddedInvoice]] = {}
    for (pdf, invoice), name, group in zip(found, names, groups):
        key = invoice_identity(invoice) or ("name", name)
        rank = (len(invoice.field_values()), len(invoice.line_items), str(pdf))
        if key not in best or rank > best[key][0]:
            best[key] = (rank, group, pdf, invoice)
    return [(group, str(pdf), invoice) for _, group, pdf, invoice in sorted(best.values(), key=lambda b: str(b[2]))]
