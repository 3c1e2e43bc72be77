"""`docextract run FILE|DIR`: documents in, entity JSON out."""

from __future__ import annotations

import json
from dataclasses import replace
from enum import Enum
from pathlib import Path
from typing import Optional

import typer
from rich.text import Text

from docextract.commands.common import PDF_TEXT_HELP, Device, OcrMode, PdfText, fail, interrupted, stderr, user_errors
from docextract.errors import InputError, UsageError


class Engine(str, Enum):
    local = "local"
    ray = "ray"


class OutputFormat(str, Enum):
    json = "json"
    jsonl = "jsonl"
    csv = "csv"
    labelstudio = "labelstudio"


def run(
    path: Path = typer.Argument(..., help="A document (PDF, PNG, JPEG, TIFF, words JSON), a folder of them, or - to read "
                                          "document paths from stdin, one a line, and print one JSON line per document "
                                          "(the model loaded once: a warm process for integrations)."),
    model: str = typer.Option("invoice", "--model", "-m", help="A shipped model name (see models/), a model folder, 'auto' (a windowed or a long-range model by the document's length, see models/auto.json), or 'none' for text and layout only."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help="FILE: write there instead of stdout. Required for a folder: outputs mirror its tree under OUT, with OUT/manifest.jsonl."),
    output_format: OutputFormat = typer.Option(OutputFormat.json, "--format", "-f", help="json (pretty), jsonl (one line; a folder: also OUT/documents.jsonl, one file's output a line), csv (one row per document; line items in a second file; a folder: OUT/documents.csv and OUT/line_items.csv), or labelstudio (Label Studio tasks, one per page, with the model's predictions as pre-annotations; import them into a project set up with `docextract labelstudio-config`)."),
    ocr: OcrMode = typer.Option(OcrMode.auto, help="auto: OCR only pages without a usable text layer."),
    lang: str = typer.Option("auto", help="Tesseract language(s), e.g. eng or deu+eng. auto: read in English, then again in the page's own language when it is German, French, Dutch, Italian, Spanish, Swedish, Danish, Norwegian, Finnish, Portuguese, Polish or Czech."),
    dpi: int = typer.Option(300, min=50, max=1200, help="Rendering resolution for OCR."),
    password: Optional[str] = typer.Option(None, help="Password of an encrypted PDF."),
    pdf_text: PdfText = typer.Option(PdfText.pdfplumber, "--pdf-text", help=PDF_TEXT_HELP),
    fields_only: bool = typer.Option(False, "--fields-only", help="A short view for people and shell pipelines: per document each field's value, normalised value, confidence and status, the line items, and whether it needs review and why (json and jsonl; the schema's fields view). Without it: the whole output, with boxes, words, entities and checks."),
    include_tokens: bool = typer.Option(False, "--include-tokens", help="Add every word with its tag to the output."),
    ignore_embedded: bool = typer.Option(False, "--ignore-embedded", help="Read the page only, even when a PDF carries its invoice as embedded XML (ZUGFeRD, Factur-X, XRechnung); by default the XML's values are reported beside the model's and every disagreement is flagged for review."),
    split: bool = typer.Option(True, "--split/--no-split", help="A file may hold several invoices (a scanned stack): each becomes its own entry of documents[] with its page range, fields, line items and checks, decided from the pages (a new invoice number, 'Page 1 of N', a new header after totals). --no-split reads the whole file as one document."),
    timings: bool = typer.Option(False, "--timings", help="Add per-stage timings (ms) to the output (outputs then differ run to run)."),
    precision: Optional[float] = typer.Option(
        None, "--precision", min=0.5, max=1.0,
        help="Review policy: accept a field unread where its field's accepted values were right at this precision on "
             "the model's held-out data (default: the model's own, 0.99). Every field gets status accepted or review."),
    device: Device = typer.Option(
        Device.cpu, "--device", help="Where the model runs: cpu (default: outputs as every earlier run), auto (a CUDA GPU, "
                                "else Apple MPS, else the CPU), cuda or mps. One file at a time on a GPU (a folder's "
                                "workers run under a memory cap a GPU context cannot start in). A GPU named but not "
                                "there: exit 3."),
    workers: Optional[int] = typer.Option(None, min=1, help="Folder: files processed in parallel (one model per worker, one thread each); default one per CPU (at most 8, no more than the files), with --engine ray one per CPU of the cluster (less --model-workers)."),
    glob: Optional[str] = typer.Option(None, help="Folder: which files to take (recursive glob, e.g. '**/*.pdf'). Default: every file docextract reads (PDF, PNG, JPEG, TIFF, words JSON, known by their first bytes); the others are recorded as skipped, not failed."),
    resume: bool = typer.Option(False, "--resume", help="Folder: skip files already done in OUT, redo the rest."),
    overwrite: bool = typer.Option(False, "--overwrite", help="Replace outputs that already exist."),
    timeout: float = typer.Option(300, min=1, help="Folder: seconds per file before it is stopped and recorded as TIMEOUT."),
    max_memory: int = typer.Option(2048, min=256, help="Folder: memory cap per worker in MB (MEMORY_LIMIT beyond)."),
    follow_symlinks: bool = typer.Option(False, "--follow-symlinks", help="Folder: follow symbolic links (skipped by default)."),
    engine: Engine = typer.Option(Engine.local, help="Folder: local (worker processes on this machine) or ray (worker actors on a Ray cluster; pip install 'docextract\\[ray]'; inputs and --out on a filesystem every node sees at the same path). Same outputs, manifest, --resume and exit codes (docs/ray.md)."),
    address: Optional[str] = typer.Option(None, help="--engine ray: the cluster to join: auto (the one `ray start` set up on this machine), HOST:PORT, or ray://HOST:PORT (Ray Client); default: a Ray instance started for this run on this machine."),
    model_workers: int = typer.Option(0, "--model-workers", min=0, help="--engine ray: run the model in this many actors of its own, fed by --workers actors that read and OCR files (scans: OCR is the slow stage); 0: each worker runs whole files."),
) -> None:
    """Extract entity JSON from a document, or from every document in a folder.

    One file: the JSON goes to stdout (or --out). A folder: one JSON per file under --out, a manifest
    with one record per input, and a summary; one bad file never stops the batch. `-`: paths from stdin, one
    JSON line each on stdout as soon as it is done; a file that fails gives a line with its error instead
    (and the one-line message on stderr), and the stream goes on; exit 4 at the end if any failed.
    """
    with user_errors():
        from docextract.pipeline import RunOptions

        if fields_only and output_format in (OutputFormat.csv, OutputFormat.labelstudio):
            raise UsageError(f"--fields-only is a view of the JSON output (--format json or jsonl); --format "
                             f"{output_format.value} has its own shape")
        if fields_only and (include_tokens or timings):
            raise UsageError("--fields-only leaves out the words and timings that --include-tokens and --timings add")
        options = RunOptions(model=None if model.lower() == "none" else model, ocr=ocr.value, lang=lang, dpi=dpi,
                             password=password, include_tokens=include_tokens, include_timings=timings,
                             precision=precision, ignore_embedded=ignore_embedded, split=split,
                             pdf_text=pdf_text.value, device=device.value, fields_only=fields_only)
        if device is not Device.cpu and options.model is not None:
            from docextract.modeling.devices import resolve_device

            where = resolve_device(device.value)  # a GPU that is not there fails before the file is read
            if path.is_dir() and where.type != "cpu":
                raise UsageError(f"--device {device.value} ({where.type}) reads one file at a time: a folder's workers "
                                 "run under an address-space cap (--max-memory) that a GPU context cannot start in; "
                                 "run the folder with --device cpu", path=str(path))
            options = replace(options, device=where.type)
        else:  # no model: nothing runs on a device
            options = replace(options, device="cpu")
        if str(path) == "-":
            _run_stream(out, options, output_format)
        elif path.is_dir():  # the batch engine stops cleanly on Ctrl-C and says what is kept (--resume)
            _run_folder(path, out, options, output_format, workers=workers, glob=glob, resume=resume,
                        overwrite=overwrite, timeout=timeout, max_memory=max_memory, follow_symlinks=follow_symlinks,
                        engine=engine.value, address=address, model_workers=model_workers)
        elif path.exists() and (engine is not Engine.local or address is not None or model_workers):
            raise UsageError("--engine ray, --address and --model-workers take a folder", path=str(path))
        else:
            try:
                _run_file(path, out, options, output_format, overwrite=overwrite)
            except KeyboardInterrupt:
                kept = ("nothing was printed" if out is None else f"{out} was not written" +
                        (" (its previous content is kept)" if out.exists() else ""))
                raise interrupted(f"{path} was not finished: {kept}; run the command again") from None


