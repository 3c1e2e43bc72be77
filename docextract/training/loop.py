"""The training loop shared by `finetune` and `pretrain`: AdamW, warmup + linear decay, gradient
accumulation, evaluation each epoch, best-checkpoint keeping, resume, and a NaN guard.

Deterministic on CPU for a given seed: batches are drawn from a seeded generator that is part of
the checkpointed state, so a resumed run sees exactly the batches an uninterrupted run would.
"""

from __future__ import annotations

import contextlib
import json
import math
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

import torch
from transformers.utils import logging as hf_logging

from docextract.errors import UsageError
from docextract.files import replace_folder_atomic, write_bytes_atomic
from docextract.modeling.batching import IGNORE_INDEX, collate
from docextract.modeling.devices import autocast_dtype, resolve_device
from docextract.training import distributed
from docextract.training.checkpoints import (
    latest_complete_checkpoint,
    load_training_state,
    save_checkpoint,
    set_rng_state,
)
from docextract.training.schedule import warmup_linear_schedule

hf_logging.disable_progress_bar()  # no tqdm bar per checkpoint write; our progress bar is on stderr

MAX_NONFINITE_STEPS = 3  # abort after this many consecutive non-finite losses


class TrainingAborted(RuntimeError):
    """Training stopped for a reason the user must see (NaN loss); the last good checkpoint is kept."""


@dataclass(frozen=True)
class TrainConfig:
    output_dir: Path
    epochs: int = 10
    learning_rate: float = 5e-5
    batch_size: int = 8
    grad_accumulation: int = 1
    warmup_ratio: float = 0.1
    # The linear decay ends at this fraction of the peak rate (0: at zero, the first recipes), see schedule.py
    lr_floor: float = 0.0
    weight_decay: float = 0.01
    max_grad_norm: float = 1.0
    seed: int = 42
    # Learning-rate multiplier for LSPE's position FFNs. Their output layer has a fan-in of ~1536, so
    # Adam at the encoder's rate moves every position vector by more than a word embedding's size in a
    # few steps and drowns the text: measured on 8 FUNSD forms, 25 steps took the loss 1.95 -> 1.48 at
    # scale 1, 1.95 -> 0.61 at 0.02 (the same as the text-only encoder, 0.61).
    lspe_lr_scale: float = 0.02
    # Learning-rate multiplier for the layout parameters MiniLM has nothing for: the 2D position encodings
    # (LSPE FFNs of x, y, w, h: on top of lspe_lr_scale; learned 2D tables) and the attention biases of the
    # layout (DocPolarBERT's polar tables, LAGaBi's Gaussians). They start fresh (zero, or N(0, 0.02)) where the
    # text weights start trained, so at the text's rate they may barely move in a short finetune.
    layout_lr_scale: float = 1.0
    stop_after_steps: int | None = None  # for tests: stop (as if killed) after this many optimizer steps
    # Stop when the evaluation metric has not improved for this many epochs (None: run every epoch). The
    # best epoch is kept either way; the history records the epoch training stopped at.
    patience: int | None = None
    device: str = "cpu"  # auto|cpu|cuda|mps (modeling/devices.py); under torchrun each process takes its own GPU
    # L2-SP (Li et al., 2018): each step adds pull_to_start * (w - w_start) to every weight's gradient, so a model
    # continued on a few documents stays near the weights it started from (0: off). w_start is the model as given to
    # train(), also when a run resumes from a checkpoint.
    pull_to_start: float = 0.0
    mixed_precision: str = "auto"  # auto|no|bf16|fp16: autocast on GPUs; the CPU trains in fp32

    def to_json(self) -> dict[str, Any]:
        return {k: str(v) if isinstance(v, Path) else v for k, v in asdict(self).items()}


NO_DECAY = ("bias", "LayerNorm.weight", "norm.weight")


LAYOUT_PARAMETERS = (".layout_2d.", ".polar.", ".gaussian.")  # see TrainConfig.layout_lr_scale


