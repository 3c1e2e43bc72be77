"""Scan-like images of the synthetic PDFs for the OCR path: render, skew, blur, noise, JPEG.

Each page is rendered with pypdfium2, turned by a small angle about its centre, blurred, given grain
and a contrast shift, and round-tripped through JPEG. The drawn regions (labelling.Region) are moved
through the same rotation, so OCR words of the image can later be labelled by box overlap
(:func:`docextract.synth.labelling.label_words_by_regions`). Image and regions share the page's point
geometry: the image is the page at ``dpi``, so pixel = point * dpi / 72.
"""

from __future__ import annotations

import io
import math
import random
from dataclasses import dataclass

import numpy as np
import pypdfium2 as pdfium
from PIL import Image, ImageFilter

from docextract.document import POINTS_PER_INCH, Box, Word
from docextract.files import write_bytes_atomic
from docextract.synth.labelling import Region

MAX_SKEW_DEGREES = 1.8
BLUR_RADIUS_RANGE = (0.2, 0.9)  # pixels (Gaussian)
NOISE_SIGMA_RANGE = (3.0, 14.0)  # grey levels
JPEG_QUALITY_RANGE = (35, 85)
PAPER_GREY_RANGE = (225, 255)  # the white of the scanned paper


@dataclass(frozen=True)
class ScanParams:
    dpi: float
    angle: float  # degrees, counter-clockwise as seen on the image
    blur: float
    noise: float
    jpeg_quality: int
    paper: int

    @staticmethod
    def sample(rng: random.Random, dpi: float) -> "ScanParams":
        return ScanParams(dpi, rng.uniform(-MAX_SKEW_DEGREES, MAX_SKEW_DEGREES), rng.uniform(*BLUR_RADIUS_RANGE),
                          rng.uniform(*NOISE_SIGMA_RANGE), rng.randint(*JPEG_QUALITY_RANGE), rng.randint(*PAPER_GREY_RANGE))


@dataclass(frozen=True)
class ScannedPage:
    image: Image.Image  # greyscale, after the JPEG round trip
    jpeg: bytes  # the JPEG file that ``image`` was decoded from
    width: float  # points
    height: float
    params: ScanParams


def rotate_box(box: Box, angle: float, width: float, height: float) -> Box:
    """The axis-aligned box around ``box`` turned by ``angle`` degrees (counter-clockwise on screen, as
    PIL's ``Image.rotate``) about the page centre; page ``width`` x ``height`` in the box's units."""
    theta = math.radians(angle)
    cos, sin = math.cos(theta), math.sin(theta)
    cx, cy = width / 2, height / 2
    xs, ys = [], []
    for x, y in ((box.x0, box.top), (box.x1, box.top), (box.x0, box.bottom), (box.x1, box.bottom)):
        dx, dy = x - cx, y - cy
        # y grows downwards, so a counter-clockwise turn on screen is (dx, dy) -> (dx cos + dy sin, -dx sin + dy cos)
        xs.append(cx + dx * cos + dy * sin)
        ys.append(cy - dx * sin + dy * cos)
    return Box(min(xs), min(ys), max(xs), max(ys))


def rotate_regions(regions: list[Region], angle: float, width: float, height: float) -> list[Region]:
    return [Region(r.page, rotate_box(r.box, angle, width, height), r.label, r.entity, r.row, r.text) for r in regions]


def rotate_words(words: tuple[Word, ...], angle: float, width: float, height: float) -> tuple[Word, ...]:
    return tuple(Word(w.text, rotate_box(w.box, angle, width, height), w.confidence) for w in words)


def degrade(image: Image.Image, params: ScanParams, seed: int) -> tuple[Image.Image, bytes]:
    """Skew, blur, grain, paper tint and a JPEG round trip of a rendered greyscale page."""
    image = image.rotate(params.angle, resample=Image.BILINEAR, expand=False, fillcolor=255)
    image = image.filter(ImageFilter.GaussianBlur(params.blur))
    pixels = np.asarray(image, dtype=np.float32)  # (height, width)
    noise = np.random.default_rng(seed).standard_normal(pixels.shape, dtype=np.float32)  # float32: 2x faster
    pixels = pixels * (params.paper / 255.0) + noise * params.noise
    image = Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8), mode="L")
    buffer = io.BytesIO()
    image.save(buffer, format="JPEG", quality=params.jpeg_quality, dpi=(params.dpi, params.dpi))
    data = buffer.getvalue()
    out = Image.open(io.BytesIO(data))
    out.load()
    return out, data


def scan_pdf(pdf: bytes, rng: random.Random, dpi: float = 150) -> list[ScannedPage]:
    """Every page of ``pdf`` as a degraded greyscale image at ``dpi``; parameters drawn once per page."""
    document = pdfium.PdfDocument(pdf)
    pages = []
    try:
        for index in range(len(document)):
            page = document[index]
            width, height = page.get_size()  # points
            rendered = page.render(scale=dpi / POINTS_PER_INCH, grayscale=True).to_pil().convert("L")
            params = ScanParams.sample(rng, dpi)
            image, jpeg = degrade(rendered, params, rng.randrange(2**32))
            pages.append(ScannedPage(image, jpeg, width, height, params))
            page.close()
    finally:
        document.close()
    return pages


def save_scan(pages: list[ScannedPage], path_stem: str) -> str:
    """One page: ``stem.jpg``; several: a multi-page JPEG-compressed ``stem.tif``. Returns the path."""
    if len(pages) == 1:
        path = path_stem + ".jpg"
        write_bytes_atomic(path, pages[0].jpeg)
        return path
    path = path_stem + ".tif"
    tiff = io.BytesIO()
    pages[0].image.save(tiff, format="TIFF", save_all=True, append_images=[p.image for p in pages[1:]],
                        compression="jpeg", quality=min(p.params.jpeg_quality for p in pages),
                        dpi=(pages[0].params.dpi, pages[0].params.dpi))
    write_bytes_atomic(path, tiff.getvalue())
    return path
