"""The lines of a JSONL file, and a clear refusal of a file that is not one.

Every command that reads labelled JSONL (``validate``, ``split``, ``finetune``, ``evaluate``, ``calibrate``,
``pretrain``) goes through :func:`jsonl_lines`: a PDF, an image or a README handed in by mistake is one
``InputError`` naming the file and what it is (exit 4), not a ``UnicodeDecodeError`` or a defect per line.
A file is JSONL when it is UTF-8 text whose first non-blank line is a JSON object; later lines are the
caller's to judge (``validate`` lists each bad one).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator

from docextract.errors import InputError
from docextract.readers import detect

NOT_JSONL = "not a JSONL file (one JSON object per line)"


def jsonl_lines(path: str | Path) -> Iterator[tuple[int, str]]:
    """``(line number, text)`` of every non-blank line of ``path``, 1-based. Raises InputError when the file
    cannot be opened, is not UTF-8 text, or does not start with a JSON object."""
    path = Path(path)
    try:
        handle = path.open("rb")
    except FileNotFoundError:
        raise InputError("no such file", path=str(path), code="INPUT_NOT_FOUND") from None
    except IsADirectoryError:
        raise InputError(f"is a folder, {NOT_JSONL}", path=str(path), code="INPUT_UNREADABLE") from None
    except OSError as error:
        raise InputError(f"cannot read: {error.strerror}", path=str(path), code="INPUT_UNREADABLE") from None
    with handle:
        _refuse_binary(path, handle.read(detect.SNIFF_BYTES))
        handle.seek(0)
        first = True
        for number, raw in enumerate(handle, start=1):
            try:
                text = raw.decode("utf-8-sig" if number == 1 else "utf-8")
            except UnicodeDecodeError as error:
                raise InputError(f"{NOT_JSONL}: line {number} is not UTF-8 text ({error.reason} at byte {error.start})",
                                 path=str(path), code="UNSUPPORTED_FORMAT") from None
            if not text.strip():
                continue
            if first:
                _require_object(path, number, text)
                first = False
            yield number, text


def _refuse_binary(path: Path, head: bytes) -> None:
    kind = detect.sniff(head)
    if kind is not None and kind != detect.KIND_WORDS_JSON:
        raise InputError(f"{NOT_JSONL}: it is a {kind.upper()} file", path=str(path), code="UNSUPPORTED_FORMAT")
    if b"\x00" in head:
        raise InputError(f"{NOT_JSONL}: {detect.describe(head)} (binary data)", path=str(path), code="UNSUPPORTED_FORMAT")


def _require_object(path: Path, number: int, text: str) -> None:
    try:
        value = json.loads(text)
    except ValueError:
        value = None
    if not isinstance(value, dict):
        start = " ".join(text.split())[:40]
        raise InputError(f"{NOT_JSONL}: line {number} is not a JSON object ({start!r})", path=str(path),
                         code="UNSUPPORTED_FORMAT")