def lr_scale(name: str, config: TrainConfig) -> float:
    """The multiplier of the peak learning rate for the parameter called ``name``."""
    scale = config.lspe_lr_scale if ".lspe." in name else 1.0
    if any(part in name for part in LAYOUT_PARAMETERS):
        scale *= config.layout_lr_scale
    return scale


def parameter_groups(model, config: TrainConfig) -> list[dict[str, Any]]:
    """AdamW groups: no weight decay on biases and norms; LSPE FFNs at ``lspe_lr_scale`` of the rate, the fresh
    layout parameters at ``layout_lr_scale`` (see :func:`lr_scale`)."""
    groups: dict[tuple[bool, float], list] = {}
    for name, param in model.named_parameters():
        if param.requires_grad:
            groups.setdefault((name.endswith(NO_DECAY), lr_scale(name, config)), []).append(param)
    return [
        {"params": params, "weight_decay": 0.0 if no_decay else config.weight_decay,
         "lr": config.learning_rate * scale}
        for (no_decay, scale), params in sorted(groups.items())
    ]


def _batches(n: int, batch_size: int, generator: torch.Generator) -> list[list[int]]:
    order = torch.randperm(n, generator=generator).tolist()
    return [order[i:i + batch_size] for i in range(0, n, batch_size)]


