"""What a reader reads: a file on disk, or a document's bytes held in memory, and the name it goes by.

`docextract run` reads files by their path. The Python API (:class:`docextract.Extractor`) also takes bytes and
binary file objects (an upload, an object fetched from storage); those are read from memory, never written to a
temporary file: PDFium takes bytes, pdfminer and Pillow take a stream. ``name`` is what the output's
``source.path`` and every error message say: the path as given, or the name the caller gave the bytes.
"""

from __future__ import annotations

import hashlib
import io
import os
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from docextract.files import file_sha256

BYTES_NAME = "<bytes>"  # the name of bytes given without one


@dataclass(frozen=True, eq=False)
class Source:
    """A document to read: ``path`` (a file) or ``data`` (its bytes), never both; ``name`` for the output."""

    name: str
    path: Path | None = None
    data: bytes | None = None

    def __post_init__(self):
        if (self.path is None) == (self.data is None):
            raise ValueError("a Source is a path or bytes, one of the two")

    @classmethod
    def of(cls, path: str | os.PathLike[str] | Source) -> Source:
        """``path`` as a Source named as given (a Source stays as it is)."""
        if isinstance(path, Source):
            return path
        return cls(name=str(path), path=Path(path))

    @classmethod
    def from_bytes(cls, data: bytes, name: str | None = None) -> Source:
        return cls(name=name or BYTES_NAME, data=bytes(data))

    def open(self) -> BinaryIO:
        """The document's bytes as a binary stream (the caller closes it)."""
        if self.path is not None:
            return open(self.path, "rb")
        return io.BytesIO(self.data)

    def head(self, size: int) -> bytes:
        """The first ``size`` bytes (what decides the file type)."""
        if self.data is not None:
            return self.data[:size]
        with open(self.path, "rb") as handle:
            return handle.read(size)

    def size(self) -> int:
        return len(self.data) if self.data is not None else self.path.stat().st_size

    def read_bytes(self) -> bytes:
        return self.data if self.data is not None else self.path.read_bytes()

    def sha256(self) -> str:
        """The hex sha256 of the document's bytes (a file: answered from memory when a batch worker hashed it)."""
        if self.data is not None:
            return hashlib.sha256(self.data).hexdigest()
        return file_sha256(self.path, reuse=True).sha256

    def for_pdfium(self) -> str | bytes:
        """What ``pypdfium2.PdfDocument`` opens: the path, or the bytes themselves."""
        return str(self.path) if self.path is not None else self.data
