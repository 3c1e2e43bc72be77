"""`docextract synth OUT_DIR`: synthetic invoices (digital PDFs and scan-like images) with word labels."""

from __future__ import annotations

import json
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path
from typing import Iterator

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from docextract.commands.common import stderr, user_errors
from docextract.errors import OutputError, UsageError
from docextract.files import atomic_writer, write_bytes_atomic


WORKER_CHUNK = 4  # documents per task sent to a worker process


def _family_list(text: str | None) -> tuple[str, ...]:
    return tuple(name.strip() for name in (text or "").split(",") if name.strip())


def select_families(families: str | None, holdout: str | None) -> tuple[str, ...]:
    """The families to draw from: ``families`` if given, else all but ``holdout``; unknown names refused."""
    from docextract.synth.layouts import FAMILY_NAMES

    chosen, held = _family_list(families), _family_list(holdout)
    if chosen and held:
        raise UsageError("give --families or --holdout-families, not both")
    unknown = [name for name in chosen + held if name not in FAMILY_NAMES]
    if unknown:
        raise UsageError(f"unknown layout family: {', '.join(unknown)} (known: {', '.join(FAMILY_NAMES)})")
    selected = chosen or tuple(name for name in FAMILY_NAMES if name not in held)
    if not selected:
        raise UsageError("--holdout-families leaves no family to generate")
    return selected


def _generate_all(seed: int, count: int, options, out_dir: Path, workers: int) -> Iterator[dict]:
    """Records in index order; with several workers each document is made in a worker process (every
    document has its own seeded random streams, so the result does not depend on who made it)."""
    from docextract.synth.generate import generate_invoice

    if workers == 1:
        for index in range(count):
            yield generate_invoice(seed, index, options, out_dir)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        yield from pool.map(partial(generate_invoice, seed, options=options, out_dir=out_dir), range(count),
                            chunksize=WORKER_CHUNK)


def _write_stacks(out_dir: Path, seed: int, sources: list[str], size: int) -> None:
    """Every ``size`` PDFs of ``sources`` (the last stack may hold fewer) as one PDF, and stacks.jsonl."""
    from docextract.synth.stacks import stack_pdfs

    lines = []
    for number, start in enumerate(range(0, len(sources), size)):
        group = sources[start:start + size]
        name = f"stack-{seed}-{number:06d}.pdf"
        ranges = stack_pdfs([out_dir / source for source in group], out_dir / name)
        lines.append(json.dumps({"stack": name, "documents": [
            {"id": Path(source).stem, "source": source, "page_range": list(pages)} for source, pages in zip(group, ranges)]}))
    write_bytes_atomic(out_dir / "stacks.jsonl", "".join(line + "\n" for line in lines).encode("utf-8"))


def synth(
    out_dir: Path = typer.Argument(..., help="Folder for the PDFs, scan images and labels.jsonl (created if missing)."),
    count: int = typer.Option(100, "--count", "-n", min=1, help="Number of invoices."),
    seed: int = typer.Option(0, "--seed", help="Same seed, same invoices and labels."),
    families: str = typer.Option(None, "--families", help="Comma-separated layout families to use (default: all)."),
    holdout_families: str = typer.Option(None, "--holdout-families",
                                         help="Comma-separated families never to produce (for honest evaluation)."),
    scan_fraction: float = typer.Option(0.0, "--scan-fraction", min=0.0, max=1.0,
                                        help="Share of invoices written as scan-like images instead of PDFs."),
    pages_max: int = typer.Option(3, "--pages-max", min=1, help="Most pages per invoice."),
    pages_min: int = typer.Option(1, "--pages-min", min=1, help="Fewest pages per invoice."),
    scan_dpi: int = typer.Option(150, "--scan-dpi", min=50, max=400, help="Resolution of the scan-like images."),
    workers: int = typer.Option(1, "--workers", min=1, max=64,
                                help="Processes generating in parallel (the output is identical for any number)."),
    stack: int = typer.Option(0, "--stack", min=0, help="Also write stacks: every K digital invoices concatenated into one PDF "
                              "(stack-SEED-NNNNNN.pdf), with each invoice's true page range in OUT_DIR/stacks.jsonl; for testing "
                              "how `run` splits a file into documents. 0: no stacks."),
    list_families: bool = typer.Option(False, "--list-families", help="Print the layout families and exit."),
) -> None:
    """Generate labelled synthetic invoices: digital PDFs, scan-like images, and OUT_DIR/labels.jsonl."""
    with user_errors():
        from docextract.synth.generate import SynthOptions
        from docextract.synth.layouts import FAMILIES

        if list_families:
            for name, family in FAMILIES.items():
                typer.echo(f"{name}\t{family.description}")
            return
        if pages_min > pages_max:
            raise UsageError(f"--pages-min {pages_min} is more than --pages-max {pages_max}")
        options = SynthOptions(select_families(families, holdout_families), pages_max=pages_max,
                               pages_min=pages_min, scan_fraction=scan_fraction, scan_dpi=scan_dpi)
        try:
            out_dir.mkdir(parents=True, exist_ok=True)
            final = out_dir / "labels.jsonl"
            # readers never see a half-written labels.jsonl: it appears when the last record is written
            with atomic_writer(final) as sink, Progress(
                TextColumn("synth"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(), console=stderr,
                transient=True,
            ) as progress:
                task = progress.add_task("synth", total=count)
                digital: list[str] = []
                for record in _generate_all(seed, count, options, out_dir, workers):
                    sink.write((json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8"))
                    progress.advance(task)
                    if record["source"].endswith(".pdf"):
                        digital.append(record["source"])
            if stack:
                _write_stacks(out_dir, seed, digital, stack)
            write_bytes_atomic(out_dir / "synth-config.json", (json.dumps({
                "count": count, "seed": seed, "families": list(options.families), "pages_max": pages_max,
                "pages_min": pages_min, "scan_fraction": scan_fraction, "scan_dpi": scan_dpi}, indent=2) + "\n").encode("utf-8"))
        except OSError as error:
            raise OutputError(f"cannot write synthetic invoices: {error.strerror or error}", path=str(out_dir)) from None
        stderr.print(f"wrote {count} invoices and {final}", highlight=False)
