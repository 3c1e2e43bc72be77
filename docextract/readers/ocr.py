"""Tesseract OCR of one page image: orientation detection and words with boxes and confidences.

Tesseract runs as a subprocess (pytesseract). Its own OpenMP threading makes a page ~6x slower on a
2-core machine (measured, docs/measured-here), so every call runs with ``OMP_THREAD_LIMIT=1``;
parallelism belongs to the batch runner (one page per worker). Pixels become points here, once,
with :meth:`Box.from_pixels`.
"""

from __future__ import annotations

import contextlib
import functools
import math
import os
import shutil
from dataclasses import dataclass
from typing import Sequence

from PIL import Image

from docextract.document import Box, Word
from docextract.errors import InputError, MissingDependencyError
from docextract.vocabulary import language_word_counts
from docextract.readers.limits import DEFAULT_OCR_TIMEOUT, MAX_TESSERACT_SIDE
from docextract.readers.ruling_lines import erase_ruling_lines

import pytesseract
from pytesseract import Output, TesseractError, TesseractNotFoundError


@contextlib.contextmanager
def single_threaded_tesseract():
    """``OMP_THREAD_LIMIT=1`` for the Tesseract subprocesses started inside, and only for them.

    pytesseract's subprocesses inherit this process's environment, so the variable is set around the
    call and restored after. It must never stay set process-wide: if it is in the environment when
    torch loads its OpenMP runtime, ``torch.set_num_threads(2)`` makes MKL's solvers fail
    ("Parameter 6 was incorrect on entry to SLASWP") and hang, and inference runs on one core.
    """
    previous = os.environ.get("OMP_THREAD_LIMIT")
    os.environ["OMP_THREAD_LIMIT"] = "1"
    try:
        yield
    finally:
        if previous is None:
            os.environ.pop("OMP_THREAD_LIMIT", None)
        else:
            os.environ["OMP_THREAD_LIMIT"] = previous

# Tesseract OSD must be at least this sure before docextract turns a page; below it the page
# stays as it is (a wrong 180-degree turn destroys a page that was upright).
MIN_OSD_ORIENTATION_CONFIDENCE = 2.0  # Tesseract's orientation_conf units (not a probability)
# OSD on a page this small has too few characters to be meaningful.
MIN_OSD_SIDE = 100  # pixels

# looks_upright(): thresholds measured on a clean page and a FUNSD form turned 0/90/180 degrees
# (upright median confidence 0.96 / 0.86; turned 180 degrees 0.33 / 0.22).
MIN_UPRIGHT_MEDIAN_CONFIDENCE = 0.6  # 0..1
MIN_WIDE_WORD_FRACTION = 0.6  # of words with at least MIN_SHAPE_WORD_CHARS characters
MIN_SHAPE_WORD_CHARS = 3  # characters; shorter words ("a", "1") are often taller than wide
MIN_WORDS_FOR_ORIENTATION = 5  # words
# OSD reads a copy reduced to about this short side: a Letter page at 150 dpi reads as reliably as at
# 300 dpi and ~2x faster; at 100 dpi OSD starts to fail (measured). Smaller images are not reduced.
OSD_SHORT_SIDE = 1275  # pixels

# sparse_text_warning(): a page with print on it whose OCR gives fewer words than this was read at too coarse a
# resolution (examples/invoice.pdf, 170 words: 4 at --dpi 50, 29 at 72, 135 at 100, 169 at 150).
SPARSE_OCR_WORDS = 10  # words
INK_SHARE = 0.002  # share of dark pixels (under half brightness) from which a page holds print, not a blank
READABLE_DPI = 150  # dots per inch: below it, a warning names a higher --dpi

# Tesseract reads print best at about 300 dpi (its documentation, "Improving the quality of the output"); a coarser
# scan loses the letters of small print. resampled_for_ocr() reads a scan under MIN_OCR_DPI at twice its resolution:
# the 150-dpi scans of the e-invoices (8-10 pt print) lost a tenth of their fields' values to misread letters
# (README "Stop 48"). Not from 200 dpi on: the noisy 13-pt scans of tests/readers/test_readers.py at 200 dpi read
# worse resampled (1.5x or 2x: 75-83% of their words against at least 90%); large print needs no more pixels. Not a photo
# or screenshot, whose dpi (72, 96) says nothing of its print: an image that would be larger than paper at its stated
# dpi is read as it is.
MIN_OCR_DPI = 200.0  # dots per inch
MAX_PAPER_INCHES = 17.0  # A3's long side (16.5 in)

