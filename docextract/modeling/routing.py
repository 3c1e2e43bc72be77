"""`--model auto`: read a document with a windowed model or a long-range one, by its length.

``models/auto.json`` (beside the shipped models) names the two models and the length, in subword
tokens, from which the long-range model reads better; the numbers come from a measurement on
validation data, which the file quotes:

    {"windowed": "nda-split", "long_range": "nda", "long_range_from_tokens": 5000,
     "measured": "Kleister-NDA validation, ... (see README)"}

``"long_range": null`` says that no long-range model has been measured better than the windowed one at any
length: every document goes to the windowed model (the shipped route until a whole-document model wins).
The output's ``run.model`` says which model was used and why (``auto``: tokens and threshold).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from docextract.document import Document
from docextract.errors import MissingDependencyError
from docextract.modeling.store import models_dir

AUTO = "auto"
ROUTE_FILE = "auto.json"


@dataclass(frozen=True)
class AutoRoute:
    windowed: str
    long_range: str | None  # None: no long-range model reads any length better
    long_range_from_tokens: int | None


def load_route(root: Path | None = None) -> AutoRoute:
    """The route in ``models/auto.json``; a clear error when it is missing or incomplete."""
    path = (root or models_dir()) / ROUTE_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data["long_range"] is None:
            return AutoRoute(str(data["windowed"]), None, None)
        return AutoRoute(str(data["windowed"]), str(data["long_range"]), int(data["long_range_from_tokens"]))
    except FileNotFoundError:
        raise MissingDependencyError("--model auto needs models/auto.json (which windowed and which long-range "
                                     "model, and from how many tokens)", path=str(path)) from None
    except (ValueError, KeyError, TypeError) as error:
        raise MissingDependencyError(f"models/auto.json is not a model route ({type(error).__name__}: {error})",
                                     path=str(path)) from None


def document_tokens(doc: Document, tokenizer=None) -> int:
    """The document's length in the models' subword tokens (what windows are counted in)."""
    from docextract.modeling.tokenizer import subword_counts

    return sum(subword_counts([doc.word(ref).text for ref in doc.ordered_words()], tokenizer))


def choose_model(doc: Document, route: AutoRoute, tokenizer=None) -> tuple[str, dict[str, int | str]]:
    """The model name for ``doc`` and the reason, for the output's ``run.model.auto``."""
    tokens = document_tokens(doc, tokenizer)
    long_range = route.long_range is not None and tokens >= route.long_range_from_tokens
    name = route.long_range if long_range else route.windowed
    return name, {"tokens": tokens, "long_range_from_tokens": route.long_range_from_tokens, "chose": name}
