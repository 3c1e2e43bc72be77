"""Atomic training checkpoints: a checkpoint either exists completely or not at all.

A checkpoint is written to ``checkpoint-STEP.tmp/``, every file is fsynced, a ``COMPLETE`` file
listing each file's sha256 is written last, and only then is the folder renamed to
``checkpoint-STEP/``. Resume takes the newest folder whose ``COMPLETE`` list verifies, so a kill
during saving (a known gap of HF Trainer, transformers#35782) can never leave a checkpoint that
resume would trust. Weights are safetensors; the optimizer and scheduler state are torch files
loaded with ``weights_only=True`` and only from checkpoints this module wrote and verified.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
from pathlib import Path
from typing import Any

import torch

from docextract.files import file_sha256

COMPLETE_MARKER = "COMPLETE"
_CHECKPOINT_NAME = re.compile(r"^checkpoint-(\d+)$")


def _fsync_tree(folder: Path) -> None:
    for path in sorted(folder.iterdir()):
        if path.is_file():
            with path.open("rb") as f:
                os.fsync(f.fileno())
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def rng_state(device: torch.device | None = None) -> dict[str, Any]:
    """Python's and torch's CPU generators, and the GPU's when training on one (dropout draws there)."""
    state = {"python": random.getstate(), "torch": torch.get_rng_state()}
    if device is not None and device.type == "cuda":
        state["cuda"] = torch.cuda.get_rng_state(device)
    return state


def set_rng_state(state: dict[str, Any], device: torch.device | None = None) -> None:
    """Restore what :func:`rng_state` saved; a checkpoint from another kind of device restores the CPU's."""
    random.setstate(state["python"])
    torch.set_rng_state(state["torch"])
    if device is not None and device.type == "cuda" and "cuda" in state:
        torch.cuda.set_rng_state(state["cuda"], device)


def save_checkpoint(output_dir: Path, step: int, model, optimizer, scheduler, state: dict[str, Any], keep_last: int = 1,
                    extra_state: dict[str, Any] | None = None) -> Path:
    """Write ``output_dir/checkpoint-STEP`` atomically and delete older ones beyond ``keep_last``.

    ``extra_state`` joins the optimizer state (the fp16 gradient scaler's). Tensors are written as they are; a
    checkpoint from a GPU loads on the CPU and the other way round (:func:`load_training_state`)."""
    output_dir.mkdir(parents=True, exist_ok=True)
    final = output_dir / f"checkpoint-{step}"
    tmp = output_dir / f"checkpoint-{step}.tmp"
    if tmp.exists():
        shutil.rmtree(tmp)
    tmp.mkdir()
    model.save_pretrained(tmp, safe_serialization=True)
    torch.save(
        {"optimizer": optimizer.state_dict(), "scheduler": scheduler.state_dict(),
         "rng": rng_state(next(model.parameters()).device), **(extra_state or {})},
        tmp / "training_state.pt",
    )
    (tmp / "trainer_state.json").write_text(json.dumps({"step": step, **state}, indent=2, sort_keys=True))
    _fsync_tree(tmp)
    files = {p.name: file_sha256(p).sha256 for p in sorted(tmp.iterdir()) if p.is_file()}
    (tmp / COMPLETE_MARKER).write_text(json.dumps(files, indent=2, sort_keys=True))
    _fsync_tree(tmp)
    if final.exists():
        shutil.rmtree(final)
    os.replace(tmp, final)
    for old in list_checkpoints(output_dir)[:-keep_last]:
        shutil.rmtree(old)
    return final


def is_complete(folder: Path) -> bool:
    marker = folder / COMPLETE_MARKER
    if not marker.is_file():
        return False
    try:
        expected = json.loads(marker.read_text())
    except (OSError, ValueError):
        return False
    return all((folder / name).is_file() and file_sha256(folder / name).sha256 == digest for name, digest in expected.items())


def list_checkpoints(output_dir: Path) -> list[Path]:
    """Checkpoint folders by step, oldest first (complete or not)."""
    found = []
    for path in output_dir.glob("checkpoint-*"):
        match = _CHECKPOINT_NAME.match(path.name)
        if match and path.is_dir():
            found.append((int(match.group(1)), path))
    return [p for _, p in sorted(found)]


def latest_complete_checkpoint(output_dir: Path) -> Path | None:
    for path in reversed(list_checkpoints(output_dir)):
        if is_complete(path):
            return path
    return None


def load_training_state(folder: Path) -> dict[str, Any]:
    """Optimizer/scheduler/RNG state of a verified checkpoint written by :func:`save_checkpoint`."""
    if not is_complete(folder):
        raise ValueError(f"{folder} is not a complete docextract checkpoint")
    # on the CPU first: the optimizer moves its state onto its parameters' device as it loads it
    return torch.load(folder / "training_state.pt", weights_only=True, map_location="cpu")
