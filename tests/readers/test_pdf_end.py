"""Padding after a PDF's %%EOF: pdfminer is given the file up to its end (readers/pdf_end.py), and the page reads
the same words as without the padding."""

from __future__ import annotations

import os
from pathlib import Path

from docextract.readers import read_document
from docextract.readers.pdf_end import SCAN_CHUNK_BYTES, TOLERATED_TAIL_BYTES, document_end, open_for_pdfminer

EXAMPLE = Path(__file__).resolve().parent.parent.parent / "examples" / "invoice.pdf"
PADDING = 3 * 2**20  # zeros: no line break, the run pdfminer's backward line reader is quadratic in


def words(path: Path) -> list[tuple]:
    return [(w.text, w.box) for page in read_document(path, ocr="never").pages for w in page.words]


def test_an_invoice_padded_with_zeros_reads_as_the_invoice(tmp_path):
    original = EXAMPLE.read_bytes()
    padded = tmp_path / "padded.pdf"
    padded.write_bytes(original + b"\0" * PADDING)
    assert document_end(padded) == original.rindex(b"%%EOF") + len(b"%%EOF")
    with open_for_pdfminer(padded) as stream:
        assert stream.seek(0, os.SEEK_END) == document_end(padded)  # pdfminer's backward scan starts here
        stream.seek(0)
        assert stream.read() == original[: document_end(padded)]
    assert words(padded) == words(EXAMPLE) and words(EXAMPLE)


def test_files_are_read_whole_unless_only_a_long_padding_follows_the_last_eof(tmp_path):
    original = EXAMPLE.read_bytes()
    cases = {
        "as it is": original,  # a line break after %%EOF
        "short tail": original + b"\0" * (TOLERATED_TAIL_BYTES - 1),  # with the line break: just at the limit
        "no eof at all": original[: original.rindex(b"startxref")] + b"\0" * PADDING,
        "a later revision cut short": original + b"\n" + b"\0" * PADDING + b"\nxref\n0 1\ntrailer\n<<>>\nstartxref\n9",
    }
    for name, data in cases.items():
        path = tmp_path / f"{name}.pdf"
        path.write_bytes(data)
        assert document_end(path) is None, name
        with open_for_pdfminer(path) as stream:
            assert stream.read() == data, name


def test_an_eof_marker_across_two_scanned_chunks_is_found(tmp_path):
    original = EXAMPLE.read_bytes()
    marker = original.rindex(b"%%EOF")
    for split in range(1, len(b"%%EOF")):
        # the file scanned from its end in chunks: the first ends `split` bytes into the marker
        size = marker + split + SCAN_CHUNK_BYTES
        path = tmp_path / f"split-{split}.pdf"
        path.write_bytes(original + b"\0" * (size - len(original)))
        assert document_end(path) == marker + len(b"%%EOF"), split