def _run_file(path: Path, out: Optional[Path], options, output_format: OutputFormat, *, overwrite: bool) -> None:
    from docextract.extractor import Extractor

    if not path.exists():
        raise InputError("no such file", path=str(path), code="INPUT_NOT_FOUND")
    if output_format is OutputFormat.labelstudio:
        _write_labelstudio(path, out, options, overwrite)
        return
    result = Extractor(**options.to_dict()).extract(path).to_dict()
    for warning in result["warnings"]:  # also in the output; said here so that a person reading stdout sees them
        stderr.print(Text.assemble(("docextract: warning: ", "yellow"), f"{path}: {warning}"), highlight=False,
                     soft_wrap=True)
    if output_format is OutputFormat.csv:
        from docextract.extraction.tabular import DOCUMENT_KEYS, LINE_ITEM_KEYS, document_rows, line_item_rows, to_csv

        texts = {"": to_csv(document_rows([result]), DOCUMENT_KEYS),
                 ".line_items": to_csv(line_item_rows([result]), LINE_ITEM_KEYS)}
        if out is None:
            typer.echo(texts[""], nl=False)
            items = sum(len(document["line_items"]) for document in result["documents"])
            if items:  # one table on stdout; the second would make it unreadable as CSV
                stderr.print(f"docextract: note: stdout has the documents table only; the {items} line items go to "
                             "FILE.line_items.csv with --out FILE.csv", highlight=False)
            return
        for suffix, text in texts.items():
            target = out if not suffix else out.with_name(out.stem + suffix + (out.suffix or ".csv"))
            _write(target, text.encode(), overwrite)
        return
    text = json.dumps(result, ensure_ascii=False, indent=None if output_format is OutputFormat.jsonl else 2)
    if out is None:
        typer.echo(text)
    else:
        _write(out, (text + "\n").encode(), overwrite)


