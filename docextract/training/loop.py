"""The training loop shared by `finetune` and `pretrain`: AdamW, warmup + linear decay, gradient
accumulation, evaluation each epoch, best-checkpoint keeping, resume, and a NaN guard.

Deterministic on CPU for a given seed: batches are drawn from a seeded generator that is part of
the checkpointed state, so a resumed run sees exactly the batches an uninterrupted run would.
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

import torch
from transformers.utils import logging as hf_logging

from docextract.files import replace_folder_atomic, write_bytes_atomic
from docextract.modeling.batching import collate
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
    stop_after_steps: int | None = None  # for tests: stop (as if killed) after this many optimizer steps
    # Stop when the evaluation metric has not improved for this many epochs (None: run every epoch). The
    # best epoch is kept either way; the history records the epoch training stopped at.
    patience: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {k: str(v) if isinstance(v, Path) else v for k, v in asdict(self).items()}


NO_DECAY = ("bias", "LayerNorm.weight", "norm.weight")


def parameter_groups(model, config: TrainConfig) -> list[dict[str, Any]]:
    """AdamW groups: no weight decay on biases and norms; LSPE FFNs at ``lspe_lr_scale`` of the rate."""
    groups: dict[tuple[bool, bool], list] = {}
    for name, param in model.named_parameters():
        if param.requires_grad:
            groups.setdefault((name.endswith(NO_DECAY), ".lspe." in name), []).append(param)
    return [
        {"params": params, "weight_decay": 0.0 if no_decay else config.weight_decay,
         "lr": config.learning_rate * (config.lspe_lr_scale if lspe else 1.0)}
        for (no_decay, lspe), params in sorted(groups.items())
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
    """
    output_dir = Path(config.output_dir)
    torch.manual_seed(config.seed)
    generator = torch.Generator().manual_seed(config.seed)
    steps_per_epoch = math.ceil(math.ceil(len(train_examples) / config.batch_size) / config.grad_accumulation)
    total_steps = steps_per_epoch * config.epochs
    optimizer = torch.optim.AdamW(parameter_groups(model, config), lr=config.learning_rate)
    scheduler = warmup_linear_schedule(optimizer, int(config.warmup_ratio * total_steps), total_steps, config.lr_floor)

    history: dict[str, Any] = {"config": config.to_json(), "epochs": [], "best": None}
    start_epoch, step = 0, 0
    resume_from = latest_complete_checkpoint(output_dir)
    if resume_from is not None:
        state = json.loads((resume_from / "trainer_state.json").read_text())
        training_state = load_training_state(resume_from)
        _load_weights(model, resume_from)
        optimizer.load_state_dict(training_state["optimizer"])
        scheduler.load_state_dict(training_state["scheduler"])
        set_rng_state(training_state["rng"])
        generator.set_state(torch.tensor(state["generator_state"], dtype=torch.uint8))
        start_epoch, step, history = state["epoch"], state["step"], state["history"]

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
            batch = collate([train_examples[j] for j in indices])
            loss = model(**batch).loss
            if not torch.isfinite(loss):
                nonfinite += 1
                optimizer.zero_grad(set_to_none=True)
                if nonfinite >= MAX_NONFINITE_STEPS:
                    raise TrainingAborted(
                        f"loss was not finite for {nonfinite} consecutive batches (epoch {epoch + 1}, step {step}); "
                        f"lower the learning rate; the last good checkpoint in {output_dir} is kept"
                    )
                continue
            nonfinite = 0
            (loss / config.grad_accumulation).backward()
            epoch_loss += loss.item()
            epoch_batches += 1
            if (i + 1) % config.grad_accumulation == 0 or i + 1 == len(batches):
                torch.nn.utils.clip_grad_norm_(model.parameters(), config.max_grad_norm)
                optimizer.step()
                scheduler.step()
                optimizer.zero_grad(set_to_none=True)
                step += 1
                if on_step:
                    on_step(step, total_steps, loss.item())
                if config.stop_after_steps is not None and step >= config.stop_after_steps:
                    return history  # simulated interruption: the last checkpoint is the epoch boundary
        metrics = evaluate(model) if evaluate else {}
        record = {"epoch": epoch + 1, "step": step, "train_loss": epoch_loss / max(1, epoch_batches),
                  "lr": max(group["lr"] for group in optimizer.param_groups), **metrics}
        history["epochs"].append(record)
        if evaluate and (history["best"] is None or metrics.get(metric, -1) > history["best"][metric]):
            history["best"] = record
            _save_best(model, output_dir / "best")
        if on_epoch:
            on_epoch(epoch + 1, record)
        history["train_seconds"] = round(seconds_before + time.perf_counter() - started, 3)
        patience_over = (evaluate is not None and config.patience is not None
                         and epoch + 1 - history["best"]["epoch"] >= config.patience)
        if patience_over:
            history["stopped_early"] = {"epoch": epoch + 1, "patience": config.patience}
        save_checkpoint(
            output_dir, step, model, optimizer, scheduler,
            {"epoch": config.epochs if patience_over else epoch + 1, "history": history,
             "generator_state": generator.get_state().tolist()},
        )
        if patience_over:
            break
    write_bytes_atomic(output_dir / "history.json", json.dumps(history, indent=2).encode("utf-8"))
    return history


def _load_weights(model, folder: Path) -> None:
    from safetensors.torch import load_file

    state = load_file(str(folder / "model.safetensors"))
    model.load_state_dict(state, strict=False)


def _save_best(model, folder: Path) -> None:
    """Replace ``folder`` with the current weights, atomically (written beside it, fsynced, then renamed)."""
    replace_folder_atomic(folder, lambda staging: model.save_pretrained(staging, safe_serialization=True))
