"""Small PDFs and images generated for the reader tests (fpdf2 writes, pypdfium2 renders/rotates).

Every generator returns what it placed on the page, so tests compare what was read against what
was written rather than against hard-coded numbers. Coordinates are points, top-left origin.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

import numpy
import pypdfium2 as pdfium
from fpdf import FPDF
from PIL import Image

FONT = "Helvetica"
FONT_SIZE = 11  # points


@dataclass(frozen=True)
class PlacedWord:
    """A word written at left edge ``x`` with its baseline at ``baseline`` (points, top-left origin)."""

    text: str
    x: float
    baseline: float


def _new_pdf(width: float, height: float) -> FPDF:
    pdf = FPDF(unit="pt", format=(width, height))
    pdf.set_auto_page_break(False)
    pdf.set_font(FONT, size=FONT_SIZE)
    return pdf


def _write_line(pdf: FPDF, x: float, baseline: float, words: list[str]) -> list[PlacedWord]:
    placed = []
    for word in words:
        pdf.text(x, baseline, word)
        placed.append(PlacedWord(word, x, baseline))
        x += pdf.get_string_width(word + " ")
    return placed


def text_lines_pdf(path: Path, lines: list[str], *, width: float = 360, height: float = 240,
                   left: float = 24, first_baseline: float = 40, leading: float = 18,
                   font_size: float = FONT_SIZE) -> list[PlacedWord]:
    """A one-page PDF of ``lines`` of text, left-aligned."""
    pdf = _new_pdf(width, height)
    pdf.set_font(FONT, size=font_size)
    pdf.add_page()
    placed = []
    for i, line in enumerate(lines):
        placed += _write_line(pdf, left, first_baseline + i * leading, line.split())
    pdf.output(str(path))
    return placed


def two_column_pdf(path: Path, *, width: float = 612, height: float = 400) -> tuple[list[PlacedWord], list[PlacedWord], float]:
    """A page with two columns of prose; returns (left words, right words, the gutter's x)."""
    left_lines = ["Alpha bravo charlie delta", "echo foxtrot golf hotel", "india juliet kilo lima"]
    right_lines = ["mike november oscar papa", "quebec romeo sierra tango", "uniform victor whiskey xray"]
    gutter = width / 2
    pdf = _new_pdf(width, height)
    pdf.add_page()
    left, right = [], []
    for i, (l_line, r_line) in enumerate(zip(left_lines, right_lines)):
        baseline = 60 + 16 * i
        left += _write_line(pdf, 40, baseline, l_line.split())
        right += _write_line(pdf, gutter + 20, baseline, r_line.split())
    pdf.output(str(path))
    return left, right, gutter


@dataclass(frozen=True)
class TableCell:
    text: str
    x0: float
    top: float
    x1: float
    bottom: float


def table_pdf(path: Path) -> list[TableCell]:
    """A bordered 3x4 invoice-like table; returns the cells with their rectangles."""
    rows = [["Item", "Qty", "Price", "Total"], ["Widget", "2", "3.50", "7.00"], ["Gadget", "10", "1.25", "12.50"]]
    col_w, row_h, x_start, y_start = 90.0, 22.0, 40.0, 50.0
    pdf = _new_pdf(460, 200)
    pdf.add_page()
    cells = []
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            x, y = x_start + c * col_w, y_start + r * row_h
            pdf.set_xy(x, y)
            pdf.cell(col_w, row_h, text, border=1)
            cells.append(TableCell(text, x, y, x + col_w, y + row_h))
    pdf.output(str(path))
    return cells


def rotate_pdf_pages(src: Path, dest: Path, degrees: int) -> None:
    """A copy of ``src`` whose pages carry ``/Rotate degrees`` (the content itself untouched)."""
    document = pdfium.PdfDocument(str(src))
    for page in document:
        page.set_rotation(degrees)
    document.save(str(dest))
    document.close()


def render_page(pdf_path: Path, dpi: float, page_index: int = 0) -> Image.Image:
    document = pdfium.PdfDocument(str(pdf_path))
    image = document[page_index].render(scale=dpi / 72.0, grayscale=True).to_pil()
    document.close()
    return image


def add_scan_noise(image: Image.Image, *, seed: int = 0, speckle_fraction: float = 0.01, jitter: int = 40) -> Image.Image:
    """A scan-like copy: gray paper, brightness jitter on every pixel and random black/white speckles."""
    rng = random.Random(seed)
    gray = image.convert("L")
    noisy = gray.point(lambda v: max(0, min(255, int(v * 0.85 + 20))))  # gray paper, lifted ink
    pixels = noisy.load()
    width, height = noisy.size
    for _ in range(int(width * height * speckle_fraction)):
        x, y = rng.randrange(width), rng.randrange(height)
        pixels[x, y] = 0 if rng.random() < 0.5 else 255
    # gaussian, centred on 128, from the seed: PIL's Image.effect_noise draws from an unseeded generator, which made
    # the OCR tests' recall vary from run to run (0.875 against a bar of 0.9 on one run in the full suite)
    grain = numpy.random.default_rng(seed).normal(128, jitter, (height, width))
    noise = Image.fromarray(grain.clip(0, 255).astype(numpy.uint8), "L")
    return Image.blend(noisy, noise, 0.12)


def image_pdf(path: Path, image: Image.Image, *, width: float, height: float) -> None:
    """A PDF page of ``width`` x ``height`` points that is only ``image`` (a scan: no text layer)."""
    pdf = FPDF(unit="pt", format=(width, height))
    pdf.set_auto_page_break(False)
    pdf.add_page()
    pdf.image(image, x=0, y=0, w=width, h=height)
    pdf.output(str(path))


def encrypted_pdf(path: Path, *, owner_password: str, user_password: str | None) -> list[PlacedWord]:
    """A one-page encrypted PDF (``user_password`` None: owner-password-only, opens without one)."""
    pdf = _new_pdf(300, 120)
    pdf.add_page()
    placed = _write_line(pdf, 30, 50, "Confidential agreement text".split())
    pdf.set_encryption(owner_password=owner_password, user_password=user_password)
    pdf.output(str(path))
    return placed


def png_header_only(path: Path, width: int, height: int) -> None:
    """A tiny PNG whose header declares ``width`` x ``height`` pixels (a decompression-bomb stand-in)."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    ihdr = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)  # 1-bit grayscale
    idat = zlib.compress(b"\x00" * 64)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b""))
