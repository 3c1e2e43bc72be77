"""The Python API: an :class:`Extractor` loads a model once and turns documents into the JSON `docextract run` prints.

``Extractor(model, **options)`` takes `run`'s options by their names in :class:`docextract.pipeline.RunOptions`
(``ocr=``, ``lang=``, ``precision=``, ``device=``, ...), refuses what `run` refuses (:class:`UsageError`), and
loads the model at once, so a wrong model name fails there and the first document does not pay for the load.
:meth:`Extractor.extract` takes a path, bytes or a binary file object and returns an :class:`ExtractionResult`;
:meth:`Extractor.extract_many` goes through many paths as a batch does, a failure recorded with its error code and
the rest going on. Every document goes through :func:`docextract.pipeline.extract_file`, the one way from a file to
its JSON, with this Extractor's models. docs/python-api.md is the user's guide.

This module imports no torch at import time: ``import docextract`` stays cheap; the model's libraries load when an
Extractor is made.
"""

from __future__ import annotations

import json
import os
from typing import Any, BinaryIO, Iterable, Iterator, Union

from docextract.errors import (
    DocextractError,
    InputError,
    MissingDependencyError,
    ModelRefusedError,
    UsageError,
)

DocumentInput = Union[str, "os.PathLike[str]", bytes, bytearray, memoryview, BinaryIO]
STREAM_NAME = "<stream>"  # the name of a file object that has none of its own (io.BytesIO)
NO_MODEL = "none"  # as `run --model none`: text, layout and reading order only
PRECISION_RANGE = (0.5, 1.0)  # as `run --precision`


class ExtractionResult:
    """What docextract made of one document: `run`'s JSON object, or (from :meth:`Extractor.extract_many`) the
    error that stopped it.

    ``source`` names the document as the caller gave it (the path, or the ``name`` given with bytes), as the
    output's ``source.path`` does; ``ok`` says whether it was read; ``error`` is the :class:`DocextractError` of a
    failed one (None when ``ok``).
    """

    __slots__ = ("source", "error", "_output")

    def __init__(self, source: str, output: dict[str, Any] | None = None, error: DocextractError | None = None):
        if (output is None) == (error is None):
            raise ValueError("an ExtractionResult holds an output or an error, one of the two")
        self.source = source
        self.error = error
        self._output = output

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def documents(self) -> list[dict[str, Any]]:
        """The output's ``documents``: one per invoice (or contract, receipt, form) in the file, each with its
        ``fields``. A failed result raises its error here."""
        if self.error is not None:
            raise self.error
        return self._output["documents"]

    def to_dict(self) -> dict[str, Any]:
        """`run`'s JSON object (docextract/schemas/output.schema.json), itself, not a copy. A failed result gives
        the line `run -` prints for such a file: ``{"source", "error": {"code", "stage", "message", "exit_code"}}``."""
        if self.error is not None:
            return {"source": self.source, "error": {**self.error.to_dict(), "exit_code": self.error.exit_code}}
        return self._output

    def to_json(self, indent: int | None = 2) -> str:
        """:meth:`to_dict` as JSON text: with ``indent=2`` what `docextract run FILE` prints (without the final
        line break), with ``indent=None`` one line, as ``--format jsonl`` and `run -` print it."""
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=indent)

    def __repr__(self) -> str:
        if self.error is not None:
            return f"<ExtractionResult {self.source!r} failed: {self.error.code}>"
        return f"<ExtractionResult {self.source!r}: {len(self._output['documents'])} document(s)>"


