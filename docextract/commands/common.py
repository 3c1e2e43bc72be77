"""What every command shares: the stderr console, --verbose, and turning user errors into one line + exit code."""

from __future__ import annotations

import contextlib
import traceback
from enum import Enum
from typing import Iterator

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.text import Text

from docextract.errors import EXIT_INTERRUPTED, DocextractError

# Results go to stdout; progress and messages go here.
stderr = Console(stderr=True)

_verbose = False


def set_verbose(value: bool) -> None:
    global _verbose
    _verbose = value


def verbose_enabled() -> bool:
    return _verbose


def fail(error: DocextractError) -> typer.Exit:
    """Print ``docextract: FILE: problem`` on stderr and return the Exit carrying the documented code."""
    if _verbose:
        traceback.print_exception(error)
    # Text, not markup: file names may contain [brackets].
    stderr.print(Text.assemble(("docextract: ", "bold red"), error.one_line()), highlight=False, soft_wrap=True)
    return typer.Exit(error.exit_code)


def interrupted(what_happened: str) -> typer.Exit:
    """Ctrl-C in a command: print ``docextract: interrupted: ...`` (what was done, what is kept) on stderr and return the
    Exit with code 130. The words are the command's: only it knows what a half-done run leaves behind."""
    stderr.print(Text.assemble(("docextract: interrupted: ", "bold red"), what_happened), highlight=False,
                 soft_wrap=True)
    return typer.Exit(EXIT_INTERRUPTED)


@contextlib.contextmanager
def documents_progress(description: str) -> Iterator:
    """A progress bar on stderr over documents, like `run`'s batch bar: yields ``advance(done, total)``."""
    progress = Progress(TextColumn(f"[bold]{description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                        TextColumn("ETA"), TimeRemainingColumn(), console=stderr, transient=False)
    task = progress.add_task(description, total=None)
    with progress:
        yield lambda done, total: progress.update(task, completed=done, total=total)


@contextlib.contextmanager
def user_errors() -> Iterator[None]:
    """Wrap a command's body: a DocextractError becomes one line on stderr and its exit code."""
    try:
        yield
    except DocextractError as error:
        raise fail(error) from None


class PdfText(str, Enum):
    """--pdf-text: how a PDF's text layer is read."""

    pdfplumber = "pdfplumber"
    auto = "auto"


PDF_TEXT_HELP = ("pdfplumber: every text layer through pdfplumber (pdfminer). auto: through PDFium's text page, about "
                 "3x faster, on the pages where it is known to give pdfplumber's words (plain pages, upright text, "
                 "simple fonts; measured: benchmarks/results/reader_agreement.json), pdfplumber elsewhere. "
                 "`inspect` shows which read each page.")


class OcrMode(str, Enum):
    """--ocr: auto OCRs only pages without a usable text layer."""

    auto = "auto"
    always = "always"
    never = "never"


class Device(str, Enum):
    """--device: where a model runs (docextract/modeling/devices.py)."""

    auto = "auto"
    cpu = "cpu"
    cuda = "cuda"
    mps = "mps"
