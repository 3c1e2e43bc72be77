"""`docextract run FILE|DIR`: documents in, entity JSON out."""

from __future__ import annotations

from pathlib import Path

import typer

from docextract.commands.common import fail
from docextract.errors import UsageError


def run(
    path: Path = typer.Argument(..., help="A document (PDF, PNG, JPEG, TIFF, words JSON) or a folder of them."),
) -> None:
    """[Not implemented yet] Extract entity JSON from a document or a folder of documents."""
    raise fail(UsageError("run is not implemented yet: it needs a trained model (issues 3 and 5)"))
