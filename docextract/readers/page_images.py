"""Each page of a PDF or image file as a PNG ``data:`` URI: what a Label Studio task shows its reviewer
(`docextract run --format labelstudio`). The image covers the whole page, so the output's page fractions are
the image's percentages."""

from __future__ import annotations

import base64
import io
from pathlib import Path

from docextract.errors import InputError, UsageError
from docextract.readers import detect

PREVIEW_DPI = 100  # sharp enough to read an invoice on screen, ~100-300 KB a page


def page_data_uris(path: str | Path, *, dpi: float = PREVIEW_DPI, password: str | None = None) -> dict[int, str]:
    """Page number (1-based) -> ``data:image/png;base64,...`` for the PDF or image at ``path``."""
    path = Path(path)
    kind = detect.detect_kind(path)
    if kind == detect.KIND_PDF:
        import pypdfium2 as pdfium

        from docextract.readers.pdf import render_page

        try:
            pdf = pdfium.PdfDocument(str(path), password=password)
        except pdfium.PdfiumError as error:
            raise InputError(f"cannot render the PDF's pages: {error}", path=str(path), code="PDF_MALFORMED") from None
        try:
            return {n: _png(render_page(pdf[n - 1], dpi, source=str(path), number=n)) for n in range(1, len(pdf) + 1)}
        finally:
            pdf.close()
    if detect.MIME_TYPES[kind].startswith("image/"):
        from PIL import Image, ImageOps, ImageSequence

        with Image.open(path) as image:  # turned upright by its EXIF orientation, as the reader turns it
            return {n: _png(ImageOps.exif_transpose(frame.convert("RGB")))
                    for n, frame in enumerate(ImageSequence.Iterator(image), start=1)}
    raise UsageError(f"a Label Studio task shows a page image: give a PDF or an image, not {detect.MIME_TYPES[kind]}",
                     path=str(path))


def _png(image) -> str:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")
