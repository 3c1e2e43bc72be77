"""What the training commands share: their option choices, progress bars and per-epoch lines, and what an interrupted
run keeps."""

from __future__ import annotations

import json
from enum import Enum
from pathlib import Path

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from docextract.commands.common import stderr


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


def main_process() -> bool:
    """Under torchrun only process 0 draws progress and prints; the others train silently."""
    from docextract.training.distributed import from_environment

    return from_environment().main


def progress_bar(visible: bool = True) -> Progress:
    """A live bar on a terminal; elsewhere (a log file, nohup) nothing live: :func:`training_callbacks` prints lines."""
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


def training_callbacks(progress: Progress, task, name: str = "finetune", visible: bool = True):
    """Progress per optimizer step and a printed line per epoch: a live bar on a terminal; in a log file a line
    (step, loss, elapsed, estimated time left) every 10% of the steps and at least every minute. ``on_note`` prints
    a line as it is (what the run is doing before its first step)."""
    import time

    lines = visible and progress.disable  # no live bar, but this process prints
    started = time.monotonic()
    last = {"printed": started, "step": 0, "first": None}

    def on_step(step: int, total: int, loss: float) -> None:
        progress.update(task, completed=step, total=total, info=f"loss {loss:.4f}")
        if not lines:
            return
        now = time.monotonic()
        if last["first"] is None:  # a resumed run starts past step 1: its pace is that of the steps it took itself
            last["first"], last["step"] = step - 1, step - 1
        tenth = max(1, total // 10)
        if step == total or step // tenth > last["step"] // tenth or now - last["printed"] >= LOG_EVERY_SECONDS:
            left = (now - started) / (step - last["first"]) * (total - step)
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


def leave_process_group() -> None:
    from docextract.training.distributed import stop

    stop()
