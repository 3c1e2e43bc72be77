"""Writing results to disk: deterministic JSON bytes and atomic, crash-safe file replacement.

A result file is either absent or complete: it is written to a temporary file in the same
folder, flushed to disk (fsync), then renamed over the final name (``os.replace`` is atomic
on POSIX), and the folder entry is flushed too. A killed process therefore leaves at worst a
temporary file whose name starts with :data:`TEMP_PREFIX`, never a half-written result, and
never truncates an existing file in place.

The JSON bytes depend only on the value (sorted keys, fixed indentation, a final newline), so
re-running or resuming a batch reproduces byte-identical files.
"""

from __future__ import annotations

import json
import os
import stat
import tempfile
from pathlib import Path
from typing import Any

from docextract.errors import OutputError


class OutputRefused(OutputError):
    """A write docextract refuses on purpose (the target is a link or a folder); nothing was written."""


# Every temporary file docextract creates starts with this, so a resumed batch can find and
# remove the leftovers of a killed one without touching anything else.
TEMP_PREFIX = ".docextract-tmp-"
JSON_INDENT = 2  # spaces


def json_bytes(value: Any, *, indent: int | None = JSON_INDENT) -> bytes:
    """Canonical UTF-8 JSON of ``value``: sorted keys, no NaN/Infinity, a final newline when indented.

    Text with lone surrogates (broken UTF-16 in a PDF, undecodable file names) cannot be UTF-8
    encoded; such values are written with ``\\uXXXX`` escapes instead of crashing the writer.
    """
    options: dict[str, Any] = {"sort_keys": True, "allow_nan": False, "indent": indent}
    if indent is None:
        options["separators"] = (",", ":")
    try:
        text = json.dumps(value, ensure_ascii=False, **options)
        data = text.encode("utf-8")
    except UnicodeEncodeError:
        data = json.dumps(value, ensure_ascii=True, **options).encode("ascii")
    return data + b"\n" if indent is not None else data


def fsync_directory(directory: str | os.PathLike[str]) -> None:
    """Flush a folder's entries (a rename is durable only once its folder is synced)."""
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_bytes_atomic(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` via temp file + fsync + ``os.replace`` in the same folder.

    Refuses (``OutputError``) to replace a symbolic link or a folder: a pre-planted link
    ``out/x.json -> ~/.bashrc`` must not turn a write into a clobber.
    """
    path = Path(path)
    try:
        existing = os.lstat(path)
    except FileNotFoundError:
        existing = None
    if existing is not None and not stat.S_ISREG(existing.st_mode):
        kind = "a symbolic link" if stat.S_ISLNK(existing.st_mode) else "not a regular file"
        raise OutputRefused(f"refusing to replace an output that is {kind}", path=str(path), stage="write")
    try:
        fd, temp_name = tempfile.mkstemp(prefix=TEMP_PREFIX, suffix=".tmp", dir=path.parent)
    except OSError as error:
        raise OutputError(f"cannot create a file in {path.parent}: {error.strerror}", path=str(path), stage="write") from error
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp_name, 0o644)  # mkstemp creates 0600; results are ordinary files
        os.replace(temp_name, path)
    except OSError as error:
        _remove_quietly(temp_name)
        raise OutputError(f"cannot write: {error.strerror}", path=str(path), stage="write") from error
    except BaseException:
        _remove_quietly(temp_name)
        raise
    fsync_directory(path.parent)


def write_json_atomic(path: str | os.PathLike[str], value: Any) -> bytes:
    """Atomically write the canonical JSON of ``value``; returns the bytes written."""
    data = json_bytes(value)
    write_bytes_atomic(path, data)
    return data


def _remove_quietly(name: str) -> None:
    try:
        os.unlink(name)
    except OSError:
        pass
