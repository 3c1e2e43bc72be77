"""`docextract convert` and `docextract validate`: public data sets to labelled JSONL, and checking it."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import List, Optional

import typer
from rich.table import Table

from docextract.commands.common import documents_progress, interrupted, stderr, user_errors
from docextract.errors import InputError, UsageError


class DataSet(str, Enum):
    funsd = "funsd"
    sroie = "sroie"
    kleister = "kleister"
    einvoice = "einvoice"
    labelstudio = "labelstudio"


class Split(str, Enum):
    train = "train"
    test = "test"


def convert(
    dataset: DataSet = typer.Argument(..., help="Which data set SRC holds."),
    src: Path = typer.Argument(..., help="The data set's folder (its root, or one split folder); for einvoice a PDF or a folder searched recursively for PDFs."),
    out: Path = typer.Argument(..., help="The labelled JSONL file to write (replaced atomically)."),
    files_root: Optional[Path] = typer.Option(None, "--files-root", help="labelstudio: where the tasks' images are (Label Studio's LOCAL_FILES_DOCUMENT_ROOT for /data/local-files/ paths, its data folder for /data/upload/ ones); default: the export's folder. Tasks made by `run --format labelstudio` carry their words and need no images."),
    split: Split = typer.Option(Split.train, "--split", help="Which split to convert (Kleister-NDA has only train; e-invoices have none: split them with `docextract split`, which keeps each invoice's renderings together)."),
) -> None:
    """Convert FUNSD, SROIE, Kleister-NDA, e-invoices (PDFs with embedded ZUGFeRD/Factur-X/XRechnung XML) or a
    Label Studio JSON export (rectangles with labels and text on page images) into docextract's labelled JSONL
    (docs/labelled-format.md)."""
    with user_errors():
        from docextract.data.labelled import write_jsonl

        if not src.exists():
            raise InputError("no such folder", path=str(src), code="INPUT_NOT_FOUND")
        if dataset is DataSet.einvoice and split is not Split.train:
            raise UsageError("e-invoices have no splits: convert them all, then `docextract split`", path=str(src))
        if dataset is DataSet.kleister and split is not Split.train:
            raise UsageError("Kleister-NDA has expected values for its train split only", path=str(src))
        done = [0, None]  # documents converted, of how many: what an interruption reports
        try:
            with documents_progress(f"convert {dataset.value}") as advance:
                def on_document(count: int, total: int) -> None:
                    done[:] = [count, total]
                    advance(count, total)

                docs, report = _convert(dataset, src, split, files_root, on_document)
        except KeyboardInterrupt:  # said once the bar has stopped
            kept = ", its previous content is kept" if out.exists() else ""
            raise interrupted(f"after {done[0]} of {done[1] or '?'} documents: {out} was not written (it is written "
                              f"whole at the end{kept}); run the command again") from None
        write_jsonl(docs, out)
        stderr.print(_summary(report, out), highlight=False)


def _convert(dataset: DataSet, src: Path, split: Split, files_root: Optional[Path], on_document):
    """The converter of ``dataset``: its labelled documents and report."""
    if dataset is DataSet.labelstudio:
        from docextract.data.labelstudio import convert_labelstudio
        docs, report = convert_labelstudio(src, files_root, on_document=on_document)
        if not docs:
            raise InputError("no annotated task in the export", path=str(src))
        return docs, report
    if dataset is DataSet.einvoice:
        from docextract.data.einvoice import convert_einvoices
        docs, report = convert_einvoices(src, on_document=on_document)
        if not docs:
            raise InputError("no PDF with an embedded invoice (ZUGFeRD, Factur-X, XRechnung) found", path=str(src))
        return docs, report
    if dataset is DataSet.funsd:
        from docextract.data.funsd import convert_funsd
        return convert_funsd(src, split.value, on_document=on_document)
    if dataset is DataSet.sroie:
        from docextract.data.sroie import convert_sroie
        return convert_sroie(src, split.value, on_document=on_document)
    from docextract.data.kleister import convert_kleister
    return convert_kleister(src, on_document=on_document)


def _summary(report, out: Path) -> Table:
    table = Table(title=f"{report.dataset} {report.split} -> {out}", show_header=True)
    table.add_column("")
    table.add_column("count", justify="right")
    table.add_row("documents", str(report.documents))
    table.add_row("words", str(report.words))
    for label, count in report.entities_per_label.items():
        table.add_row(f"entities: {label}", str(count))
    if report.dataset == "einvoice":  # per field: located on the page, of the values the XMLs state, and why not
        for key, expected in report.expected.items():
            reasons = ", ".join(f"{reason.split(': ', 1)[1]} {n}" for reason, n in report.unmatched_reasons.items()
                                if reason.startswith(f"{key}: "))
            table.add_row(f"located {key}", f"{expected - report.unmatched.get(key, 0)} of {expected}"
                          + (f" (not: {reasons})" if reasons else ""))
    else:
        for key, count in report.unmatched.items():
            table.add_row(f"unmatched {key}", f"{count} of {report.expected.get(key, 0)}")
    for note, count in report.notes.items():
        table.add_row(f"note: {note}", str(count))
    return table


def validate(
    files: List[Path] = typer.Argument(..., help="Labelled JSONL files used for training."),
    held_out: Optional[List[Path]] = typer.Option(None, "--held-out", help="Test/eval JSONL files (checked for leakage)."),
) -> None:
    """Check labelled JSONL files before training: every defect with its file, line, record id and field."""
    with user_errors():
        from docextract.data.validate import ERROR, validate_files

        issues = validate_files(files, held_out or [])
        for issue in issues:
            stderr.print(str(issue), highlight=False, markup=False, soft_wrap=True)
        error_count = sum(issue.severity == ERROR for issue in issues)
        stderr.print(f"{error_count} errors, {len(issues) - error_count} warnings", highlight=False)
        if error_count:
            raise InputError(f"{error_count} defects in the labelled data (listed above)", path=str(files[0]))


def split(
    src: Path = typer.Argument(..., help="Labelled JSONL to split."),
    train_out: Path = typer.Argument(..., help="Where the training part goes."),
    val_out: Path = typer.Argument(..., help="Where the validation part goes (with --train: all the rest)."),
    every: Optional[int] = typer.Option(None, min=2, help="Every N-th document (by sorted id), or every N-th group of documents when records carry 'group', goes to validation (default 10)."),
    train: Optional[float] = typer.Option(
        None, "--train", min=0.0,
        help="A small training side instead: N documents (e.g. 5), or a share of them (e.g. 0.5), whole invoices only "
             "(a group, or the same true invoice number, as calibrate folds); the rest to VAL_OUT, for measuring and "
             "calibrating a model finetuned on the few."),
    seed: Optional[int] = typer.Option(None, "--seed", help="With --train: shuffle the invoices with this seed before "
                                                             "taking them (default: in order of name)."),
) -> None:
    """Split a labelled file into train and validation by a fixed rule: documents sorted by id, every N-th
    to validation; records with a 'group' (one invoice in several renderings) move as whole groups, every
    N-th group (by name) to validation. Deterministic, so the split is the same on every machine and never
    touches a test set. With --train N, the training side is N documents (whole invoices) and the rest validates:
    the few documents to finetune on, and the supplier's other invoices to measure and calibrate on."""
    with user_errors():
        from docextract.data.labelled import read_jsonl, write_jsonl
        from docextract.data.splitting import invoice_keys, split_every, split_train

        if train is not None and every is not None:
            raise UsageError("give --every or --train, not both")
        if train is not None and train >= 1 and train != int(train):
            raise UsageError(f"--train {train:g}: a number of documents (a whole number) or a share below 1")
        if seed is not None and train is None:
            raise UsageError("--seed shuffles the invoices --train takes: give --train")
        if not src.is_file():
            raise InputError("no such labelled JSONL file", path=str(src), code="INPUT_NOT_FOUND")
        docs = list(read_jsonl(src))
        if train is not None:
            if train == 0:
                raise UsageError("--train 0 leaves nothing to train on")
            first, rest = split_train(docs, train, seed)
        else:
            first, rest = split_every(docs, every or 10)
        write_jsonl(first, train_out)
        write_jsonl(rest, val_out)
        if train is not None:
            invoices = len(set(invoice_keys(first)))
            wanted = max(1, round(train * len(docs))) if train < 1 else int(train)
            short = f" (asked for {wanted}: invoices are kept whole)" if len(first) != wanted else ""
            stderr.print(f"{len(first)} documents of {invoices} invoices -> {train_out}{short}, "
                         f"{len(rest)} -> {val_out}", highlight=False)
            return
        groups = {d.group for d in first + rest if d.group is not None}
        note = f" ({len(groups)} groups kept whole)" if groups else ""
        stderr.print(f"{len(first)} documents -> {train_out}, {len(rest)} -> {val_out}{note}", highlight=False)


