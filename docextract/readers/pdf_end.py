"""Where a PDF's own bytes end, so that pdfminer does not read the padding some files carry after them.

pdfminer finds the cross-reference table by reading the file backwards a line at a time, and it builds each
line by prepending 4 KiB blocks to it (``PSBaseParser.revreadlines``, pdfminer.six 20260107): a run of bytes
without a line break after ``%%EOF`` costs time quadratic in its length. A one-page invoice padded with 30 MB
of zeros took 72 s in ``pdfplumber.open`` alone (cProfile, benchmarks/serve_load.py's padded case), where
PDFium opens it in 0.25 s. What follows the last ``%%EOF`` is no part of the document (a reader finds the
trailer through the last ``startxref`` before it), so pdfminer is given the file up to there:
:func:`open_for_pdfminer`.
"""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import BinaryIO

from docextract.readers.source import Source

EOF_MARKER = b"%%EOF"
STARTXREF = b"startxref"
# A tail shorter than this costs pdfminer under a millisecond even without line breaks: such files are read as
# they are, so the everyday PDF (a line break or a few bytes after %%EOF) takes exactly the path it always took.
TOLERATED_TAIL_BYTES = 64 * 1024
SCAN_CHUNK_BYTES = 1 << 20


def document_end(path: str | Path | Source) -> int | None:
    """The offset just past the file's last ``%%EOF`` when more than :data:`TOLERATED_TAIL_BYTES` of something
    that is not PDF follows it; None when the file should be read whole (a short tail, no ``%%EOF`` at all, or a
    ``startxref`` after it: a later revision, cut short, that pdfminer may still recover)."""
    with Source.of(path).open() as file:
        size = file.seek(0, os.SEEK_END)
        end = size
        overlap = b""  # the first bytes of the chunk read before, for a marker that straddles two chunks
        while end > 0:
            start = max(0, end - SCAN_CHUNK_BYTES)
            file.seek(start)
            chunk = file.read(end - start) + overlap
            found = chunk.rfind(EOF_MARKER)
            if found >= 0:
                marker_end = start + found + len(EOF_MARKER)
                if size - marker_end <= TOLERATED_TAIL_BYTES:
                    return None
                if STARTXREF in chunk[found:]:
                    return None
                return marker_end
            if STARTXREF in chunk:
                return None
            overlap = chunk[: len(STARTXREF) - 1]
            end = start
    return None


class _Prefix(io.RawIOBase):
    """The first ``length`` bytes of a file, as a seekable read-only raw stream."""

    def __init__(self, file: BinaryIO, length: int):
        self._file = file
        self._length = length
        self._position = 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self._position

    def seek(self, offset: int, whence: int = os.SEEK_SET) -> int:
        base = {os.SEEK_SET: 0, os.SEEK_CUR: self._position, os.SEEK_END: self._length}[whence]
        self._position = max(0, base + offset)
        return self._position

    def readinto(self, buffer) -> int:
        wanted = min(len(buffer), self._length - self._position)
        if wanted <= 0:
            return 0
        self._file.seek(self._position)
        read = self._file.readinto(memoryview(buffer)[:wanted])
        self._position += read
        return read

    def close(self) -> None:
        if not self.closed:
            self._file.close()
        super().close()


def open_for_pdfminer(path: str | Path | Source) -> BinaryIO:
    """The file at ``path`` (or a :class:`Source`'s bytes) opened for reading, ending at :func:`document_end` where
    that cuts off padding."""
    source = Source.of(path)
    end = document_end(source)
    if source.data is not None:
        return io.BytesIO(source.data if end is None else source.data[:end])
    raw = open(source.path, "rb", buffering=0)
    if end is None:
        return io.BufferedReader(raw)
    return io.BufferedReader(_Prefix(raw, end))
