"""A deterministic generator of broken and hostile inputs, with expected outcomes.

``write_hostile_cases(folder)`` writes every case and returns ``{file name: Case}``; each case
lists the outcomes a correct reader may produce, as ``(status, error code)`` pairs. Several
cases accept more than one outcome where a tolerant parser may legitimately recover (pdfminer
rebuilds a broken cross-reference table by scanning the file). ``INTERNAL_ERROR`` is never
acceptable. Everything is built from raw bytes (or fpdf2 with a fixed date), so two calls write
identical files; bombs are small on disk.
"""

from __future__ import annotations

import datetime
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path

OK = ("ok", None)
MALFORMED = ("failed", "PDF_MALFORMED")
UNSUPPORTED = ("failed", "UNSUPPORTED_FORMAT")
EMPTY = ("failed", "INPUT_EMPTY")

BOMB_DECODED_BYTES = 1 << 30  # 1 GiB of zeros behind ~1 MiB of Flate data
BOMB_CHUNK_BYTES = 1 << 24  # 16 MiB: compressed once, repeated (see _zlib_zeros)
BOMB_IMAGE_SIDE = 30_000  # pixels: 900 MP declared, 10x Pillow's MAX_IMAGE_PIXELS
ADLER_MODULUS = 65521
NESTING_DEPTH = 100_000  # nested PDF arrays
TEXT = b"BT /F1 18 Tf 72 720 Td (Invoice 2024-0042 Total 1,234.56 EUR) Tj ET"


@dataclass(frozen=True)
class Case:
    name: str
    data: bytes
    expected: tuple[tuple[str, str | None], ...]  # acceptable (status, code) outcomes
    why: str


# ---------------------------------------------------------------- raw PDF building

def _stream(body: bytes, extra: bytes = b"") -> bytes:
    return b"<< /Length %d %s>>\nstream\n" % (len(body), extra) + body + b"\nendstream"


def _page_objects(content: bytes, *, page_extra: bytes = b"", kids: bytes = b"[3 0 R]",
                  media_box: bytes = b"[0 0 612 792]") -> list[bytes]:
    return [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids " + kids + b" /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox " + media_box + b" /Resources << /Font << /F1 4 0 R >> >> "
        b"/Contents 5 0 R " + page_extra + b">>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        content,
    ]


def build_pdf(objects: list[bytes], *, trailer_extra: bytes = b"", xref_shift: int = 0, startxref: int | None = None) -> bytes:
    """A classic PDF with a cross-reference table; ``xref_shift`` falsifies every offset in it."""
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref_at = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % (offset + xref_shift)
    out += b"trailer\n<< /Size %d /Root 1 0 R %s>>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1, trailer_extra, xref_at if startxref is None else startxref)
    return bytes(out)


def valid_pdf() -> bytes:
    return build_pdf(_page_objects(_stream(TEXT)))


def _zlib_zeros(total: int) -> bytes:
    """zlib data that inflates to ``total`` zero bytes, built in milliseconds.

    After a full flush a deflate block does not refer back, so the compressed form of one chunk
    can be repeated; the zlib header and the Adler-32 trailer are written around it by hand.
    """
    chunk = bytes(BOMB_CHUNK_BYTES)
    raw = zlib.compressobj(9, zlib.DEFLATED, -15)
    piece = raw.compress(chunk) + raw.flush(zlib.Z_FULL_FLUSH)
    end = raw.flush(zlib.Z_FINISH)
    adler = ((total % ADLER_MODULUS) << 16) | 1  # Adler-32 of n zero bytes: A = 1, B = n mod 65521
    return b"\x78\xda" + piece * (total // BOMB_CHUNK_BYTES) + end + struct.pack(">I", adler)


def _encrypted_pdf() -> bytes:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_creation_date(datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc))
    pdf.set_encryption(owner_password="owner", user_password="secret")
    pdf.add_page()
    pdf.set_font("helvetica", size=12)
    pdf.cell(text="Invoice 2024-0042 Total 1,234.56 EUR")
    return bytes(pdf.output())


# ---------------------------------------------------------------- raw PNG building

def _png_chunk(kind: bytes, body: bytes, *, bad_crc: bool = False) -> bytes:
    crc = zlib.crc32(kind + body) ^ (0xFFFFFFFF if bad_crc else 0)
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)


