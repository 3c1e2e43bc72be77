"""`evaluate --label-map`: scoring a model whose label names differ from the data's (SROIE transfer test)."""

import json

import pytest
from typer.testing import CliRunner

from docextract.cli import app
from docextract.data.labelled import write_jsonl
from docextract.data.sroie import convert_sroie
from docextract.data.tagging import document_tags
from docextract.extraction.entities import TaggedWord
from docextract.evaluation.evaluate import EvalSettings, map_tag, parse_label_map, prepare_for_model, score_tagged

SROIE_TO_INVOICE = "company=vendor_name,date=invoice_date,address=vendor_address,total=total"
DATA_TO_MODEL = {"company": "vendor_name", "date": "invoice_date", "address": "vendor_address", "total": "total"}


@pytest.fixture(scope="module")
def receipts(shared_data):
    docs, _ = convert_sroie(shared_data("sroie"), "test", limit=2)
    return [prepare_for_model(d) for d in docs]


def _invoice_named_predictions(ldoc, rename):
    """The gold tags of ``ldoc`` renamed as an invoice model would name them (a perfect model's output)."""
    tags = document_tags(ldoc, "BIO")
    renamed = [t if t == "O" else f"{t[:2]}{rename.get(t[2:], 'customer_name')}" for t in tags]
    return [TaggedWord(ref, tag, 0.9) for ref, tag in zip(ldoc.document.ordered_words(), renamed)]


def test_parse_label_map_reads_data_equals_model_pairs():
    assert parse_label_map(SROIE_TO_INVOICE) == {v: k for k, v in DATA_TO_MODEL.items()}
    assert map_tag("I-vendor_name", {"vendor_name": "company"}) == "I-company"
    assert map_tag("B-iban", {"vendor_name": "company"}) == "O"


def test_a_perfect_model_under_other_names_scores_one_only_through_the_map(receipts):
    pairs = [(d, _invoice_named_predictions(d, DATA_TO_MODEL)) for d in receipts]
    mapped = score_tagged(pairs, EvalSettings(label_map=parse_label_map(SROIE_TO_INVOICE)))
    assert mapped["f1"] == 1.0
    # SROIE's own truth has an OCR-style typo in one address ("B1750" for the printed "81750"), so
    # the labelled words cannot match it; every other field of both receipts is exactly right.
    assert {k: v["accuracy"] for k, v in mapped["fields"]["per_key"].items()} == {
        "company": 1.0, "date": 1.0, "total": 1.0, "address": 0.5}
    assert set(mapped["fields"]["per_key"]) == {"company", "date", "address", "total"}
    assert all(v["documents"] == 2 for v in mapped["fields"]["per_key"].values())
    unmapped = score_tagged(pairs, EvalSettings())
    # without the map only "total" (the same name on both sides) can score
    assert unmapped["per_label"]["company"]["recall"] == 0.0 and unmapped["per_label"]["total"]["f1"] == 1.0
    assert unmapped["fields"]["per_key"]["company"]["accuracy"] == 0.0
    assert unmapped["fields"]["per_key"]["total"]["accuracy"] == 1.0


def test_labels_the_map_does_not_name_count_as_outside(receipts):
    # the model calls SROIE's company "customer_name", which the map does not name: company is missed
    rename = {k: v for k, v in DATA_TO_MODEL.items() if k != "company"}
    pairs = [(d, _invoice_named_predictions(d, rename)) for d in receipts]
    report = score_tagged(pairs, EvalSettings(label_map=parse_label_map(SROIE_TO_INVOICE)))
    assert report["per_label"]["company"]["recall"] == 0.0 and report["per_label"]["company"]["precision"] == 0.0
    assert report["per_label"]["total"]["f1"] == 1.0
    assert report["fields"]["per_key"]["company"]["accuracy"] == 0.0
    assert report["fields"]["per_key"]["date"]["accuracy"] == 1.0


@pytest.fixture(scope="module")
def invoice_model(tmp_path_factory):
    """A real (untrained, 1-layer) model with invoice label names."""
    from conftest import save_tiny_model

    labels = ["O"] + [f"{p}-{name}" for name in DATA_TO_MODEL.values() for p in "BI"]
    return save_tiny_model(tmp_path_factory.mktemp("invoice-model"), labels)


def test_evaluate_command_scores_in_the_datas_names(invoice_model, receipts, tmp_path):
    data = tmp_path / "sroie.jsonl"
    write_jsonl(receipts, data)
    report_path = tmp_path / "report.json"
    result = CliRunner().invoke(app, ["evaluate", str(invoice_model), str(data), "--label-map", SROIE_TO_INVOICE,
                                      "--report", str(report_path)])
    assert result.exit_code == 0, result.output
    report = json.loads(report_path.read_text())["reports"]["none"]
    assert set(report["per_label"]) <= {"company", "date", "address", "total"}
    assert report["label_map"]["vendor_name"] == "company"
    assert set(report["fields"]["per_key"]) == {"company", "date", "address", "total"}
    assert "accuracy_rule" in report["fields"]


def test_a_map_naming_labels_the_model_lacks_is_refused(invoice_model, receipts, tmp_path):
    data = tmp_path / "sroie.jsonl"
    write_jsonl(receipts, data)
    result = CliRunner().invoke(app, ["evaluate", str(invoice_model), str(data), "--label-map", "company=seller"])
    assert result.exit_code != 0 and "seller" in result.output
    result = CliRunner().invoke(app, ["evaluate", str(invoice_model), str(data), "--label-map", "company"])
    assert result.exit_code != 0 and "DATA_LABEL=MODEL_LABEL" in result.output
