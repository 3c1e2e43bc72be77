"""The document pipeline as plain functions: file -> Document -> layout -> windows -> tags -> entity JSON.

``extract_file(path, options)`` is the one way from a file to its JSON: the Python API (:class:`docextract.Extractor`,
which `docextract run` FILE and `-` and the workers of `serve` use) calls it with the models it holds, a batch
worker of `run DIR` calls it by name; the loaded model is kept per process so a worker pays for it once. The file is
a path, or a :class:`~docextract.readers.source.Source` of bytes held in memory.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from docextract.document import Document, Window
from docextract.layout import analyze_layout
from docextract.layout.windows import make_windows
from docextract.modeling.loader import load_model
from docextract.modeling.model_folder import (  # noqa: F401  (the window policy: pipeline names it for its callers)
    DEFAULT_STRIDE, SPECIAL_TOKENS, model_cross_pages, model_stride, model_window_size,
)
from docextract.modeling.routing import AUTO, choose_model, load_route
from docextract.modeling.tokenizer import subword_counts

if TYPE_CHECKING:
    from docextract.readers.source import Source


ModelLoader = Callable[[str, str], tuple[Any, Any]]  # (model name or folder, device) -> (model, tokenizer)


@dataclass(frozen=True)
class RunOptions:
    """Everything that decides what a run produces (it is also what a batch's resume compares)."""

    model: str | None = "invoice"
    ocr: str = "auto"
    lang: str = "auto"  # Tesseract's; auto: English, then the page's own language (readers/ocr.py page_language)
    dpi: int = 300
    password: str | None = None
    include_tokens: bool = False
    include_timings: bool = False  # off by default: outputs stay byte-identical between runs
    stride: int | None = None  # None: what the model was trained with (evaluate reads windows the same way)
    max_tokens: int | None = None  # None: what the model was trained with (512 positions -> 510)
    cross_pages: bool | None = None  # None: what the model was trained with (long-range models read whole documents)
    precision: float | None = None  # review policy point: None is the model's own (0.99); see extraction/review.py
    ignore_embedded: bool = False  # True: read the page only, even when the PDF carries its invoice as XML
    pdf_text: str = "pdfplumber"  # how PDF text layers are read: "pdfplumber", or "auto" (PDFium where it agrees)
    split: bool = True  # an invoice model's file may hold several invoices: one document each (extraction/segments.py)
    device: str = "cpu"  # auto|cpu|cuda|mps: where the model runs (modeling/devices.py); fp32 on every device
    fields_only: bool = False  # the compact view (extraction.output.fields_view): fields, line items, review

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def read_and_analyze(path: str | Path | Source, options: RunOptions) -> tuple[Document, dict[str, int]]:
    """The no-ML half: read the file (text layer or OCR) and find lines, blocks and reading order."""
    from docextract.readers import read_document

    timings: dict[str, int] = {}
    start = time.perf_counter()
    doc = read_document(path, ocr=options.ocr, lang=options.lang, dpi=options.dpi, password=options.password,
                        pdf_text=options.pdf_text)
    timings["read"] = _ms_since(start)
    start = time.perf_counter()
    doc = analyze_layout(doc)
    timings["layout"] = _ms_since(start)
    return doc, timings


def document_windows(doc: Document, tokenizer=None, *, max_tokens: int = 512 - SPECIAL_TOKENS,
                     stride: int = DEFAULT_STRIDE, cross_pages: bool = False) -> list[Window]:
    """Model-sized windows over ``doc``'s reading order, counted in the tokenizer's subword tokens."""
    texts = [doc.word(ref).text for ref in doc.ordered_words()]
    return make_windows(doc, subword_counts(texts, tokenizer), max_tokens=max_tokens, stride=stride,
                        cross_pages=cross_pages)


def model_windows(doc: Document, model, tokenizer, options: RunOptions = RunOptions()) -> list[Window]:
    """The windows ``model`` reads ``doc`` in: its trained window size, stride and page crossing unless
    ``options`` say otherwise (a long-range model trained with --cross-pages: the whole document in one
    window when it fits)."""
    window_tokens = options.max_tokens or model_window_size(model)
    cross_pages = model_cross_pages(model) if options.cross_pages is None else options.cross_pages
    stride = model_stride(model, window_tokens) if options.stride is None else min(options.stride, window_tokens // 4)
    return document_windows(doc, tokenizer, max_tokens=window_tokens, stride=stride, cross_pages=cross_pages)


def extract_file(path: str | Path | Source, options: dict[str, Any] | RunOptions, *,
                 loader: ModelLoader | None = None) -> dict[str, Any]:
    """One file to the output JSON object (schemas/output.schema.json). ``loader(name, device)`` gives the
    (model, tokenizer) to run: the Extractor's own; by default :func:`load_model`, once per process."""
    if isinstance(options, dict):
        options = RunOptions(**options)
    doc, timings = read_and_analyze(path, options)
    return extract_document(path, doc, timings, options, loader=loader)


def extract_document(path: str | Path | Source, doc: Document, timings: dict[str, int], options: RunOptions, *,
                     loader: ModelLoader | None = None) -> dict[str, Any]:
    """The model half of ``extract_file``: a read and analysed document (``read_and_analyze``'s) to the output JSON
    object. ``path`` is opened again only for a PDF's embedded invoice. The Ray engine runs the two halves in
    separate workers (docextract.batch.stages), so OCR and the model can scale apart."""
    from docextract.extraction.output import build_output

    if options.model is None:
        return _view(_with_embedded(build_output(doc, [], model=None, ocr=_ocr_info(doc, options),
                                                 timings_ms=timings if options.include_timings else None),
                                    path, doc, options), options)
    model_name, routing, model, tagged = tag_document(doc, options, timings, loader=loader)
    output = document_output(doc, tagged, model, model_name, routing, timings, options)
    return _view(_with_embedded(output, path, doc, options), options)


def tag_document(doc: Document, options: RunOptions, timings: dict[str, int] | None = None, *,
                 loader: ModelLoader | None = None):
    """The model's half of a run: (model name, ``--model auto``'s routing or None, the loaded model, every word's
    tags and label probabilities). Benchmarks that try decodings on fixed tags cache what this returns.
    ``loader``: where the model comes from (default :func:`load_model`)."""
    from docextract.modeling.inference import tag_words  # torch: only where a model runs (a --model none worker never maps it)

    timings = {} if timings is None else timings
    model_name, routing = options.model, None
    if options.model == AUTO:
        from docextract.extraction.doctype import document_type
        from docextract.modeling.tokenizer import load_wordpiece

        model_name, routing = choose_model(doc, load_route(), load_wordpiece(), document_type(doc).type)
    start = time.perf_counter()
    model, tokenizer = (loader or load_model)(model_name, options.device)
    timings["load_model"] = _ms_since(start)
    start = time.perf_counter()
    windows = model_windows(doc, model, tokenizer, options)
    tagged = tag_words(model, tokenizer, doc, windows)
    timings["model"] = _ms_since(start)
    return model_name, routing, model, tagged


def document_output(doc: Document, tagged, model, model_name: str, routing, timings: dict[str, int],
                    options: RunOptions) -> dict[str, Any]:
    """The entity JSON of a tagged document (before an e-invoice's embedded values are added)."""
    from docextract.extraction.output import build_output
    from docextract.extraction.scoring import FieldScoring

    scoring = FieldScoring.from_model(model, options.precision)
    return build_output(doc, tagged, model=describe_model(model_name, model, scoring, routing),
                        timings_ms=timings if options.include_timings else None,
                        include_tokens=options.include_tokens, ocr=_ocr_info(doc, options),
                        scoring=scoring, split=options.split,
                        labels=scoring.labels)


def describe_model(name: str, model, scoring, routing: dict[str, Any] | None = None) -> dict[str, Any]:
    """``run.model``: what names the model (its name, version and settings hash, :mod:`docextract.modeling.identity`),
    its preset, and the review policy point the statuses follow. Once per output: the calibration's coefficients
    and the thresholds stay in the model's config.json, which ``settings_hash`` names."""
    from docextract.modeling.identity import model_identity
    from docextract.modeling.store import resolve_model

    calibration = scoring.calibration
    return {
        "name": name,
        **model_identity(resolve_model(name)),
        **({} if routing is None else {"auto": routing}),
        "preset": getattr(model.config, "preset", None),
        **({} if getattr(model, "compute", "float32") == "float32" else {"compute": model.compute}),
        **({} if calibration is None else {"field_calibration": calibration.to_config()["method"]}),
        "review": {"precision": scoring.target, "source": scoring.source, "required": scoring.describe()["required"]},
    }


def _view(output: dict[str, Any], options: RunOptions) -> dict[str, Any]:
    """The output as asked: whole, or (``fields_only``) each field's value, normalised value, confidence and status."""
    if not options.fields_only:
        return output
    from docextract.extraction.output import fields_view

    return fields_view(output)


def _with_embedded(output: dict[str, Any], path: str | Path | Source, doc: Document,
                   options: RunOptions) -> dict[str, Any]:
    """The output with the values of an e-invoice's embedded XML beside the model's (a PDF only, unless
    ``ignore_embedded``); unchanged for every other file. The XML modules load only for PDFs."""
    if options.ignore_embedded or doc.mime_type != "application/pdf":
        return output
    from docextract.readers.einvoice import read_embedded_invoice

    invoice = read_embedded_invoice(path, password=options.password)
    if invoice is None:
        return output
    if len(output["documents"]) > 1:  # which of the invoices the XML belongs to is not said: none gets its values
        output["warnings"].append(f"the embedded invoice ({invoice.summary()['attachment']}) was not applied: the file "
                                  f"holds {len(output['documents'])} documents (--no-split reads it as one)")
        return output
    from docextract.extraction.embedded import add_embedded_values

    return add_embedded_values(output, doc, invoice.field_values(), invoice.normalized_fields(), invoice.summary(),
                               invoice.line_item_amounts())


def _ocr_info(doc: Document, options: RunOptions) -> dict[str, Any] | None:
    if not any(p.text_source == "ocr" for p in doc.pages):
        return None
    return {"engine": "tesseract", "lang": options.lang, "dpi": options.dpi}


def _ms_since(start: float) -> int:
    return int(round((time.perf_counter() - start) * 1000))
