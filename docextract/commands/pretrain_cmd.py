"""`docextract pretrain`: masked-LM (+1-LOP) pre-training, or distillation of a linear-attention model."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import List, Optional

import typer

from docextract.commands.common import Device, fail, interrupted, stderr, user_errors
from docextract.commands.train_common import (
    DEVICE_HELP, MixedPrecision, PRECISION_HELP, leave_process_group, main_process, progress_bar, training_callbacks,
    training_kept,
)
from docextract.errors import UsageError


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
        main = main_process()
        stopped = False
        with progress_bar(main) as progress:
            task = progress.add_task("pretrain", total=None, info="reading documents")

            on_step, on_epoch, _ = training_callbacks(progress, task, "pretrain", main)

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
                leave_process_group()
        if stopped:
            if not main:
                raise KeyboardInterrupt
            raise interrupted(training_kept(output))
        if main:
            stderr.print(f"model written to {output / 'model'} ({record['train_documents']} documents, "
                         f"{record['train_windows']} windows); finetune it with --model {output / 'model'}")
