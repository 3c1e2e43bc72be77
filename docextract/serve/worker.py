"""What runs inside each isolated worker of the server: an :class:`~docextract.Extractor` (the Python API), its
model loaded once, when the worker starts, and each request's file through it."""

from __future__ import annotations

from typing import Any

from docextract.extractor import Extractor

_served: Extractor | None = None  # this worker's Extractor for the served model (made by warm)


def warm(options: dict[str, Any]) -> None:
    """Load the served model (and its tokenizer) into this worker process before it takes a request, so the
    first request does not pay for it and the memory cap counts the model as baseline."""
    global _served
    _served = Extractor(**options)


def extract(path: str, options: dict[str, Any]) -> dict[str, Any]:
    """One request's file (saved under ``path``) with the request's options: `run`'s JSON object. The served
    Extractor's model is reused; the options a request may change (ocr, lang, password, ...) apply to it alone."""
    if _served is None:
        warm({"model": options.get("model")})
    return _served.with_options(**options).extract(path).to_dict()
