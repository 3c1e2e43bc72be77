"""FUNSD (scanned forms) -> labelled documents.

Each ``annotations/NAME.json`` lists entities (``label`` header/question/answer/other, ``id``) and their
``words`` with word-level pixel boxes of ``images/NAME.png``. We keep the word boxes (never the entity box,
which would leak the answer into every word), label each word with its entity's label (``other`` -> O),
and use the FUNSD entity id as the entity id. Words are in annotation order (entity after entity); the
layout stage may reorder them.

Pixels -> points: with the PNG's own resolution (its ``dpi``/pHYs) when it has one, otherwise
:data:`ASSUMED_DPI`. None of the 199 FUNSD PNGs records a resolution, so their points equal their pixels.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from PIL import Image

from docextract.data.labelled import OUTSIDE, LabelledDocument
from docextract.data.report import ConvertReport, DocumentProgress, build_report
from docextract.document import Box, Document, Page, Word
from docextract.errors import InputError

LABEL_SET = ("header", "question", "answer")
ASSUMED_DPI = 72.0  # dots per inch when a PNG records none: 1 pixel = 1 point
SPLIT_DIRS = {"train": "training_data", "test": "testing_data"}


def split_dir(src: Path, split: str) -> Path:
    """``src`` itself when it holds ``annotations/``, else its ``training_data``/``testing_data`` folder."""
    if (src / "annotations").is_dir():
        return src
    folder = src / SPLIT_DIRS[split]
    if not (folder / "annotations").is_dir():
        raise InputError(f"not a FUNSD folder: expected {SPLIT_DIRS[split]}/annotations/ or annotations/ inside",
                         path=str(src), code="INPUT_NOT_FOUND")
    return folder


def image_size_and_dpi(image_path: Path) -> tuple[int, int, float]:
    """Width and height in pixels (read from the header only) and the resolution to convert them with."""
    try:
        with Image.open(image_path) as image:
            dpi = image.info.get("dpi")
            width, height = image.size
    except OSError as error:
        raise InputError(f"cannot read the FUNSD image: {error}", path=str(image_path)) from None
    resolution = float(dpi[0]) if dpi and dpi[0] and float(dpi[0]) > 1.0 else ASSUMED_DPI
    return width, height, resolution


def convert_annotation(annotation_path: Path, image_path: Path, notes: Counter | None = None) -> LabelledDocument:
    """One FUNSD form. ``notes`` counts repairs: empty words dropped, inverted or overflowing boxes fixed."""
    notes = notes if notes is not None else Counter()
    try:
        form = json.loads(annotation_path.read_text(encoding="utf-8"))["form"]
    except (OSError, ValueError, KeyError) as error:
        raise InputError(f"not a FUNSD annotation: {error}", path=str(annotation_path)) from None
    px_width, px_height, dpi = image_size_and_dpi(image_path)
    page_box = Box.from_pixels(0, 0, px_width, px_height, dpi)
    page_width, page_height = page_box.x1, page_box.bottom
    words: list[Word] = []
    labels: list[str] = []
    entities: list[int | None] = []
    for entity in form:
        label = entity["label"] if entity["label"] in LABEL_SET else OUTSIDE
        for word in entity["words"]:
            text = word["text"].strip()
            if not text:
                notes["empty words dropped"] += 1
                continue
            x0, y0, x1, y1 = (float(v) for v in word["box"])
            if x1 < x0 or y1 < y0:
                notes["inverted boxes reordered"] += 1
                x0, x1, y0, y1 = min(x0, x1), max(x0, x1), min(y0, y1), max(y0, y1)
            box = Box.from_pixels(x0, y0, x1, y1, dpi)
            clipped = box.clipped(page_width, page_height)
            if clipped != box:
                notes["boxes clipped to the page"] += 1
            words.append(Word(text, clipped))
            labels.append(label)
            entities.append(int(entity["id"]) if label != OUTSIDE else None)
    page = Page(number=1, width=page_width, height=page_height, words=tuple(words), text_source="ocr")
    document = Document(source=str(image_path), pages=(page,), mime_type="image/png")
    return LabelledDocument(
        id=annotation_path.stem, document=document, labels=(tuple(labels),), entities=(tuple(entities),),
        label_set=LABEL_SET,
    )


def convert_funsd(src: str | Path, split: str = "train", limit: int | None = None, *,
                  on_document: DocumentProgress | None = None) -> tuple[list[LabelledDocument], ConvertReport]:
    """Every form of a FUNSD split (``src`` is the FUNSD root or a split folder), sorted by name. ``on_document(done,
    total)`` after each form."""
    folder = split_dir(Path(src), split)
    notes: Counter = Counter()
    docs = []
    annotations = sorted((folder / "annotations").glob("*.json"))[:limit]
    for annotation in annotations:
        image = folder / "images" / f"{annotation.stem}.png"
        if not image.exists():
            raise InputError("FUNSD image missing for this annotation", path=str(image), code="INPUT_NOT_FOUND")
        docs.append(convert_annotation(annotation, image, notes))
        if on_document:
            on_document(len(docs), len(annotations))
    return docs, build_report("funsd", split, docs, notes=notes)
