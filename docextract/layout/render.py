"""Annotated page images for `docextract inspect --png`: what layout analysis and windowing saw.

Each page is drawn as the reader saw it (the PDF page rendered with pypdfium2, the scanned image
itself, or a white page for pre-extracted words JSON), then annotated:

* every word's box is tinted with the colour of the window whose core holds it;
* every block is outlined, with its reading-order number in a badge beside it (left of its first line where that
  covers no word, else above it, right of it or below it: never over the block's own text);
* a legend at the top names the window colours.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from PIL import Image, ImageDraw, ImageFont, ImageOps

from docextract.document import POINTS_PER_INCH, Box, Document, Window, WordRef

RENDER_DPI = 100.0  # annotated PNG resolution: a letter page is 850 x 1100 px, readable on screen
# Small pages (a receipt, or a scan whose resolution was unknown and assumed high, which makes
# its page small in points) are drawn larger, so that the long side has at least this many pixels.
MIN_LONG_SIDE = 1100  # pixels
WORD_TINT_ALPHA = 90  # 0..255, how strongly word boxes are tinted with their window's colour
BLOCK_OUTLINE = (20, 40, 160)  # dark blue
BLOCK_OUTLINE_WIDTH = 2  # pixels
BADGE_FONT_SIZE = 13  # pixels
UNWINDOWED = (128, 128, 128)  # words in no window's core (none after make_windows; kept for safety)

# Distinct, light-background-friendly colours, cycled over windows.
WINDOW_COLOURS = (
    (230, 25, 75), (60, 180, 75), (0, 130, 200), (245, 130, 48), (145, 30, 180),
    (70, 200, 200), (240, 50, 230), (170, 110, 40), (128, 128, 0), (0, 0, 128),
)


def window_colour(window_index: int) -> tuple[int, int, int]:
    return WINDOW_COLOURS[window_index % len(WINDOW_COLOURS)]


def _core_window_of(windows: Sequence[Window]) -> dict[WordRef, int]:
    return {ref: w.index for w in windows for ref in w.core}


def block_badges(page, scale: float, size: tuple[int, int], font) -> list[tuple[str, tuple[float, float, float, float]]]:
    """Each block's reading-order number and the pixel rectangle of its badge: the first of left of the block's
    top, above it, right of it and below it that covers no word and no earlier badge and lies inside the image;
    left of it when every place covers something (a crowded page), never over the block's first words."""
    words = [tuple(v * scale for v in (w.box.x0, w.box.top, w.box.x1, w.box.bottom)) for w in page.words]
    placed: list[tuple[float, float, float, float]] = []
    out = []
    for rank, b in enumerate(page.block_order or range(len(page.blocks))):
        box = page.blocks[b].box
        x0, top, x1, bottom = box.x0 * scale - 2, box.top * scale - 2, box.x1 * scale + 2, box.bottom * scale + 2
        label = str(rank + 1)
        lx0, ly0, lx1, ly1 = font.getbbox(label)
        width, height = lx1 - lx0 + 8, ly1 - ly0 + 6
        candidates = [(x0 - width - 1, top), (x0, top - height - 1), (x1 + 1, top), (x0, bottom + 1)]
        rects = [(x, y, x + width, y + height) for x, y in candidates]
        inside = [r for r in rects if r[0] >= 0 and r[1] >= 0 and r[2] <= size[0] and r[3] <= size[1]]
        free = [r for r in inside if not any(_overlap(r, other) for other in words + placed)]
        badge = free[0] if free else _clamped(rects[0], size)
        placed.append(badge)
        out.append((label, badge))
    return out


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _clamped(rect, size: tuple[int, int]) -> tuple[float, float, float, float]:
    width, height = rect[2] - rect[0], rect[3] - rect[1]
    x, y = min(max(rect[0], 0), size[0] - width), min(max(rect[1], 0), size[1] - height)
    return (x, y, x + width, y + height)


def page_background(doc: Document, page_index: int, dpi: float = RENDER_DPI, password: str | None = None) -> Image.Image:
    """The page as read, at ``dpi``: the rendered PDF page, the source image, or a white page."""
    page = doc.pages[page_index]
    size = (max(1, round(page.width * dpi / POINTS_PER_INCH)), max(1, round(page.height * dpi / POINTS_PER_INCH)))
    source = Path(doc.source)
    if doc.mime_type == "application/pdf" and source.is_file():
        import pypdfium2 as pdfium

        pdf = pdfium.PdfDocument(str(source), password=password)
        try:
            image = pdf[page.number - 1].render(scale=dpi / POINTS_PER_INCH).to_pil().convert("RGB")
        finally:
            pdf.close()
    elif doc.mime_type.startswith("image/") and source.is_file():
        with Image.open(source) as im:
            if getattr(im, "n_frames", 1) > 1:
                im.seek(page.number - 1)  # multi-page TIFF: one frame per page
            image = ImageOps.exif_transpose(im).convert("RGB")
        if page.rotation_applied:
            # rotation_applied: degrees clockwise the reader turned the page upright.
            image = image.rotate(-page.rotation_applied, expand=True)
    else:
        image = Image.new("RGB", size, "white")
    return image.resize(size) if image.size != size else image


def render_page(
    doc: Document, page_index: int, windows: Sequence[Window], *, dpi: float = RENDER_DPI, password: str | None = None
) -> Image.Image:
    """The annotated image of one page (layout analysis must have run)."""
    page = doc.pages[page_index]
    dpi = max(dpi, MIN_LONG_SIDE * POINTS_PER_INCH / max(page.width, page.height, 1.0))
    scale = dpi / POINTS_PER_INCH
    base = page_background(doc, page_index, dpi, password).convert("RGBA")
    overlay = Image.new("RGBA", base.size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(overlay)
    font = ImageFont.load_default(size=BADGE_FONT_SIZE)

    def px(box: Box) -> tuple[float, float, float, float]:
        return (box.x0 * scale, box.top * scale, box.x1 * scale, box.bottom * scale)

    core_of = _core_window_of(windows)
    for wi, word in enumerate(page.words):
        window = core_of.get(WordRef(page_index, wi))
        colour = UNWINDOWED if window is None else window_colour(window)
        draw.rectangle(px(word.box), fill=colour + (WORD_TINT_ALPHA,), outline=colour + (255,))

    for b in range(len(page.blocks)):
        x0, top, x1, bottom = px(page.blocks[b].box)
        draw.rectangle((x0 - 2, top - 2, x1 + 2, bottom + 2), outline=BLOCK_OUTLINE + (255,), width=BLOCK_OUTLINE_WIDTH)
    for label, badge in block_badges(page, scale, base.size, font):
        lx0, ly0, _, _ = font.getbbox(label)
        draw.rectangle(badge, fill=BLOCK_OUTLINE + (255,))
        draw.text((badge[0] + 4 - lx0, badge[1] + 3 - ly0), label, fill=(255, 255, 255, 255), font=font)

    page_windows = [w for w in windows if page_index in w.pages]
    x = 4
    for w in page_windows:
        label = f" window {w.index} "
        width = draw.textlength(label, font=font)
        draw.rectangle((x, 2, x + width, 4 + BADGE_FONT_SIZE + 2), fill=window_colour(w.index) + (255,))
        draw.text((x, 3), label, fill=(255, 255, 255, 255), font=font)
        x += width + 4
    return Image.alpha_composite(base, overlay).convert("RGB")
