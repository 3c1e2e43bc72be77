"""Output naming for a batch: ``a/b/x.pdf -> OUT/a/b/x.pdf.json``, confined to the output root.

Mirroring the relative input path (instead of using the base name) keeps ``a/x.pdf`` and
``b/x.pdf`` apart. Every name is checked before anything is written: no absolute paths, no
``.``/``..`` components, no control characters, no folder on the way that is a symbolic link,
and the final path must lie under the real output root (docs/batch.md).
"""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

from docextract.files import OutputRefused

OUTPUT_SUFFIX = ".json"
NAME_MAX_BYTES = 255  # longest file name most Linux/macOS file systems accept
HASH_SUFFIX_CHARS = 16  # hex digits of sha256 that replace the cut-off end of a too-long name


def output_relpath(input_rel: str) -> str:
    """The output's POSIX path relative to the output root, or ``OutputRefused`` if the name is unsafe."""
    parts = input_rel.split("/")
    for part in parts:
        if part in ("", ".", ".."):
            raise OutputRefused(f"unsafe input path component {part!r}", path=input_rel, stage="write")
        if any(ord(char) < 32 or ord(char) == 127 for char in part):
            raise OutputRefused("file name contains control characters; refusing to derive an output name", path=input_rel, stage="write")
    parts[-1] = _fit_name(parts[-1] + OUTPUT_SUFFIX)
    return "/".join(parts)


def _fit_name(name: str) -> str:
    """Shorten a file name over NAME_MAX bytes to ``<prefix>~<sha256 prefix>.json`` (deterministic)."""
    if len(os.fsencode(name)) <= NAME_MAX_BYTES:
        return name
    digest = hashlib.sha256(os.fsencode(name)).hexdigest()[:HASH_SUFFIX_CHARS]
    tail = f"~{digest}{OUTPUT_SUFFIX}"
    budget = NAME_MAX_BYTES - len(tail)
    prefix = name
    while len(os.fsencode(prefix)) > budget:  # cut whole characters, never half a UTF-8 sequence
        prefix = prefix[:-1]
    return prefix + tail


def prepare_output_path(out_root_real: str, rel_output: str) -> Path:
    """Create the output's folders under the (already resolved) root and return the checked target.

    Raises ``OutputRefused`` when a folder on the way is a symbolic link or not a folder, or when
    the resolved target would leave the root.
    """
    parts = rel_output.split("/")
    current = out_root_real
    for part in parts[:-1]:
        current = os.path.join(current, part)
        try:
            info = os.lstat(current)
        except FileNotFoundError:
            try:
                os.mkdir(current)
            except FileExistsError:
                pass
            except OSError as error:
                raise OutputRefused(f"cannot create folder: {error.strerror}", path=current, stage="write") from error
            info = os.lstat(current)
        if not stat.S_ISDIR(info.st_mode):
            kind = "a symbolic link" if stat.S_ISLNK(info.st_mode) else "not a folder"
            raise OutputRefused(f"output folder is {kind}; refusing to write through it", path=current, stage="write")
    target = os.path.join(current, parts[-1])
    real_parent = os.path.realpath(current)
    if os.path.commonpath([out_root_real, real_parent]) != out_root_real:
        raise OutputRefused("output would be written outside the output folder", path=target, stage="write")
    return Path(target)
