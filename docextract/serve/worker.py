"""What runs inside each isolated worker of the server: the model is loaded once, when the worker starts."""

from __future__ import annotations

from typing import Any


def warm(options: dict[str, Any]) -> None:
    """Load the served model (and its tokenizer) into this worker process before it takes a request, so the
    first request does not pay for it and the memory cap counts the model as baseline."""
    model = options.get("model")
    if model and model != "auto":
        from docextract.pipeline import load_model

        load_model(model)
