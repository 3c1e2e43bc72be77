"""`docextract calibrate MODEL DATA.jsonl`: fit a model's softmax temperature, or (--fields) its field confidence and
review policy, on held-out labelled documents."""

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
    fields: bool = typer.Option(False, "--fields", help="Fit the field confidence and the review policy instead of the "
                                                        "temperature: the probability that a field's value is right, and "
                                                        "per field the threshold that reaches --precision (needs DATA with "
                                                        "`fields`)."),
    method: str = typer.Option("evidence", "--method", help="Field confidence (with --fields): evidence (logistic "
                                                            "regression on the raw confidence and the document's evidence), "
                                                            "platt (sigmoid(a*logit(c)+b)) or isotonic."),
    precision: float = typer.Option(0.99, "--precision", min=0.5, max=1.0,
                                    help="With --fields: the share of accepted fields that must be right, the review "
                                         "policy's default point (`run --precision` picks others on the same curves)."),
    folds: int = typer.Option(5, "--folds", min=2, help="With --fields: cross-fitting folds, split by invoice."),
    label_map: Optional[str] = typer.Option(
        None, "--label-map", help="With --fields: DATA=MODEL label pairs when the data names fields differently "
                                  "(as evaluate --label-map)."),
) -> None:
    """Fit one temperature T (logits / T before the softmax) so that confidences match accuracy.

    T minimises the negative log-likelihood of the gold word tags of DATA. It never changes a predicted
    tag, only the confidences. NLL and expected calibration error (10 bins) are reported before and
    after, per word and per extracted field (documents with `fields`); JSON on stdout. T is written to the
    model's config.json as `docextract_temperature`, which `run`, `evaluate` and batch workers apply
    (a new T removes a field calibration fitted at the old one).

    With --fields, the field confidence and the review policy are fitted instead (T stays as it is): every
    true field of DATA goes through `run`'s own output at the model's temperature and is judged right or
    wrong (evaluate's field rule). The confidence model (default: evidence) is fitted on every field output and
    written as `docextract_field_calibration`; the review policy, per field the staircase of its risk-coverage
    curve from confidences cross-fitted over --folds (documents split by invoice: the same true invoice number
    stays in one fold), as `docextract_review_policy`. `run` then prints each field's confidence and status
    (accepted where its field's threshold reached --precision). DATA should be real documents the model did
    not train on. To calibrate both, run without --fields first, then with it.
    """
    with user_errors():
        from docextract.errors import UsageError
        from docextract.extraction.confidence import METHODS
        from docextract.modeling.store import resolve_model
        from docextract.modeling.loader import load_model
        from docextract.evaluation.calibration import calibrate as fit
        from docextract.evaluation.calibration import calibrate_fields, write_field_calibration, write_temperature
        from docextract.evaluation.evaluate import parse_label_map
        from docextract.data.labelled import load_documents

        if method not in METHODS:
            raise UsageError(f"--method must be one of {', '.join(METHODS)}")
        mapping = parse_label_map(label_map) if label_map is not None else None
        for path in data:
            if not path.is_file():
                raise InputError("no such labelled JSONL file", path=str(path), code="INPUT_NOT_FOUND")
        folder = resolve_model(model)
        net, tokenizer = load_model(str(folder))
        if mapping is not None:
            model_labels = {t.split("-", 1)[1] for t in net.config.id2label.values() if "-" in t}
            unknown = sorted(set(mapping) - model_labels)
            if unknown:
                raise UsageError(f"--label-map names labels the model does not have: {', '.join(unknown)}")
        documents = load_documents(data, limit)
        if not documents:
            raise InputError("no documents to calibrate on", path=str(data[0]), code="INPUT_EMPTY")
        if fields:
            with stderr.status(f"computing logits of {len(documents)} documents"):
                calibration, policy, field_report = calibrate_fields(net, tokenizer, documents, method, precision,
                                                                     mapping, folds)
            stderr.print(field_report_table(field_report))
            stderr.print(threshold_table(field_report))
            result = {"model": model, "data": [str(p) for p in data], **field_report, "written": None}
            if not dry_run:
                written = write_field_calibration(folder, calibration, out, policy)
                result["written"] = str(written / "config.json")
                stderr.print(f"docextract_field_calibration ({method}) and docextract_review_policy (precision "
                             f"{precision:g}) written to {written / 'config.json'}")
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


def field_report_table(report: dict) -> Table:
    before, after = report["before"], report["after"]
    rows = [("field AUROC", before["auroc"], after["auroc"]), ("field ECE", before["ece"], after["ece"]),
            ("field NLL (nats)", before["nll"], after["nll"])]
    rows += [(f"straight-through at {p}", before["straight_through"][p]["coverage"],
              after["straight_through"][p]["coverage"]) for p in before["straight_through"]]
    return _before_after_table(
        f"field confidence {report['method']} at temperature {report['temperature']:g}; {report['documents']} documents "
        f"({report['invoices']} invoices), {report['fields']} true fields, {report['extracted']} output, "
        f"{report['fields_correct']} right; after = cross-fitted over {report['folds']} folds", rows)


def threshold_table(report: dict) -> Table:
    """Per field: documents with it, and the threshold that reached each precision (cross-fitted)."""
    policy = report["review_policy"]
    targets = list(report["thresholds_at"])
    table = Table(title=f"review thresholds (a field measured on fewer than {policy['min_support']} documents uses "
                        f"all fields' curve)")
    for column in ("field", "documents", *(f"threshold at {p}" for p in targets)):
        table.add_column(column, justify="left" if column == "field" else "right")
    for label, curve in policy["fields"].items():
        cells = [report["thresholds_at"][p][label] for p in targets]
        table.add_row(label, str(curve["support"]), *("none" if t is None else f"{t:.4f}" for t in cells))
    return table


def _before_after_table(title: str, rows) -> Table:
    """One row per (measure, before, after); a measure the data cannot give (None) shows as n/a."""
    table = Table(title=title)
    for column in ("measure", "before", "after"):
        table.add_column(column, justify="left" if column == "measure" else "right")
    for measure, before, after in rows:
        table.add_row(measure, *("n/a" if value is None else f"{value:.4f}" for value in (before, after)))
    return table
