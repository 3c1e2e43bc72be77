"""`evaluate` checks its arguments before the work, and reports one field accuracy: the field as `run` prints it."""

import json

import pytest
from typer.testing import CliRunner

from docextract.cli import app
from docextract.errors import EXIT_USAGE
from docextract.synth.generate import SynthOptions, generate_invoice

runner = CliRunner()


def test_plot_on_data_without_fields_is_a_usage_error_before_any_document_is_read(tmp_path, monkeypatch):
    record = generate_invoice(5, 0, SynthOptions(("statement",), pages_max=1), tmp_path)
    record.pop("fields")
    data = tmp_path / "no-fields.jsonl"
    data.write_text(json.dumps(record) + "\n")

    def evaluation_started(*args, **kwargs):
        raise AssertionError("the evaluation ran before --plot was checked")

    monkeypatch.setattr("docextract.evaluation.evaluate.evaluate_model", evaluation_started)
    result = runner.invoke(app, ["evaluate", "invoice", str(data), "--plot", str(tmp_path / "c.png"), "--threads", "1"])
    assert result.exit_code == EXIT_USAGE, (result.output, result.exception)
    assert "--plot" in result.stderr and "`fields`" in result.stderr and not (tmp_path / "c.png").exists()


def test_one_field_accuracy_the_field_as_run_prints_it(shared_data, tmp_path):
    """factur-x-kit's invoices: the model's most confident entity and `run`'s field (a value read from its key where
    the model found none) differ in 4 of 139 fields; evaluate printed both accuracies (0.5755 and 0.5468)."""
    from docextract.data.einvoice import convert_einvoices
    from docextract.data.labelled import write_jsonl

    documents, _ = convert_einvoices(shared_data("einvoices-more", "factur-x-kit"))
    data = tmp_path / "fxkit.jsonl"
    write_jsonl(documents, data)
    result = runner.invoke(app, ["evaluate", "invoice", str(data), "--threads", "1", "--report", str(tmp_path / "r.json")])
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "r.json").read_text())["reports"]["none"]
    fields, confidence = report["fields"], report["confidence"]
    assert fields["micro"]["accuracy"] == pytest.approx(confidence["overall"]["accuracy"])
    for key, scores in fields["per_key"].items():
        assert scores["accuracy"] == pytest.approx(confidence["per_field"][key]["accuracy"]), key
    assert "as `run` prints it" in fields["accuracy_rule"]
    confidence_header = next(line for line in result.stderr.splitlines() if "AUROC" in line)
    assert "accuracy" not in confidence_header  # printed once, in the first table
