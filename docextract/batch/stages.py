"""The product's workload cut in two stages that can run in different workers (the Ray engine's split mode).

``docextract.pipeline:extract_file`` is ``read_and_analyze`` (reading, OCR, layout: CPU work that grows with
scanned pages) followed by ``extract_document`` (the model: one loaded model per worker). Both functions here have
the batch engine's signature ``process(path, options) -> dict`` with a JSON-able result, so each stage runs in the
local engine's isolated workers (timeout, memory cap, crash records) unchanged:

* ``read_stage(path, run_options)`` -> ``{"document": Document.to_dict(), "timings_ms": {...}}``;
* ``model_stage(path, {"run": run_options, "read": read_stage's result})`` -> the output JSON object.

``model_stage(path, {"run": o, "read": read_stage(path, o)})`` equals ``extract_file(path, o)``: the document goes
through its own lossless JSON form (floats as ``repr``, tuples rebuilt), and tests/batch/test_batch_ray.py checks the
bytes on real files.
"""

from __future__ import annotations

from typing import Any

from docextract.document import Document
from docextract.pipeline import RunOptions, extract_document, read_and_analyze


def read_stage(path: str, options: dict[str, Any]) -> dict[str, Any]:
    """Read (text layer or OCR) and analyse the layout of one file: the first half of ``extract_file``."""
    doc, timings = read_and_analyze(path, RunOptions(**options))
    return {"document": doc.to_dict(), "timings_ms": timings}


def model_stage(path: str, options: dict[str, Any]) -> dict[str, Any]:
    """The model and everything after it on a document ``read_stage`` produced: the second half of ``extract_file``."""
    read = options["read"]
    return extract_document(path, Document.from_dict(read["document"]), dict(read["timings_ms"]),
                            RunOptions(**options["run"]))
