"""`docextract finetune | pretrain | evaluate`: training and measuring models from the shell."""

from __future__ import annotations

import json
from enum import Enum
from pathlib import Path
from typing import List, Optional

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from docextract.commands.common import Device, fail, interrupted, stderr, user_errors
from docextract.errors import InputError, UsageError


class Scheme(str, Enum):
    BIO = "BIO"
    BIESO = "BIESO"


class Augment(str, Enum):
    none = "none"
    global_shuffle = "global-shuffle"
    neighbour_swap = "neighbour-swap"


class SelectBy(str, Enum):
    f1 = "f1"
    field_f1 = "field_f1"
    field_accuracy = "field_accuracy"


class MixedPrecision(str, Enum):
    auto = "auto"
    no = "no"
    bf16 = "bf16"
    fp16 = "fp16"


DEVICE_HELP = ("Where to run: auto (a CUDA GPU, else Apple MPS, else the CPU), cpu, cuda or mps. A GPU named but "
               "not there fails (exit 3). Under torchrun each process takes the GPU of its LOCAL_RANK.")
PRECISION_HELP = ("Autocast on GPUs: auto (bf16 where the GPU has it, else fp16 with gradient scaling), no (fp32), "
                  "bf16, fp16. The CPU trains in fp32 (bf16/fp16 there: exit 2).")


def _main_process() -> bool:
    """Under torchrun only process 0 draws progress and prints; the others train silently."""
    from docextract.training.distributed import from_environment

    return from_environment().main


class Robustness(str, Enum):
    none = "none"
    global_shuffle = "global-shuffle"
    neighbour_swap = "neighbour-swap"
    drop_1d = "drop-1d"
    all = "all"


def _progress(visible: bool = True) -> Progress:
    """A live bar on a terminal; elsewhere (a log file, nohup) nothing live: :func:`_training_callbacks` prints lines."""
    return Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[info]}"),
        TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(), console=stderr,
        disable=not visible or not stderr.is_terminal,
    )


def _number(key: str, value) -> str:
    """An epoch record's value as printed: the rate in 3 digits, scores in 4 decimals, lists (per layer) of them."""
    if isinstance(value, (list, tuple)):
        return "[" + " ".join(_number(key, v) for v in value) + "]"
    return f"{value:.3g}" if key == "lr" else f"{value:.4f}"


LOG_EVERY_SECONDS = 60.0  # without a terminal: a progress line at least this often, and at every 10% of the steps


def _clock(seconds: float) -> str:
    minutes, seconds = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}"


