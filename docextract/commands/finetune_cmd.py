"""`docextract finetune`: train a token-classification model on labelled JSONL, and say which epoch it kept and why."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from docextract.commands.common import Device, fail, interrupted, stderr, user_errors
from docextract.commands.train_common import (
    Augment, DEVICE_HELP, MixedPrecision, PRECISION_HELP, Scheme, SelectBy, leave_process_group, main_process,
    progress_bar, training_callbacks, training_kept,
)
from docextract.errors import InputError, UsageError


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
    student_layers: Optional[int] = typer.Option(
        None, "--student-layers", min=1,
        help="Train a smaller, faster model: this many of --model's layers (evenly spaced), taught by the whole "
             "model (its tag distributions and hidden states) as well as by the labels. --model must have a trained "
             "head, e.g. invoice."),
    distill_weight: float = typer.Option(
        0.5, "--distill-weight", min=0.0, max=1.0,
        help="With --student-layers: the teacher's share of the loss (the labels' share is 1 minus it)."),
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

        from docextract.evaluation.evaluate import parse_label_map
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
            replay_synth=replay_synth, repeat=repeat, pull=pull, save=save, student_layers=student_layers,
            distill_weight=distill_weight,
        )
        check_device(device.value, mixed_precision.value)  # before the progress bar and the data
        main = main_process()
        stopped = False
        with progress_bar(main) as progress:
            task = progress.add_task("finetune", total=None, info="preparing data")

            on_step, on_epoch, on_note = training_callbacks(progress, task, "finetune", main)

            try:
                record = run_finetune(options, on_step=on_step, on_epoch=on_epoch, on_note=on_note)
            except TrainingAborted as error:
                raise fail(UsageError(str(error), path=str(output)))
            except KeyboardInterrupt:
                stopped = True  # said below, once the progress bar has stopped
            finally:
                leave_process_group()
        if stopped:
            if not main:
                raise KeyboardInterrupt
            raise interrupted(training_kept(output))
        if main:
            _finetune_summary(record, output, select_by.value)


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