# Skew: a page scanned a little askew tilts every line, so a key and the value right of it stand at different heights
# and a column's lines drift sideways. The slope of each text line Tesseract found (its words' centres) estimates it;
# their median, turned back, straightens the words' boxes.
MIN_DESKEW_DEGREES = 0.2  # under this, a line's tilt is within a box's rounding
MAX_DESKEW_DEGREES = 5.0  # beyond this the estimate is not trusted (Tesseract's lines break up well before)
MIN_SKEW_LINE_WORDS = 3
MIN_SKEW_LINES = 5
# Two passes of Tesseract over a page (benchmarks/results/lopo_fillin.md: leave-one-producer-out scans 72.9 -> 76.1%):
# * its default page layout analysis (--psm 3) with its global (Otsu) binarisation, which reads lines of text best;
#   but it drops what it takes for pictures or noise: on scans, whole columns of amounts set apart at the right, and
#   every word of a page of shaded table rows;
# * then sparse text (--psm 11: words wherever they are, no layout) with local (Sauvola) binarisation, whose words
#   fill in where the first pass found nothing (no overlap), if Tesseract is at least MIN_SPARSE_CONFIDENCE sure of
#   them. One pass alone read worse (--psm 11: 66.9%, --psm 4: 70.6%, --psm 3: 71.1%, each with Sauvola). docextract
#   forms lines, blocks and reading order itself from the words' boxes, so the two passes' words mix freely.
LAYOUT_PASS_CONFIG = "--psm 3"
SPARSE_PASS_CONFIG = "--psm 11 -c thresholding_method=2"
# Sparse text can take minutes on a noisy page (a shaded page of 4 took over 120 s under Otsu): the fill-in is given up
SPARSE_PASS_TIMEOUT = 20.0  # seconds
MIN_SPARSE_CONFIDENCE = 0.6
# lang "auto": a page is read in English first, and read again in the language its words are written in when they say
# so clearly (an English model reads "Fälligkeit" as "Falligkeit" and "Échéance" as "Echéance", and misses words).
AUTO_LANG = "auto"
FIRST_PASS_LANG = "eng"
TESSERACT_LANGUAGES = {"de": "deu", "fr": "fra", "nl": "nld", "it": "ita", "es": "spa", "sv": "swe", "da": "dan", "pl": "pol", "cs": "ces",
                       "nb": "nor", "fi": "fin", "pt": "por"}  # English is the first pass
MIN_LANGUAGE_WORDS = 3  # distinct invoice words of one language (vocabulary.LANGUAGE_WORDS) before a page is read again
INSTALL_HINT = "install Tesseract 5 (Debian/Ubuntu: apt-get install tesseract-ocr; macOS: brew install tesseract)"


@dataclass(frozen=True)
class OcrWords:
    """The words Tesseract found on one image, in points of a page ``width`` x ``height``."""

    words: tuple[Word, ...]
    width: float
    height: float
    lang: str = FIRST_PASS_LANG  # the Tesseract language(s) that read them


def check_tesseract(lang: str) -> None:
    """MissingDependencyError unless Tesseract and the language data for every ``+``-joined ``lang`` exist
    (``"auto"``: English's; a language found on a page is used only where its data is installed)."""
    _check_tesseract_cached(FIRST_PASS_LANG if lang == AUTO_LANG else lang)


@functools.lru_cache(maxsize=1)
def installed_languages() -> frozenset[str]:
    """The languages Tesseract has data for (asked once a process)."""
    with single_threaded_tesseract():
        return frozenset(pytesseract.get_languages(config=""))


