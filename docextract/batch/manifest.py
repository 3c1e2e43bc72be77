"""The batch manifest: ``OUT/manifest.jsonl``, one terminal record per input (docs/batch.md).

During a run records are appended and flushed to disk one by one, each only after the file's
output is safely in place, so a killed batch never claims an output it did not write. Reading
tolerates a torn last line (a kill in the middle of an append). At the start of a resumed run
and at the end of every run the manifest is rewritten atomically in compact form: exactly one
record per input, sorted by input path.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from docextract.files import fsync_directory, json_bytes, write_bytes_atomic

MANIFEST_NAME = "manifest.jsonl"
TERMINAL_STATUSES = ("ok", "failed", "skipped")


def read_manifest(path: str | os.PathLike[str]) -> dict[str, dict[str, Any]]:
    """The last terminal record per input of an existing manifest; unreadable lines are ignored."""
    records: dict[str, dict[str, Any]] = {}
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        return records
    for line in data.splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue  # a line torn by a kill mid-append
        if isinstance(record, dict) and isinstance(record.get("input"), str) and record.get("status") in TERMINAL_STATUSES:
            records[record["input"]] = record
    return records


def write_manifest(path: str | os.PathLike[str], records: dict[str, dict[str, Any]]) -> None:
    """Atomically replace the manifest with one line per record, sorted by input path."""
    data = b"".join(json_bytes(records[key], indent=None) + b"\n" for key in sorted(records))
    write_bytes_atomic(path, data)


class ManifestWriter:
    """Appends records durably: each line is written whole, then flushed and fsynced."""

    def __init__(self, path: str | os.PathLike[str]):
        self.path = Path(path)
        self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        fsync_directory(self.path.parent)

    def append(self, record: dict[str, Any]) -> None:
        os.write(self._fd, json_bytes(record, indent=None) + b"\n")
        os.fsync(self._fd)

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1
