"""The command line. Commands only parse options and call one function; the work lives in the package."""

from __future__ import annotations

import inspect
import os
import sys
import traceback

# torch's OpenMP threads sleep at the end of each parallel region instead of spinning (libgomp reads this when
# torch is imported, which happens later, inside a command). On a machine whose cores are busy with other work,
# spinning threads wait for each other's time slices: one invoice's model stage took 1.7 s with two spinning
# threads and 0.14 s with the threads sleeping (0.12 s on one thread). Set OMP_WAIT_POLICY to choose otherwise.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import typer

from docextract import __version__
from docextract.commands.common import set_verbose, stderr, verbose_enabled
from docextract.errors import EXIT_CODES_HELP, EXIT_INTERNAL, EXIT_INTERRUPTED

app = typer.Typer(
    name="docextract",
    help=(
        "Turn business documents (digital PDFs, scans, photos) into structured entity JSON "
        "with layout-aware transformer models.\n\n" + EXIT_CODES_HELP
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

def _version_callback(value: bool) -> None:
    if value:
        typer.echo(f"docextract {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Show tracebacks and debug detail on errors."),
    version: bool = typer.Option(False, "--version", callback=_version_callback, is_eager=True, help="Print the version and exit."),
) -> None:
    set_verbose(verbose)


# Each command lives in docextract/commands/; this file only registers them.
from docextract.commands import (  # noqa: E402
    calibrate_cmd, data_cmds, evaluate_cmd, finetune_cmd, inspect_cmd, pretrain_cmd, render_cmd, run_cmd, serve_cmd,
    synth_cmd,
)


def help_paragraphs(docstring: str | None) -> str:
    """A command's docstring as its help: each paragraph on one line. Typer's Rich help keeps the line breaks of
    every paragraph after the first, so a docstring wrapped at 120 columns would be printed broken at 120 columns
    and wrapped again at the terminal's width. A command line shown on its own is a paragraph of its own."""
    paragraphs = inspect.cleandoc(docstring or "").split("\n\n")
    return "\n\n".join(" ".join(paragraph.split()) for paragraph in paragraphs)


COMMANDS = {
    "run": run_cmd.run,
    "inspect": inspect_cmd.inspect,
    "finetune": finetune_cmd.finetune,
    "pretrain": pretrain_cmd.pretrain,
    "evaluate": evaluate_cmd.evaluate,
    "calibrate": calibrate_cmd.calibrate,
    "convert": data_cmds.convert,
    "validate": data_cmds.validate,
    "split": data_cmds.split,
    "labelstudio-config": data_cmds.labelstudio_config,
    "serve": serve_cmd.serve,
    "synth": synth_cmd.synth,
    "render": render_cmd.render,
}
for _name, _function in COMMANDS.items():
    app.command(_name, help=help_paragraphs(_function.__doc__), epilog=EXIT_CODES_HELP)(_function)

def main() -> None:
    """Entry point of `docextract`: usage errors exit 2, Ctrl-C 130, a bug 1 with a one-line message."""
    _leave(_run())


def _run() -> int:
    # Tesseract runs single-threaded (readers/ocr.py sets OMP_THREAD_LIMIT around its calls only:
    # set process-wide it would also cap torch and break torch.set_num_threads).
    try:
        code = app(standalone_mode=False)
    except KeyboardInterrupt:
        return _interrupted()
    except Exception as error:
        if _click_error(error, "Abort"):
            return _interrupted()
        if _click_error(error, "ClickException"):  # usage errors ("No such option") and the like
            error.show()
            return error.exit_code
        if verbose_enabled():
            traceback.print_exc()
        stderr.print(
            f"[bold red]docextract: internal error:[/] {type(error).__name__}: {error} "
            "(re-run with --verbose for the traceback)",
            highlight=False,
        )
        return EXIT_INTERNAL
    return code if isinstance(code, int) else 0


def _click_error(error: Exception, kind: str) -> bool:
    """Whether ``error`` is click's ``kind`` (``Abort``, ``ClickException``) by class name: newer Typer versions
    raise those of their own vendored click (``typer._click``), older ones click's, and neither is the other's
    subclass."""
    return any(cls.__name__ == kind for cls in type(error).__mro__)


def _interrupted() -> int:
    stderr.print("[bold red]docextract:[/] interrupted")
    return EXIT_INTERRUPTED


def _leave(code: int) -> None:
    """Exit with ``code`` once stdout and stderr are flushed, without the interpreter's teardown: every command has
    finished its work (files are written atomically and closed, workers reaped) by now, and tearing down torch's
    modules costs a short command a third of its CPU time (measured: 0.5 of 1.5 CPU seconds after importing the
    pipeline)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (BrokenPipeError, OSError, ValueError):  # a reader that went away, a closed stream
            pass
    os._exit(code)
