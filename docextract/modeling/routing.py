"""`--model auto`: the model for a document by its type, and for a contract by its length.

``models/auto.json`` (beside the shipped models) names the model for each document type (as
:mod:`docextract.extraction.doctype` decides it from the page) and, for contracts, the windowed and long-range
models and the length, in subword tokens, from which the long-range model reads better; the numbers come from
a measurement on validation data, which the file quotes:

    {"types": {"invoice": "invoice", "credit_note": "invoice", "receipt": "invoice", "other": "invoice",
               "contract": "contract"},
     "windowed": "nda-split", "long_range": "nda", "long_range_from_tokens": 5000,
     "measured": "Kleister-NDA validation, ... (see README)"}

A type mapped to ``"contract"`` takes the contract route. ``"long_range": null`` says that no long-range model has
been measured better than the windowed one at any length: every contract goes to the windowed model (the shipped
route until a whole-document model wins). A file without ``types`` (the first format) sends every document down
the contract route. The output's ``run.model`` says which model was used and why (``auto``: type, tokens and
threshold).
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


CONTRACT_ROUTE = "contract"  # a type mapped to this goes to the windowed or long-range contract model


@dataclass(frozen=True)
class AutoRoute:
    windowed: str
    long_range: str | None  # None: no long-range model reads any length better
    long_range_from_tokens: int | None
    types: dict[str, str] | None = None  # document type -> model name or CONTRACT_ROUTE; None: all contracts


def load_route(root: Path | None = None) -> AutoRoute:
    """The route in ``models/auto.json``; a clear error when it is missing or incomplete."""
    path = (root or models_dir()) / ROUTE_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        types = {str(k): str(v) for k, v in data["types"].items()} if data.get("types") is not None else None
        if data["long_range"] is None:
            return AutoRoute(str(data["windowed"]), None, None, types)
        return AutoRoute(str(data["windowed"]), str(data["long_range"]), int(data["long_range_from_tokens"]), types)
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


def choose_model(doc: Document, route: AutoRoute, tokenizer=None, document_type: str | None = None
                 ) -> tuple[str, dict[str, int | str]]:
    """The model name for ``doc`` (of ``document_type``, as the page says) and the reason, for the output's
    ``run.model.auto``."""
    typed = {} if document_type is None else {"document_type": document_type}
    if route.types is not None:
        target = route.types.get(document_type or "other", route.types.get("other", CONTRACT_ROUTE))
        if target != CONTRACT_ROUTE:
            return target, {**typed, "chose": target}
    tokens = document_tokens(doc, tokenizer)
    long_range = route.long_range is not None and tokens >= route.long_range_from_tokens
    name = route.long_range if long_range else route.windowed
    return name, {**typed, "tokens": tokens, "long_range_from_tokens": route.long_range_from_tokens, "chose": name}
