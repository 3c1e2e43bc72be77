"""`run.model`'s settings hash: one per version of config.json, remembered within a process, and still the hash of
what the file says after it is rewritten."""

from __future__ import annotations

import json
import os

from docextract.modeling.identity import model_identity


def test_the_settings_hash_follows_the_file_it_names(tmp_path):
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"labels": ["O", "B-total"], "threshold": 0.5}), encoding="utf-8")
    first = model_identity(tmp_path)
    assert first == {"version": "unknown", "settings_hash": model_identity(tmp_path)["settings_hash"]}

    config.write_text(json.dumps({"threshold": 0.5, "labels": ["O", "B-total"]}, indent=4), encoding="utf-8")
    assert model_identity(tmp_path) == first  # rewritten, equal settings: the same hash

    stat = config.stat()
    config.write_text(json.dumps({"labels": ["O", "B-total"], "threshold": 0.7}), encoding="utf-8")
    os.utime(config, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # even with its old modification time
    assert model_identity(tmp_path)["settings_hash"] != first["settings_hash"]

    config.write_text("{not json", encoding="utf-8")
    assert model_identity(tmp_path)["settings_hash"] == "unknown"
    config.unlink()
    assert model_identity(tmp_path)["settings_hash"] == "unknown"