class Extractor:
    """A model loaded once, and `run`'s options, for any number of documents.

    ``model``: a shipped model name (``"invoice"``, ``"nda"``, ``"sroie"``, ``"funsd"``), a model folder (str or
    ``os.PathLike``), ``"auto"`` (a model chosen per document by its length; each loaded the first time it is
    chosen), or ``"none"`` / None (text, layout and reading order only). ``options``: `run`'s options by their Python names (``ocr``,
    ``lang``, ``dpi``, ``password``, ``pdf_text``, ``precision``, ``split``, ``ignore_embedded``,
    ``include_tokens``, ``include_timings``, ``device``, ... : the fields of
    :class:`docextract.pipeline.RunOptions`, with their defaults). An unknown name is a ``TypeError``; a value `run`
    refuses is a :class:`UsageError`; a model that is missing or cannot be loaded raises as `run` exits (3 or 6).

    One document at a time: an Extractor is not meant to be shared by threads. For files in parallel, isolated from
    each other, use `docextract run DIR` or `docextract serve`.
    """

    def __init__(self, model: str | None = "invoice", **options: Any):
        self._setup(model, options, {})

    def _setup(self, model: str | None, options: dict[str, Any], models: dict) -> None:
        from dataclasses import fields, replace

        from docextract.modeling.routing import AUTO
        from docextract.pipeline import RunOptions

        if isinstance(model, os.PathLike):
            model = os.fspath(model)  # a model folder as a Path: named in the output as a string
        if isinstance(model, str) and model.lower() == NO_MODEL:
            model = None
        names = {field.name for field in fields(RunOptions)} - {"model"}
        unknown = sorted(set(options) - names)
        if unknown:
            raise TypeError(f"Extractor() got unknown option(s) {', '.join(unknown)}; its options are "
                            f"{', '.join(sorted(names))}")
        run_options = RunOptions(model=model, **options)
        _check(run_options)
        if model is None:
            run_options = replace(run_options, device="cpu")  # no model: nothing runs on a device
        elif run_options.device != "cpu":
            from docextract.modeling.devices import resolve_device

            run_options = replace(run_options, device=resolve_device(run_options.device).type)  # a GPU not there: 3
        self._options = run_options
        self._models = models  # (name, device) -> (model, tokenizer); shared with with_options' Extractors
        if model is not None and model != AUTO:
            self._load(model, run_options.device)

    def _load(self, name: str, device: str):
        """The (model, tokenizer) for ``name`` on ``device``, loaded the first time this Extractor needs it and
        held from then on (not only in the per-process cache of ``load_model``, which keeps the last two)."""
        from docextract.modeling.loader import load_model

        key = (name, device)
        if key not in self._models:
            self._models[key] = load_model(name, device)
        return self._models[key]

    def with_options(self, **changes: Any) -> Extractor:
        """An Extractor with some options changed (a document's own ``password``, another ``lang``) that shares
        this one's loaded models: only a ``model`` or ``device`` it has not loaded is loaded."""
        options = {**self._options.to_dict(), **changes}
        model = options.pop("model")
        other = object.__new__(Extractor)
        other._setup(model, options, self._models)
        return other

    def extract(self, source: DocumentInput, *, name: str | None = None) -> ExtractionResult:
        """One document to `run`'s JSON: a path (str or ``os.PathLike``), its bytes, or a binary file object (read
        from where it stands to its end). ``name`` is what the output's ``source.path`` and error messages call it:
        by default the path as given, a file object's own ``name``, or ``<bytes>`` / ``<stream>``. Bytes and file
        objects are read in memory: nothing is written to disk.

        Raises :class:`DocextractError` subclasses with `run`'s codes: :class:`InputError` (``exit_code`` 4,
        ``code`` e.g. ``INPUT_NOT_FOUND``, ``PDF_ENCRYPTED``) for a document that cannot be read,
        :class:`MissingDependencyError` (3) for a missing Tesseract. A bug in docextract raises as it is.
        """
        from docextract.pipeline import extract_file

        document = _as_source(source, name)
        return ExtractionResult(document.name, extract_file(document, self._options, loader=self._load))

    def extract_many(self, paths: Iterable[DocumentInput]) -> Iterator[ExtractionResult]:
        """One result per path, in the order given, each yielded as soon as it is done (``paths`` may be a
        generator: nothing is read ahead). A document that fails gives a result with its ``error`` and the rest go
        on, as in a batch: an input error with its code, a bug as ``INTERNAL_ERROR``, memory running out as
        ``MEMORY_LIMIT``. What would fail every document the same way (a missing Tesseract, a refused model) raises,
        as it stops a batch."""
        for path in paths:
            yield self._extract_or_error(path)

    def _extract_or_error(self, path: DocumentInput) -> ExtractionResult:
        document = _as_source(path, None)
        try:
            return self.extract(document)
        except (MissingDependencyError, ModelRefusedError):
            raise
        except DocextractError as error:
            return ExtractionResult(document.name, error=error)
        except MemoryError:
            return ExtractionResult(document.name, error=InputError(
                "the document needed more memory than this process could get", path=document.name,
                code="MEMORY_LIMIT"))
        except Exception as bug:  # recorded like a batch records it; the traceback stays on the error's __cause__
            error = DocextractError(f"internal error: {type(bug).__name__}: {bug}", path=document.name,
                                    code="INTERNAL_ERROR")
            error.__cause__ = bug
            return ExtractionResult(document.name, error=error)

    def __repr__(self) -> str:
        from docextract.pipeline import RunOptions

        defaults = RunOptions().to_dict()
        shown = "".join(f", {key}={value!r}" for key, value in self._options.to_dict().items()
                        if key not in ("model", "password") and value != defaults[key])  # a password is not shown
        return f"Extractor({self._options.model or NO_MODEL!r}{shown})"


def _check(options) -> None:
    """Refuse, before a model is loaded, the option values that `run`'s command line refuses."""
    from docextract.readers import MAX_DPI, MIN_DPI, OCR_MODES
    from docextract.readers.pdf import TEXT_READERS

    if options.ocr not in OCR_MODES:
        raise UsageError(f"ocr must be one of {', '.join(OCR_MODES)}, got {options.ocr!r}")
    if options.pdf_text not in TEXT_READERS:
        raise UsageError(f"pdf_text must be one of {', '.join(TEXT_READERS)}, got {options.pdf_text!r}")
    if not MIN_DPI <= options.dpi <= MAX_DPI:
        raise UsageError(f"dpi must be between {MIN_DPI} and {MAX_DPI}, got {options.dpi}")
    low, high = PRECISION_RANGE
    if options.precision is not None and not low <= options.precision <= high:
        raise UsageError(f"precision must be between {low} and {high}, got {options.precision}")
    if options.fields_only and (options.include_tokens or options.include_timings):
        raise UsageError("fields_only leaves out the words and timings that include_tokens and include_timings add")


def _as_source(source: Any, name: str | None):
    """What the readers read (:class:`docextract.readers.source.Source`) for a path, bytes or a binary file."""
    from pathlib import Path

    from docextract.readers.source import Source

    if isinstance(source, Source):
        return source
    if isinstance(source, (str, os.PathLike)):
        return Source(name=name or os.fspath(source), path=Path(source))
    if isinstance(source, (bytes, bytearray, memoryview)):
        return Source.from_bytes(bytes(source), name)
    if callable(getattr(source, "read", None)):
        data = source.read()
        if not isinstance(data, (bytes, bytearray)):
            raise TypeError(f"the file object gave {type(data).__name__}, not bytes: open the file in binary mode "
                            "('rb')")
        own = getattr(source, "name", None)
        return Source.from_bytes(bytes(data), name or (own if isinstance(own, str) else STREAM_NAME))
    raise TypeError(f"extract() takes a path, bytes or a binary file object, not {type(source).__name__}")
