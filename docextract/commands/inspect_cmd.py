"""`docextract inspect FILE`: show every stage of the document pipeline (filled in by the pipeline work)."""

from __future__ import annotations

from pathlib import Path

import typer


def inspect(path: Path = typer.Argument(..., help="The document to inspect.")) -> None:
    """Show where the text came from, lines, blocks, reading order and model windows, page by page."""
    raise NotImplementedError
