"""The Python API (docs/python-api.md): `from docextract import Extractor`, the same JSON as `docextract run`, the model
loaded once, bytes and file objects read in memory, errors with run's codes, and `__all__` as the contract."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from dataclasses import fields
from pathlib import Path

import jsonschema
import pytest
from pdf_factory import text_lines_pdf

import docextract
from docextract import (
    ERROR_CODES,
    DocextractError,
    ExtractionResult,
    Extractor,
    InputError,
    MissingDependencyError,
    UsageError,
)
from docextract.errors import EXIT_INPUT_FAILED, EXIT_MISSING_DEPENDENCY, EXIT_USAGE
from docextract.extraction.output import load_schema
from docextract.pipeline import RunOptions

REPO = Path(__file__).resolve().parents[1]
INVOICE = "examples/invoice.pdf"  # relative, as a user types it: source.path says it as given
DOCS = REPO / "docs" / "python-api.md"
# The public API. Changing it is a decision: change this list, docs/python-api.md and the README together.
PUBLIC = {"ERROR_CODES", "DocextractError", "ExtractionResult", "Extractor", "InputError", "MissingDependencyError",
          "ModelRefusedError", "UsageError", "__version__"}
EXTRACTOR_MEMBERS = {"extract", "extract_many", "with_options"}
RESULT_MEMBERS = {"documents", "error", "ok", "source", "to_dict", "to_json"}
LINES = ["ACME GmbH Musterstrasse 1", "Rechnung Nr. RE-2024-0042", "Datum: 15.03.2024", "Gesamt 1.190,00 EUR"]


def python(code: str, *args: str, **env: str) -> subprocess.CompletedProcess:
    """``code`` (with ``args``) in a fresh interpreter started in the repository root, one torch thread."""
    return subprocess.run([sys.executable, "-c", code, *args], cwd=REPO, capture_output=True, text=True, timeout=600,
                          env={**os.environ, "OMP_NUM_THREADS": "1", **env})


TINY_MODEL_LABELS = ["O", "B-total", "I-total", "B-invoice_number", "I-invoice_number"]  # conftest's tiny_model


@pytest.fixture()
def pdfs(tmp_path):
    first, second = tmp_path / "first.pdf", tmp_path / "second.pdf"
    text_lines_pdf(first, LINES)
    text_lines_pdf(second, ["Invoice No. 7", "Total 12.00 USD"])
    return first, second


@pytest.fixture()
def count_loads(monkeypatch):
    """How many times a model folder is read from disk (every load_model that is not answered from its cache)."""
    from docextract.modeling import loading
    from docextract.pipeline import load_model

    loads = []
    check = loading.check_loadable_folder
    monkeypatch.setattr(loading, "check_loadable_folder", lambda folder: loads.append(folder) or check(folder))
    load_model.cache_clear()
    yield loads
    load_model.cache_clear()


# ---------------------------------------------------------------- what is public


def test_all_names_exactly_the_public_api():
    assert set(docextract.__all__) == PUBLIC, "docextract.__all__ changed: update PUBLIC and docs/python-api.md"
    assert len(docextract.__all__) == len(PUBLIC)
    assert all(hasattr(docextract, name) for name in docextract.__all__)
    namespace: dict = {}
    exec("from docextract import *", namespace)
    assert set(namespace) - {"__builtins__"} == PUBLIC


def test_nothing_private_leaks_and_the_classes_members_are_the_documented_ones():
    leaked = {name for name in vars(docextract) if not name.startswith("_")} - PUBLIC
    # submodules appear as attributes once imported; they are reachable, not exported
    leaked = {name for name in leaked if not isinstance(getattr(docextract, name), type(docextract))}
    assert not leaked, f"public-looking names outside __all__: {leaked}"
    assert {name for name in dir(Extractor) if not name.startswith("_")} == EXTRACTOR_MEMBERS
    assert {name for name in dir(ExtractionResult) if not name.startswith("_")} == RESULT_MEMBERS


def test_the_docs_name_every_public_name_member_and_option():
    text = DOCS.read_text()
    for name in PUBLIC | EXTRACTOR_MEMBERS | RESULT_MEMBERS:
        assert re.search(rf"[`.]{re.escape(name)}\b", text), f"docs/python-api.md does not name {name}"
    for field in fields(RunOptions):  # the Extractor's options are RunOptions' fields, one for one
        assert f"`{field.name}`" in text, f"docs/python-api.md does not document the option {field.name}"
    assert "docs/python-api.md" in (REPO / "README.md").read_text()


def test_importing_docextract_loads_no_model_library():
    done = python("import sys, docextract\nfrom docextract import Extractor, ExtractionResult, InputError\n"
                  "heavy = ('torch', 'transformers', 'numpy', 'pdfplumber', 'PIL')\n"
                  "print(sorted(m for m in heavy if m in sys.modules))")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
    timed = python("import docextract", PYTHONPROFILEIMPORTTIME="1")  # python -X importtime
    imported = {line.split("|")[-1].strip() for line in timed.stderr.splitlines() if line.startswith("import time:")}
    assert "docextract.extractor" in imported and not any(name.split(".")[0] == "torch" for name in imported)


# ---------------------------------------------------------------- the shipped model, as a user runs it


def test_extract_gives_the_bytes_run_prints_for_a_path_bytes_and_a_file(monkeypatch):
    run = python("from docextract.cli import main; main()", "run", INVOICE)  # `docextract run examples/invoice.pdf`
    assert run.returncode == 0, run.stderr
    monkeypatch.chdir(REPO)
    extractor = Extractor("invoice")
    result = extractor.extract(INVOICE)
    data = Path(INVOICE).read_bytes()
    from_bytes = extractor.extract(data, name=INVOICE)
    unnamed = extractor.extract(bytearray(data))
    with open(INVOICE, "rb") as file:
        from_file = extractor.extract(file)
    from_stream = extractor.extract(io.BytesIO(data))
    assert result.ok and result.source == INVOICE
    assert result.to_json() + "\n" == run.stdout  # byte for byte
    jsonschema.validate(result.to_dict(), load_schema())
    assert result.documents[0]["fields"]["invoice_number"]["normalized"] == "FA-2021-6192"
    assert from_bytes.to_json() == run.stdout[:-1]
    assert from_file.to_json() == run.stdout[:-1]  # an open file is named by its own name
    for other, name in ((unnamed, "<bytes>"), (from_stream, "<stream>")):
        output = other.to_dict()
        assert other.source == output["source"]["path"] == name
        expected = json.loads(run.stdout)
        expected["source"]["path"] = name
        assert output == expected  # the same JSON apart from source.path, which names what was given


def test_bytes_are_read_in_memory_no_file_is_written_or_opened_by_its_name():
    """In a fresh interpreter, an audit hook sees every file Python or its libraries open through Python: reading
    bytes opens none for writing, and never the path the bytes came from."""
    code = f"""