def build_png(width: int, height: int, *, rows: int | None = None, bad_crc: bool = False) -> bytes:
    """An 8-bit grey PNG (a white page with a black bar), or a 1-bit one declaring a huge size."""
    if rows is None:  # a normal, small image
        lines = b"".join(b"\x00" + (b"\x00" * width if 10 <= y < 14 else b"\xff" * width) for y in range(height))
        header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    else:  # declares width x height but carries only a few rows: Pillow refuses it at open()
        lines = (b"\x00" + bytes((width + 7) // 8)) * rows
        header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", header)
            + _png_chunk(b"IDAT", zlib.compress(lines, 9), bad_crc=bad_crc) + _png_chunk(b"IEND", b""))


# ---------------------------------------------------------------- the cases

def hostile_cases() -> list[Case]:
    pdf = valid_pdf()
    png = build_png(64, 24)
    nested = b"[" * NESTING_DEPTH + b"]" * NESTING_DEPTH
    return [
        Case("valid.pdf", pdf, (OK,), "control: a well-formed one-page PDF with a text layer"),
        Case("valid.png", png, (OK,), "control: a small well-formed PNG"),
        Case("empty.pdf", b"", (EMPTY,), "0 bytes"),
        Case("empty.png", b"", (EMPTY,), "0 bytes"),
        Case("one-byte.pdf", b"%", (UNSUPPORTED,), "1 byte, no header"),
        Case("header-only.pdf", b"%PDF-1.7\n", (MALFORMED,), "a header and nothing else"),
        *(Case(f"truncated-{percent}.pdf", pdf[: len(pdf) * percent // 100], (MALFORMED, OK),
               f"cut at {percent}% (recovery by scanning may still find the page)") for percent in (10, 50, 90)),
        Case("text-renamed.pdf", b"Dear customer,\nplease find the invoice attached.\n", (UNSUPPORTED,), "plain text, wrong extension"),
        Case("html-error-page.pdf", b"<!DOCTYPE html><html><body>502 Bad Gateway</body></html>", (UNSUPPORTED,),
             "an HTML error page saved as .pdf"),
        Case("png-renamed.pdf", png, (OK,), "a PNG named .pdf: the type comes from the bytes"),
        Case("svg-renamed.png", b'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>', (UNSUPPORTED,),
             "an SVG named .png"),
        Case("garbage-before-header.pdf", bytes(range(256)) * 2 + pdf, (OK, MALFORMED), "512 bytes of junk before %PDF-"),
        Case("broken-xref.pdf", build_pdf(_page_objects(_stream(TEXT)), xref_shift=7), (OK, MALFORMED),
             "every xref offset wrong by 7 bytes"),
        Case("startxref-beyond-eof.pdf", build_pdf(_page_objects(_stream(TEXT)), startxref=10**12), (OK, MALFORMED),
             "startxref points past the end"),
        Case("no-eof-marker.pdf", pdf[: pdf.rindex(b"startxref")], (OK, MALFORMED), "no startxref, no %%EOF"),
        Case("deep-nesting.pdf", build_pdf(_page_objects(_stream(TEXT), page_extra=b"/Junk " + nested + b" ")),
             (OK, MALFORMED, ("failed", "RESOURCE_LIMIT")), f"{NESTING_DEPTH} nested arrays in the page dictionary"),
        Case("cyclic-pages.pdf", build_pdf(_page_objects(_stream(TEXT), kids=b"[3 0 R 2 0 R]")), (OK, MALFORMED),
             "the page tree lists itself as a kid"),
        Case("cyclic-prev.pdf", build_pdf(_page_objects(_stream(TEXT)), trailer_extra=b"/Prev 0 "), (OK, MALFORMED),
             "the trailer's /Prev chain loops"),
        Case("flate-bomb.pdf", build_pdf(_page_objects(_stream(_zlib_zeros(BOMB_DECODED_BYTES), b"/Filter /FlateDecode "))),
             (("failed", "MEMORY_LIMIT"), ("failed", "RESOURCE_LIMIT"), ("failed", "TIMEOUT")),
             "a ~1 MiB content stream that inflates to 1 GiB"),
        Case("huge-mediabox.pdf", build_pdf(_page_objects(_stream(b""), page_extra=b"/UserUnit 75 ",
                                                          media_box=b"[0 0 14400 14400]")),
             (("failed", "RESOURCE_LIMIT"), ("failed", "PDF_TOO_LARGE"), ("failed", "IMAGE_TOO_LARGE")),
             "a 200x200 inch page without text: rendering it for OCR would need gigapixels"),
        Case("encrypted.pdf", _encrypted_pdf(), (("failed", "PDF_ENCRYPTED"),), "user password required"),
        Case("bomb.png", build_png(BOMB_IMAGE_SIDE, BOMB_IMAGE_SIDE, rows=4), (("failed", "IMAGE_TOO_LARGE"),),
             f"declares {BOMB_IMAGE_SIDE}x{BOMB_IMAGE_SIDE} pixels in a few hundred bytes"),
        Case("bad-crc.png", build_png(64, 24, bad_crc=True), (OK, ("failed", "IMAGE_TRUNCATED")),
             "the image data chunk fails its CRC (Pillow checks CRCs only in verify(); the pixels are intact)"),
        Case("truncated.png", png[: len(png) // 2], (("failed", "IMAGE_TRUNCATED"), ("failed", "INPUT_UNREADABLE")),
             "cut in the middle of the image data"),
    ]


def write_hostile_cases(folder: str | Path) -> dict[str, Case]:
    """Write every case into ``folder`` (created) and return them by file name."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    cases = {case.name: case for case in hostile_cases()}
    for case in cases.values():
        (folder / case.name).write_bytes(case.data)
    return cases
