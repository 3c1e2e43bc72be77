"""Documents read from bytes held in memory (readers/source.py: what the Python API passes for bytes and file
objects) read as their files do, and their errors name what the caller called them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pdf_factory as factory
import pytest
from einvoice_factory import cii_xml, einvoice_pdf

from docextract.errors import InputError
from docextract.readers import Source, read_document
from docextract.readers.einvoice import read_embedded_invoice

EXAMPLES = Path(__file__).resolve().parent.parent.parent / "examples"


def same_reading(path: Path, **options) -> None:
    """``path`` read from its bytes gives what it gives read from disk, named as the bytes were named."""
    from_disk = read_document(path, **options)
    in_memory = read_document(Source.from_bytes(path.read_bytes(), "upload"), **options)
    assert in_memory.source == "upload" and from_disk.source == str(path)
    assert (in_memory.pages, in_memory.mime_type, in_memory.sha256, in_memory.warnings) == \
        (from_disk.pages, from_disk.mime_type, from_disk.sha256, from_disk.warnings)
    assert from_disk.pages and any(page.words for page in from_disk.pages)


def test_a_pdf_text_layer_both_text_readers_and_a_padded_pdf(tmp_path):
    same_reading(EXAMPLES / "invoice.pdf", ocr="never")
    same_reading(EXAMPLES / "multipage_invoice.pdf", ocr="never", pdf_text="auto")
    padded = tmp_path / "padded.pdf"  # pdfminer gets the bytes up to %%EOF (readers/pdf_end.py)
    padded.write_bytes((EXAMPLES / "invoice.pdf").read_bytes() + b"\0" * (1 << 20))
    same_reading(padded, ocr="never")


def test_an_encrypted_pdf_with_its_password_and_without(tmp_path):
    path = tmp_path / "locked.pdf"
    factory.encrypted_pdf(path, owner_password="owner", user_password="secret")
    same_reading(path, ocr="never", password="secret")
    with pytest.raises(InputError) as refused:
        read_document(Source.from_bytes(path.read_bytes(), "locked-upload.pdf"), ocr="never")
    assert refused.value.code == "PDF_ENCRYPTED" and refused.value.path == "locked-upload.pdf"


def test_a_scanned_image_through_ocr():
    if shutil.which("tesseract") is None:
        pytest.skip("Tesseract is not installed (apt-get install tesseract-ocr)")
    same_reading(EXAMPLES / "scanned_invoice.jpg")


def test_a_words_json(tmp_path):
    path = tmp_path / "words.json"
    path.write_text(json.dumps(read_document(EXAMPLES / "invoice.pdf", ocr="never").to_dict()))
    same_reading(path)


def test_the_embedded_invoice_of_an_e_invoice(tmp_path):
    pdf = einvoice_pdf(tmp_path / "e.pdf", ["Rechnung RE-2024-0042"], cii_xml())
    from_bytes = read_embedded_invoice(Source.from_bytes(pdf.read_bytes(), "e-upload.pdf"))
    assert from_bytes == read_embedded_invoice(pdf) and from_bytes.invoice_number == "RE-2024-0042"


def test_bad_bytes_are_input_errors_named_as_given():
    for data, code in ((b"", "INPUT_EMPTY"), (b"GIF89a....", "UNSUPPORTED_FORMAT"),
                       (b"%PDF-1.4 this is not a PDF body", "PDF_MALFORMED")):
        with pytest.raises(InputError) as refused:
            read_document(Source.from_bytes(data, "named.bin"))
        assert (refused.value.code, refused.value.path) == (code, "named.bin")
    assert Source.from_bytes(b"%PDF").name == "<bytes>"
    with pytest.raises(ValueError):
        Source("both", path=Path("a.pdf"), data=b"%PDF")
