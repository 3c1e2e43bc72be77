"""Writing results to disk: deterministic JSON bytes and atomic, crash-safe file replacement.

A result file is either absent or complete: it is written to a temporary file in the same
folder, flushed to disk (fsync), then renamed over the final name (``os.replace`` is atomic
on POSIX), and the folder entry is flushed too. A killed process therefore leaves at worst a
temporary file whose name starts with :data:`TEMP_PREFIX`, never a half-written result, and
never truncates an existing file in place. Every file docextract persists goes through
:func:`atomic_writer` (streamed: labelled JSONL, synthetic data) or :func:`write_bytes_atomic`;
a folder written as a whole (a model) through :func:`replace_folder_atomic`.

The JSON bytes depend only on the value (sorted keys, fixed indentation, a final newline), so
re-running or resuming a batch reproduces byte-identical files.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import stat
import tempfile
from collections import OrderedDict
from pathlib import Path
from typing import Any, BinaryIO, Callable, Iterator, NamedTuple

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


@contextlib.contextmanager
def atomic_writer(path: str | os.PathLike[str]) -> Iterator[BinaryIO]:
    """A binary handle whose bytes replace ``path`` only when the ``with`` block completes
    (temp file + fsync + ``os.replace`` in the same folder); an exception leaves ``path`` as it was.

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
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp_name, 0o644)  # mkstemp creates 0600; results are ordinary files
        os.replace(temp_name, path)
    except OSError as error:
        _remove_quietly(temp_name)
        raise OutputError(f"cannot write: {error.strerror or error}", path=str(path), stage="write") from error
    except BaseException:
        _remove_quietly(temp_name)
        raise
    fsync_directory(path.parent)


def write_bytes_atomic(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (see :func:`atomic_writer`)."""
    with atomic_writer(path) as handle:
        handle.write(data)


def replace_folder_atomic(folder: str | os.PathLike[str], fill: Callable[[Path], None]) -> Path:
    """Write a folder as a whole: ``fill`` writes the content into a temporary sibling folder, every file is
    fsynced, and only then does it take ``folder``'s place (the previous one is removed after the rename).
    A kill while ``fill`` runs leaves ``folder`` as it was, plus a :data:`TEMP_PREFIX` folder beside it."""
    folder = Path(folder)
    folder.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f"{TEMP_PREFIX}{folder.name}-", dir=folder.parent))
    try:
        fill(staging)
        for written in sorted(staging.rglob("*")):
            # ordinary permissions, whoever wrote the file: transformers' save_pretrained writes model.safetensors
            # through a 0600 temporary file, which left the weights unreadable to the group beside a 0644 config
            if written.is_file():
                os.chmod(written, 0o644)
                with open(written, "rb") as handle:
                    os.fsync(handle.fileno())
            elif written.is_dir():
                os.chmod(written, 0o755)
                fsync_directory(written)
        fsync_directory(staging)
        os.chmod(staging, 0o755)  # mkdtemp creates 0700
        previous = None
        if folder.exists():
            previous = folder.with_name(f"{TEMP_PREFIX}{folder.name}-previous")
            shutil.rmtree(previous, ignore_errors=True)
            os.replace(folder, previous)
        os.replace(staging, folder)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    fsync_directory(folder.parent)
    if previous is not None:
        shutil.rmtree(previous, ignore_errors=True)
    return folder


class FileDigest(NamedTuple):
    sha256: str  # hex
    size: int  # bytes


_DIGEST_MEMORY = 64  # files whose digest a process remembers
_digests: OrderedDict[tuple[int, ...], FileDigest] = OrderedDict()


def file_version(info: os.stat_result) -> tuple[int, ...]:
    """What tells one version of a file from another without reading it: device, inode, size, modification and
    change times (a rewrite changes the change time even when it restores the modification time)."""
    return info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns


def file_sha256(path: str | os.PathLike[str], *, reuse: bool = False) -> FileDigest:
    """sha256 and size of a file (``hashlib.file_digest``).

    ``reuse``: answer from memory when this process hashed the same version of the file before (same
    device, inode, size, modification and change times) and remember the answer. A batch worker hashes
    its input for the manifest and the reader needs it again for ``source.sha256``: one read, not two.
    Integrity checks (checkpoints) read the file every time.
    """
    with open(path, "rb") as handle:
        info = os.fstat(handle.fileno())
        key = file_version(info)
        if reuse and key in _digests:
            _digests.move_to_end(key)
            return _digests[key]
        digest = FileDigest(hashlib.file_digest(handle, "sha256").hexdigest(), info.st_size)
    if not reuse:
        return digest
    _digests[key] = digest
    if len(_digests) > _DIGEST_MEMORY:
        _digests.popitem(last=False)
    return digest


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
