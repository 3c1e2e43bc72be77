"""What kind of file is this? Decided by its first bytes (magic numbers), never by its extension."""

from __future__ import annotations

from pathlib import Path

from docextract.errors import InputError

KIND_PDF = "pdf"
KIND_PNG = "png"
KIND_JPEG = "jpeg"
KIND_TIFF = "tiff"
KIND_WORDS_JSON = "words_json"

MIME_TYPES = {
    KIND_PDF: "application/pdf",
    KIND_PNG: "image/png",
    KIND_JPEG: "image/jpeg",
    KIND_TIFF: "image/tiff",
    KIND_WORDS_JSON: "application/json",
}

# PDF readers accept a header anywhere in the first KiB (garbage before %PDF- is common in the wild).
PDF_HEADER_SEARCH = 1024  # bytes
SNIFF_BYTES = 4096  # bytes read to decide the type

_UTF8_BOM = b"\xef\xbb\xbf"


def sniff(head: bytes) -> str | None:
    """The kind of a file from its first bytes, or None when docextract does not read it."""
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return KIND_PNG
    if head.startswith(b"\xff\xd8\xff"):
        return KIND_JPEG
    if head.startswith((b"II*\x00", b"MM\x00*")):
        return KIND_TIFF
    if b"%PDF-" in head[:PDF_HEADER_SEARCH]:
        return KIND_PDF
    text = head[len(_UTF8_BOM):] if head.startswith(_UTF8_BOM) else head
    if text.lstrip(b" \t\r\n").startswith(b"{"):
        return KIND_WORDS_JSON
    return None


def describe(head: bytes) -> str:
    """A short human description of an unsupported file's first bytes, for the error message."""
    known = {
        b"GIF8": "a GIF image", b"PK\x03\x04": "a ZIP archive (or DOCX/XLSX)", b"BM": "a BMP image",
        b"RIFF": "a RIFF file (WebP/AVI/WAV)", b"<?xml": "an XML file", b"<svg": "an SVG image",
        b"%!PS": "a PostScript file", b"\xd0\xcf\x11\xe0": "an old Office document",
    }
    for magic, name in known.items():
        if head.startswith(magic):
            return name
    if head[4:12] in (b"ftypheic", b"ftypheix", b"ftypmif1", b"ftypavif"):
        return "a HEIC/AVIF image"
    if head.lstrip().lower().startswith((b"<!doctype html", b"<html")):
        return "an HTML page"
    return "not a PDF, PNG, JPEG, TIFF or words JSON file"


def detect_kind(path: Path) -> str:
    """Read the first bytes of ``path`` and return its kind; InputError when it is empty or unsupported."""
    with open(path, "rb") as handle:
        return kind_of(handle.read(SNIFF_BYTES), str(path))


def kind_of(head: bytes, name: str) -> str:
    """The kind of the document ``name`` whose first :data:`SNIFF_BYTES` are ``head``; InputError when it is empty
    or unsupported."""
    if not head:
        raise InputError("the file is empty (0 bytes)", path=name, code="INPUT_EMPTY", stage="open")
    kind = sniff(head)
    if kind is None:
        raise InputError(
            f"unsupported file type: {describe(head)}; docextract reads PDF, PNG, JPEG, TIFF and words JSON",
            path=name, code="UNSUPPORTED_FORMAT", stage="open",
        )
    return kind
