"""Erasing a scan's ruling lines (table grids, frames, rules under headings) before Tesseract reads it.

Tesseract's page layout analysis takes a table row boxed by lines for a picture and drops its words, or reads the
lines as "|", "[" and "_" glued to them; a 150-dpi scan resampled to 300 dpi for it (``ocr.resampled_for_ocr``) lost
most rows of a ruled table so ("Netzwerkkabel remote | 1 m | €1,057.00" read as "[Netwendabelrnote [1m _[en0s700").
Erased, the same rows read word for word. A ruling line is a run of dark pixels far longer than any letter's stroke
and thinner than any line of text: a shaded band (white print on a dark header) is thick, and stays. Only a grid's
lines go (a column rule that meets at least three row rules, and the row rules that meet one): a heading's underline
touches its letters' descenders, and erasing it cut them (the real e-invoices' scans "Verkäufer:", "Abweichender
Rechnungsempfänger:" read worse: leave-one-producer-out scans 87.6 -> 86.6% when every rule went); a box's sides meet
two, its top and bottom, and they keep two boxes side by side apart in Tesseract's lines (invoice-it's framed parties:
erased, "10 The Green" of one box and "Unit 36" of the next read as one line).
Runs along rows and columns are numpy; scipy's ``ndimage.label`` tells which pixels make one line.
"""

from __future__ import annotations

import numpy as np
from PIL import Image

DARK_LEVEL = 160  # 0..255: darker pixels can belong to a line (print is near black, a light shading is not)
MIN_HORIZONTAL_INCHES = 0.5  # a dark run along a row at least this long is a rule (a letter's stroke: under 0.15 in)
MIN_VERTICAL_INCHES = 0.4  # along a column (a letter's height at 12 pt: 0.17 in)
MAX_THICKNESS_INCHES = 0.04  # thicker than this (about 3 pt, the skew tolerance included) it is a band, not a line
EDGE_INCHES = 0.007  # the blurred edge beside a line (a scan's grey fringe) is erased with it: 2 px at 300 dpi
# A scan turned by a degree or two breaks a rule into steps one pixel apart (at 1.8 degrees, every 32 px at 300 dpi):
# runs are found with each row merged with this many rows above and below, so that a rule stays one run
SKEW_TOLERANCE_PIXELS = 2
GRID_ROW_RULES = 3  # a column rule meeting this many row rules is a table's; fewer, a box's side (top and bottom)


