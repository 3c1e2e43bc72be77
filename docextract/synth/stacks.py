"""Stacks: several invoice PDFs concatenated into one, as a scanner's feeder makes them, with the true page
range of each invoice. What `docextract synth --stack K` writes and what the split benchmark and tests build
from real e-invoices. Pages are copied whole by PDFium (text layer and drawing); attachments are not, so an
e-invoice in a stack carries no XML and is read from its pages."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from docextract.errors import InputError
from docextract.files import write_bytes_atomic


def stack_pdfs(sources: Sequence[str | Path], out: str | Path) -> list[tuple[int, int]]:
    """Write the pages of ``sources``, in order, as one PDF at ``out``; returns each source's (first, last)
    page in the stack, 1-based and inclusive (the ``page_range`` `run` should give each document)."""
    import io

    import pypdfium2 as pdfium

    stack = pdfium.PdfDocument.new()
    ranges: list[tuple[int, int]] = []
    try:
        for source in sources:
            try:
                pdf = pdfium.PdfDocument(str(source))
            except pdfium.PdfiumError as error:
                raise InputError(f"cannot open the PDF to stack: {error}", path=str(source), code="PDF_MALFORMED") from error
            try:
                first = len(stack) + 1
                stack.import_pages(pdf)
                ranges.append((first, len(stack)))
            finally:
                pdf.close()
        buffer = io.BytesIO()
        stack.save(buffer)
    finally:
        stack.close()
    write_bytes_atomic(Path(out), buffer.getvalue())
    return ranges
