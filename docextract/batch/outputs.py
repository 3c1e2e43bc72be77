"""A batch's outputs as they are stored: written atomically under the output root, hashed, and counted by review
status. Run by the engine's own process (``engine``), or by the Ray engine's worker actors on a shared filesystem
(``ray_engine``), so both import it from here and neither imports the other for it."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from docextract.batch.isolation import error_info
from docextract.batch.paths import prepare_output_path
from docextract.errors import DocextractError
from docextract.files import OutputRefused, write_bytes_atomic


def store_output(out_real: str, rel_output: str, payload: bytes) -> dict[str, Any]:
    """Write one output atomically: ``{"output_sha256", "review"}``, or ``{"write_error"}`` when refused (a folder on
    the way or the target is a link, or not a folder). Done by this process, or by the Ray engine's worker actors on
    the shared filesystem (``header["stored"]``), so the driver only appends manifest lines."""
    try:
        write_bytes_atomic(prepare_output_path(out_real, rel_output), payload)
    except OutputRefused as error:
        return {"write_error": write_error(error)}
    return {"output_sha256": hashlib.sha256(payload).hexdigest(), "review": review_counts(payload)}


def review_counts(payload: bytes) -> dict[str, int] | None:
    """A product output's fields by review status and its documents that need review (None for a result without
    documents, e.g. read_summary's)."""
    try:
        result = json.loads(payload)
    except ValueError:
        return None
    documents = result.get("documents") if isinstance(result, dict) else None
    if not isinstance(documents, list):
        return None
    statuses = [f.get("status") for d in documents for f in (d.get("fields") or {}).values()]
    # the whole output says needs_review under validation; the fields view (run --fields-only) on the document
    needing = sum(bool(d.get("needs_review", (d.get("validation") or {}).get("needs_review"))) for d in documents)
    return {"fields_accepted": statuses.count("accepted"), "fields_review": statuses.count("review"),
            "documents_needing_review": needing}


def write_error(error: DocextractError) -> dict[str, Any]:
    return error_info("OUTPUT_WRITE_FAILED", error.one_line(), stage="write", exception_type=type(error).__name__)
