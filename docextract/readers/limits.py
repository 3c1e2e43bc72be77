"""Resource limits the readers enforce before they allocate.

Every limit is checked on sizes a file *declares* (image headers, PDF page boxes) before any
pixels are decoded or rendered, so a tiny hostile file cannot make docextract allocate gigabytes.
"""

from __future__ import annotations

# Pillow's own decompression-bomb threshold (Image.MAX_IMAGE_PIXELS, ~89.5 MP). Pillow only *warns*
# between 1x and 2x of it; docextract refuses everything above it (no warning-only zone).
MAX_IMAGE_PIXELS = 89_478_485  # pixels

# A PDF page rendered for OCR above this many pixels is refused before the bitmap is allocated
# (a 100 MP RGB bitmap is ~300 MB). A Letter page at 300 dpi is ~8.4 MP.
MAX_RENDER_PIXELS = 100_000_000  # pixels

# Tesseract refuses images whose width or height exceeds this (its "Image too large" error).
MAX_TESSERACT_SIDE = 32_767  # pixels

# Documents longer than this are refused as PDF_TOO_LARGE rather than read for minutes.
MAX_PDF_PAGES = 2_000  # pages

# Multi-page TIFFs: frames beyond this are refused (a hostile TIFF can declare thousands).
MAX_IMAGE_FRAMES = 2_000  # frames

# Wall-clock limit on one Tesseract call (OCR of one page, or orientation detection of one page).
DEFAULT_OCR_TIMEOUT = 120.0  # seconds

# The pre-extracted words JSON is parsed in memory; anything above this is refused.
MAX_WORDS_JSON_BYTES = 256 * 1024 * 1024  # bytes
