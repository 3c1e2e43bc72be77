"""Finding a batch's inputs: a safe recursive walk of a folder, filtered by a glob.

Safety rules (docs/batch.md):
* symbolic links are never followed unless asked; a link that is not followed still becomes an
  input (status ``skipped``) so the user sees it in the manifest;
* FIFOs, sockets and device nodes are always skipped: ``open()`` on a FIFO blocks forever;
* with ``follow_symlinks`` a link must resolve to a regular file (or a folder, walked once:
  link loops are cut by remembering every folder's (device, inode));
* the output folder is never walked, even when it lies inside the input folder;
* without a glob, only the files docextract reads are inputs (decided by their first bytes, as the readers
  decide: PDF, PNG, JPEG, TIFF, words JSON); every other file is ``skipped`` so that a folder with a README and
  scripts beside its invoices is not a batch of failures. A glob takes what it names, readable or not.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path

from docextract.readers import detect

# An empty file has no first bytes to tell its kind by; one of these names is a document that failed to arrive.
DOCUMENT_SUFFIXES = (".pdf", ".png", ".jpg", ".jpeg", ".tif", ".tiff", ".json")


@dataclass(frozen=True)
class InputFile:
    """One discovered input. ``rel`` is the POSIX path relative to the input root."""

    rel: str
    path: str  # absolute path to open
    size: int | None  # bytes; None when skipped
    mtime_ns: int | None
    skip_reason: str | None = None  # set for links/special files that are not read, and unsupported files
    skip_code: str = "INPUT_UNREADABLE"  # the manifest's error code of a skipped input (UNSUPPORTED_FORMAT, ...)


@dataclass(frozen=True)
class Discovery:
    inputs: tuple[InputFile, ...]  # sorted by rel
    walk_errors: tuple[str, ...]  # folders that could not be listed


def glob_regex(pattern: str) -> re.Pattern[str]:
    """Compile a glob over POSIX relative paths.

    ``**/`` matches any number of folders (including none), ``*`` and ``?`` stay inside one path
    component, ``[...]`` is a character class. A pattern without ``/`` matches the file name at
    any depth (``*.pdf`` finds every PDF in the tree), as in .gitignore.
    """
    if "/" not in pattern:
        pattern = "**/" + pattern
    out: list[str] = []
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:[^/]*/)*")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        elif pattern[i] == "[" and "]" in pattern[i + 2 :]:
            end = pattern.index("]", i + 2)
            body = pattern[i + 1 : end].replace("\\", "\\\\")
            if body.startswith("!"):
                body = "^" + body[1:]
            out.append(f"[{body}]")
            i = end + 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out) + r"\Z", re.DOTALL)


def discover_inputs(root: str | os.PathLike[str], glob: str | None = "**/*", *,
                    exclude_dir: str | os.PathLike[str] | None = None, follow_symlinks: bool = False) -> Discovery:
    """Every file under ``root`` whose relative path matches ``glob``, sorted, with skip reasons. ``glob=None``:
    every file, those docextract does not read (by their first bytes) skipped as ``UNSUPPORTED_FORMAT``."""
    root = Path(root)
    supported_only = glob is None
    matcher = glob_regex("**/*" if glob is None else glob)
    inputs: list[InputFile] = []
    errors: list[str] = []
    root_stat = os.stat(root)
    visited = {(root_stat.st_dev, root_stat.st_ino)}
    if exclude_dir is not None:
        try:
            excluded = os.stat(exclude_dir)
            visited.add((excluded.st_dev, excluded.st_ino))  # never walked: looks already seen
        except FileNotFoundError:
            pass

    stack: list[tuple[str, str]] = [("", str(root))]
    while stack:
        rel_dir, abs_dir = stack.pop()
        try:
            with os.scandir(abs_dir) as listing:
                entries = sorted(listing, key=lambda entry: entry.name)
        except OSError as error:
            errors.append(f"{abs_dir}: {error.strerror}")
            continue
        for entry in entries:
            rel = f"{rel_dir}/{entry.name}" if rel_dir else entry.name
            try:
                info = entry.stat(follow_symlinks=False)
            except OSError as error:
                errors.append(f"{entry.path}: {error.strerror}")
                continue
            wanted = matcher.match(rel) is not None

            if stat.S_ISLNK(info.st_mode):
                if not follow_symlinks:
                    if wanted:
                        inputs.append(_skipped(rel, entry.path, "symbolic link not followed (pass follow_symlinks to read it)"))
                    continue
                try:
                    info = os.stat(entry.path)
                except OSError:
                    if wanted:
                        inputs.append(_skipped(rel, entry.path, "broken or looping symbolic link"))
                    continue

            if stat.S_ISDIR(info.st_mode):
                key = (info.st_dev, info.st_ino)
                if key not in visited:  # cuts symlink loops and keeps out the output folder
                    visited.add(key)
                    stack.append((rel, entry.path))
            elif not wanted:
                continue
            elif stat.S_ISREG(info.st_mode):
                unsupported = _unsupported(entry.path) if supported_only else None
                if unsupported is not None:
                    inputs.append(_skipped(rel, entry.path, *unsupported))
                else:
                    inputs.append(InputFile(rel, entry.path, info.st_size, info.st_mtime_ns))
            else:
                inputs.append(_skipped(rel, entry.path, "special file (FIFO, socket or device) not read"))
    inputs.sort(key=lambda item: item.rel)
    return Discovery(tuple(inputs), tuple(errors))


def _skipped(rel: str, path: str, reason: str, code: str = "INPUT_UNREADABLE") -> InputFile:
    return InputFile(rel, path, None, None, skip_reason=reason, skip_code=code)


def _unsupported(path: str) -> tuple[str, str] | None:
    """Why docextract does not read the regular file at ``path`` (its first bytes) and the code, or None when it
    does. A file that cannot be opened stays an input: its failure is worth a record of its own."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(detect.SNIFF_BYTES)
    except OSError:
        return None
    if not head:  # nothing to tell by: a document's name makes it an input that failed (a truncated download)
        return None if Path(path).suffix.lower() in DOCUMENT_SUFFIXES else ("the file is empty (0 bytes)", "INPUT_EMPTY")
    if detect.sniff(head) is not None:
        return None
    return f"not a file docextract reads ({detect.describe(head)}); pass --glob to take it anyway", "UNSUPPORTED_FORMAT"