def _runs(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every run of True pixels along a row of ``mask``: (row, start, end) arrays, end exclusive."""
    rows, width = mask.shape
    padded = np.zeros((rows, width + 2), dtype=np.int8)
    padded[:, 1:-1] = mask
    steps = np.diff(padded, axis=1)
    starts, ends = np.nonzero(steps == 1), np.nonzero(steps == -1)  # row-major: the i-th start pairs the i-th end
    return starts[0], starts[1], ends[1]


def _painted(shape: tuple[int, int], rows: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """A mask with the given runs set."""
    marks = np.zeros((shape[0], shape[1] + 1), dtype=np.int32)
    np.add.at(marks, (rows, starts), 1)
    np.add.at(marks, (rows, ends), -1)
    return np.cumsum(marks, axis=1)[:, :-1] > 0


def _long_runs(dark: np.ndarray, min_length: int) -> np.ndarray:
    """True on every pixel of a run of at least ``min_length`` True pixels along a row."""
    rows, starts, ends = _runs(dark)
    long = ends - starts >= min_length
    return _painted(dark.shape, rows[long], starts[long], ends[long])


def _grid(horizontal: np.ndarray, vertical: np.ndarray, reach: int) -> np.ndarray:
    """The lines of a table's grid: every vertical line (connected pixels) that meets at least ``GRID_ROW_RULES``
    horizontal lines within ``reach`` pixels, and the horizontal lines that meet one of those. Connected: a rule on a
    turned page is one line of steps."""
    from scipy import ndimage

    eight = np.ones((3, 3), dtype=bool)
    rows, _ = ndimage.label(horizontal, structure=eight)
    columns, _ = ndimage.label(vertical, structure=eight)
    near_row = ndimage.maximum_filter(rows, size=2 * reach + 1)  # where two rows are near, the larger label: enough
    met = np.unique(np.stack([columns[vertical], near_row[vertical]]), axis=1)
    met = met[:, met[1] > 0]
    counts = np.bincount(met[0], minlength=columns.max() + 1)
    grid_columns = np.nonzero(counts >= GRID_ROW_RULES)[0]
    grid_rows = met[1][np.isin(met[0], grid_columns)]
    return np.isin(columns, grid_columns[grid_columns > 0]) | np.isin(rows, grid_rows)


def _with_neighbour_rows(dark: np.ndarray, rows: int) -> np.ndarray:
    merged = dark.copy()
    for shift in range(1, rows + 1):
        merged[shift:] |= dark[:-shift]
        merged[:-shift] |= dark[shift:]
    return merged


def _thin(lines: np.ndarray, max_thickness: int) -> np.ndarray:
    """``lines`` (runs along rows) without those stacked more than ``max_thickness`` rows deep: a band, not a line."""
    thick = lines.copy()
    for shift in range(1, max_thickness + 1):
        thick[:-shift] &= lines[shift:]  # True where the run continues for max_thickness more rows below
    band = thick.copy()
    for shift in range(1, max_thickness + 1):
        band[shift:] |= thick[:-shift]  # the whole band those rows start
    return lines & ~band


def _grow(mask: np.ndarray, pixels: int) -> np.ndarray:
    """``mask`` widened by ``pixels`` along both axes (a square's dilation, one axis after the other, by window sums)."""
    def along(values: np.ndarray, axis: int) -> np.ndarray:
        length = values.shape[axis]
        sums = np.cumsum(values, axis=axis, dtype=np.int32)
        sums = np.concatenate([np.zeros_like(sums.take([0], axis=axis)), sums], axis=axis)  # sums[i] = sum before i
        high = np.minimum(np.arange(length) + pixels + 1, length)
        low = np.maximum(np.arange(length) - pixels, 0)
        return (sums.take(high, axis=axis) - sums.take(low, axis=axis)) > 0
    return along(along(mask, 0), 1)


def erase_ruling_lines(gray: Image.Image, dpi: float) -> Image.Image:
    """``gray`` (mode "L") with its ruling lines painted white; an image without any is returned as it is."""
    pixels = np.asarray(gray)
    dark = pixels < DARK_LEVEL
    thickness = max(1, round(MAX_THICKNESS_INCHES * dpi))
    tolerant = _with_neighbour_rows(dark.T, SKEW_TOLERANCE_PIXELS)
    vertical = _thin(_long_runs(tolerant, round(MIN_VERTICAL_INCHES * dpi)), thickness).T
    if not vertical.any():
        return gray  # no column rule: a rule under a heading or above the totals is left to Tesseract, which reads it well
    tolerant = _with_neighbour_rows(dark, SKEW_TOLERANCE_PIXELS)
    horizontal = _thin(_long_runs(tolerant, round(MIN_HORIZONTAL_INCHES * dpi)), thickness)
    lines = _grid(horizontal, vertical, thickness)
    if not lines.any():
        return gray  # boxes without a table: their frames keep their columns apart
    edge = max(1, round(EDGE_INCHES * dpi))
    ys, xs = np.nonzero(lines.any(axis=1))[0], np.nonzero(lines.any(axis=0))[0]
    top, bottom = max(0, ys[0] - edge), min(lines.shape[0], ys[-1] + edge + 1)  # grown within the lines' extent only
    left, right = max(0, xs[0] - edge), min(lines.shape[1], xs[-1] + edge + 1)
    cleaned = pixels.copy()
    cleaned[top:bottom, left:right][_grow(lines[top:bottom, left:right], edge)] = 255
    return Image.fromarray(cleaned)
