"""Label Studio's JSON export of an OCR / key-information project -> labelled documents.

A task is one page image; its annotation (the latest one not cancelled) holds regions: a rectangle with a
label and, optionally, its text (``RectangleLabels``, or ``Rectangle`` + ``Labels`` + a per-region ``TextArea``
sharing one region id, as :func:`docextract.extraction.labelstudio.labelling_config` sets up). The words of
the page come from the task when `docextract run --format labelstudio` made it (``data.docextract.words``: the
words `run` read, so labels land on exactly those), else from the image, read as `run` reads it (text layer or
OCR). Every word whose centre lies inside a labelled rectangle takes its label, one entity per region (a word
in two regions keeps the first one's); a region with text but no word inside (OCR missed it) gets its text as words spread over the rectangle; a region
with neither is counted and dropped. Tasks of one file (the same ``data.docextract.source`` and ``sha256``)
become one multi-page document.

Anything else ends in an :class:`InputError` naming the task: a region of another shape (polygon, brush,
keypoint; a rotated rectangle), an image that cannot be found (``--files-root`` resolves Label Studio's
``/data/local-files/?d=`` and ``/data/upload/`` paths), an export that is not Label Studio's JSON.
"""

from __future__ import annotations

import base64
import binascii
import json
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any, Iterable
from urllib.parse import parse_qs, unquote, urlparse

from docextract.data.labelled import OUTSIDE, LabelledDocument
from docextract.data.report import ConvertReport, DocumentProgress
from docextract.document import Box, Document, Page, Word
from docextract.errors import InputError

REGION_TYPES = {"rectangle", "labels", "rectanglelabels", "textarea"}
IMAGE_KEYS = ("image", "ocr", "img", "page")