def labelstudio_config(
    labels: Optional[List[str]] = typer.Argument(None, help="The labels to offer (default: the model's entity labels)."),
    model: str = typer.Option("invoice", "--model", "-m", help="A shipped model name or a model folder whose labels to offer."),
) -> None:
    """Print the Label Studio labelling config (XML) for reviewing `run --format labelstudio` predictions and labelling
    new documents: rectangles with a label and their text on page images. Paste it into a project's Settings >
    Labeling Interface > Code, or pass it to the SDK's create_project(label_config=...)."""
    with user_errors():
        from docextract.extraction.labelstudio import labelling_config

        typer.echo(labelling_config(labels or model_labels(model)), nl=False)


def model_labels(name_or_path: str) -> list[str]:
    """A model's entity labels (B-/I-/E-/S- prefixes removed) from its config.json, without loading its weights."""
    import json

    from docextract.errors import ModelRefusedError
    from docextract.modeling.store import resolve_model

    config = resolve_model(name_or_path) / "config.json"
    try:
        id2label = json.loads(config.read_text(encoding="utf-8"))["id2label"]
    except (OSError, ValueError, KeyError) as error:
        raise ModelRefusedError(f"cannot read the model's labels: {error}", path=str(config)) from None
    return sorted({tag.split("-", 1)[1] for tag in id2label.values() if "-" in tag})
