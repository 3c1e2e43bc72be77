"""`docextract evaluate`: a model's scores on labelled JSONL (entities, fields, confidence), as tables or JSON."""

from __future__ import annotations

import json
import os
from enum import Enum
from pathlib import Path
from typing import List, Optional

import typer
from rich.markup import escape
from rich.table import Table

from docextract.commands.common import Device, stderr, user_errors
from docextract.commands.train_common import progress_bar
from docextract.errors import InputError, UsageError


class Robustness(str, Enum):
    none = "none"
    global_shuffle = "global-shuffle"
    neighbour_swap = "neighbour-swap"
    drop_1d = "drop-1d"
    all = "all"


def evaluate(
    model: str = typer.Argument(..., help="A model folder (e.g. OUTPUT/model from finetune) or a shipped model name."),
    data: List[Path] = typer.Argument(..., help="Labelled JSONL file(s) to measure on."),
    robustness: Robustness = typer.Option(Robustness.none, help="Perturb the test documents: shuffle block order, swap neighbours, drop 1D positions, or all of them in turn."),
    report: Optional[Path] = typer.Option(None, "--report", help="Write the full report (per label, per key) as JSON here."),
    limit: Optional[int] = typer.Option(None, min=1, help="Only the first N documents of each file."),
    seed: int = typer.Option(0, help="Seed of the robustness shuffles."),
    label_map: Optional[str] = typer.Option(
        None, "--label-map",
        help="Score a model whose labels differ from the data's: DATA=MODEL pairs, e.g. "
             "company=vendor_name,date=invoice_date,address=vendor_address,total=total. "
             "Predicted labels not named count as O."),
    threads: Optional[int] = typer.Option(None, min=1, help="torch CPU threads (default: all cores; 1 beside a running training)."),
    device: Device = typer.Option(Device.auto, "--device", help="Where the model runs: auto (a CUDA GPU, else Apple MPS, "
                                  "else the CPU), cpu, cuda or mps (fp32 everywhere). A GPU named but not there: exit 3."),
    plot: Optional[Path] = typer.Option(
        None, "--plot", help="Write a PNG of the field confidence: reliability diagram, risk-coverage curve and "
                             "straight-through per field (data with `fields`; needs pip install 'docextract\\[plots]')."),
    precision: Optional[float] = typer.Option(
        None, "--precision", min=0.5, max=1.0,
        help="Judge the review statuses at this point of the model's policy (as run --precision; default: its own)."),
) -> None:
    """Measure a model: seqeval entity P/R/F1 (micro and per label), and field F1 and accuracy on key-value data.

    On data with `fields`, also how far the field confidence can be trusted (report["confidence"]): per field and
    overall the risk-coverage curve, the straight-through rate at 99% and 95% precision (the share of true fields
    a user could accept unread), ECE and AUROC, and what the model's review policy accepted.
    """
    with user_errors():
        if threads:
            import torch

            torch.set_num_threads(threads)
            os.environ["OMP_NUM_THREADS"] = str(threads)  # a model run by ONNX Runtime sizes its pool from it
        from docextract.modeling.loader import load_model
        from docextract.evaluation.evaluate import ROBUSTNESS_MODES, evaluate_model, parse_label_map, settings_for_model
        from docextract.data.labelled import load_documents

        mapping = parse_label_map(label_map) if label_map is not None else None
        for path in data:
            if not path.is_file():
                raise InputError("no such labelled JSONL file", path=str(path), code="INPUT_NOT_FOUND")
        if plot is not None:
            from docextract.evaluation.plots import require_matplotlib

            require_matplotlib(plot)
        net, tokenizer = load_model(model, device.value)  # on the GPU that --device names, refused if absent
        documents = load_documents(data, limit)
        if plot is not None and not any(document.fields for document in documents):
            raise UsageError("--plot draws the field confidence, which needs documents with `fields` (true field "
                             "values); this data has none", path=str(data[0]))
        modes = list(ROBUSTNESS_MODES) if robustness is Robustness.all else [robustness.value]
        reports = {}
        with progress_bar() as progress:
            for mode in modes:
                task = progress.add_task(f"evaluate ({mode})", total=len(documents), info="")
                settings = settings_for_model(net, robustness=mode, seed=seed, label_map=mapping, precision=precision)
                reports[mode] = evaluate_model(net, tokenizer, documents, settings,
                                               on_document=lambda n, t=task: progress.update(t, completed=n))
        stderr.print(_report_table(reports))
        if any("confidence" in r for r in reports.values()):
            stderr.print(_confidence_table(reports))
        result = {"model": model, "data": [str(p) for p in data], "metric": "seqeval entity-level", "reports": reports}
        if plot is not None:
            mode, first = next(iter(reports.items()))
            from docextract.evaluation.plots import plot_confidence

            names = ", ".join(p.name for p in data)
            plot_confidence(first["confidence"], plot, f"{model} on {names} ({first['confidence']['documents']} "
                                                       f"documents{'' if mode == 'none' else ', ' + mode})")
            stderr.print(f"plot written to {plot}")
        if report:
            from docextract.files import write_json_atomic

            write_json_atomic(report, result)
            stderr.print(f"report written to {report}")
        else:
            typer.echo(json.dumps(result, indent=2))


