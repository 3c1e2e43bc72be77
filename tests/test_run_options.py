"""`docextract run` options do what they say: --format jsonl on a folder writes JSONL, --format csv on stdout says
where the line items went, a folder's default takes only what docextract reads, and --out naming a folder says so."""

import csv
import io
import json
import shutil
from pathlib import Path

from pdf_factory import text_lines_pdf
from typer.testing import CliRunner

from docextract.cli import app
from docextract.errors import EXIT_INPUT_FAILED, EXIT_OUTPUT

REPO = Path(__file__).resolve().parent.parent
runner = CliRunner()


def _folder(tmp_path: Path) -> Path:
    """Two PDFs beside what a real folder holds too: a README, a script, an empty placeholder."""
    folder = tmp_path / "in"
    (folder / "scripts").mkdir(parents=True)
    text_lines_pdf(folder / "a.pdf", ["Rechnung Nr. 1", "Gesamt 10,00 EUR"])
    text_lines_pdf(folder / "scripts" / "b.pdf", ["Invoice No. 2", "Total 20.00 USD"])
    (folder / "README.md").write_text("# invoices of March\n")
    (folder / "scripts" / "fetch.sh").write_text("#!/bin/sh\ncurl -O https://example.com/x.pdf\n")
    (folder / ".keep").write_bytes(b"")
    return folder


def test_a_folder_takes_the_files_docextract_reads_and_skips_the_rest(tmp_path):
    out = tmp_path / "out"
    result = runner.invoke(app, ["run", str(_folder(tmp_path)), "--model", "none", "--out", str(out)])
    assert result.exit_code == 0, result.output
    records = {r["input"]: r for r in map(json.loads, (out / "manifest.jsonl").read_text().splitlines())}
    assert {name: r["status"] for name, r in records.items()} == {
        "a.pdf": "ok", "scripts/b.pdf": "ok", "README.md": "skipped", "scripts/fetch.sh": "skipped", ".keep": "skipped"}
    assert records["README.md"]["error"]["code"] == "UNSUPPORTED_FORMAT"
    assert records[".keep"]["error"]["code"] == "INPUT_EMPTY"
    assert "2 ok, 3 skipped" in result.stderr and "UNSUPPORTED_FORMAT 2" in result.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert summary["skipped_by_code"] == {"INPUT_EMPTY": 1, "UNSUPPORTED_FORMAT": 2} and summary["failed"] == 0


def test_a_glob_takes_what_it_names_readable_or_not(tmp_path):
    out = tmp_path / "out"
    result = runner.invoke(app, ["run", str(_folder(tmp_path)), "--model", "none", "--out", str(out), "--glob", "**/*"])
    assert result.exit_code == EXIT_INPUT_FAILED, result.output
    records = {r["input"]: r for r in map(json.loads, (out / "manifest.jsonl").read_text().splitlines())}
    assert records["README.md"]["status"] == "failed" and records["README.md"]["error"]["code"] == "UNSUPPORTED_FORMAT"


def test_format_jsonl_on_a_folder_writes_one_jsonl_of_every_document(tmp_path):
    out = tmp_path / "out"
    result = runner.invoke(app, ["run", str(_folder(tmp_path)), "--model", "none", "--out", str(out), "--format", "jsonl"])
    assert result.exit_code == 0, result.output
    lines = (out / "documents.jsonl").read_text().splitlines()
    assert len(lines) == 2
    for line, name in zip(lines, ("a.pdf", "scripts/b.pdf")):
        assert json.loads(line) == json.loads((out / f"{name}.json").read_text())
    assert not (out / "documents.csv").exists()


def test_format_csv_on_stdout_says_where_the_line_items_go(tmp_path):
    result = runner.invoke(app, ["run", str(REPO / "examples" / "invoice.pdf"), "--format", "csv"])
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert len(rows) == 1  # stdout stays one readable CSV table
    assert "line items go to FILE.line_items.csv with --out FILE.csv" in " ".join(result.stderr.split())


def test_out_naming_a_folder_says_it_is_a_folder_with_or_without_overwrite(tmp_path):
    pdf = tmp_path / "a.pdf"
    text_lines_pdf(pdf, ["Invoice 1"])
    target = tmp_path / "results"
    target.mkdir()
    for extra in ([], ["--overwrite"]):
        result = runner.invoke(app, ["run", str(pdf), "--model", "none", "-o", str(target), *extra])
        assert result.exit_code == EXIT_OUTPUT, result.output
        assert "is a folder" in result.stderr and "exists (pass --overwrite" not in result.stderr
    assert list(target.iterdir()) == []
    shutil.rmtree(target)