def page_language(words: Sequence[Word]) -> str | None:
    """The Tesseract language to read a page again in, from the words an English pass found on it: the language
    with the most distinct invoice words (:data:`docextract.vocabulary.LANGUAGE_WORDS`), when that is not
    English, has at least ``MIN_LANGUAGE_WORDS`` and more than English has; else None (English stays)."""
    hits = language_word_counts(" ".join(word.text for word in words))
    language = max(hits, key=hits.get)
    if language not in TESSERACT_LANGUAGES or hits[language] < MIN_LANGUAGE_WORDS or hits[language] <= hits["en"]:
        return None
    code = TESSERACT_LANGUAGES[language]
    return f"{code}+{FIRST_PASS_LANG}" if code in installed_languages() else None


@functools.lru_cache(maxsize=8)
def _check_tesseract_cached(lang: str) -> None:
    if shutil.which(pytesseract.pytesseract.tesseract_cmd) is None:
        raise MissingDependencyError(f"Tesseract is needed to OCR scanned pages and images: {INSTALL_HINT}")
    try:
        installed = installed_languages()
    except (TesseractNotFoundError, TesseractError, OSError) as exc:
        raise MissingDependencyError(f"Tesseract does not run ({exc}): {INSTALL_HINT}") from exc
    missing = [code for code in lang.split("+") if code not in installed]
    if missing:
        names = ", ".join(f"tesseract-ocr-{code}" for code in missing)
        raise MissingDependencyError(
            f"Tesseract has no language data for {'+'.join(missing)} (installed: {', '.join(sorted(installed))}); "
            f"install {names} or pass another --lang"
        )


def to_ocr_mode(image: Image.Image) -> Image.Image:
    """The image as 8-bit grayscale, which Tesseract reads fastest (1.6 s vs 2.1-2.5 s RGB per page)."""
    if image.mode in ("I;16", "I;16B", "I;16L", "I"):
        # 16/32-bit integer pixels: scale into 0..255 instead of clipping everything to white
        return image.point(lambda v: v * (1 / 256)).convert("L")
    if image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info):
        # transparent areas become white paper, not black
        rgba = image.convert("RGBA")
        background = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        return Image.alpha_composite(background, rgba).convert("L")
    return image.convert("L")


def resampled_for_ocr(image: Image.Image, dpi: float) -> tuple[Image.Image, float]:
    """A scan under :data:`MIN_OCR_DPI` at twice its resolution, as Tesseract reads its print best, and its new
    resolution (see :data:`MIN_OCR_DPI`); other images as they are."""
    # rounded: a PNG stores its resolution per metre, and "200 dpi" comes back as 199.9996
    if round(dpi) >= MIN_OCR_DPI or max(image.size) / dpi > MAX_PAPER_INCHES or 2 * max(image.size) > MAX_TESSERACT_SIDE:
        return image, dpi
    return to_ocr_mode(image).resize((2 * image.width, 2 * image.height), Image.Resampling.LANCZOS), 2 * dpi


def _check_side(image: Image.Image, source: str) -> None:
    if max(image.size) > MAX_TESSERACT_SIDE:
        raise InputError(
            f"image of {image.width}x{image.height} pixels is larger than Tesseract accepts "
            f"({MAX_TESSERACT_SIDE} pixels a side); use a lower --dpi",
            path=source, code="RESOURCE_LIMIT", stage="ocr",
        )


def _is_timeout(exc: RuntimeError) -> bool:
    return "timeout" in str(exc).lower()


def detect_rotation(image: Image.Image, *, source: str, timeout: float = DEFAULT_OCR_TIMEOUT) -> int:
    """Degrees (0, 90, 180, 270) to turn ``image`` clockwise so its text is upright; 0 when unsure.

    Tesseract OSD fails on pages with little text ("Too few characters"); that means "leave it".
    """
    if min(image.size) < MIN_OSD_SIDE:
        return 0
    _check_side(image, source)
    try:
        with single_threaded_tesseract():
            osd = pytesseract.image_to_osd(image, output_type=Output.DICT, timeout=timeout)
    except TesseractNotFoundError as exc:
        raise MissingDependencyError(f"Tesseract is needed for OCR: {INSTALL_HINT}") from exc
    except TesseractError:
        return 0  # too little text to decide: keep the page as it is
    except RuntimeError as exc:
        if _is_timeout(exc):
            raise InputError(f"Tesseract orientation detection took over {timeout:g} s", path=source,
                             code="OCR_TIMEOUT", stage="ocr") from exc
        raise
    if float(osd.get("orientation_conf", 0.0)) < MIN_OSD_ORIENTATION_CONFIDENCE:
        return 0
    # OSD "rotate" is the clockwise turn that makes the text upright (checked: an upright page turned
    # 90 degrees clockwise reports rotate=270).
    return int(osd.get("rotate", 0)) % 360


