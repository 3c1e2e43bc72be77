"""PNG, JPEG and TIFF files: every frame is a page, read by OCR.

Sizes are checked on the header before any pixel is decoded (``Image.open`` is lazy), so a
decompression bomb of a few KB is refused without allocating its gigabytes.
"""

from __future__ import annotations

import math
import warnings as warnings_mod
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageOps, UnidentifiedImageError

from docextract.document import POINTS_PER_INCH, Page
from docextract.errors import InputError
from docextract.readers import ocr as ocr_mod
from docextract.readers.limits import DEFAULT_OCR_TIMEOUT, MAX_IMAGE_FRAMES, MAX_IMAGE_PIXELS
from docextract.readers.source import Source

# Scans without resolution metadata are taken to be 300 dpi, the usual office-scanner setting.
DEFAULT_IMAGE_DPI = 300.0  # dots per inch
# Resolution metadata outside this range is nonsense (0, 1, 65535) and is ignored.
PLAUSIBLE_DPI = (30.0, 4800.0)  # dots per inch

# EXIF orientation tag -> clockwise degrees exif_transpose turns the image (mirrored ones included).
_EXIF_ORIENTATION_TAG = 0x0112
_EXIF_ROTATION = {1: 0, 2: 0, 3: 180, 4: 180, 5: 90, 6: 90, 7: 270, 8: 270}


@dataclass(frozen=True)
class ImagePages:
    pages: tuple[Page, ...]
    warnings: tuple[str, ...]


def image_dpi(image: Image.Image) -> tuple[float, bool]:
    """The image's horizontal resolution in dpi, and whether it came from the file (else the default)."""
    dpi = image.info.get("dpi")
    try:
        value = float(dpi[0]) if dpi else 0.0
    except (TypeError, ValueError, IndexError):
        value = 0.0
    if math.isfinite(value) and PLAUSIBLE_DPI[0] <= value <= PLAUSIBLE_DPI[1]:
        return value, True
    return DEFAULT_IMAGE_DPI, False


def _check_pixels(image: Image.Image, source: str, frame: int) -> None:
    width, height = image.size
    if width <= 0 or height <= 0:
        raise InputError(f"image frame {frame} has no pixels ({width}x{height})", path=source,
                         code="INPUT_UNREADABLE", stage="open")
    if width * height > MAX_IMAGE_PIXELS:
        raise InputError(
            f"image frame {frame} is {width}x{height} = {width * height / 1e6:.1f} MP, over the limit of "
            f"{MAX_IMAGE_PIXELS / 1e6:.1f} MP", path=source, code="IMAGE_TOO_LARGE", stage="open",
        )


def _decode_error(exc: Exception, source: str, frame: int) -> InputError:
    reason = " ".join(str(exc).split()) or type(exc).__name__
    return InputError(f"image frame {frame} is truncated or corrupt ({reason})", path=source,
                      code="IMAGE_TRUNCATED", stage="open")


def read_image(path: Path | Source, *, ocr: str, lang: str, ocr_timeout: float = DEFAULT_OCR_TIMEOUT) -> ImagePages:
    """Every frame of the image at ``path`` (or in a :class:`Source`'s bytes) as a :class:`Page` in points (OCR
    unless ``ocr="never"``)."""
    image_source = Source.of(path)
    source = image_source.name
    warnings: list[str] = []
    with warnings_mod.catch_warnings():
        # our own limit (MAX_IMAGE_PIXELS) decides; Pillow's warning-only zone is not used
        warnings_mod.simplefilter("ignore", Image.DecompressionBombWarning)
        try:
            # a path: Pillow opens the file and closes it with the image; bytes: a stream with nothing to close
            image = Image.open(image_source.path if image_source.path is not None else image_source.open())
        except Image.DecompressionBombError as exc:
            raise InputError(f"image is too large ({exc})", path=source, code="IMAGE_TOO_LARGE", stage="open") from exc
        except (UnidentifiedImageError, SyntaxError, ValueError, OSError) as exc:
            raise _decode_error(exc, source, 1) from exc
        with image:
            frames = getattr(image, "n_frames", 1)
            if frames > MAX_IMAGE_FRAMES:
                raise InputError(f"image has {frames} frames, more than the limit of {MAX_IMAGE_FRAMES}",
                                 path=source, code="RESOURCE_LIMIT", stage="open")
            if ocr == "never":
                warnings.append("ocr='never' on an image: its pages have no words")
            else:
                ocr_mod.check_tesseract(lang)
            pages = []
            for index in range(frames):
                page, lang = _read_frame(image, index, ocr=ocr, lang=lang, source=source, timeout=ocr_timeout,
                                         warnings=warnings)
                pages.append(page)
    return ImagePages(tuple(pages), tuple(warnings))


def _read_frame(image: Image.Image, index: int, *, ocr: str, lang: str, source: str, timeout: float,
                warnings: list[str]) -> tuple[Page, str]:
    """The frame as a page, and the language to read the next frames in (:func:`ocr.next_pages_lang`)."""
    number = index + 1
    try:
        image.seek(index)
    except (EOFError, OSError, ValueError) as exc:
        raise _decode_error(exc, source, number) from exc
    _check_pixels(image, source, number)
    dpi, from_file = image_dpi(image)
    if not from_file and index == 0:
        warnings.append(f"no resolution in the image; assumed {DEFAULT_IMAGE_DPI:g} dpi")
    try:
        image.load()
        orientation = image.getexif().get(_EXIF_ORIENTATION_TAG, 1)
        upright = ImageOps.exif_transpose(image)
    except (OSError, SyntaxError, ValueError, EOFError) as exc:
        raise _decode_error(exc, source, number) from exc
    exif_turn = _EXIF_ROTATION.get(orientation, 0)
    scale = POINTS_PER_INCH / dpi
    if ocr == "never":
        return Page(number=number, width=upright.width * scale, height=upright.height * scale, words=(),
                    text_source="ocr", rotation_applied=exif_turn), lang
    ocr_input, ocr_dpi = ocr_mod.resampled_for_ocr(upright, dpi)
    words, turned = ocr_mod.ocr_upright(ocr_input, dpi=ocr_dpi, lang=lang, source=source, timeout=timeout)
    sparse = ocr_mod.sparse_text_warning(upright, len(words.words), dpi=dpi, number=number, asked=False)
    if sparse:
        warnings.append(sparse)
    return Page(number=number, width=words.width, height=words.height, words=words.words,
                text_source="ocr", rotation_applied=(exif_turn + turned) % 360, text_reader=ocr_mod.reader_name(words)
                ), ocr_mod.next_pages_lang(lang, words)
