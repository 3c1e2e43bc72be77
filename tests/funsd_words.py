"""FUNSD forms as Documents for the layout tests: the annotation's word boxes, no reader involved.

FUNSD boxes are pixels of the form's PNG (about 754 x 1000 px). They are taken as points at
72 dpi (1 px = 1 pt): the layout tolerances are relative to font height, so the absolute scale
only has to be plausible (the forms come out roughly letter-sized, ~10 x 14 inches at 72 dpi
would be 754 x 1000 pt). Words with empty text (checkbox marks) are dropped, as a reader would.
"""

from __future__ import annotations

import json
from pathlib import Path

from PIL import Image

from docextract.document import Box, Document, Page, Word

FUNSD_DPI = 72.0  # pixels taken as points


def funsd_document(annotation: Path) -> Document:
    form = json.loads(annotation.read_text())["form"]
    image = annotation.parent.parent / "images" / (annotation.stem + ".png")
    with Image.open(image) as im:
        width_px, height_px = im.size
    words = [
        Word(w["text"], Box.from_pixels(*w["box"], dpi=FUNSD_DPI))
        for entity in form for w in entity["words"] if w["text"].strip()
    ]
    scale = 72.0 / FUNSD_DPI
    page = Page(number=1, width=width_px * scale, height=height_px * scale, words=tuple(words), text_source="words_json")
    return Document(source=str(annotation), pages=(page,), mime_type="application/json")