def _training_callbacks(progress: Progress, task, name: str = "finetune", visible: bool = True):
    """Progress per optimizer step and a printed line per epoch: a live bar on a terminal; in a log file a line
    (step, loss, elapsed, estimated time left) every 10% of the steps and at least every minute. ``on_note`` prints
    a line as it is (what the run is doing before its first step)."""
    import time

    lines = visible and progress.disable  # no live bar, but this process prints
    started = time.monotonic()
    last = {"printed": started, "step": 0}

    def on_step(step: int, total: int, loss: float) -> None:
        progress.update(task, completed=step, total=total, info=f"loss {loss:.4f}")
        if not lines:
            return
        now = time.monotonic()
        tenth = max(1, total // 10)
        if step == total or step // tenth > last["step"] // tenth or now - last["printed"] >= LOG_EVERY_SECONDS:
            left = (now - started) / step * (total - step)
            stderr.print(f"{name}: step {step}/{total}  loss {loss:.4f}  elapsed {_clock(now - started)}  "
                         f"left ~{_clock(left)}", highlight=False, markup=False)
            last["printed"], last["step"] = now, step

    def on_epoch(epoch: int, record: dict) -> None:
        if not visible:
            return
        scores = "  ".join(f"{k} {_number(k, v)}" for k, v in record.items() if k not in ("epoch", "step"))
        progress.console.print(f"epoch {epoch}: {scores}", highlight=False)

    def on_note(line: str) -> None:
        if visible:
            progress.console.print(f"{name}: {line}", highlight=False, markup=False, soft_wrap=True)

    return on_step, on_epoch, on_note


def finetune(
    train_file: List[Path] = typer.Argument(..., help="Labelled JSONL file(s) to train on (docs/labelled-format.md)."),
    output: Path = typer.Option(..., "--output", "-o", help="Folder for checkpoints; the final model is OUTPUT/model."),
    eval_file: List[Path] = typer.Option([], "--eval", help="Labelled JSONL to evaluate on after each epoch (picks the best epoch)."),
    model: str = typer.Option(
        "lspe-layoutlm", "--model", "-m",
        help="A preset (lspe-layoutlm, docpolarbert, layout-cosformer, layout-cosformer-local, layoutlm, lagabi, "
             "layout-linformer), a shipped model (invoice) or a model folder from pretrain/finetune. A model with a "
             "trained head keeps it: labels your data does not annotate are masked, not taught as O, and a label it "
             "lacks is added (see --new-head)."),
    epochs: Optional[int] = typer.Option(
        None, min=1, help="Passes over the training data (default: 4 when continuing a model's head, else 10)."),
    learning_rate: Optional[float] = typer.Option(
        None, "--lr", min=0.0, help="Peak AdamW learning rate, warmup then linear decay (default: 5e-5)."),
    warmup: float = typer.Option(0.1, "--warmup", min=0.0, max=1.0, help="Share of the steps spent warming up to --lr."),
    lr_floor: float = typer.Option(
        0.0, "--lr-floor", min=0.0, max=1.0,
        help="The linear decay ends at this fraction of --lr (e.g. 0.1) instead of 0, so the model still learns in "
             "its last epochs; with --patience, --epochs is then only a cap."),
    batch_size: int = typer.Option(8, min=1, help="Windows per step."),
    grad_accumulation: int = typer.Option(1, "--grad-accum", min=1, help="Steps to accumulate before each optimizer update."),
    scheme: Optional[Scheme] = typer.Option(None, help="Tagging scheme (default: the model's, else BIO)."),
    augment: Augment = typer.Option(Augment.none, help="Add reordered copies of the training documents (LSPE paper)."),
    max_tokens: Optional[int] = typer.Option(
        None, min=16, help="Word tokens per window ([CLS]/[SEP] come on top). Default 510; with --cross-pages the "
                           "model's positions minus 2, so a document that fits is one sequence."),
    stride: int = typer.Option(128, min=0, help="Tokens of context shared by neighbouring windows."),
    cross_pages: bool = typer.Option(
        False, "--cross-pages", help="Windows span pages: whole documents in one sequence when they fit, longer ones "
                                     "in --max-tokens windows. Needs page embeddings (layout-cosformer, layout-linformer)."),
    max_positions: Optional[int] = typer.Option(
        None, "--max-positions", min=64, help="Presets only: positions of the model (e.g. 16384 for layout-cosformer; "
                                              "the learned 1D table is tiled from MiniLM's 512 rows)."),
    negative_windows: float = typer.Option(
        1.0, "--negative-windows", min=0.0, max=1.0,
        help="Share of training windows without any entity to keep (e.g. 0.2 for long contracts, where most pages "
             "hold no value)."),
    entity_weight: float = typer.Option(
        1.0, "--entity-weight", min=1.0,
        help="Loss weight of entity tags against O (e.g. 10 for long contracts, where ~1% of words are values and "
             "plain cross-entropy settles on tagging everything O)."),
    label_map: Optional[str] = typer.Option(
        None, "--label-map",
        help="Rename data labels into the model's, DATA=MODEL pairs, e.g. company=vendor_name,date=invoice_date,"
             "address=vendor_address (SROIE receipts training an invoice model). Labels a document's label_set "
             "does not list are left open for its unlabelled words, never taught as O."),
    select_by: SelectBy = typer.Option(
        SelectBy.f1, "--select-by",
        help="The --eval metric that picks the best epoch: entity F1, or field F1 / field accuracy on documents "
             "with field truth (real invoices: the field a user gets is what counts)."),
    patience: Optional[int] = typer.Option(
        None, "--patience", min=1, help="Stop when --select-by has not improved for this many epochs (default: run all --epochs)."),
    seed: int = typer.Option(42, help="Seed: the same seed on the same machine gives the same model."),
    lspe_lr_scale: float = typer.Option(0.02, min=0.0, help="Learning-rate multiplier for LSPE position FFNs (at 1.0 they drown the text early on)."),
    layout_lr_scale: float = typer.Option(
        1.0, "--layout-lr-scale", min=0.0,
        help="Learning-rate multiplier for the layout parameters that start untrained: 2D position encodings (on top of "
             "--lspe-lr-scale for LSPE), DocPolarBERT's polar tables, LAGaBi's Gaussians."),
    limit: Optional[int] = typer.Option(None, min=1, help="Use only the first N documents of each file (quick runs)."),
    threads: Optional[int] = typer.Option(None, min=1, help="torch CPU threads (default: all cores)."),
    gradient_checkpointing: bool = typer.Option(
        False, "--gradient-checkpointing",
        help="Recompute each layer's activations in the backward pass instead of keeping them: long windows "
             "(whole contracts with --cross-pages) train in far less memory, for about a third more time per step."),
    device: Device = typer.Option(Device.auto, "--device", help=DEVICE_HELP),
    mixed_precision: MixedPrecision = typer.Option(MixedPrecision.auto, "--mixed-precision", help=PRECISION_HELP),
    new_head: bool = typer.Option(
        False, "--new-head", help="Replace the model's head with one for the data's labels (trained from scratch; "
                                  "the model then forgets how to read every label the data does not have)."),
    replay: List[Path] = typer.Option(
        [], "--replay", help="Labelled JSONL the model learned from, trained on again beside the new documents so it "
                             "does not forget them (e.g. your earlier suppliers' invoices)."),
    replay_synth: Optional[int] = typer.Option(
        None, "--replay-synth", min=0,
        help="Synthetic invoices of the model's recorded recipe (docextract_replay) to regenerate and replay "
             "(default: 32 when the model records one; 0: none)."),
    repeat: Optional[int] = typer.Option(
        None, "--repeat", min=1, help="Each training document's windows this many times per epoch, instead of copied "
                                      "files (default: 4 with a replay, else 1)."),
    pull: Optional[float] = typer.Option(
        None, "--pull", min=0.0, help="L2 pull of every weight towards the model's starting weights (L2-SP; default 0)."),
    save: str = typer.Option("compact", "--save", help="The final model: compact (fp16, int8 word embeddings; about "
                                                       "40% of full) or full (fp32)."),
    calibrate: bool = typer.Option(False, "--calibrate", help="At the end, fit the softmax temperature on the --eval data "
                                   "and write it into the model's config (as `docextract calibrate` does; that command "
                                   "on a separate held-out set is the cleaner choice, since --eval also picks the epoch)."),
) -> None:
    """Finetune a layout model on labelled documents. Interrupted? Run the same command again: it resumes.

    From a trained model (docextract finetune FEW.jsonl --model invoice -o RUN): its head is kept, a replay of what
    it learned from keeps it from forgetting, and its review policy (fitted for its weights) is dropped until
    `docextract calibrate RUN/model HELD_OUT.jsonl --fields` fits one for the new weights.

    On several processes or machines, start the same command with torchrun (--batch-size stays the global batch):

    torchrun --standalone --nproc-per-node 2 -m docextract finetune ...
    """
    with user_errors():
        import torch

        from docextract.training.evaluate import parse_label_map
        from docextract.training.finetune import FinetuneOptions
        from docextract.training.finetune import finetune as run_finetune
        from docextract.training.loop import TrainingAborted, check_device

        if threads:
            torch.set_num_threads(threads)
        if save not in ("compact", "full"):
            raise UsageError(f"--save must be compact or full, got {save!r}")
        for path in [*train_file, *eval_file, *replay]:
            if not path.is_file():
                raise InputError("no such labelled JSONL file", path=str(path), code="INPUT_NOT_FOUND")
        renames = {data: model for model, data in parse_label_map(label_map).items()} if label_map else {}
        options = FinetuneOptions(
            train_files=tuple(train_file), eval_files=tuple(eval_file), output_dir=output, model=model,
            scheme=scheme.value if scheme else None, max_tokens=max_tokens, stride=stride, epochs=epochs, learning_rate=learning_rate,
            warmup_ratio=warmup, lr_floor=lr_floor, batch_size=batch_size, grad_accumulation=grad_accumulation, seed=seed, augment=augment.value, limit=limit,
            lspe_lr_scale=lspe_lr_scale, layout_lr_scale=layout_lr_scale, cross_pages=cross_pages, max_positions=max_positions,
            calibrate=calibrate, negative_windows=negative_windows, entity_weight=entity_weight, label_map=renames,
            select_by=select_by.value, patience=patience, device=device.value, mixed_precision=mixed_precision.value,
            gradient_checkpointing=gradient_checkpointing, new_head=new_head, replay_files=tuple(replay),
            replay_synth=replay_synth, repeat=repeat, pull=pull, save=save,
        )
        check_device(device.value, mixed_precision.value)  # before the progress bar and the data
        main = _main_process()
        stopped = False
        with _progress(main) as progress:
            task = progress.add_task("finetune", total=None, info="preparing data")

            on_step, on_epoch, on_note = _training_callbacks(progress, task, "finetune", main)

            try:
                record = run_finetune(options, on_step=on_step, on_epoch=on_epoch, on_note=on_note)
            except TrainingAborted as error:
                raise fail(UsageError(str(error), path=str(output)))
            except KeyboardInterrupt:
                stopped = True  # said below, once the progress bar has stopped
            finally:
                _leave_process_group()
        if stopped:
            if not main:
                raise KeyboardInterrupt
            raise interrupted(training_kept(output))
        if main:
            _finetune_summary(record, output, select_by.value)


def training_kept(output: Path) -> str:
    """What an interrupted finetune or pretrain leaves in ``output``: the checkpoint of the last epoch that ended (the
    same command resumes from it), or nothing when the first epoch did not end."""
    from docextract.training.checkpoints import latest_complete_checkpoint

    checkpoint = latest_complete_checkpoint(output) if output.is_dir() else None
    if checkpoint is None:
        return ("before the first epoch ended: nothing was kept (a checkpoint is written at the end of each epoch); "
                "the same command starts over")
    try:
        epoch = json.loads((checkpoint / "trainer_state.json").read_text())["epoch"]
    except (OSError, ValueError, KeyError):
        epoch = "?"
    return (f"the checkpoint of epoch {epoch} is kept ({checkpoint}); run the same command again to resume from it "
            "(the epoch under way is done again)")


def _leave_process_group() -> None:
    from docextract.training.distributed import stop

    stop()


SELECT_BY_NAMES = {"f1": "entity F1", "field_f1": "field F1", "field_accuracy": "field accuracy"}


def best_epoch_lines(history: dict, select_by: str) -> list[str]:
    """What picked the kept epoch, said in words: the metric (--select-by) and its value, the other --eval scores of
    that epoch, and, when the picking metric never rose while another did, that the first epoch was kept for it."""
    best = history.get("best")
    if not best or select_by not in best:
        return []
    name = SELECT_BY_NAMES.get(select_by, select_by)
    others = ", ".join(f"{SELECT_BY_NAMES[key]} {best[key]:.4f}" for key in SELECT_BY_NAMES
                       if key != select_by and key in best)
    lines = [f"best epoch {best['epoch']}, picked by {name} on the --eval data (--select-by {select_by}): "
             f"{best[select_by]:.4f}" + (f" ({others})" if others else "")]
    epochs = [record for record in history.get("epochs", []) if select_by in record]
    if len(epochs) > 1 and all(record[select_by] <= epochs[0][select_by] for record in epochs):
        for key, other in SELECT_BY_NAMES.items():
            values = [record.get(key) for record in epochs]
            if key != select_by and None not in values and max(values) > values[0]:
                top = max(epochs, key=lambda record: record[key])
                lines.append(f"{name} never rose above its first epoch's {epochs[0][select_by]:.4f}, so epoch "
                             f"{best['epoch']} was kept; {other} rose from {values[0]:.4f} to {top[key]:.4f} (epoch "
                             f"{top['epoch']}): --select-by {key} picks the epoch by it")
    return lines


def _finetune_summary(record: dict, output: Path, select_by: str) -> None:
    """Which epoch was kept and by which metric, and how the run ended: early-stopped, or at --epochs while still
    improving."""
    history = record["history"]
    best = history.get("best")
    weights = output / "model" / "model.safetensors"
    size = f" ({record['options']['save']}, {weights.stat().st_size / 1e6:.1f} MB)" if weights.is_file() else ""
    stderr.print(f"model written to {output / 'model'}{size}", highlight=False, soft_wrap=True)
    for line in best_epoch_lines(history, select_by):
        stderr.print(line, highlight=False)
    stopped = history.get("stopped_early")
    ending = history.get("convergence", {})
    if stopped:
        stderr.print(f"stopped at epoch {stopped['epoch']}: no better {SELECT_BY_NAMES.get(select_by, select_by)} for "
                     f"{stopped['patience']} epochs", highlight=False)
    elif ending.get("still_improving"):
        stderr.print(f"[bold yellow]still improving:[/] the best epoch is the last one ({best['epoch']}, learning rate "
                     f"{ending.get('final_lr', 0):.3g} at the end): the model may not have converged; run longer "
                     "(more --epochs with --patience, or --lr-floor so the rate does not decay to 0)", highlight=False)
    if "calibration" in record:
        c = record["calibration"]
        stderr.print(f"temperature {c['temperature']:.4f} fitted on the --eval data: word NLL {c['nll_before']:.4f} -> "
                     f"{c['nll_after']:.4f}, word ECE {c['ece_before']:.4f} -> {c['ece_after']:.4f}")


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
        from docextract.pipeline import load_model
        from docextract.training.evaluate import ROBUSTNESS_MODES, evaluate_model, parse_label_map, settings_for_model
        from docextract.training.finetune import load_documents

        mapping = parse_label_map(label_map) if label_map is not None else None
        for path in data:
            if not path.is_file():
                raise InputError("no such labelled JSONL file", path=str(path), code="INPUT_NOT_FOUND")
        if plot is not None:
            from docextract.training.plots import require_matplotlib

            require_matplotlib(plot)
        from docextract.modeling.devices import resolve_device

        where = resolve_device(device.value)
        net, tokenizer = load_model(model)
        net.to(where)
        documents = load_documents(data, limit)
        if plot is not None and not any(document.fields for document in documents):
            raise UsageError("--plot draws the field confidence, which needs documents with `fields` (true field "
                             "values); this data has none", path=str(data[0]))
        modes = list(ROBUSTNESS_MODES) if robustness is Robustness.all else [robustness.value]
        reports = {}
        with _progress() as progress:
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
            from docextract.training.plots import plot_confidence

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


class LopUnit(str, Enum):
    token = "token"
    word = "word"


class Objective(str, Enum):
    mlm = "mlm"
    distill = "distill"


def pretrain(
    source: List[Path] = typer.Argument(..., help="Unlabelled documents: JSONL files (labelled format, labels ignored), PDFs/images, or folders of them."),
    output: Path = typer.Option(..., "--output", "-o", help="Folder for checkpoints; the final model is OUTPUT/model."),
    model: str = typer.Option("lspe-layoutlm", "--model", "-m", help="A preset (lspe-layoutlm, docpolarbert, layout-cosformer, layout-cosformer-local, layoutlm, lagabi, layout-linformer) or a model folder to continue from."),
    objective: Objective = typer.Option(
        Objective.mlm, "--objective",
        help="mlm: masked LM + 1D local order. distill: a linear-attention model (layout-cosformer, layout-linformer) "
             "learns to reproduce, layer by layer, what the same weights compute with softmax attention; finetune it after."),
    epochs: int = typer.Option(3, min=1, help="Passes over the documents (fresh masks each pass)."),
    learning_rate: float = typer.Option(1e-4, "--lr", min=0.0, help="Peak AdamW learning rate (warmup, then linear decay)."),
    batch_size: int = typer.Option(8, min=1, help="Windows per step."),
    grad_accumulation: int = typer.Option(1, "--grad-accum", min=1, help="Steps to accumulate before each optimizer update."),
    mask_rate: float = typer.Option(0.3, min=0.0, max=1.0, help="Masked-LM: share of word sub-tokens to predict (BERT 80/10/10 replacement)."),
    lop_rate: float = typer.Option(0.3, min=0.0, max=1.0, help="1-LOP: share of words whose 1D position is hidden and whose order in its line is predicted."),
    lop_unit: LopUnit = typer.Option(LopUnit.token, help="1-LOP local order counts sub-tokens or words inside a line."),
    max_tokens: int = typer.Option(510, min=16, help="Word tokens per window ([CLS]/[SEP] come on top)."),
    stride: int = typer.Option(128, min=0, help="Tokens of context shared by neighbouring windows."),
    heldout: int = typer.Option(0, min=0, help="Keep the last N documents out of training and report their masked-LM loss/accuracy (distill: agreement with the teacher) each epoch."),
    max_positions: Optional[int] = typer.Option(
        None, "--max-positions", min=64, help="Presets only: positions of the model (e.g. 16384 for a layout-cosformer "
                                              "that will read whole contracts; the learned 1D table is tiled from MiniLM's 512 rows)."),
    seed: int = typer.Option(42, help="Seed of masks and batches: the same seed on the same machine gives the same model."),
    limit: Optional[int] = typer.Option(None, min=1, help="Use only the first N documents of each source (quick runs)."),
    threads: Optional[int] = typer.Option(None, min=1, help="torch CPU threads (default: all cores)."),
    layout_lr_scale: float = typer.Option(
        1.0, "--layout-lr-scale", min=0.0,
        help="Learning-rate multiplier for the layout parameters that start untrained (as finetune's)."),
    device: Device = typer.Option(Device.auto, "--device", help=DEVICE_HELP),
    mixed_precision: MixedPrecision = typer.Option(MixedPrecision.auto, "--mixed-precision", help=PRECISION_HELP),
) -> None:
    """Pretrain a layout model on unlabelled documents (masked LM + 1D local order, or distillation of a linear-attention
    model from its softmax twin). Interrupted? Run it again: it resumes.

    The result OUTPUT/model is what `docextract finetune --model OUTPUT/model` starts from. On several processes or
    machines, start the same command with torchrun (--batch-size stays the global batch):

    torchrun --standalone --nproc-per-node 2 -m docextract pretrain ...
    """
    with user_errors():
        import torch

        from docextract.training.loop import TrainingAborted, check_device
        from docextract.training.masking import MaskingSettings
        from docextract.training.pretrain import PretrainOptions
        from docextract.training.pretrain import pretrain as run_pretrain

        if threads:
            torch.set_num_threads(threads)
        options = PretrainOptions(
            sources=tuple(source), output_dir=output, model=model, objective=objective.value, max_tokens=max_tokens, stride=stride, epochs=epochs,
            learning_rate=learning_rate, batch_size=batch_size, grad_accumulation=grad_accumulation, seed=seed,
            limit=limit, heldout=heldout,
            masking=MaskingSettings(mask_rate=mask_rate, lop_rate=lop_rate, lop_unit=lop_unit.value),
            layout_lr_scale=layout_lr_scale, device=device.value, mixed_precision=mixed_precision.value,
            max_positions=max_positions,
        )
        check_device(device.value, mixed_precision.value)  # before the progress bar and the documents
        main = _main_process()
        stopped = False
        with _progress(main) as progress:
            task = progress.add_task("pretrain", total=None, info="reading documents")

            on_step, on_epoch, _ = _training_callbacks(progress, task, "pretrain", main)

            def on_skip(path: Path, error) -> None:
                if main:
                    progress.console.print(f"skipped {error.one_line()}", highlight=False, markup=False)

            try:
                record = run_pretrain(options, on_step=on_step, on_epoch=on_epoch, on_skip=on_skip)
            except TrainingAborted as error:
                raise fail(UsageError(str(error), path=str(output)))
            except KeyboardInterrupt:
                stopped = True  # said below, once the progress bar has stopped
            finally:
                _leave_process_group()
        if stopped:
            if not main:
                raise KeyboardInterrupt
            raise interrupted(training_kept(output))
        if main:
            stderr.print(f"model written to {output / 'model'} ({record['train_documents']} documents, "
                         f"{record['train_windows']} windows); finetune it with --model {output / 'model'}")