def train(
    model,
    train_examples: Sequence[dict[str, list]],
    config: TrainConfig,
    *,
    evaluate: Callable[[Any], dict[str, float]] | None = None,
    metric: str = "f1",
    on_step: Callable[[int, int, float], None] | None = None,
    on_epoch: Callable[[int, dict[str, float]], None] | None = None,
) -> dict[str, Any]:
    """Train ``model`` in place; returns the history. Resumes from ``output_dir`` if it holds a checkpoint.

    ``evaluate(model) -> metrics`` runs after each epoch; the best epoch by ``metric`` is saved to
    ``output_dir/best`` (atomically). ``on_step(step, total_steps, loss)`` drives progress bars.
    Under torchrun every process calls this with the same examples (see ``distributed.py``); only
    process 0 evaluates, calls ``on_step`` and writes files; every process calls ``on_epoch`` with the same
    record and returns the same history.
    """
    output_dir = Path(config.output_dir)
    processes = distributed.from_environment()
    device = resolve_device(config.device, processes.local_rank)
    amp_dtype = autocast_dtype(config.mixed_precision, device)
    distributed.start(processes, device)
    torch.manual_seed(config.seed)
    generator = torch.Generator().manual_seed(config.seed)
    steps_per_epoch = math.ceil(math.ceil(len(train_examples) / config.batch_size) / config.grad_accumulation)
    total_steps = steps_per_epoch * config.epochs
    model.to(device)
    start = starting_weights(model) if config.pull_to_start else None
    optimizer = torch.optim.AdamW(parameter_groups(model, config), lr=config.learning_rate)
    scheduler = warmup_linear_schedule(optimizer, int(config.warmup_ratio * total_steps), total_steps, config.lr_floor)
    scaler = torch.amp.GradScaler(device.type, enabled=amp_dtype == torch.float16)

    history: dict[str, Any] = {"config": config.to_json(), "epochs": [], "best": None}
    start_epoch, step = 0, 0
    resume_from = _agreed_checkpoint(output_dir, processes)
    if resume_from is not None:
        state = json.loads((resume_from / "trainer_state.json").read_text())
        training_state = load_training_state(resume_from)
        load_weights(model, resume_from)
        optimizer.load_state_dict(training_state["optimizer"])
        scheduler.load_state_dict(training_state["scheduler"])
        if "scaler" in training_state and scaler.is_enabled():
            scaler.load_state_dict(training_state["scaler"])
        set_rng_state(training_state["rng"], device)
        generator.set_state(torch.tensor(state["generator_state"], dtype=torch.uint8))
        start_epoch, step, history = state["epoch"], state["step"], state["history"]
    runner = _data_parallel(model, device) if processes.distributed else model

    nonfinite = 0
    # Wall-clock training time (evaluation included) across resumes; kept out of the epoch records so
    # that a resumed run's records equal an uninterrupted run's.
    seconds_before = history.get("train_seconds", 0.0)
    started = time.perf_counter()
    for epoch in range(start_epoch, config.epochs):
        model.train()
        batches = _batches(len(train_examples), config.batch_size, generator)
        epoch_loss, epoch_batches = 0.0, 0
        for i, indices in enumerate(batches):
            mine = processes.shard(indices)
            # A process left without a window (a last batch smaller than the process count) still takes part
            # in the gradient exchange, with a copy of the batch's first window at weight 0.
            batch = _to_device(collate([train_examples[j] for j in (mine or indices[:1])]), device)
            labelled = int((batch["labels"] != IGNORE_INDEX).sum()) if mine else 0
            updating = (i + 1) % config.grad_accumulation == 0 or i + 1 == len(batches)
            with _gradient_sync(runner, updating), _autocast(device, amp_dtype):
                loss = runner(**batch).loss
                if processes.distributed:  # this process's share of the mean over the global batch
                    total_labelled = max(1.0, processes.sum([labelled], device)[0])
                    weight = labelled / total_labelled * processes.world_size  # DDP divides by the process count
                    batch_loss = processes.sum([float(loss.detach()) * labelled / total_labelled], device)[0]
                else:
                    weight, batch_loss = 1.0, float(loss.detach())
                if not math.isfinite(batch_loss):  # every process sees the same global loss: all skip together
                    nonfinite += 1
                    optimizer.zero_grad(set_to_none=True)
                    if nonfinite >= MAX_NONFINITE_STEPS:
                        raise TrainingAborted(
                            f"loss was not finite for {nonfinite} consecutive batches (epoch {epoch + 1}, step {step}); "
                            f"lower the learning rate; the last good checkpoint in {output_dir} is kept"
                        )
                    continue
                nonfinite = 0
                scaler.scale(loss * weight / config.grad_accumulation).backward()
            epoch_loss += batch_loss
            epoch_batches += 1
            if updating:
                scaler.unscale_(optimizer)
                if start is not None:
                    pull_towards(model, start, config.pull_to_start)
                torch.nn.utils.clip_grad_norm_(model.parameters(), config.max_grad_norm)
                scaler.step(optimizer)
                scaler.update()
                scheduler.step()
                optimizer.zero_grad(set_to_none=True)
                step += 1
                if on_step and processes.main:
                    on_step(step, total_steps, batch_loss)
                if config.stop_after_steps is not None and step >= config.stop_after_steps:
                    processes.wait()
                    return history  # simulated interruption: the last checkpoint is the epoch boundary
        metrics = (evaluate(model) if evaluate and processes.main else {})
        metrics = processes.from_main(metrics)
        # "lr": the encoder's rate after this epoch (LSPE and layout parameters run at their scales of it)
        record = {"epoch": epoch + 1, "step": step, "train_loss": epoch_loss / max(1, epoch_batches),
                  "lr": config.learning_rate * scheduler.lr_lambdas[0](scheduler.last_epoch), **metrics}
        history["epochs"].append(record)
        if evaluate and (history["best"] is None or metrics.get(metric, -1) > history["best"][metric]):
            history["best"] = record
            if processes.main:
                _save_best(model, output_dir / "best")
        if on_epoch:  # on every process: pretraining draws the next epoch's masks here
            on_epoch(epoch + 1, record)
        history["train_seconds"] = round(seconds_before + time.perf_counter() - started, 3)
        history["train_seconds"] = processes.from_main(history["train_seconds"])
        patience_over = (evaluate is not None and config.patience is not None
                         and epoch + 1 - history["best"]["epoch"] >= config.patience)
        if patience_over:
            history["stopped_early"] = {"epoch": epoch + 1, "patience": config.patience}
        if processes.main:
            extra = {"scaler": scaler.state_dict()} if scaler.is_enabled() else {}
            save_checkpoint(
                output_dir, step, model, optimizer, scheduler,
                {"epoch": config.epochs if patience_over else epoch + 1, "history": history,
                 "generator_state": generator.get_state().tolist()},
                extra_state=extra,
            )
        processes.wait()
        if patience_over:
            break
    history["convergence"] = convergence(history, config)
    if processes.main:
        write_bytes_atomic(output_dir / "history.json", json.dumps(history, indent=2).encode("utf-8"))
    processes.wait()
    return history


