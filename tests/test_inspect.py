"""`docextract inspect`: end to end on a generated two-column PDF (runs once docextract.readers exists)."""

from __future__ import annotations

import json

import pytest
from PIL import Image
from typer.testing import CliRunner

pytest.importorskip("docextract.readers", reason="docextract.readers (branch readers) is not merged yet")

from docextract.cli import app  # noqa: E402
from docextract.errors import EXIT_INPUT_FAILED, EXIT_USAGE  # noqa: E402
from docextract.layout.render import BLOCK_OUTLINE, RENDER_DPI  # noqa: E402

runner = CliRunner()

LEFT = "Alpha apples arrive around April. " * 12
RIGHT = "Zulu zebras zigzag zealously zoneward. " * 10


@pytest.fixture(scope="module")
def two_column_pdf(tmp_path_factory):
    """A letter page: a heading, two text columns, a footer; and a second page with one paragraph."""
    from fpdf import FPDF

    pdf = FPDF(unit="pt", format="letter")
    pdf.set_auto_page_break(False)
    pdf.add_page()
    pdf.set_font("Helvetica", size=16)
    pdf.set_xy(72, 60)
    pdf.cell(300, 20, "Quarterly Report")
    pdf.set_font("Helvetica", size=10)
    pdf.set_xy(72, 110)
    pdf.multi_cell(216, 13, LEFT)
    pdf.set_xy(324, 110)
    pdf.multi_cell(216, 13, RIGHT)
    pdf.set_xy(250, 740)
    pdf.cell(100, 12, "Page one footer")
    pdf.add_page()
    pdf.set_xy(72, 72)
    pdf.multi_cell(468, 13, "Second page paragraph text. " * 5)
    path = tmp_path_factory.mktemp("inspect") / "report.pdf"
    pdf.output(str(path))
    return path


def test_inspect_shows_source_blocks_and_windows_page_by_page(two_column_pdf):
    result = runner.invoke(app, ["inspect", str(two_column_pdf), "--ocr", "never"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Page 1" in out and "Page 2" in out
    assert "PDF text layer" in out
    assert "612 x 792 pt" in out
    assert "Blocks in reading order" in out and "Windows" in out
    assert "Quarterly Report" in out


def test_inspect_json_reads_left_column_before_right_and_windows_cover_every_word(two_column_pdf):
    result = runner.invoke(app, ["inspect", str(two_column_pdf), "--ocr", "never", "--json", "--max-tokens", "64", "--stride", "16"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    first = data["document"]["pages"][0]
    assert sorted(first["block_order"]) == list(range(len(first["blocks"])))
    ordered = [
        first["words"][w]["text"]
        for b in first["block_order"] for li in first["blocks"][b]["lines"] for w in first["lines"][li]["words"]
    ]
    text = " ".join(ordered)
    assert text.index("Quarterly") < text.rindex("April.") < text.index("Zulu") < text.index("footer")
    windows = data["windows"]
    assert len(windows) > 2
    cores = [tuple(ref) for w in windows for ref in w["words"][w["core_start"]:w["core_end"]]]
    all_words = [(p["number"], i) for p in data["document"]["pages"] for i in range(len(p["words"]))]
    assert sorted(cores) == sorted(all_words) and len(cores) == len(set(cores))
    assert all(w["token_count"] <= 64 and len(w["pages"]) == 1 for w in windows)


def test_inspect_png_writes_one_readable_annotated_image_per_page(two_column_pdf, tmp_path):
    result = runner.invoke(app, ["inspect", str(two_column_pdf), "--ocr", "never", "--png", str(tmp_path / "png")])
    assert result.exit_code == 0, result.output
    pngs = sorted((tmp_path / "png").glob("*.png"))
    assert [p.name for p in pngs] == ["report-page-1.png", "report-page-2.png"]
    for png in pngs:
        assert str(png) in result.output.replace("\n", "")  # the file names are printed
        with Image.open(png) as image:
            assert image.size == (round(612 * RENDER_DPI / 72), round(792 * RENDER_DPI / 72))
            colours = {c for _, c in image.convert("RGB").getcolors(maxcolors=1 << 20)}
        assert BLOCK_OUTLINE in colours  # block outlines drawn
        assert any(sum(c) < 150 for c in colours)  # the rendered page's dark text shows through the tint


def test_inspect_missing_file_is_one_line_and_exit_4(tmp_path):
    result = runner.invoke(app, ["inspect", str(tmp_path / "nope.pdf")])
    assert result.exit_code == EXIT_INPUT_FAILED
    assert "nope.pdf" in result.output and "Traceback" not in result.output


def test_inspect_stride_not_below_window_is_a_usage_error(two_column_pdf):
    result = runner.invoke(app, ["inspect", str(two_column_pdf), "--max-tokens", "32", "--stride", "32"])
    assert result.exit_code == EXIT_USAGE
    assert "stride" in result.output


def test_block_numbers_never_cover_words():
    """The examples' pages are crowded (one-line blocks stacked on each other, a table): every block's badge lies
    beside its block, over no word of the page, and inside the image."""
    from pathlib import Path

    from PIL import ImageFont

    from docextract.layout import analyze_layout
    from docextract.layout.render import BADGE_FONT_SIZE, MIN_LONG_SIDE, block_badges
    from docextract.readers import read_document

    font = ImageFont.load_default(size=BADGE_FONT_SIZE)
    examples = Path(__file__).resolve().parent.parent / "examples"
    for name in ("invoice.pdf", "multipage_invoice.pdf"):
        doc = analyze_layout(read_document(examples / name, ocr="never"))
        for page in doc.pages:
            scale = max(RENDER_DPI, MIN_LONG_SIDE * 72 / max(page.width, page.height)) / 72
            size = (round(page.width * scale), round(page.height * scale))
            badges = block_badges(page, scale, size, font)
            assert len(badges) == len(page.blocks)
            for label, (x0, top, x1, bottom) in badges:
                assert 0 <= x0 and 0 <= top and x1 <= size[0] and bottom <= size[1], (name, label)
                for word in page.words:
                    box = [v * scale for v in (word.box.x0, word.box.top, word.box.x1, word.box.bottom)]
                    assert not (x0 < box[2] and box[0] < x1 and top < box[3] and box[1] < bottom), (name, label, word.text)
