"""Scan-like images of synthetic invoices: the regions still cover the right words after skew and noise."""

from __future__ import annotations

import json
import random

import numpy as np
from PIL import Image

from docextract.document import Box, Word
from docextract.synth.generate import SynthOptions, generate_invoice, render_fitting
from docextract.synth.labelling import Region, label_document, label_words_by_regions, read_pdf_words
from docextract.synth.scan import rotate_box, rotate_regions, rotate_words, scan_pdf

LOW_DPI = 60  # enough to check geometry; tests never need readable text


def test_rotate_box_follows_the_image_rotation():
    image = Image.new("L", (400, 300), 255)
    box = Box(250, 60, 330, 90)
    image.paste(0, (250, 60, 330, 90))
    for angle in (-2.0, 1.5, 10.0):
        turned = np.asarray(image.rotate(angle, fillcolor=255)) < 128
        rows, cols = np.nonzero(turned)
        want = rotate_box(box, angle, 400, 300)
        assert abs(cols.min() - want.x0) <= 2 and abs(cols.max() + 1 - want.x1) <= 2
        assert abs(rows.min() - want.top) <= 2 and abs(rows.max() + 1 - want.bottom) <= 2


def test_scan_regions_still_label_the_moved_words_like_the_digital_labels():
    rendered = render_fitting(5, 2, SynthOptions(("classic_left", "banner"), pages_max=1))
    document = read_pdf_words(rendered.pdf)
    digital = label_document(document, rendered.regions)
    pages = scan_pdf(rendered.pdf, random.Random(0), dpi=LOW_DPI)
    assert len(pages) == 1
    page, scan = document.pages[0], pages[0]
    want = (page.width * LOW_DPI / 72, page.height * LOW_DPI / 72)
    assert abs(scan.image.size[0] - want[0]) <= 1 and abs(scan.image.size[1] - want[1]) <= 1
    assert scan.params.angle != 0
    moved_words = rotate_words(page.words, scan.params.angle, page.width, page.height)
    moved_regions = rotate_regions(list(rendered.regions), scan.params.angle, page.width, page.height)
    scanned = label_words_by_regions(moved_words, moved_regions)
    agree = sum(a.label == b.label for a, b in zip(digital[0], scanned))
    assert agree >= 0.97 * len(scanned)
    assert {l.label for l in scanned} == {l.label for l in digital[0]}


def test_the_image_shows_ink_where_the_regions_say_text_is():
    rendered = render_fitting(6, 0, SynthOptions(("logo_box",), pages_max=1))
    scan = scan_pdf(rendered.pdf, random.Random(1), dpi=LOW_DPI)[0]
    pixels = np.asarray(scan.image, dtype=np.float32)
    scale = LOW_DPI / 72
    moved = rotate_regions([r for r in rendered.regions if r.label], scan.params.angle, scan.width, scan.height)
    inside = []
    for region in moved:
        x0, top, x1, bottom = (int(v * scale) for v in region.box.as_list())
        inside.append(pixels[top:bottom + 1, x0:x1 + 1].min())
    assert np.median(inside) < 120  # dark text under the labelled regions
    blank = pixels[int(scan.height * scale) - 6:, :].mean()  # the bottom margin is paper
    assert blank > 170


def test_region_matching_falls_back_to_overlap_for_loose_ocr_boxes():
    regions = [Region(1, Box(100, 100, 160, 112), "total", 1), Region(1, Box(100, 120, 160, 132), None)]
    words = [Word("1,190.00", Box(95, 96, 170, 113)),  # loose box, centre still inside the total
             Word("190.00", Box(130, 108, 170, 118)),  # centre outside everything, 30% over the total
             Word("page", Box(300, 300, 320, 310))]
    labels = label_words_by_regions(words, regions)
    assert [l.label for l in labels] == ["total", "total", None]
    assert labels[0].entity == 1


def test_a_scanned_invoice_is_written_with_its_regions_sidecar(tmp_path):
    options = SynthOptions(("din_letter",), pages_max=2, pages_min=2, scan_fraction=1.0, scan_dpi=LOW_DPI)
    record = generate_invoice(1, 0, options, tmp_path)
    assert record["synth"]["kind"] == "scan" and record["source"].endswith(".tif")
    with Image.open(tmp_path / record["source"]) as image:
        assert image.n_frames == 2
    sidecar = json.loads((tmp_path / record["regions"]).read_text())
    assert [p["number"] for p in sidecar["pages"]] == [1, 2]
    page = sidecar["pages"][0]
    regions = [Region.from_dict(r, 1) for r in page["regions"]]
    words = [Word(w["text"], Box(*w["box"])) for w in record["pages"][0]["words"]]
    labels = label_words_by_regions(words, regions)
    for word, label in zip(record["pages"][0]["words"], labels):
        assert word.get("label") == label.label


def test_tesseract_words_of_a_scan_are_labelled_by_the_sidecar_regions(tmp_path, monkeypatch):
    import shutil

    import pytest
    pytesseract = pytest.importorskip("pytesseract")
    if shutil.which("tesseract") is None:
        pytest.skip("tesseract is not installed")
    options = SynthOptions(("classic_left",), pages_max=1, scan_fraction=1.0, scan_dpi=150)
    record = generate_invoice(4, 0, options, tmp_path)
    page = json.loads((tmp_path / record["regions"]).read_text())["pages"][0]
    image = Image.open(tmp_path / record["source"])
    monkeypatch.setenv("OMP_THREAD_LIMIT", "1")  # Tesseract's OpenMP is slower on 2 shared cores
    top = image.crop((0, 0, image.width, image.height * 3 // 10))  # the header: enough words, a fast OCR
    data = pytesseract.image_to_data(top, output_type=pytesseract.Output.DICT)
    words = [Word(text, Box.from_pixels(x, y, x + w, y + h, page["dpi"]))
             for text, x, y, w, h in zip(data["text"], data["left"], data["top"], data["width"], data["height"])
             if text.strip()]
    labels = label_words_by_regions(words, [Region.from_dict(r, 1) for r in page["regions"]])
    truth = {w["text"]: w.get("label") for p in record["pages"] for w in p["words"]}
    comparable = [(truth[w.text], l.label) for w, l in zip(words, labels) if w.text in truth]
    assert len(comparable) >= 15
    assert sum(a == b for a, b in comparable) >= 0.9 * len(comparable)
    assert "invoice_number" in {l.label for l in labels}
