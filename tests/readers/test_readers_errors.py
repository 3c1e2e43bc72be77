"""Every bad input is one InputError (or MissingDependencyError) naming the file, with a known code."""

from __future__ import annotations

import os

import pytest
from PIL import Image

import pdf_factory as factory
from docextract.errors import ERROR_CODES, InputError, MissingDependencyError, UsageError
from docextract.readers import ocr as ocr_mod
from docextract.readers import read_document
from docextract.readers.limits import MAX_IMAGE_PIXELS


def read_error(path, **options) -> InputError:
    with pytest.raises(InputError) as info:
        read_document(path, **options)
    error = info.value
    assert error.code in ERROR_CODES and error.path == str(path)
    assert "\n" not in error.one_line()
    return error


def test_missing_file(tmp_path):
    assert read_error(tmp_path / "nope.pdf").code == "INPUT_NOT_FOUND"


def test_directory(tmp_path):
    assert read_error(tmp_path).code == "INPUT_UNREADABLE"


def test_empty_file(tmp_path):
    path = tmp_path / "empty.pdf"
    path.write_bytes(b"")
    assert read_error(path).code == "INPUT_EMPTY"


@pytest.mark.parametrize("content, named", [
    (b"GIF89a\x01\x00\x01\x00", "GIF"),
    (b"<!DOCTYPE html><html><body>404</body></html>", "HTML"),
    (b"plain text, no magic", "not a PDF"),
    (b"PK\x03\x04rest-of-a-zip", "ZIP"),
])
def test_unsupported_type(tmp_path, content, named):
    path = tmp_path / "thing.pdf"  # the extension lies; the bytes decide
    path.write_bytes(content)
    error = read_error(path)
    assert error.code == "UNSUPPORTED_FORMAT" and named in error.message


@pytest.mark.parametrize("cut", [0.1, 0.5, 0.9])
def test_truncated_pdf(tmp_path, cut):
    whole = tmp_path / "whole.pdf"
    factory.text_lines_pdf(whole, ["some words here"])
    data = whole.read_bytes()
    path = tmp_path / "truncated.pdf"
    path.write_bytes(data[: int(len(data) * cut)])
    try:
        doc = read_document(path, ocr="never")  # PDFium repairs some truncations: then it must read
        assert len(doc.pages) == 1
    except InputError as error:
        assert error.code == "PDF_MALFORMED"


def test_header_only_pdf(tmp_path):
    path = tmp_path / "header.pdf"
    path.write_bytes(b"%PDF-1.7\n")
    assert read_error(path).code == "PDF_MALFORMED"


def test_encrypted_pdf_needs_the_password(tmp_path):
    path = tmp_path / "secret.pdf"
    placed = factory.encrypted_pdf(path, owner_password="owner-pw", user_password="user-pw")
    error = read_error(path)
    assert error.code == "PDF_ENCRYPTED" and "--password" in error.message
    assert read_error(path, password="wrong").code == "PDF_ENCRYPTED"
    words = read_document(path, password="user-pw").pages[0].words
    assert [w.text for w in words] == [p.text for p in placed]


def test_owner_password_only_pdf_just_opens(tmp_path):
    path = tmp_path / "restricted.pdf"
    placed = factory.encrypted_pdf(path, owner_password="owner-pw", user_password=None)
    assert [w.text for w in read_document(path).pages[0].words] == [p.text for p in placed]


def test_real_encrypted_sample(shared_data):
    path = shared_data("pdfs", "py-pdf-sample-files", "005-libreoffice-writer-password", "libreoffice-writer-password.pdf")
    assert read_error(path).code == "PDF_ENCRYPTED"
    assert read_document(path, password="openpassword", ocr="never").word_count > 0  # from files.json / README


def test_image_too_large_is_refused_before_decoding(tmp_path):
    path = tmp_path / "bomb.png"
    factory.png_header_only(path, 50_000, 50_000)  # 2.5 GP declared in a file of ~100 bytes
    assert path.stat().st_size < 200
    assert read_error(path).code == "IMAGE_TOO_LARGE"
    # just over the limit, inside Pillow's own warning-only zone: refused too
    side = int(MAX_IMAGE_PIXELS ** 0.5) + 1
    factory.png_header_only(path, side, side)
    assert read_error(path, ocr="never").code == "IMAGE_TOO_LARGE"


@pytest.mark.parametrize("fmt", ["PNG", "JPEG"])
def test_truncated_image(tmp_path, fmt):
    path = tmp_path / f"cut.{fmt.lower()}"
    Image.effect_noise((400, 300), 60).save(path, fmt)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    assert read_error(path, ocr="never").code == "IMAGE_TRUNCATED"


def test_pdf_page_render_over_the_pixel_limit(tmp_path):
    path = tmp_path / "poster.pdf"
    factory.text_lines_pdf(path, ["huge page"], width=14_000, height=14_000)
    error = read_error(path, ocr="always")
    assert error.code == "RESOURCE_LIMIT" and "--dpi" in error.message
    assert read_document(path, ocr="never").pages[0].words  # the text layer needs no render


def test_missing_tesseract(tmp_path, monkeypatch):
    path = tmp_path / "scan.png"
    Image.new("L", (200, 100), 255).save(path)
    monkeypatch.setattr(ocr_mod.pytesseract.pytesseract, "tesseract_cmd", str(tmp_path / "no-tesseract"))
    ocr_mod._check_tesseract_cached.cache_clear()
    with pytest.raises(MissingDependencyError) as info:
        read_document(path)
    ocr_mod._check_tesseract_cached.cache_clear()
    assert "tesseract-ocr" in info.value.message and info.value.code == "MISSING_DEPENDENCY"


def test_missing_language_data(tmp_path):
    path = tmp_path / "scan.png"
    Image.new("L", (200, 100), 255).save(path)
    with pytest.raises(MissingDependencyError) as info:
        read_document(path, lang="xyz")
    assert "tesseract-ocr-xyz" in info.value.message


def test_ocr_timeout(tmp_path):
    path = tmp_path / "page.pdf"
    factory.text_lines_pdf(path, ["a page that takes longer than a millisecond"])
    assert read_error(path, ocr="always", ocr_timeout=0.001).code == "OCR_TIMEOUT"


def test_usage_errors(tmp_path):
    with pytest.raises(UsageError):
        read_document(tmp_path / "x.pdf", ocr="sometimes")
    with pytest.raises(UsageError):
        read_document(tmp_path / "x.pdf", dpi=5)


@pytest.mark.skipif(os.geteuid() == 0, reason="root can read any file")
def test_unreadable_file(tmp_path):
    path = tmp_path / "locked.pdf"
    factory.text_lines_pdf(path, ["x"])
    path.chmod(0)
    assert read_error(path).code == "INPUT_UNREADABLE"
