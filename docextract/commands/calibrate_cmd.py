"""`docextract calibrate MODEL DATA.jsonl`: fit a model's softmax temperature on held-out labelled documents."""

from __future__ import annotations

import json
from pathlib import Path
from typing import List, Optional

import typer
from rich.table import Table

from docextract.commands.common import stderr, user_errors
from docextract.errors import InputError


def calibrate(
    model: str = typer.Argument(..., help="A model folder (e.g. OUTPUT/model from finetune) or a shipped model name."),
    data: List[Path] = typer.Argument(..., help="Labelled JSONL file(s) the model did NOT train on (docs/labelled-format.md)."),
    out: Optional[Path] = typer.Option(None, "--out", help="Write the calibrated model to this new folder (a copy); "
                                                           "without it MODEL's config.json is updated in place."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Fit and report only; write nothing."),
    limit: Optional[int] = typer.Option(None, min=1, help="Only the first N documents of each file."),
    fields: bool = typer.Option(False, "--fields", help="Fit the field calibration instead of the temperature: a map "
                                                        "from a field's raw confidence to the probability that its value "
                                                        "is right (needs DATA with `fields`)."),
    method: str = typer.Option("platt", "--method", help="Field calibration map (with --fields): platt "
                                                         "(sigmoid(a*logit(c)+b)) or isotonic (pool-adjacent-violators)."),
) -> None:
    """Fit one temperature T (logits / T before the softmax) so that confidences match accuracy.

    T minimises the negative log-likelihood of the gold word tags of DATA. It never changes a predicted
    tag, only the confidences. NLL and expected calibration error (10 bins) are reported before and
    after, per word and per extracted field (documents with `fields`); JSON on stdout. T is written to the
    model's config.json as `docextract_temperature`, which `run`, `evaluate` and batch workers apply
    (a new T removes a field calibration fitted at the old one).

    With --fields, the field calibration is fitted instead (T stays as it is): on the most confident
    entity of every expected field of DATA the model extracts, at the model's temperature, against whether
    its normalised value is right. It is written as `docextract_field_calibration`; `run` then reports
    every field's, line item's and value's confidence through it (and each field's raw_confidence).
    To calibrate both, run without --fields first, then with it.
    """
    with user_errors():
        from docextract.errors import UsageError
        from docextract.extraction.confidence import METHODS
        from docextract.modeling.store import resolve_model
        from docextract.pipeline import load_model
        from docextract.training.calibration import calibrate as fit
        from docextract.training.calibration import calibrate_fields, write_field_calibration, write_temperature
        from docextract.training.finetune import load_documents

        if method not in METHODS:
            raise UsageError(f"--method must be one of {', '.join(METHODS)}")
        for path in data:
            if not path.is_file():
                raise InputError("no such labelled JSONL file", path=str(path), code="INPUT_NOT_FOUND")
        folder = resolve_model(model)
        net, tokenizer = load_model(str(folder))
        documents = load_documents(data, limit)
        if not documents:
            raise InputError("no documents to calibrate on", path=str(data[0]), code="INPUT_EMPTY")
        if fields:
            with stderr.status(f"computing logits of {len(documents)} documents"):
                calibration, field_report = calibrate_fields(net, tokenizer, documents, method)
            stderr.print(field_report_table(field_report))
            result = {"model": model, "data": [str(p) for p in data], **field_report.to_dict(), "written": None}
            if not dry_run:
                written = write_field_calibration(folder, calibration, out)
                result["written"] = str(written / "config.json")
                stderr.print(f"docextract_field_calibration {calibration.to_config()} written to {written / 'config.json'}")
            typer.echo(json.dumps(result, indent=2))
            return
        with stderr.status(f"computing logits of {len(documents)} documents"):
            report = fit(net, tokenizer, documents)
        stderr.print(report_table(report))
        result = {"model": model, "data": [str(p) for p in data], **report.to_dict(), "written": None}
        if not dry_run:
            written = write_temperature(folder, report.temperature, out)
            result["written"] = str(written / "config.json")
            stderr.print(f"docextract_temperature {report.temperature:.4f} written to {written / 'config.json'}")
        typer.echo(json.dumps(result, indent=2))


def report_table(report) -> Table:
    return _before_after_table(
        f"temperature {report.temperature:.4f} (was {report.previous_temperature:g}); "
        f"{report.documents} documents, {report.words} words, {report.fields} fields",
        [("word NLL (nats)", report.nll_before, report.nll_after), ("word ECE", report.ece_before, report.ece_after),
         ("field ECE", report.field_ece_before, report.field_ece_after)])


def field_report_table(report) -> Table:
    return _before_after_table(
        f"field calibration {report.calibration['method']} at temperature {report.temperature:g}; "
        f"{report.documents} documents, {report.fields} fields ({report.fields_correct} right)",
        [("field NLL (nats)", report.nll_before, report.nll_after), ("field ECE", report.ece_before, report.ece_after)])


def _before_after_table(title: str, rows) -> Table:
    """One row per (measure, before, after); a measure the data cannot give (None) shows as n/a."""
    table = Table(title=title)
    for column in ("measure", "before", "after"):
        table.add_column(column, justify="left" if column == "measure" else "right")
    for measure, before, after in rows:
        table.add_row(measure, *("n/a" if value is None else f"{value:.4f}" for value in (before, after)))
    return table
