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
import importlib.util
import os
import random
import shutil
import sys
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


# Python renderers that cannot share docextract's environment live apart, like the npm ones: PyInvoice installs a
# top-level package named "tests" (which would shadow this repository's), invoicepy pins Click < 8 and pydantic < 2.
# scripts/setup-render.sh installs them there without their dependencies (`pip install --no-deps --target`).
def isolated_python_dir() -> Path:
    return Path(os.environ.get("DOCEXTRACT_RENDER_PYTHON", Path.home() / ".cache" / "docextract-render" / "python"))


def isolated_module_path(module: str) -> Path | None:
    """Where the isolated folder holds ``module`` (a package's folder), or None."""
    path = isolated_python_dir() / module
    return path if (path / "__init__.py").is_file() else None


def import_isolated(module: str):
    """``module`` imported from :func:`isolated_python_dir`, the folder appended to ``sys.path`` (last: it never
    shadows a module docextract's environment has)."""
    folder = str(isolated_python_dir())
    if folder not in sys.path:
        sys.path.append(folder)
    return importlib.import_module(module)


def isolated_package_missing(module: str, requirement: str, needs: tuple[str, ...] = (),
                             files: tuple[str, ...] = ()) -> Callable[[], str | None]:
    """Why the isolated ``module`` cannot run here: not installed apart (or without the ``files`` the adapter reads
    from its folder, a template), or a module it ``needs`` from docextract's own environment (installed there without
    its dependencies) missing; None when it can."""
    def missing() -> str | None:
        path = isolated_module_path(module)
        if path is None or not all((path / name).is_file() for name in files):
            return (f"{requirement} is not installed in {isolated_python_dir()} (scripts/setup-render.sh: "
                    f"pip install --no-deps --target)")
        for name in needs:
            if importlib.util.find_spec(name) is None:
                return f"the Python package {name} is not installed (pip install 'docextract[render]')"
        return None
    return missing


def isolated_package_version(distribution: str) -> Callable[[], str]:
    """The version the isolated folder's ``DISTRIBUTION-VERSION.dist-info`` names (pip writes the name lower-case)."""
    def version() -> str:
        found = sorted(isolated_python_dir().glob(f"{distribution.lower()}-*.dist-info"))
        return found[-1].name[len(distribution) + 1:-len(".dist-info")] if found else "not installed"
    return version