def _run_stream(out: Optional[Path], options, output_format: OutputFormat) -> None:
    """Paths from stdin, one JSON line per path on stdout, flushed as each is done; the model stays loaded
    (:meth:`Extractor.extract_many`: a file that fails gives its error line and the stream goes on)."""
    import sys

    from docextract.errors import EXIT_INPUT_FAILED
    from docextract.extractor import Extractor

    if out is not None or output_format in (OutputFormat.csv, OutputFormat.labelstudio):
        raise UsageError("`run -` prints one JSON line per document on stdout: --out and --format csv or labelstudio "
                         "do not apply")
    failed = printed = 0
    reading: list[str] = []  # the path being extracted, named if Ctrl-C stops it

    def paths():
        for line in sys.stdin:
            source = line.rstrip("\r\n")
            if source.strip():
                reading[:] = [source]
                yield source

    try:
        for result in Extractor(**options.to_dict()).extract_many(paths()):
            if not result.ok:
                failed += 1
                fail(result.error)  # the one line on stderr
            sys.stdout.write(result.to_json(indent=None) + "\n")
            sys.stdout.flush()
            printed += 1
            reading.clear()
    except KeyboardInterrupt:
        stopped = (f"{reading[0]} was not finished and the paths after it were not read" if reading
                   else "the paths after them were not read")
        raise interrupted(f"{printed} documents were printed, one line each; {stopped}") from None
    if failed:
        raise typer.Exit(EXIT_INPUT_FAILED)


