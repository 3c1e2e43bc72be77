"""`docextract render OUT_DIR --renderer NAME[,NAME...]`: invoices rendered by other people's invoice software,
labelled by construction (docs/render.md)."""

from __future__ import annotations

import json
import re
from functools import partial
from pathlib import Path
from typing import Optional

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from docextract.commands.common import stderr, user_errors
from docextract.errors import InputError, OutputError, UsageError
from docextract.files import write_bytes_atomic


def _locale_of(path: str) -> str:
    """A real e-invoice's language by its file name's language part (``PDF_DESIGN_EN``), German otherwise."""
    tokens = set(re.split(r"[_\-.\s]+", Path(path).stem.upper()))
    return "en_GB" if "EN" in tokens else "fr_FR" if "FR" in tokens else "de_DE"


def _einvoice_contents(sources: list[Path]):
    from docextract.data.einvoice import distinct_invoices
    from docextract.synth.render.content import from_embedded

    for source in sources:
        if not source.exists():
            raise InputError("no such file or folder", path=str(source), code="INPUT_NOT_FOUND")
    contents, skipped = [], 0
    for group, path, invoice in distinct_invoices(sources):
        content = from_embedded(invoice, group, _locale_of(path))
        if content is None:
            skipped += 1
        else:
            contents.append(content)
    return contents, skipped


def _previous_report(path: Path) -> dict:
    try:
        previous = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {"renderers": {}}
    return {"renderers": dict(previous.get("renderers") or {})} if isinstance(previous, dict) else {"renderers": {}}


def render(
    out_dir: Optional[Path] = typer.Argument(None, help="Folder for RENDERER.jsonl, the PDFs (RENDERER/*.pdf) and render-report.json."),
    renderer: str = typer.Option(None, "--renderer", "-r", help="Comma-separated renderer names (default: every "
                                 "installed one; --list shows them)."),
    count: int = typer.Option(60, "--count", "-n", min=0, help="Synthetic documents to write per renderer (a dropped "
                              "document is replaced by the next content, up to 3x as many tries)."),
    seed: int = typer.Option(0, "--seed", help="Same seed, same contents and layout choices."),
    einvoices: Optional[list[Path]] = typer.Option(None, "--einvoices", metavar="DIR", help="Also render each distinct real "
                                                   "e-invoice's XML values found under this folder (repeatable), "
                                                   "grouped as `convert einvoice` groups the originals."),
    list_renderers: bool = typer.Option(False, "--list", help="Print every renderer, its version and whether it "
                                        "can run here, then exit."),
) -> None:
    """Render invoice content (synthetic, and real e-invoices' values) through invoice renderers other people
    wrote, read each PDF back as `run` does, and label every word by construction: one labelled JSONL per renderer,
    with `group` (the content) and `producer` (the renderer) on every record. Needs the render extra and,
    for the Node and LaTeX renderers, scripts/setup-render.sh (docs/render.md)."""
    with user_errors():
        from docextract.synth.render import all_renderers
        from docextract.synth.render.produce import render_renderer

        known = all_renderers()
        if list_renderers:
            for name, item in known.items():
                reason = item.missing()
                typer.echo(f"{name}\t{item.version() if reason is None else '-'}\t{item.licence}\t"
                           f"{'ready' if reason is None else reason}")
            return
        if out_dir is None:
            raise UsageError("give OUT_DIR, the folder to write to (or --list)")
        names = [n.strip() for n in (renderer or "").split(",") if n.strip()] or \
            [name for name, item in known.items() if item.missing() is None]
        unknown = [n for n in names if n not in known]
        if unknown:
            raise UsageError(f"unknown renderer: {', '.join(unknown)} (known: {', '.join(known)})")
        absent = {n: known[n].missing() for n in names if known[n].missing()}
        if absent:
            raise UsageError("; ".join(f"{n}: {reason}" for n, reason in absent.items()))
        if not names:
            raise UsageError("no renderer is installed (pip install 'docextract[render]', scripts/setup-render.sh)")
        contents, skipped = _einvoice_contents(list(einvoices or []))
        try:
            out_dir.mkdir(parents=True, exist_ok=True)
            run = {"seed": seed, "count": count, "einvoices": [str(p) for p in einvoices or []],
                   "einvoice_contents": len(contents), "einvoices_without_content": skipped}
            # a later run of some renderers into the same folder replaces their entries and keeps the others'
            report = _previous_report(out_dir / "render-report.json")
            with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                          console=stderr, transient=True) as progress:
                for name in names:
                    item = known[name]
                    task = progress.add_task(name, total=count + (len(contents) if item.einvoices else 0))
                    advance = partial(progress.advance, task)
                    tally = render_renderer(item, seed, count, contents, out_dir, advance)
                    report["renderers"][name] = {"version": item.version(), "licence": item.licence, "run": run,
                                                 **tally.to_dict()}
                    stderr.print(f"{name}: wrote {tally.written} documents, dropped {sum(tally.dropped.values())}",
                                 highlight=False)
            write_bytes_atomic(out_dir / "render-report.json",
                               (json.dumps(report, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))
        except OSError as error:
            raise OutputError(f"cannot write rendered invoices: {error.strerror or error}", path=str(out_dir)) from None
        stderr.print(f"report: {out_dir / 'render-report.json'}", highlight=False)