import json, os, sys
from pathlib import Path
from docextract import Extractor

data = Path({INVOICE!r}).read_bytes()
extractor = Extractor("invoice")
opened = []
sys.addaudithook(lambda event, args: opened.append(args[:3]) if event == "open" else None)
result = extractor.extract(data, name={INVOICE!r})
writing = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND
written = [str(path) for path, mode, flags in opened
           if (isinstance(mode, str) and any(c in mode for c in "wax+"))
           or (isinstance(flags, int) and flags & writing)]
print(json.dumps({{"written": written, "read_source": any(str(path).endswith("invoice.pdf") for path, _, _ in opened),
                  "opened": len(opened), "source": result.to_dict()["source"]["path"]}}))
"""
    done = python(code, PYTHONDONTWRITEBYTECODE="1")  # an import's .pyc would be a write of Python's, not ours
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["opened"] > 0  # the hook sees opens (the tokenizer's files are read while the document is)
    assert {k: report[k] for k in ("written", "read_source", "source")} == {
        "written": [], "read_source": False, "source": INVOICE}


def test_the_docs_example_runs_as_written():
    block = re.search(r"```python\n(.*?)```", DOCS.read_text(), re.S).group(1)
    done = python(block)
    assert done.returncode == 0, done.stderr
    assert "invoice_number: FA-2021-6192 (accepted" in done.stdout
    assert "no-such-file.pdf failed: INPUT_NOT_FOUND 4" in done.stdout
    assert not (REPO / "no-such-file.pdf").exists()


# ---------------------------------------------------------------- the model loaded once


def test_a_second_extract_reuses_the_loaded_model(count_loads, tiny_model, pdfs):
    from docextract.pipeline import load_model

    extractor = Extractor(str(tiny_model))
    assert len(count_loads) == 1  # loaded when the Extractor is made
    first = extractor.extract(pdfs[0])
    load_model.cache_clear()  # the per-process cache forgets it: the Extractor still holds its model
    second = extractor.extract(pdfs[1])
    again = extractor.with_options(lang="deu", precision=0.95).extract(pdfs[0].read_bytes(), name=str(pdfs[0]))
    assert len(count_loads) == 1
    assert first.ok and second.ok and again.ok
    assert again.to_dict()["run"]["model"]["review"]["precision"] == 0.95
    assert first.to_dict()["documents"][0]["page_range"] == again.to_dict()["documents"][0]["page_range"]
    Extractor("none").extract(pdfs[0])
    assert len(count_loads) == 1  # no model: nothing loaded
    as_path = Extractor(tiny_model).extract(pdfs[0])  # a model folder given as a Path
    assert as_path.to_dict() == first.to_dict()


def test_run_file_is_the_api_output(tiny_model, pdfs):
    from typer.testing import CliRunner

    from docextract.cli import app

    extractor = Extractor(str(tiny_model))
    for flags, options in (([], {}), (["--fields-only"], {"fields_only": True}), (["--no-split"], {"split": False})):
        printed = CliRunner().invoke(app, ["run", str(pdfs[0]), "--model", str(tiny_model), *flags])
        assert printed.exit_code == 0, printed.output
        result = extractor.with_options(**options).extract(pdfs[0])
        assert printed.stdout == result.to_json() + "\n", flags
        jsonschema.validate(result.to_dict(), load_schema())


# ---------------------------------------------------------------- errors with run's codes


def test_a_missing_file_raises_input_error_with_the_input_error_code(tmp_path):
    extractor = Extractor(None)
    missing = tmp_path / "nope.pdf"
    with pytest.raises(InputError) as raised:
        extractor.extract(missing)
    error = raised.value
    assert isinstance(error, DocextractError)
    assert (error.code, error.exit_code, error.path) == ("INPUT_NOT_FOUND", EXIT_INPUT_FAILED, str(missing))
    assert error.code in ERROR_CODES
    assert error.one_line() == f"{missing}: no such file"


def test_bad_bytes_raise_input_errors_named_as_the_caller_named_them():
    extractor = Extractor(None)
    with pytest.raises(InputError) as empty:
        extractor.extract(b"", name="upload-17")
    assert (empty.value.code, empty.value.path) == ("INPUT_EMPTY", "upload-17")
    with pytest.raises(InputError) as zip_file:
        extractor.extract(b"PK\x03\x04 a zip", name="report.docx")
    assert zip_file.value.code == "UNSUPPORTED_FORMAT" and zip_file.value.one_line().startswith("report.docx: ")
    with pytest.raises(InputError) as broken:
        extractor.extract(io.BytesIO(b"%PDF-1.4 this is not a PDF body"))
    assert broken.value.code == "PDF_MALFORMED" and broken.value.path == "<stream>"
    with pytest.raises(TypeError, match="binary mode"):
        extractor.extract(io.StringIO("%PDF-1.4"))
    with pytest.raises(TypeError, match="a path, bytes or a binary file object"):
        extractor.extract(42)


def test_options_are_runs_and_bad_values_are_refused_as_run_refuses_them(tiny_model):
    with pytest.raises(TypeError, match="ocrr"):
        Extractor(None, ocrr="never")
    for options in ({"ocr": "sometimes"}, {"dpi": 20}, {"pdf_text": "fast"}, {"precision": 0.2},
                    {"fields_only": True, "include_tokens": True}):
        with pytest.raises(UsageError) as refused:
            Extractor(None, **options)
        assert refused.value.exit_code == EXIT_USAGE, options
    with pytest.raises(MissingDependencyError) as missing:
        Extractor("no-such-model")
    assert missing.value.exit_code == EXIT_MISSING_DEPENDENCY and "no-such-model" in missing.value.one_line()
    import torch

    if not torch.cuda.is_available():
        with pytest.raises(MissingDependencyError):  # as `run --device cuda` exits 3 on a machine without one
            Extractor(str(tiny_model), device="cuda")
    shown = repr(Extractor(None, ocr="never", password="secret"))
    assert shown == "Extractor('none', ocr='never')"  # the password is not shown


# ---------------------------------------------------------------- many documents


def test_extract_many_yields_each_in_order_as_it_is_done_and_goes_on_after_failures(tiny_model, pdfs, tmp_path):
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.4 this is not a PDF body")
    paths = [pdfs[0], tmp_path / "missing.pdf", broken, pdfs[1]]
    taken = []

    def one_at_a_time():
        for path in paths:
            taken.append(path)
            yield path

    extractor = Extractor(str(tiny_model))
    results = []
    for result in extractor.extract_many(one_at_a_time()):
        assert len(taken) == len(results) + 1  # nothing read ahead: each result as soon as its path is done
        results.append(result)
    assert [result.source for result in results] == [str(path) for path in paths]
    assert [result.ok for result in results] == [True, False, False, True]
    assert [result.error.code for result in results[1:3]] == ["INPUT_NOT_FOUND", "PDF_MALFORMED"]
    assert results[1].to_dict() == {"source": str(paths[1]), "error": {
        "code": "INPUT_NOT_FOUND", "stage": "open", "message": f"{paths[1]}: no such file", "exit_code": 4}}
    with pytest.raises(InputError):
        results[2].documents  # a failed result raises its error where its documents are asked for
    for result, path in ((results[0], pdfs[0]), (results[3], pdfs[1])):
        assert result.to_dict() == extractor.extract(path).to_dict()
        jsonschema.validate(result.to_dict(), load_schema())


def test_extract_many_records_a_bug_and_goes_on_but_stops_on_what_fails_every_file(monkeypatch, pdfs):
    """Faults injected into the reading stage: a bug on one file is that file's INTERNAL_ERROR (the exception kept
    as its cause), a missing dependency ends the iteration, as each does in a batch."""
    import docextract.pipeline as pipeline

    read = pipeline.read_and_analyze

    def faulty(path, options):
        if str(getattr(path, "name", path)).endswith("first.pdf"):  # a Source, named as the caller gave it
            raise KeyError("a bug")
        return read(path, options)

    monkeypatch.setattr(pipeline, "read_and_analyze", faulty)
    results = list(Extractor(None).extract_many(pdfs))
    assert [result.ok for result in results] == [False, True]
    assert results[0].error.code == "INTERNAL_ERROR" and isinstance(results[0].error.__cause__, KeyError)
    assert results[0].to_dict()["error"]["exit_code"] == 1
    with pytest.raises(KeyError):  # extract() itself raises a bug as it is
        Extractor(None).extract(pdfs[0])

    def no_tesseract(path, options):
        raise MissingDependencyError("Tesseract is not installed", path=str(path))

    monkeypatch.setattr(pipeline, "read_and_analyze", no_tesseract)
    with pytest.raises(MissingDependencyError):
        list(Extractor(None).extract_many(pdfs))
