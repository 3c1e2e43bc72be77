"""A renderer: invoice software someone else wrote, driven with our content, and what its page prints.

Each adapter module (one per renderer family: a PyPI package, the Node packages, the LaTeX classes) builds
:class:`Renderer` values. ``render`` turns a :class:`~docextract.synth.render.content.RenderInvoice` into a
:class:`Rendering`: the PDF, the content as the page really states it (an adapter that lets the renderer
compute totals, or that has to round, returns the changed content: the truth is what is printed), the
document fields the page prints (each must then be found on it, else the document is dropped) and whether it
prints an item table. ``missing`` says why the renderer cannot run here (a package not installed), or None.
"""

from __future__ import annotations

import importlib.metadata
import random
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from docextract.synth.render.content import RenderInvoice


class RenderFailed(Exception):
    """The renderer refused or crashed on this content (the document is dropped and counted)."""


@dataclass(frozen=True)
class Rendering:
    pdf: bytes
    invoice: RenderInvoice  # the content as printed
    printed: frozenset[str]  # document fields the page prints: each must be located
    # printed too, but where the matcher's rules may not reach them (a currency word away from its amount):
    # labelled where located, else left out of the record's label_set (masked in training), never a drop
    optional: frozenset[str] = frozenset()
    line_items: bool = True  # the page prints a table of every item (description, quantity, price, amount)
    item_cells: tuple[str, ...] = ("quantity", "unit_price", "amount")  # the table's number columns
    options: dict[str, Any] = field(default_factory=dict)  # what this rendering varied (font, language, ...)
    language: str | None = None  # the language of the page's own key words, where not the content's


@dataclass(frozen=True)
class Renderer:
    name: str  # the producer name written to every record
    package: str  # what the registry serves, e.g. "dinbrief (PyPI)"
    licence: str
    description: str  # what its page looks like
    render: Callable[[RenderInvoice, random.Random, Path], Rendering]  # content, random stream, scratch folder
    missing: Callable[[], str | None]
    version: Callable[[], str]
    locales: tuple[str, ...] | None = None  # synthetic content locales it suits (None: all)
    credit_notes: bool = False  # prints negative amounts sensibly
    einvoices: bool = True  # can print a real e-invoice's values
    max_items: int = 12  # line items per synthetic document at most (more: several pages)
    tax_rates: int = 3  # distinct tax rates per document it can show


def python_package_missing(*distributions: str) -> Callable[[], str | None]:
    def missing() -> str | None:
        for name in distributions:
            try:
                importlib.metadata.version(name)
            except importlib.metadata.PackageNotFoundError:
                return f"the Python package {name} is not installed (pip install 'docextract[render]')"
        return None
    return missing


def python_package_version(distribution: str) -> Callable[[], str]:
    def version() -> str:
        try:
            return importlib.metadata.version(distribution)
        except importlib.metadata.PackageNotFoundError:
            return "not installed"
    return version


def program_missing(program: str, hint: str) -> str | None:
    return None if shutil.which(program) else f"{program} is not installed ({hint})"
