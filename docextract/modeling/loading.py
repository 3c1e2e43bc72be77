"""What docextract agrees to load: a local folder with config.json and safetensors weights, nothing else.

Pickle checkpoints (``pytorch_model.bin``, ``.pt``, ``.ckpt``) can run code when read, and a config
with ``auto_map`` asks for remote code; both are refused with :class:`ModelRefusedError`.
"""

from __future__ import annotations

import json
from pathlib import Path

from docextract.errors import MissingDependencyError, ModelRefusedError

SAFETENSORS_FILES = ("model.safetensors", "model.safetensors.index.json")
PICKLE_SUFFIXES = (".bin", ".pt", ".pth", ".ckpt", ".pkl")
MODEL_TYPE = "docextract-layout"  # config.json ``model_type`` of every docextract layout model


def check_loadable_folder(path, trust_remote_code: bool = False) -> Path:
    """The folder, if it holds a docextract layout model in safetensors; otherwise a DocextractError."""
    folder = Path(path)
    if trust_remote_code:
        raise ModelRefusedError("docextract never runs remote model code (trust_remote_code)", path=str(folder))
    if not folder.is_dir():
        raise MissingDependencyError("model folder not found", path=str(folder))
    config_file = folder / "config.json"
    if not config_file.is_file():
        raise ModelRefusedError("not a model folder: config.json is missing", path=str(folder))
    if not any((folder / name).is_file() for name in SAFETENSORS_FILES):
        pickles = sorted(p.name for p in folder.iterdir() if p.suffix in PICKLE_SUFFIXES)
        reason = f"only pickle weights ({', '.join(pickles)})" if pickles else "no model.safetensors"
        raise ModelRefusedError(f"{reason}; docextract loads safetensors weights only", path=str(folder))
    try:
        config = json.loads(config_file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ModelRefusedError(f"unreadable config.json: {error}", path=str(folder)) from error
    if "auto_map" in config:
        raise ModelRefusedError("config.json asks for remote code (auto_map); refused", path=str(folder))
    if config.get("model_type") != MODEL_TYPE:
        raise ModelRefusedError(
            f"model_type is {config.get('model_type')!r}, not a docextract layout model ({MODEL_TYPE})", path=str(folder)
        )
    return folder