def rotate_clockwise(image: Image.Image, degrees: int) -> Image.Image:
    """``image`` turned ``degrees`` clockwise (a multiple of 90), without resampling."""
    transpose = {90: Image.Transpose.ROTATE_270, 180: Image.Transpose.ROTATE_180, 270: Image.Transpose.ROTATE_90}
    return image.transpose(transpose[degrees]) if degrees % 360 else image


# The image as Tesseract reads it (to_ocr_mode), and the first layout pass's words with the line each stands in.
LayoutPass = tuple[Image.Image, list[Word], list[tuple]]


def ocr_image(image: Image.Image, *, dpi: float, lang: str, source: str,
              timeout: float = DEFAULT_OCR_TIMEOUT, layout_pass: LayoutPass | None = None) -> OcrWords:
    """Tesseract words of an upright ``image`` scanned or rendered at ``dpi``, boxes in points: the layout pass's,
    and the sparse pass's where it found none (:data:`LAYOUT_PASS_CONFIG`, :data:`SPARSE_PASS_CONFIG`).
    ``lang="auto"``: the layout pass in English, again in the language :func:`page_language` finds, and the sparse
    pass in the language that read the page. ``layout_pass``: the first layout pass (:func:`first_layout_pass`),
    when the caller has already run it.

    Confidences become 0..1; Tesseract's structural rows (conf -1) and empty words are dropped.
    """
    if layout_pass is None:
        layout_pass = first_layout_pass(image, dpi=dpi, lang=lang, source=source, timeout=timeout)
    gray, words, line_of = layout_pass
    read_lang = FIRST_PASS_LANG if lang == AUTO_LANG else lang
    if lang == AUTO_LANG and (found := page_language(words)) is not None:
        read_lang = found
        words, line_of = _tesseract_words(gray, dpi=dpi, lang=read_lang, config=LAYOUT_PASS_CONFIG, source=source,
                                          timeout=timeout)
    try:
        sparse, _ = _tesseract_words(gray, dpi=dpi, lang=read_lang, config=SPARSE_PASS_CONFIG, source=source,
                                     timeout=min(timeout, SPARSE_PASS_TIMEOUT))
    except InputError:
        sparse = []  # a page the sparse pass takes too long on keeps the layout pass's words
    fill_in = [word for word in sparse if word.confidence >= MIN_SPARSE_CONFIDENCE
               and not any(_overlap(word.box, other.box) for other in words)]
    words += fill_in
    line_of += [("sparse", n) for n in range(len(fill_in))]  # one-word lines: no evidence of the page's skew
    scale = 72.0 / dpi
    page_width, page_height = image.width * scale, image.height * scale
    return OcrWords(words=deskewed(tuple(words), line_of, page_width, page_height), width=page_width, height=page_height,
                    lang=read_lang)


def first_layout_pass(image: Image.Image, *, dpi: float, lang: str, source: str,
                      timeout: float = DEFAULT_OCR_TIMEOUT) -> LayoutPass:
    """:func:`ocr_image`'s first Tesseract pass over ``image`` (in English when ``lang`` is ``"auto"``), with the
    grayscale image it read (its ruling lines erased: :mod:`.ruling_lines`), which the other passes read too."""
    _check_side(image, source)
    gray = erase_ruling_lines(to_ocr_mode(image), dpi)  # boxed rows are otherwise dropped as pictures
    return (gray, *_tesseract_words(gray, dpi=dpi, lang=FIRST_PASS_LANG if lang == AUTO_LANG else lang,
                                    config=LAYOUT_PASS_CONFIG, source=source, timeout=timeout))


def _overlap(a: Box, b: Box) -> bool:
    return a.x0 < b.x1 and b.x0 < a.x1 and a.top < b.bottom and b.top < a.bottom


