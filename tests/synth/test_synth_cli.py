"""`docextract synth`: files, labels.jsonl in the labelled format, family splits, usage errors."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from docextract.cli import app
from docextract.document import Document
from docextract.errors import EXIT_USAGE
from docextract.files import TEMP_PREFIX
from docextract.vocabulary import INVOICE_LABELS

runner = CliRunner()


def test_synth_writes_documents_and_labelled_jsonl(tmp_path):
    out = tmp_path / "out"
    result = runner.invoke(app, ["synth", str(out), "--count", "4", "--seed", "2", "--pages-max", "1",
                                 "--scan-fraction", "0.5", "--scan-dpi", "60"])
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in (out / "labels.jsonl").read_text().splitlines()]
    assert len(records) == 4 and len({r["id"] for r in records}) == 4
    assert not [p for p in out.iterdir() if p.name.startswith(TEMP_PREFIX)]  # every temporary file renamed away
    kinds = {r["synth"]["kind"] for r in records}
    assert kinds <= {"digital", "scan"}
    for record in records:
        assert (out / record["source"]).is_file()
        assert record["label_set"] == list(INVOICE_LABELS)
        document = Document.from_dict(record)  # the Document.to_dict() shape
        assert document.word_count > 0
        for page in record["pages"]:
            for word in page["words"]:
                x0, top, x1, bottom = word["box"]
                assert -1 <= x0 <= x1 <= page["width"] + 1 and -1 <= top <= bottom <= page["height"] + 1
                assert ("label" in word) == ("entity" in word)
                assert word.get("label", "O") in INVOICE_LABELS + ("O",)
        labelled = {w["label"] for p in record["pages"] for w in p["words"] if "label" in w}
        assert {"invoice_number", "total", "line_item_amount"} <= labelled
        assert all(isinstance(v, list) and v for v in record["fields"].values())
        assert record["line_items"] and set(record["line_items"][0]) == {"description", "quantity", "unit_price", "amount"}
        if record["synth"]["kind"] == "scan":
            assert (out / record["regions"]).is_file()


def test_holdout_families_are_excluded_from_the_output(tmp_path):
    result = runner.invoke(app, ["synth", str(tmp_path), "--count", "6", "--pages-max", "1",
                                 "--holdout-families", "classic_left,banner,receipt,sidebar"])
    assert result.exit_code == 0, result.output
    families = {json.loads(line)["synth"]["family"] for line in (tmp_path / "labels.jsonl").read_text().splitlines()}
    assert families and not families & {"classic_left", "banner", "receipt", "sidebar"}


def test_unknown_families_and_contradictory_options_are_usage_errors(tmp_path):
    result = runner.invoke(app, ["synth", str(tmp_path), "--families", "no_such_family"])
    assert result.exit_code == EXIT_USAGE and "no_such_family" in result.output
    result = runner.invoke(app, ["synth", str(tmp_path), "--families", "banner", "--holdout-families", "receipt"])
    assert result.exit_code == EXIT_USAGE
    result = runner.invoke(app, ["synth", str(tmp_path), "--pages-min", "3", "--pages-max", "2"])
    assert result.exit_code == EXIT_USAGE
    assert not (tmp_path / "labels.jsonl").exists()


def test_the_committed_examples_are_what_the_readme_commands_make(tmp_path):
    from pathlib import Path

    examples = Path(__file__).resolve().parents[2] / "examples"
    result = runner.invoke(app, ["synth", str(tmp_path / "a"), "--count", "1", "--seed", "8", "--families",
                                 "classic_left", "--pages-max", "1"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "a" / "invoice-8-000000.pdf").read_bytes() == (examples / "invoice.pdf").read_bytes()
    result = runner.invoke(app, ["synth", str(tmp_path / "c"), "--count", "1", "--seed", "3", "--families",
                                 "formal_times", "--pages-min", "3", "--pages-max", "3"])
    assert result.exit_code == 0, result.output
    made = tmp_path / "c" / "invoice-3-000000.pdf"
    assert made.read_bytes() == (examples / "multipage_invoice.pdf").read_bytes()
    record = json.loads((tmp_path / "c" / "labels.jsonl").read_text())
    assert len(record["pages"]) == 3 and (examples / "scanned_invoice.jpg").stat().st_size > 10_000


def test_parallel_workers_write_the_same_labels(tmp_path):
    for name, workers in (("one", "1"), ("two", "2")):
        result = runner.invoke(app, ["synth", str(tmp_path / name), "--count", "5", "--seed", "8", "--pages-max", "1",
                                     "--workers", workers])
        assert result.exit_code == 0, result.output
    assert (tmp_path / "one" / "labels.jsonl").read_text() == (tmp_path / "two" / "labels.jsonl").read_text()
