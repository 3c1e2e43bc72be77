"""Which producer made a labelled document's layout: the unit of the leave-one-producer-out yardstick.

A model that reads a producer's invoices well because it was trained on that producer's other invoices
says little about the next producer a user brings. The yardstick therefore trains without one producer
and measures on it (``benchmarks/lopo.py``); this module says which producer a record belongs to.

A producer is the software (or the person) that designed the page, not the one that wrote the PDF:
the shared e-invoices are sample invoices that several tools printed with a handful of layouts, so
the folders that hold one layout count as one producer:

* ``ferd-visualisation``: the FeRD/DWC key-value visualisation (``einvoices/XML-Rechnung/FX`` and
  ``einvoices-more/ferd-2.4``, the same style in its 2022 and 2025 versions);
* ``zugferd-stylesheet``: the AWV stylesheet that makes ZUGFeRD 2 XML readable, as intarsys and symtrax
  printed it (``einvoices/ZUGFeRDv2/correct/{intarsys,symtrax}``; stylesheet 2.0 and 2.1);
* ``zugferd1-samples``: the designed sample invoices of ZUGFeRD 1 (``einvoices/ZUGFeRDv1``);
* ``factur-x-kit``: one invoice designer (``einvoices-more/factur-x-kit``);
* ``sroie``: the SROIE receipts; ``docextract-synth``: this project's own generator.

A record that names its ``producer`` (documents rendered by other people's invoice renderers do) keeps it.
The same invoice content printed by two producers shares its ``group``: a fold that holds a producer out
drops every training record of that producer's groups too (:func:`leave_out`), so no invoice is on both sides.
"""

from __future__ import annotations

from typing import Iterable, Mapping, Sequence, TypeVar

# Path fragments (of a record's id or source) -> producer, first match wins.
_PATH_PRODUCERS: tuple[tuple[str, str], ...] = (
    ("factur-x-kit", "factur-x-kit"),
    ("ferd-2.4", "ferd-visualisation"),
    ("XML-Rechnung/FX", "ferd-visualisation"),
    ("ZUGFeRDv2/correct/intarsys", "zugferd-stylesheet"),
    ("ZUGFeRDv2/correct/symtrax", "zugferd-stylesheet"),
    ("ZUGFeRDv1", "zugferd1-samples"),
    ("sroie", "sroie"),
)
SYNTHETIC = "docextract-synth"
# The real e-invoice producers of the shared data: the folds of the yardstick.
EINVOICE_PRODUCERS = ("factur-x-kit", "ferd-visualisation", "zugferd-stylesheet", "zugferd1-samples")

Record = TypeVar("Record", bound=Mapping)


def producer_of(record: Mapping) -> str:
    """The producer of a labelled record (a JSONL object): its own ``producer`` if it names one, else read from
    its id and source paths; synthetic invoices (``synth`` metadata) are this project's generator. A record of
    no known producer is its own (``unknown:<id>``), so it never joins another producer's fold by accident."""
    declared = record.get("producer")
    if declared:
        return str(declared)
    if record.get("synth") is not None:
        return SYNTHETIC
    where = f"{record.get('id', '')} {record.get('source', '')}"
    for fragment, producer in _PATH_PRODUCERS:
        if fragment in where:
            return producer
    return f"unknown:{record.get('id', '')}"


def content_group(record: Mapping) -> str:
    """What a record is a rendering of: its ``group``, else its own id."""
    return str(record.get("group") or f"id:{record.get('id', '')}")


def leave_out(records: Sequence[Record], producer: str) -> tuple[list[Record], list[Record]]:
    """(training, held out) for one fold: the held-out side is every record of ``producer``; the training side is
    every other record whose content group the held-out side does not also hold (the same invoice printed by
    another producer would carry its values across)."""
    held_out = [r for r in records if producer_of(r) == producer]
    held_groups = {content_group(r) for r in held_out}
    training = [r for r in records if producer_of(r) != producer and content_group(r) not in held_groups]
    return training, held_out


def producers(records: Iterable[Mapping]) -> dict[str, int]:
    """Producer -> how many records, sorted by name."""
    counts: dict[str, int] = {}
    for record in records:
        name = producer_of(record)
        counts[name] = counts.get(name, 0) + 1
    return dict(sorted(counts.items()))