def _report_table(reports: dict) -> Table:
    table = Table(title="entity-level (seqeval), field and Kleister value scores; field precision/recall/F1: the "
                        "model's most confident entity per label; field accuracy: the field as `run` prints it")
    numeric = ("precision", "recall", "F1", "accuracy", "support")
    for column in ("mode", "label", *numeric):
        table.add_column(column, justify="right" if column in numeric else "left")
    for mode, r in reports.items():
        table.add_row(mode, "[b]micro[/b]", f"{r['precision']:.4f}", f"{r['recall']:.4f}", f"[b]{r['f1']:.4f}[/b]", "", "")
        for label, v in r["per_label"].items():
            table.add_row("", label, f"{v['precision']:.4f}", f"{v['recall']:.4f}", f"{v['f1']:.4f}", "", str(v["support"]))
        if "fields" in r:
            m = r["fields"]["micro"]
            table.add_row("", "[b]fields micro[/b]", f"{m['precision']:.4f}", f"{m['recall']:.4f}", f"[b]{m['f1']:.4f}[/b]",
                          f"[b]{m['accuracy']:.4f}[/b]", "")
            for key, v in r["fields"]["per_key"].items():
                table.add_row("", f"field {key}", f"{v['precision']:.4f}", f"{v['recall']:.4f}", f"{v['f1']:.4f}",
                              f"{v['accuracy']:.4f}", str(v["support"]))
        if "kleister" in r:  # document-level (key, value) pairs, Kleister's F1 (UC)
            m = r["kleister"]["micro"]
            table.add_row("", "[b]kleister micro[/b]", f"{m['precision']:.4f}", f"{m['recall']:.4f}",
                          f"[b]{m['f1']:.4f}[/b]", "", str(m["support"]))
            for key, v in r["kleister"]["per_key"].items():
                table.add_row("", f"kleister {key}", f"{v['precision']:.4f}", f"{v['recall']:.4f}", f"{v['f1']:.4f}",
                              "", str(v["support"]))
    return table


def _confidence_table(reports: dict) -> Table:
    """Per mode, overall and per field: how far the confidence ranks and calibrates, and what could go unread."""
    table = Table(title="field confidence (true fields as `run` prints them; their accuracy is the table above's): "
                        "straight-through = share accepted at that precision")
    columns = ("mode", "field", "fields", "AUROC", "ECE", "straight 99%", "straight 95%",
               "own thresholds 99%", "policy accepted", "policy right")
    for column in columns:
        table.add_column(column, justify="left" if column in ("mode", "field") else "right")

    def cells(s: dict) -> list[str]:
        def fmt(v, pattern="{:.4f}"):
            return "n/a" if v is None else pattern.format(v)

        policy = s.get("policy") or {}
        own = s.get("straight_through_per_field", s["straight_through"])  # a single field: its own threshold
        return [str(s["fields"]), fmt(s["auroc"]), fmt(s["ece"]),
                fmt(s["straight_through"]["0.99"]["coverage"]), fmt(s["straight_through"]["0.95"]["coverage"]),
                fmt(own["0.99"]["coverage"]), fmt(policy.get("coverage")), fmt(policy.get("precision"))]

    for mode, r in reports.items():
        if "confidence" not in r:
            continue
        c = r["confidence"]
        table.add_row(mode, "[b]all fields[/b]", *cells(c["overall"]))
        for key, s in c["per_field"].items():
            table.add_row("", key, *cells(s))
        for producer, s in (c.get("per_producer") or {}).items():
            table.add_row("", f"producer {escape(producer)}", *cells(s))
    return table