def convert_labelstudio(export: str | Path, files_root: str | Path | None = None, *, ocr: str = "auto",
                        lang: str = "auto", on_document: DocumentProgress | None = None
                        ) -> tuple[list[LabelledDocument], ConvertReport]:
    """Label Studio's JSON export at ``export`` -> labelled documents, in task order (see the module docstring).
    ``on_document(done, total)`` after each task."""
    export = Path(export)
    try:
        tasks = json.loads(export.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError("no such file", path=str(export), code="INPUT_NOT_FOUND") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise InputError(f"not a Label Studio JSON export: {error}", path=str(export), code="UNSUPPORTED_FORMAT") from None
    if isinstance(tasks, dict):
        tasks = [tasks]
    if not isinstance(tasks, list) or not all(isinstance(t, dict) and isinstance(t.get("data"), dict) for t in tasks):
        raise InputError("not a Label Studio JSON export (a list of tasks with 'data'; export as JSON, not JSON-MIN or CSV)",
                         path=str(export), code="UNSUPPORTED_FORMAT")
    root = Path(files_root) if files_root is not None else export.parent
    notes: Counter = Counter()
    pages: dict[str, list[tuple[int, Page, list[str], list[int | None]]]] = {}
    for position, task in enumerate(tasks):
        name = f"task {task.get('id', position + 1)}"
        annotation = _annotation(task)
        if annotation is None:
            notes["tasks without an annotation (skipped)"] += 1
            continue
        key, number, page = _page(task, name, root, export, ocr, lang)
        labels, entities, page = _labels(page, annotation, name, notes)
        pages.setdefault(key, []).append((number, page, labels, entities))
        if on_document:
            on_document(position + 1, len(tasks))
    documents = []
    label_set = sorted({label for group in pages.values() for _, _, labels, _ in group for label in labels} - {OUTSIDE})
    for key, group in pages.items():
        group.sort(key=lambda item: item[0])
        offset = 0
        all_entities = []
        for _, _, _, entities in group:  # entity ids unique within the document
            all_entities.append(tuple(None if e is None else e + offset for e in entities))
            offset += 1 + max((e for e in entities if e is not None), default=-1)
        doc = Document(source=key, pages=tuple(p.replace(number=n) for n, p, _, _ in group), mime_type="application/json")
        documents.append(LabelledDocument(id=key, document=doc, labels=tuple(tuple(l) for _, _, l, _ in group),
                                          entities=tuple(all_entities), label_set=tuple(label_set)))
    entity_counts: Counter = Counter()
    for document in documents:
        for page_labels, page_entities in zip(document.labels, document.entities):
            entity_counts.update(label for label, _ in set(zip(page_labels, page_entities)) if label != OUTSIDE)
    report = ConvertReport(dataset="labelstudio", split="export", documents=len(documents),
                           words=sum(d.document.word_count for d in documents),
                           entities_per_label=dict(sorted(entity_counts.items())), notes=dict(notes))
    return documents, report


def _annotation(task: dict[str, Any]) -> list[dict[str, Any]] | None:
    """The results of the task's latest annotation that was not cancelled (None: not annotated)."""
    annotations = [a for a in task.get("annotations") or () if isinstance(a, dict) and not a.get("was_cancelled")]
    if not annotations:
        return None
    latest = max(annotations, key=lambda a: (str(a.get("updated_at") or a.get("created_at") or ""), a.get("id") or 0))
    return list(latest.get("result") or ())


def _page(task: dict[str, Any], name: str, root: Path, export: Path, ocr: str, lang: str) -> tuple[str, int, Page]:
    """(the document it belongs to, the page number, the page with its words)."""
    data = task["data"]
    meta = data.get("docextract") if isinstance(data.get("docextract"), dict) else None
    if meta and isinstance(meta.get("words"), dict):
        try:
            page = Document.from_dict({"pages": [meta["words"]]}).pages[0]
        except (KeyError, TypeError, ValueError) as error:
            raise InputError(f"{name}: data.docextract.words is not a page of words ({error})", path=str(export),
                             code="INPUT_UNREADABLE") from None
        return f"{meta.get('source', 'document')}#{str(meta.get('sha256', ''))[:12]}", int(meta.get("page", 1)), page
    reference = next((data[k] for k in IMAGE_KEYS if isinstance(data.get(k), str)), None)
    if reference is None:
        raise InputError(f"{name}: no page image in its data (looked for {', '.join(IMAGE_KEYS)})", path=str(export),
                         code="INPUT_UNREADABLE")
    return f"task-{task.get('id', name)}", 1, _read_image(reference, name, root, export, ocr, lang)


def _read_image(reference: str, name: str, root: Path, export: Path, ocr: str, lang: str) -> Page:
    from docextract.readers import read_document

    with tempfile.TemporaryDirectory() as tmp:
        path = _image_path(reference, name, root, export, Path(tmp))
        try:
            doc = read_document(path, ocr=ocr, lang=lang)
        except InputError as error:
            raise InputError(f"{name}: its image cannot be read: {error.one_line()}", path=str(export), code=error.code) from None
    if len(doc.pages) != 1:
        raise InputError(f"{name}: its image has {len(doc.pages)} pages; a task labels one page", path=str(export),
                         code="UNSUPPORTED_FORMAT")
    return doc.pages[0]


def _image_path(reference: str, name: str, root: Path, export: Path, tmp: Path) -> Path:
    if reference.startswith("data:"):
        header, _, payload = reference.partition(",")
        try:
            raw = base64.b64decode(payload, validate=True) if header.endswith(";base64") else unquote(payload).encode()
        except (binascii.Error, ValueError):
            raise InputError(f"{name}: its image is a data: URI that does not decode", path=str(export),
                             code="INPUT_UNREADABLE") from None
        path = tmp / ("page." + (header[5:].split(";")[0].split("/")[-1] or "png"))
        path.write_bytes(raw)
        return path
    url = urlparse(reference)
    if url.scheme in ("http", "https", "s3", "gs", "azure-blob"):
        raise InputError(f"{name}: its image is a URL ({reference}); docextract reads no network: download the images "
                         "and pass --files-root", path=str(export), code="INPUT_NOT_FOUND")
    candidates = []
    if url.path.startswith("/data/local-files/"):
        candidates.append(root / parse_qs(url.query).get("d", [""])[0])
    elif url.path.startswith("/data/upload/"):
        relative = url.path[len("/data/upload/"):]
        candidates += [root / "media" / "upload" / relative, root / "upload" / relative, root / relative]
    else:
        candidates += [root / unquote(url.path), export.parent / unquote(url.path)]
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    raise InputError(f"{name}: its image {reference} is not under {root} (pass --files-root: Label Studio's document "
                     "root or data folder)", path=str(export), code="INPUT_NOT_FOUND")


def _labels(page: Page, results: Iterable[dict[str, Any]], name: str, notes: Counter
            ) -> tuple[list[str], list[int | None], Page]:
    """Each word's label and entity id on ``page`` from the annotation's ``results``; the page may gain words
    (a region's text where no word was read)."""
    regions: dict[str, dict[str, Any]] = {}
    for result in results:
        kind = str(result.get("type", "")).lower()
        rid = str(result.get("id", len(regions)))
        if kind not in REGION_TYPES:
            raise InputError(f"{name}: region {rid} is a {kind or 'region without a type'}; only rectangles with a label "
                             "(and their text) can be converted", code="UNSUPPORTED_FORMAT")
        value = result.get("value") or {}
        region = regions.setdefault(rid, {})
        if all(k in value for k in ("x", "y", "width", "height")):
            if abs(float(value.get("rotation") or 0)) > 0.5:
                raise InputError(f"{name}: region {rid} is rotated ({value['rotation']} degrees); draw it upright",
                                 code="UNSUPPORTED_FORMAT")
            region["box"] = tuple(float(value[k]) for k in ("x", "y", "width", "height"))
        for key in ("labels", "rectanglelabels"):
            if value.get(key):
                region["label"] = str(value[key][0])
        if value.get("text"):
            region["text"] = " ".join(str(t) for t in value["text"]).strip()
    words = list(page.words)
    labels = [OUTSIDE] * len(words)
    entities: list[int | None] = [None] * len(words)
    for entity, region in enumerate(regions.values()):
        if "box" not in region or "label" not in region:
            notes["regions without a box or a label (dropped)"] += 1
            continue
        x, y, w, h = region["box"]
        box = Box(page.width * x / 100, page.height * y / 100, page.width * (x + w) / 100, page.height * (y + h) / 100)
        inside = [i for i, word in enumerate(words)
                  if box.x0 <= word.box.center[0] <= box.x1 and box.top <= word.box.center[1] <= box.bottom]
        free = [i for i in inside if labels[i] == OUTSIDE]
        if inside and not free:
            notes["regions whose words an earlier region labelled (dropped)"] += 1
            continue
        inside = free
        if not inside and region.get("text"):
            added = _spread(region["text"], box)
            inside = list(range(len(words), len(words) + len(added)))
            words += added
            labels += [OUTSIDE] * len(added)
            entities += [None] * len(added)
            notes["regions read from their text (no word inside)"] += 1
        if not inside:
            notes["regions with no word and no text (dropped)"] += 1
            continue
        for i in inside:
            labels[i], entities[i] = region["label"], entity
    return labels, entities, page.replace(words=tuple(words), lines=(), blocks=(), block_order=())


def _spread(text: str, box: Box) -> list[Word]:
    """``text``'s words laid over ``box`` left to right, each as wide as its share of the characters."""
    tokens = text.split()
    total = sum(len(t) for t in tokens) + len(tokens) - 1
    words, x = [], box.x0
    for token in tokens:
        width = box.width * len(token) / max(1, total)
        words.append(Word(token, Box(x, box.top, x + width, box.bottom)))
        x += width + box.width / max(1, total)
    return words