def _write_labelstudio(path: Path, out: Optional[Path], options, overwrite: bool) -> None:
    """Label Studio tasks with predictions: the page images (PNG data URIs) and the words `run` read."""
    from dataclasses import replace

    from docextract.extraction.labelstudio import prediction_tasks
    from docextract.extractor import Extractor
    from docextract.readers.page_images import page_data_uris

    if options.model is None:
        raise UsageError("--format labelstudio writes the model's predictions: give a model, not --model none", path=str(path))
    images = page_data_uris(path, password=options.password)  # refuses a words JSON before the model runs
    result = Extractor(**replace(options, include_tokens=True).to_dict()).extract(path).to_dict()
    text = json.dumps(prediction_tasks(result, images), ensure_ascii=False)
    if out is None:
        typer.echo(text)
    else:
        _write(out, (text + "\n").encode(), overwrite)


def _write(target: Path, data: bytes, overwrite: bool) -> None:
    from docextract.errors import OutputError
    from docextract.files import write_bytes_atomic

    if target.is_dir():
        raise OutputError("is a folder: --out names the file to write for one input (a folder of inputs writes "
                          "into an --out folder)", path=str(target))
    if target.exists() and not overwrite:
        raise OutputError("the output file exists (pass --overwrite to replace it)", path=str(target))
    write_bytes_atomic(target, data)
    stderr.print(f"wrote {target}", highlight=False)


def _run_folder(path: Path, out: Optional[Path], options, output_format: OutputFormat, **batch) -> None:
    from docextract.batch.engine import run_batch  # it prints the summary on stderr itself

    if output_format is OutputFormat.labelstudio:
        raise UsageError("--format labelstudio takes one file at a time (a folder: run each file)", path=str(path))
    if out is None:
        raise UsageError("a folder needs --out DIR for its outputs and manifest", path=str(path))
    summary = run_batch(
        path, out, options=options.to_dict(), workers=batch["workers"], glob=batch["glob"],
        timeout_s=batch["timeout"], max_memory_mb=batch["max_memory"], resume=batch["resume"],
        overwrite=batch["overwrite"], follow_symlinks=batch["follow_symlinks"], console=stderr,
        engine=batch["engine"], address=batch["address"], model_workers=batch["model_workers"],
    )
    if output_format in (OutputFormat.csv, OutputFormat.jsonl):
        _write_folder_tables(Path(out), output_format, batch["overwrite"] or batch["resume"])

    if summary.exit_code:
        raise typer.Exit(summary.exit_code)


def _write_folder_tables(out: Path, output_format: OutputFormat, overwrite: bool) -> None:
    """Over every successful output of the batch, in the manifest's order: documents.csv and line_items.csv
    (csv), or documents.jsonl, one file's output a line (jsonl). The per-file JSON stays: it is what --resume
    checks."""
    from docextract.batch.manifest import MANIFEST_NAME, read_manifest

    outputs = []
    for record in read_manifest(str(out / MANIFEST_NAME)).values():
        if record.get("status") == "ok" and record.get("output"):
            outputs.append(json.loads((out / record["output"]).read_text(encoding="utf-8")))
    if output_format is OutputFormat.jsonl:
        lines = "".join(json.dumps(output, ensure_ascii=False) + "\n" for output in outputs)
        _write(out / "documents.jsonl", lines.encode(), overwrite)
        return
    from docextract.extraction.tabular import DOCUMENT_KEYS, LINE_ITEM_KEYS, document_rows, line_item_rows, to_csv

    _write(out / "documents.csv", to_csv(document_rows(outputs), DOCUMENT_KEYS).encode(), overwrite)
    _write(out / "line_items.csv", to_csv(line_item_rows(outputs), LINE_ITEM_KEYS).encode(), overwrite)