def _tesseract_words(gray: Image.Image, *, dpi: float, lang: str, config: str, source: str, timeout: float
                     ) -> tuple[list[Word], list[tuple]]:
    """Tesseract's words of ``gray`` (boxes in points, confidences 0..1; its structural rows and empty words dropped)
    and the (block, paragraph, line) each stands in."""
    try:
        with single_threaded_tesseract():
            data = pytesseract.image_to_data(gray, lang=lang, config=config, output_type=Output.DICT, timeout=timeout)
    except TesseractNotFoundError as exc:
        raise MissingDependencyError(f"Tesseract is needed for OCR: {INSTALL_HINT}") from exc
    except TesseractError as exc:
        message = " ".join(str(exc.message).split())[:200]
        if "Failed loading language" in message:
            raise MissingDependencyError(f"Tesseract has no language data for {lang}: install tesseract-ocr-{lang}") from exc
        raise InputError(f"Tesseract failed: {message}", path=source, code="OCR_FAILED", stage="ocr") from exc
    except RuntimeError as exc:
        if _is_timeout(exc):
            raise InputError(f"Tesseract took over {timeout:g} s on one page", path=source,
                             code="OCR_TIMEOUT", stage="ocr") from exc
        raise
    words, line_of = [], []
    for text, conf, left, top, width, height, *line in zip(
        data["text"], data["conf"], data["left"], data["top"], data["width"], data["height"],
        data["block_num"], data["par_num"], data["line_num"]
    ):
        text = str(text).strip()
        confidence = float(conf)
        if not text or confidence < 0:
            continue
        box = Box.from_pixels(left, top, left + width, top + height, dpi)
        words.append(Word(text=text, box=box, confidence=min(confidence / 100.0, 1.0)))
        line_of.append(tuple(line))
    return words, line_of


