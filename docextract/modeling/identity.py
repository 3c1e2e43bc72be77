"""What names a model exactly in an output: its name, a version (the hash of its weights) and a hash of its settings.

`run` reports these once per output (``run.model``) instead of the settings themselves: the field calibration's
coefficients and the review thresholds are config.json's business, and two outputs with the same ``version`` and
``settings_hash`` came from the same model with the same settings. The hashes are the first 16 hex digits of a
sha256, enough to tell models apart, short enough to read.
"""

from __future__ import annotations

import hashlib
import json
import os
from functools import lru_cache
from pathlib import Path

from docextract.files import file_sha256, file_version, json_bytes

HASH_DIGITS = 16  # hex digits kept of each sha256
WEIGHTS_FILE = "model.safetensors"


def model_identity(folder: str | Path) -> dict[str, str]:
    """``{"version", "settings_hash"}`` of the model in ``folder``: the sha256 of its weights file and of its
    config.json in canonical JSON (sorted keys: a rewritten but equal config keeps its hash)."""
    folder = Path(folder)
    weights = folder / WEIGHTS_FILE
    version = file_sha256(weights, reuse=True).sha256[:HASH_DIGITS] if weights.is_file() else "unknown"
    return {"version": version, "settings_hash": _settings_hash(str(folder / "config.json"))}


def _settings_hash(config: str) -> str:
    try:
        info = os.stat(config)
    except OSError:
        return "unknown"
    return _settings_hash_of_version(config, file_version(info))


# One hash per version of the file: `run` names the model in every output, and parsing and re-serialising a
# shipped config.json (its scorer and calibration coefficients) took several milliseconds a file.
@lru_cache(maxsize=64)
def _settings_hash_of_version(config: str, version: tuple) -> str:
    try:
        settings = json.loads(Path(config).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return "unknown"
    return hashlib.sha256(json_bytes(settings)).hexdigest()[:HASH_DIGITS]
