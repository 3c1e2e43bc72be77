"""One synthetic invoice end to end: content, layout, PDF, words, labels, and optionally a scan.

:func:`generate_invoice` is deterministic in ``(seed, index)``: each document draws from its own
``random.Random`` seeded with both, so documents can be generated in any order or in parallel and the
same seed always gives the same files and labels. It returns the document's line for labels.jsonl
(docs/labelled-format.md) and writes its files under ``out_dir``.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from docextract.document import Document
from docextract.files import write_bytes_atomic
from docextract.synth.blocks import Style
from docextract.synth.canvas import Canvas
from docextract.synth.content import LOCALES, InvoiceContent, choose_locale, content_traits, sample_invoice
from docextract.synth.labelling import Region, WordLabel, label_document, read_pdf_words
from docextract.vocabulary import INVOICE_LABELS
from docextract.synth.layouts import FAMILIES, Family
from docextract.synth.scan import rotate_regions, rotate_words, save_scan, scan_pdf

ROWS_PER_PAGE_GUESS = 24  # line items per full page, a first guess refined by re-rendering
MAX_FIT_ATTEMPTS = 6
MULTI_PAGE_SHARE = 0.3  # of documents, when more than one page is allowed
DEFAULT_SCAN_DPI = 150


@dataclass(frozen=True)
class SynthOptions:
    families: tuple[str, ...]  # the families to draw from
    pages_max: int = 3
    pages_min: int = 1
    scan_fraction: float = 0.0
    scan_dpi: float = DEFAULT_SCAN_DPI
    locales: tuple[str, ...] = LOCALES


@dataclass(frozen=True)
class Rendered:
    family: Family
    content: InvoiceContent
    pdf: bytes
    regions: tuple[Region, ...]
    page_count: int


def document_rng(seed: int, index: int, purpose: str) -> random.Random:
    """An independent, reproducible random stream per document and purpose (str seeds hash with SHA-512)."""
    return random.Random(f"docextract-synth:{seed}:{index}:{purpose}")


def render(family: Family, content: InvoiceContent, rng_state: random.Random) -> Rendered:
    """Draw ``content`` with ``family``; the PDF bytes and every drawn run as a Region.

    A multi-page invoice is drawn twice with the same random state: "Page 1 of N" needs N.
    """
    state = rng_state.getstate()
    page_total = 1
    while True:
        rng = random.Random()
        rng.setstate(state)
        cv = Canvas(family.page_format, rng.choice(family.fonts), page_total=page_total)
        family.draw(cv, content, Style(rng, content.language, credit_note=content.is_credit_note))
        if cv.page == page_total:
            break
        page_total = cv.page
    regions = tuple(Region(r.page, r.box, r.label, r.entity, r.row, r.text) for r in cv.runs)
    return Rendered(family, content, cv.output(), regions, cv.page)


def render_fitting(seed: int, index: int, options: SynthOptions) -> Rendered:
    """Pick family, locale and a page target, then re-sample the item count until the pages fit."""
    rng = document_rng(seed, index, "plan")
    family = FAMILIES[rng.choice(options.families)]
    locale = choose_locale(rng, options.locales)
    low, high = options.pages_min, max(options.pages_min, options.pages_max)
    target = low if high == low or rng.random() >= MULTI_PAGE_SHARE else rng.randint(max(low, 2), high)
    n_items = rng.randint(1, 9) if target == 1 else rng.randint((target - 1) * ROWS_PER_PAGE_GUESS - 6,
                                                                   (target - 1) * ROWS_PER_PAGE_GUESS + 10)
    rendered = None
    for attempt in range(MAX_FIT_ATTEMPTS):
        content = sample_invoice(document_rng(seed, index, f"content{attempt}"), locale, n_items=n_items,
                                 profile=family.profile)
        rendered = render(family, content, document_rng(seed, index, f"layout{attempt}"))
        if rendered.page_count > high:
            n_items = max(1, int(n_items * high / rendered.page_count) - 4)
        elif rendered.page_count < low:
            n_items = int(n_items * 1.4) + ROWS_PER_PAGE_GUESS // 2
        else:
            return rendered
    # Out of attempts: one line item always fits on one page, which satisfies any pages_max.
    content = sample_invoice(document_rng(seed, index, "content-last"), locale, n_items=1, profile=family.profile)
    return render(family, content, document_rng(seed, index, "layout-last"))


def labelled_pages(document: Document, labels: list[list[WordLabel]]) -> list[dict[str, Any]]:
    """Document.to_dict() pages with "label", "entity" and "row" on every labelled word."""
    pages = document.to_dict()["pages"]
    for page, page_labels in zip(pages, labels):
        for word, label in zip(page["words"], page_labels):
            word["box"] = [round(v, 2) for v in word["box"]]
            if label.label:
                word["label"] = label.label
                word["entity"] = label.entity
                if label.row is not None:
                    word["row"] = label.row
    return pages


def generate_invoice(seed: int, index: int, options: SynthOptions, out_dir: Path) -> dict[str, Any]:
    """Write document ``index``'s files under ``out_dir`` and return its labels.jsonl record."""
    rendered = render_fitting(seed, index, options)
    stem = f"invoice-{seed}-{index:06d}"
    document = read_pdf_words(rendered.pdf)
    labels = label_document(document, rendered.regions)
    scanned = document_rng(seed, index, "scan").random() < options.scan_fraction
    record: dict[str, Any] = {"id": stem, "label_set": list(INVOICE_LABELS)}
    if not scanned:
        write_bytes_atomic(out_dir / f"{stem}.pdf", rendered.pdf)
        document = document.replace(source=f"{stem}.pdf", sha256=hashlib.sha256(rendered.pdf).hexdigest())
        kind = "digital"
    else:
        pages = scan_pdf(rendered.pdf, document_rng(seed, index, "scan-params"), options.scan_dpi)
        image_path = Path(save_scan(pages, str(out_dir / stem)))
        sidecar = _write_sidecar(out_dir / f"{stem}.regions.json", stem, image_path.name, pages, rendered.regions)
        # The drawn words moved like the image: what a perfect OCR would read. Real OCR words are labelled
        # with label_words_by_regions and the sidecar's regions instead.
        document = document.replace(
            source=image_path.name, sha256=hashlib.sha256(image_path.read_bytes()).hexdigest(),
            mime_type="image/jpeg" if image_path.suffix == ".jpg" else "image/tiff",
            pages=tuple(page.replace(words=rotate_words(page.words, scan.params.angle, page.width, page.height),
                                     text_source="words_json") for page, scan in zip(document.pages, pages)))
        record["regions"] = sidecar
        kind = "scan"
    content = rendered.content
    record.update(document.to_dict())
    record["pages"] = labelled_pages(document, labels)
    record["fields"] = {key: [value] for key, value in content.normalized_fields().items()}
    record["line_items"] = content.normalized_line_items()
    record["synth"] = {"seed": seed, "index": index, "family": rendered.family.name, "locale": content.locale,
                       "kind": kind, "page_count": rendered.page_count, "document_type": content.document_type,
                       "traits": content_traits(content)}
    return record


def _write_sidecar(path: Path, stem: str, image: str, pages: list, regions: tuple[Region, ...]) -> str:
    """The scan's labelled regions per page, rotated like the image (points; pixel = point * dpi / 72)."""
    out = {"id": stem, "image": image, "pages": []}
    for number, scan in enumerate(pages, start=1):
        page_regions = [r for r in regions if r.page == number]
        moved = rotate_regions(page_regions, scan.params.angle, scan.width, scan.height)
        out["pages"].append({
            "number": number, "width": scan.width, "height": scan.height, "unit": "pt",
            "dpi": scan.params.dpi, "width_px": scan.image.width, "height_px": scan.image.height,
            "angle_degrees": round(scan.params.angle, 4), "regions": [r.to_dict() for r in moved],
        })
    write_bytes_atomic(path, json.dumps(out, ensure_ascii=False).encode("utf-8"))
    return path.name