def text_skew(words: tuple[Word, ...], line_of: list[tuple]) -> float:
    """The page's tilt in degrees (positive: lines fall to the right), the median slope of Tesseract's text lines of
    at least :data:`MIN_SKEW_LINE_WORDS` words; 0 with fewer than :data:`MIN_SKEW_LINES` such lines."""
    centres: dict[tuple, list[tuple[float, float]]] = {}
    for word, line in zip(words, line_of):
        centres.setdefault(line, []).append(((word.box.x0 + word.box.x1) / 2, (word.box.top + word.box.bottom) / 2))
    slopes = []
    for points in centres.values():
        if len(points) < MIN_SKEW_LINE_WORDS:
            continue
        mean_x = sum(x for x, _ in points) / len(points)
        mean_y = sum(y for _, y in points) / len(points)
        spread = sum((x - mean_x) ** 2 for x, _ in points)
        if spread > 0:
            slopes.append(sum((x - mean_x) * (y - mean_y) for x, y in points) / spread)
    if len(slopes) < MIN_SKEW_LINES:
        return 0.0
    return math.degrees(math.atan(sorted(slopes)[len(slopes) // 2]))


def deskewed(words: tuple[Word, ...], line_of: list[tuple], width: float, height: float) -> tuple[Word, ...]:
    """``words`` with their boxes turned about the page centre so that the text lines run level
    (:func:`text_skew`); each box keeps its size. Unchanged for a tilt under :data:`MIN_DESKEW_DEGREES` or over
    :data:`MAX_DESKEW_DEGREES`."""
    skew = text_skew(words, line_of)
    if not MIN_DESKEW_DEGREES <= abs(skew) <= MAX_DESKEW_DEGREES:
        return words
    theta = math.radians(skew)
    cos, sin = math.cos(theta), math.sin(theta)
    cx, cy = width / 2, height / 2
    out = []
    for word in words:
        box = word.box
        dx, dy = (box.x0 + box.x1) / 2 - cx, (box.top + box.bottom) / 2 - cy
        x, y = cx + dx * cos + dy * sin, cy - dx * sin + dy * cos  # y grows downwards: a falling line comes level
        half_w, half_h = (box.x1 - box.x0) / 2, (box.bottom - box.top) / 2
        out.append(Word(word.text, Box(x - half_w, y - half_h, x + half_w, y + half_h), word.confidence))
    return tuple(out)


def sparse_text_warning(image: Image.Image, word_count: int, *, dpi: float, number: int, asked: bool) -> str | None:
    """A warning when OCR found (almost) no words on page ``number`` although the image holds print: text this
    coarse (``dpi``) is lost. None for a page with words, or a blank one. ``asked``: the resolution is --dpi's (a
    PDF page rendered for OCR), else the image file's own."""
    if word_count >= SPARSE_OCR_WORDS:
        return None
    histogram = to_ocr_mode(image).convert("L").histogram()
    if sum(histogram[:128]) < INK_SHARE * image.width * image.height:
        return None  # a blank page: nothing to read
    where = f"page {number}: OCR at {dpi:g} dpi found {word_count} word{'s' if word_count != 1 else ''} on a page with print"
    if dpi >= READABLE_DPI:
        return where
    if asked:
        return f"{where}; small print needs more pixels: try --dpi 300 (the default)"
    return f"{where}; the image is scanned at {dpi:g} dpi, too coarse for its print: scan it at 300 dpi"


def looks_upright(words: tuple[Word, ...]) -> bool:
    """True when OCR of a page as-is already reads like upright text, so OSD can be skipped.

    Tesseract reads a page turned 90 degrees as vertical lines (tall, narrow word boxes) and a page
    turned 180 degrees as low-confidence garbage; an upright page has neither. Skipping OSD on
    upright pages saves ~1 s a page (OSD costs about as much as the OCR itself).
    """
    long_words = [w for w in words if len(w.text) >= MIN_SHAPE_WORD_CHARS]
    if len(long_words) < MIN_WORDS_FOR_ORIENTATION:
        return True  # too little text for OSD to decide anything either
    confidences = sorted(w.confidence or 0.0 for w in words)
    median_confidence = confidences[len(confidences) // 2]
    wide = sum(1 for w in long_words if w.box.width > w.box.height)
    return median_confidence >= MIN_UPRIGHT_MEDIAN_CONFIDENCE and wide >= MIN_WIDE_WORD_FRACTION * len(long_words)


def reader_name(read: OcrWords) -> str:
    """What read a page, for ``Page.text_reader``: ``"tesseract deu+eng"``."""
    return f"tesseract {read.lang}"


def next_pages_lang(lang: str, read: OcrWords) -> str:
    """The language to read a document's next pages in after a page ``read`` in ``lang``: with ``"auto"``, the
    language found on that page when it is not English (pages of one document share theirs, and are not each read
    twice); else ``lang``."""
    return read.lang if lang == AUTO_LANG and read.lang != FIRST_PASS_LANG else lang


def ocr_upright(image: Image.Image, *, dpi: float, lang: str, source: str, detect_orientation: bool = True,
                timeout: float = DEFAULT_OCR_TIMEOUT) -> tuple[OcrWords, int]:
    """The words of ``image`` in its upright frame, and the clockwise turn (degrees) applied to get there.

    The first layout pass first; only when its words do not look upright (:func:`looks_upright`) ask Tesseract OSD
    (on a copy reduced to about ``OSD_SHORT_SIDE``) which way is up, turn the image and OCR it. Judged before the
    other passes (a language's re-read, the sparse pass: up to 20 s on a page of sideways text), which a turned
    page would only have to run again.
    """
    if not detect_orientation:
        return ocr_image(image, dpi=dpi, lang=lang, source=source, timeout=timeout), 0
    layout_pass = first_layout_pass(image, dpi=dpi, lang=lang, source=source, timeout=timeout)
    if looks_upright(tuple(layout_pass[1])):
        return ocr_image(image, dpi=dpi, lang=lang, source=source, timeout=timeout, layout_pass=layout_pass), 0
    factor = max(1, round(min(image.size) / OSD_SHORT_SIDE))
    rotation = detect_rotation(image.reduce(factor) if factor > 1 else image, source=source, timeout=timeout)
    if rotation == 0:
        return ocr_image(image, dpi=dpi, lang=lang, source=source, timeout=timeout, layout_pass=layout_pass), 0
    turned = rotate_clockwise(image, rotation)
    return ocr_image(turned, dpi=dpi, lang=lang, source=source, timeout=timeout), rotation
