"""`docextract run` on real generated files: one file to stdout in each format, a folder through the batch engine."""

import csv
import io
import json

import jsonschema
import pytest
from pdf_factory import text_lines_pdf
from typer.testing import CliRunner

from docextract.cli import app
from docextract.extraction.output import load_schema

runner = CliRunner()
INVOICE_LINES = ["ACME GmbH Musterstrasse 1", "Rechnung Nr. RE-2024-0042", "Datum: 15.03.2024",
                 "Gesamt 1.190,00 EUR"]


@pytest.fixture()
def invoice_pdf(tmp_path):
    path = tmp_path / "invoice.pdf"
    text_lines_pdf(path, INVOICE_LINES)
    return path


def test_run_prints_schema_valid_json(invoice_pdf, tiny_model):
    result = runner.invoke(app, ["run", str(invoice_pdf), "--model", str(tiny_model), "--include-tokens"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    jsonschema.validate(out, load_schema())
    assert out["pages"][0]["text_source"] == "pdf_text"
    assert out["run"]["locale"] == "de_DE"
    assert [t["text"] for t in out["tokens"]][:2] == ["ACME", "GmbH"]
    assert "RE-2024-0042" in out["text"]
    assert "timings_ms" not in out["run"]  # deterministic output unless --timings


def test_run_without_a_model_gives_text_and_layout(invoice_pdf):
    result = runner.invoke(app, ["run", str(invoice_pdf), "--model", "none", "--format", "jsonl"])
    assert result.exit_code == 0, result.output
    assert len(result.stdout.strip().splitlines()) == 1
    out = json.loads(result.stdout)
    jsonschema.validate(out, load_schema())
    assert out["documents"] == [] and out["run"]["model"] is None
    assert out["text"].splitlines()[2] == "Datum: 15.03.2024"


def test_run_csv_and_out_file_refuses_to_overwrite(invoice_pdf, tiny_model, tmp_path):
    target = tmp_path / "result.csv"
    result = runner.invoke(app, ["run", str(invoice_pdf), "--model", str(tiny_model), "--format", "csv", "--out", str(target)])
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(target.read_text())))
    assert len(rows) == 1 and rows[0]["source"].endswith("invoice.pdf")
    assert (tmp_path / "result.line_items.csv").is_file()
    again = runner.invoke(app, ["run", str(invoice_pdf), "--model", str(tiny_model), "--format", "csv", "--out", str(target)])
    assert again.exit_code == 5 and "exists" in again.output


def test_run_folder_writes_outputs_and_manifest_and_survives_a_bad_file(invoice_pdf, tmp_path):
    folder = tmp_path / "in"
    (folder / "sub").mkdir(parents=True)
    invoice_pdf.rename(folder / "sub" / "a.pdf")
    (folder / "broken.pdf").write_bytes(b"%PDF-1.7\n1 0 obj\n<<")  # truncated
    out = tmp_path / "out"
    result = runner.invoke(app, ["run", str(folder), "--model", "none", "--out", str(out)])
    assert result.exit_code == 4, result.output  # one input failed
    records = [json.loads(l) for l in (out / "manifest.jsonl").read_text().splitlines()]
    by_input = {r["input"]: r for r in records}
    assert by_input["sub/a.pdf"]["status"] == "ok"
    assert by_input["broken.pdf"]["status"] == "failed" and by_input["broken.pdf"]["error"]["code"] == "PDF_MALFORMED"
    jsonschema.validate(json.loads((out / "sub" / "a.pdf.json").read_text()), load_schema())


def test_bad_inputs_give_one_line_and_documented_codes(tmp_path, invoice_pdf):
    missing = runner.invoke(app, ["run", str(tmp_path / "nope.pdf"), "--model", "none"])
    assert missing.exit_code == 4 and "nope.pdf" in missing.output and "Traceback" not in missing.output
    folder_without_out = runner.invoke(app, ["run", str(tmp_path), "--model", "none"])
    assert folder_without_out.exit_code == 2
    no_model = runner.invoke(app, ["run", str(invoice_pdf), "--model", "no-such-model"])
    assert no_model.exit_code == 3 and "no-such-model" in no_model.output


def test_run_dash_reads_paths_from_stdin_one_json_line_each_with_the_model_loaded_once(invoice_pdf, tiny_model, tmp_path):
    from docextract.pipeline import load_model

    second = tmp_path / "second.pdf"
    text_lines_pdf(second, ["Invoice No. 7", "Total 12.00 USD"])
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.4 this is not a PDF body")
    stdin = "\n".join([str(invoice_pdf), str(tmp_path / "missing.pdf"), "", str(broken), str(second)]) + "\n"
    load_model.cache_clear()
    result = runner.invoke(app, ["run", "-", "--model", str(tiny_model)], input=stdin)
    assert result.exit_code == 4, result.output  # some inputs failed; the others were done
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(lines) == 4  # the blank line is skipped; one line per document, in input order
    assert lines[1] == {"source": str(tmp_path / "missing.pdf"), "error": {
        "code": "INPUT_NOT_FOUND", "stage": "open", "message": f"{tmp_path / 'missing.pdf'}: no such file", "exit_code": 4}}
    assert lines[2]["source"] == str(broken) and lines[2]["error"]["exit_code"] == 4
    info = load_model.cache_info()
    assert (info.misses, info.hits) == (1, 0)  # loaded once, at the start; the Extractor holds it for every document
    for line, path in ((lines[0], invoice_pdf), (lines[3], second)):
        jsonschema.validate(line, load_schema())
        alone = runner.invoke(app, ["run", str(path), "--model", str(tiny_model), "--format", "jsonl"])
        assert json.loads(alone.stdout) == line  # the same output as the file run on its own
    assert "missing.pdf: no such file" in result.stderr


def test_run_dash_refuses_out_csv_and_labelstudio(tiny_model, tmp_path):
    result = runner.invoke(app, ["run", "-", "--out", str(tmp_path / "x.json")], input="")
    assert result.exit_code == 2 and "--out" in result.stderr
    for output_format in ("csv", "labelstudio"):
        result = runner.invoke(app, ["run", "-", "--format", output_format], input="")
        assert result.exit_code == 2, output_format
