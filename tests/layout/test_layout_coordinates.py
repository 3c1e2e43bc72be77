"""The coordinate conversions layout and the model rely on: pixels -> points, points -> 0..1000 grid and 0..1."""

from __future__ import annotations

import pytest

from docextract.document import MODEL_GRID, Box

LETTER = (612.0, 792.0)  # points


def test_from_pixels_at_300_dpi_and_back():
    box = Box.from_pixels(300, 600, 900, 1200, dpi=300)
    assert box == Box(72.0, 144.0, 216.0, 288.0)  # 1 inch = 72 pt = 300 px
    assert box.to_pixels(300) == pytest.approx((300, 600, 900, 1200))
    assert Box.from_pixels(10, 20, 30, 40, dpi=72) == Box(10, 20, 30, 40)  # 72 dpi: 1 px = 1 pt


def test_to_grid_scales_to_0_1000_and_clips_outside_the_page():
    assert Box(0, 0, *LETTER).to_grid(*LETTER) == (0, 0, MODEL_GRID, MODEL_GRID)
    assert Box(306, 396, 459, 594).to_grid(*LETTER) == (500, 500, 750, 750)
    assert Box(-20, -5, 700, 900).to_grid(*LETTER) == (0, 0, 1000, 1000)
    x0, top, x1, bottom = Box(100.3, 200.7, 101.0, 201.0).to_grid(*LETTER)
    assert all(isinstance(v, int) for v in (x0, top, x1, bottom)) and x0 <= x1 and top <= bottom


def test_normalized_is_fractions_of_the_page():
    assert Box(61.2, 79.2, 306, 396).normalized(*LETTER) == pytest.approx((0.1, 0.1, 0.5, 0.5))
    assert Box(600, 780, 650, 800).normalized(*LETTER) == pytest.approx((600 / 612, 780 / 792, 1.0, 1.0))


def test_overlaps_and_enclosing():
    a, b = Box(0, 0, 10, 10), Box(5, 8, 20, 30)
    assert a.vertical_overlap(b) == 2 and a.horizontal_overlap(b) == 5
    assert a.vertical_overlap(Box(0, 20, 1, 30)) == 0
    assert Box.enclosing([a, b]) == a.union(b) == Box(0, 0, 20, 30)
