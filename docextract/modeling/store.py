"""Where models come from: a shipped name (``invoice``, ``funsd``, ...) or a folder the user trained.

Shipped checkpoints live in ``models/NAME/`` at the top of the repository (config.json,
model.safetensors, tokenizer files, a model card README.md). ``DOCEXTRACT_MODELS`` points
elsewhere if the models were installed apart from the code.
"""

from __future__ import annotations

import os
from pathlib import Path

from docextract.errors import MissingDependencyError

DEFAULT_MODEL = "invoice"


REPO_MODELS = Path(__file__).resolve().parents[2] / "models"  # docextract/modeling/store.py -> models/


def models_dir() -> Path:
    return Path(os.environ.get("DOCEXTRACT_MODELS", REPO_MODELS))


def shipped_models() -> list[str]:
    root = models_dir()
    return sorted(p.name for p in root.iterdir() if (p / "config.json").is_file()) if root.is_dir() else []


def resolve_model(name_or_path: str) -> Path:
    """The folder of a model given by shipped name or path; a clear error naming what exists otherwise."""
    path = Path(name_or_path).expanduser()
    if path.is_dir():
        return path
    shipped = models_dir() / name_or_path
    if "/" not in name_or_path and (shipped / "config.json").is_file():
        return shipped
    available = ", ".join(shipped_models()) or "none installed"
    raise MissingDependencyError(
        f"no model folder or shipped model named {name_or_path!r} (shipped models: {available}; "
        "a trained model is a folder with config.json and model.safetensors)",
        path=name_or_path,
    )