def check_device(device: str, mixed_precision: str) -> None:
    """Refuse a device or precision this machine cannot give (the error :func:`train` would raise, but early)."""
    autocast_dtype(mixed_precision, resolve_device(device, distributed.from_environment().local_rank))


def convergence(history: dict[str, Any], config: TrainConfig) -> dict[str, Any]:
    """How the run ended: by patience or at the epoch cap, and whether the model was still improving then
    (its best epoch was the last: more epochs, or a schedule that had not decayed yet, might have helped)."""
    epochs = history["epochs"]
    if not epochs:
        return {}
    last = epochs[-1]
    out: dict[str, Any] = {"epochs_run": last["epoch"], "steps": last["step"], "final_lr": last.get("lr"),
                           "stopped_by": "patience" if history.get("stopped_early") else "epochs"}
    best = history.get("best")
    if best is not None:
        out["best_epoch"] = best["epoch"]
        out["still_improving"] = best["epoch"] == last["epoch"] and len(epochs) > 1
    return out


def _agreed_checkpoint(output_dir: Path, processes: distributed.Processes) -> Path | None:
    """The checkpoint to resume from: process 0's choice, which every process must see in its own --output."""
    mine = latest_complete_checkpoint(output_dir)
    chosen = processes.from_main(None if mine is None else mine.name)
    if chosen != (None if mine is None else mine.name):
        raise UsageError(
            f"process {processes.rank} sees checkpoint {mine.name if mine else 'none'} in {output_dir} where process 0 "
            f"sees {chosen or 'none'}: every process must read the same --output folder (a shared filesystem "
            "across machines)", path=str(output_dir))
    return None if chosen is None else output_dir / chosen


def _data_parallel(model, device: torch.device):
    from torch.nn.parallel import DistributedDataParallel

    # Every trainable parameter of every preset gets a gradient from every batch (tests/training/test_distributed.py
    # checks it), so DDP need not search the graph for unused ones each step.
    return DistributedDataParallel(model, device_ids=[device.index] if device.type == "cuda" else None)


def _gradient_sync(runner, updating: bool):
    """DDP exchanges gradients only on the micro-batch that ends an accumulation (no_sync before it)."""
    if updating or not hasattr(runner, "no_sync"):
        return contextlib.nullcontext()
    return runner.no_sync()


def _autocast(device: torch.device, dtype: torch.dtype | None):
    return torch.autocast(device.type, dtype) if dtype is not None else contextlib.nullcontext()


def _to_device(batch: dict[str, torch.Tensor], device: torch.device) -> dict[str, torch.Tensor]:
    if device.type == "cpu":
        return batch
    return {k: v.to(device, non_blocking=True) if isinstance(v, torch.Tensor) else v for k, v in batch.items()}


def load_weights(model, folder: Path) -> None:
    """The weights saved in ``folder`` (a checkpoint, ``best``) into ``model``, on the model's device."""
    from safetensors.torch import load_file

    state = load_file(str(folder / "model.safetensors"), device=str(next(model.parameters()).device))
    model.load_state_dict(state, strict=False)


def starting_weights(model) -> dict[str, torch.Tensor]:
    """A copy of every trainable weight, what :func:`pull_towards` pulls back to."""
    return {name: param.detach().clone() for name, param in model.named_parameters() if param.requires_grad}


@torch.no_grad()
def pull_towards(model, start: dict[str, torch.Tensor], strength: float) -> None:
    """Add ``strength * (w - w_start)`` to each weight's gradient: the gradient of ``strength / 2 * |w - w_start|^2``."""
    for name, param in model.named_parameters():
        if param.grad is not None and name in start:
            param.grad.add_(param.detach() - start[name], alpha=strength)


def _save_best(model, folder: Path) -> None:
    """Replace ``folder`` with the current weights, atomically (written beside it, fsynced, then renamed)."""
    replace_folder_atomic(folder, lambda staging: model.save_pretrained(staging, safe_serialization=True))
