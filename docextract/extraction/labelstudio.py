"""The entity JSON as Label Studio pre-annotations, and the labelling config they fit.

Label Studio's OCR / key-information template labels a page image with rectangles that carry a label and
their text (``Rectangle`` + ``Labels`` + a per-region ``TextArea``, all on one ``Image``). :func:`labelling_config`
prints that config for a model's labels; :func:`prediction_tasks` turns one `run` output into one task per page
(``data.image``: the page image, ``data.docextract``: the file, the page and its words, which the converter
reads back), each with one prediction: every entity the model found on that page (fields, their alternatives,
line-item cells) as a region (label, box, text, score), the prediction's ``model_version`` and ``score`` (the regions' mean
confidence). A reviewer corrects them in Label Studio, exports JSON, and `docextract convert labelstudio`
makes the labelled JSONL `finetune` reads (:mod:`docextract.data.labelstudio`).

Coordinates: Label Studio counts percent of the image, top-left origin; the output's boxes are fractions of
the page, so the page image must show the whole page (a rendered PDF page, or the image file itself).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence
from xml.sax.saxutils import quoteattr

from docextract import __version__

IMAGE = "image"  # the names the config gives its tags; predictions and the converter refer to them
RECTANGLE = "bbox"
LABELS = "label"
TEXT = "transcription"
# One colour per label (Label Studio picks one per label otherwise, often two alike): Trubetskoy's 18 distinct
# colours first, then hues spread by the golden angle for a model with more labels (the invoice model has 21).
_COLOURS = ("#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6", "#bfef45", "#fabed4",
            "#469990", "#dcbeff", "#9a6324", "#800000", "#aaffc3", "#808000", "#000075", "#a9a9a9", "#ffd8b1")
_GOLDEN_ANGLE = 0.381966  # of a turn: consecutive hues land far apart


def label_colours(count: int) -> list[str]:
    """``count`` different colours (hex), the hand-picked ones first."""
    import colorsys

    colours = list(_COLOURS[:count])
    n = 0
    while len(colours) < count:
        lightness = (0.38, 0.55, 0.72)[n % 3]
        red, green, blue = colorsys.hls_to_rgb((n * _GOLDEN_ANGLE) % 1.0, lightness, 0.8)
        colour = f"#{round(red * 255):02x}{round(green * 255):02x}{round(blue * 255):02x}"
        if colour not in colours:
            colours.append(colour)
        n += 1
    return colours


def labelling_config(labels: Sequence[str]) -> str:
    """The Label Studio labelling config (XML) for regions of ``labels`` with their text."""
    if not labels:
        raise ValueError("no labels for the labelling config")
    rows = "\n".join(f'    <Label value={quoteattr(label)} background="{colour}"/>'
                     for label, colour in zip(labels, label_colours(len(labels))))
    return f"""<View>
  <Image name="{IMAGE}" value="${IMAGE}" zoom="true"/>
  <Labels name="{LABELS}" toName="{IMAGE}">
{rows}
  </Labels>
  <Rectangle name="{RECTANGLE}" toName="{IMAGE}" strokeWidth="2"/>
  <TextArea name="{TEXT}" toName="{IMAGE}" editable="true" perRegion="true" required="false" maxSubmissions="1"
            rows="2" placeholder="the region's text" displayMode="region-list"/>
</View>
"""


def model_version(output: Mapping[str, Any]) -> str:
    model = output["run"].get("model") or {}
    return f"{model.get('name') or 'none'}@docextract-{__version__}"


def prediction_tasks(output: Mapping[str, Any], images: Mapping[int, str]) -> list[dict[str, Any]]:
    """One Label Studio task per page of ``output`` (a `run` result; with ``tokens``, each task also keeps its
    page's words, so the converter labels exactly the words `run` read). ``images``: page number -> the image
    reference Label Studio shows (a URL, a /data/local-files path, or a data: URI)."""
    words = page_words(output) if "tokens" in output else None
    regions: dict[int, list[dict[str, Any]]] = {}
    for document in output["documents"]:
        for entity in document["entities"]:  # every entity the model found: fields, their alternatives, line-item cells
            regions.setdefault(entity["page"], []).append(_region(entity["label"], entity))
    tasks = []
    for page in output["pages"]:
        number = page["page"]
        found = regions.get(number, [])
        results = []
        for n, region in enumerate(found):
            rid = f"p{number}r{n}"
            results += [
                {"id": rid, "from_name": RECTANGLE, "to_name": IMAGE, "type": "rectangle", "value": region["box"]},
                {"id": rid, "from_name": LABELS, "to_name": IMAGE, "type": "labels",
                 "value": {**region["box"], "labels": [region["label"]]}, "score": region["score"]},
                {"id": rid, "from_name": TEXT, "to_name": IMAGE, "type": "textarea",
                 "value": {**region["box"], "text": [region["text"]]}},
            ]
        score = round(sum(r["score"] for r in found) / len(found), 4) if found else 0.0
        data = {IMAGE: images[number], "docextract": {"source": output["source"]["path"], "sha256": output["source"]["sha256"],
                                                      "page": number, "page_count": len(output["pages"])}}
        if words is not None and number in words:
            data["docextract"]["words"] = words[number]
        tasks.append({"data": data, "predictions": [{"model_version": model_version(output), "score": score,
                                                      "result": results}]})
    return tasks


def page_words(output: Mapping[str, Any]) -> dict[int, dict[str, Any]]:
    """Page number -> the page in the labelled format's shape (size in points, words with boxes in points), from
    the output's ``tokens``."""
    pages = {p["page"]: {"number": p["page"], "width": p["width"], "height": p["height"], "text_source": p["text_source"],
                         "words": []} for p in output["pages"]}
    for token in sorted(output["tokens"], key=lambda t: (t["page"], int(t["id"].rsplit("-t", 1)[1]))):
        page = pages[token["page"]]
        x0, y0, x1, y1 = token["bbox"]
        page["words"].append({"text": token["text"], "box": [round(x0 * page["width"], 2), round(y0 * page["height"], 2),
                                                            round(x1 * page["width"], 2), round(y1 * page["height"], 2)]})
    return pages


def _region(label: str, field: Mapping[str, Any]) -> dict[str, Any]:
    x0, y0, x1, y1 = field["bbox"]
    box = {"x": round(100 * x0, 3), "y": round(100 * y0, 3), "width": round(100 * (x1 - x0), 3),
           "height": round(100 * (y1 - y0), 3), "rotation": 0}
    return {"label": label, "box": box, "text": field["value"], "score": field["confidence"]}
