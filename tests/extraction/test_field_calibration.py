"""Field calibration in a model: a calibrated model's `run` output carries the mapped confidences (and the raw
ones) and stays schema-valid; an uncalibrated model's output is as before; the map survives save/load, compact
shipping and the CLI; calibration windows are run's. (The fits themselves: tests/evaluation/test_confidence_fit.py.)"""

import json
import math
import sys
from pathlib import Path

import jsonschema
import pytest
import torch
from typer.testing import CliRunner

from docextract.cli import app
from docextract.errors import ModelRefusedError
from docextract.extraction.confidence import (
    FIELD_CALIBRATION_KEY,
    EvidenceModel,
    IsotonicMap,
    PlattMap,
    calibration_from_config,
    model_field_calibration,
)
from docextract.extraction.evidence import is_unnormalised
from docextract.extraction.review import REVIEW_POLICY_KEY
from docextract.extraction.identifiers import INVALID_IDENTIFIER_MAX_CONFIDENCE
from docextract.extraction.output import load_schema
from docextract.modeling.inference import word_logits
from docextract.modeling import LayoutForTokenClassification, from_preset
from docextract.pipeline import RunOptions, document_windows, extract_file, load_model, model_windows
from docextract.synth.generate import SynthOptions, generate_invoice
from docextract.evaluation.calibration import collect_logits, write_field_calibration, write_temperature

REPO = Path(__file__).resolve().parents[2]
ROUNDING = 1e-3  # outputs round confidences to 4 places: the map of a rounded raw value differs by about slope x 5e-5
HELD_OUT = ("statement", "sidebar", "window_right", "quantity_first")  # families the shipped model never saw
SYNTH_SEED = 21  # a seed no benchmark uses
INVOICES = 3  # enough for fields both right and wrong from the shipped model
runner = CliRunner()


def test_config_round_trip_and_malformed_maps():
    evidence = EvidenceModel(("raw_logit", "check_pass"), (1.2, 2.0), -0.5, PlattMap(1.5, -0.25))
    for m in (PlattMap(1.5, -0.25), IsotonicMap((0.2, 0.5, 0.9), (0.1, 0.6, 0.95)), evidence):
        assert calibration_from_config(json.loads(json.dumps(m.to_config()))) == m
    assert IsotonicMap((0.2, 0.5, 0.9), (0.1, 0.6, 0.95))(0.35) == pytest.approx(0.35)  # linear between points
    assert evidence.field_probability({"raw_logit": 1.0, "check_pass": 1.0}) == pytest.approx(1 / (1 + math.exp(-2.7)))
    assert calibration_from_config(None) is None

    class Config:
        docextract_field_calibration = {"method": "platt", "a": 1.0}  # no b

    class Model:
        config = Config()

    with pytest.raises(ModelRefusedError):
        model_field_calibration(Model())


@pytest.fixture(scope="module")
def tiny_folder(tmp_path_factory):
    """A real, untrained 1-layer model folder with invoice labels (its confidences are what they are)."""
    from conftest import save_tiny_model
    from docextract.data.tagging import labels_for
    from docextract.vocabulary import INVOICE_LABELS

    return save_tiny_model(tmp_path_factory.mktemp("tiny") / "model", labels_for(INVOICE_LABELS, "BIO"), tokenizer=True)


def test_field_calibration_survives_save_load_and_compact_shipping(tiny_folder, tmp_path):
    known = PlattMap(2.0, -1.0)
    calibrated = write_field_calibration(tiny_folder, known, tmp_path / "calibrated")
    assert FIELD_CALIBRATION_KEY not in json.loads((tiny_folder / "config.json").read_text())  # --out leaves MODEL alone
    reloaded = LayoutForTokenClassification.from_pretrained(str(calibrated), dtype=torch.float32)
    assert model_field_calibration(reloaded) == known
    reloaded.save_pretrained(tmp_path / "resaved", safe_serialization=True)
    assert json.loads((tmp_path / "resaved" / "config.json").read_text())[FIELD_CALIBRATION_KEY] == known.to_config()

    sys.path.insert(0, str(REPO / "scripts"))
    from ship_model import ship

    ship(calibrated, tmp_path / "shipped")
    net, _ = load_model(str(tmp_path / "shipped"))  # the compact loader `run` and batch workers use
    assert net.config.docextract_compact and model_field_calibration(net) == known

    # a new temperature makes the map stale: it is removed
    write_temperature(tmp_path / "shipped", 1.3)
    config = json.loads((tmp_path / "shipped" / "config.json").read_text())
    assert FIELD_CALIBRATION_KEY not in config and config["docextract_temperature"] == 1.3


def _field_objects(output: dict):
    """Every field object of a run output: fields, their alternatives, line-item cells, entities."""
    document = output["documents"][0]
    for field in document["fields"].values():
        yield field
        yield from field.get("alternatives", [])
    for row in document["line_items"]:
        yield from row["fields"].values()
    yield from document["entities"]


def _capped(field: dict, confidence: float) -> float:
    """A document field (it has a status) whose value does not normalise is never more than 0.5 confident; an
    identifier failing its check never more than 0.25."""
    if "status" in field and is_unnormalised(field):
        confidence = min(confidence, 0.5)
    if field.get("valid") is False:
        confidence = min(confidence, INVALID_IDENTIFIER_MAX_CONFIDENCE)
    return confidence


def _without_confidences(value):
    if isinstance(value, dict):
        return {k: _without_confidences(v) for k, v in value.items()
                if k not in ("confidence", "raw_confidence", "validation", "model", "status")}
    if isinstance(value, list):
        return [_without_confidences(v) for v in value]
    return value


@pytest.fixture(scope="module")
def invoices(tmp_path_factory) -> Path:
    """A few digital single-page invoices of held-out layouts and their labels.jsonl (`docextract synth`)."""
    folder = tmp_path_factory.mktemp("invoices")
    options = SynthOptions(HELD_OUT, pages_max=1)
    records = [generate_invoice(SYNTH_SEED, index, options, folder) for index in range(INVOICES)]
    (folder / "labels.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))
    return folder


def test_calibrated_run_output_has_mapped_confidences_and_stays_valid(tiny_folder, invoices, tmp_path):
    known = PlattMap(2.0, -1.0)
    calibrated = write_field_calibration(tiny_folder, known, tmp_path / "calibrated")
    pdf = str(invoices / json.loads((invoices / "labels.jsonl").read_text().splitlines()[0])["source"])
    plain = extract_file(pdf, RunOptions(model=str(tiny_folder), include_tokens=True))
    mapped = extract_file(pdf, RunOptions(model=str(calibrated), include_tokens=True))
    schema = load_schema()
    jsonschema.validate(plain, schema)
    jsonschema.validate(mapped, schema)

    # uncalibrated: no trace of a calibration, and a field's confidence is its words' mean tag probability
    assert "field_calibration" not in plain["run"]["model"]
    tokens = {t["id"]: t for t in plain["tokens"]}
    entity_labels = {tuple(e["source_tokens"]): e["label"] for e in plain["documents"][0]["entities"]}
    plain_fields = list(_field_objects(plain))
    assert plain_fields, "the tiny model should tag some entities"
    compared = 0
    for field in plain_fields:
        assert "raw_confidence" not in field
        if "page" in field:  # alternatives carry no page but the same confidence as their entity
            tags = {tokens[t]["label"].split("-", 1)[-1] for t in field["source_tokens"]}
            if tags != {entity_labels.get(tuple(field["source_tokens"]))}:
                continue  # relabelled by the field assignment: the words' probability of the new label
            mean = sum(tokens[t]["label_confidence"] for t in field["source_tokens"]) / len(field["source_tokens"])
            assert field["confidence"] == pytest.approx(_capped(field, mean), abs=ROUNDING)
            compared += 1
    assert compared

    # calibrated: the same extraction, confidences through the map, raw ones kept
    assert mapped["run"]["model"]["field_calibration"] == known.to_config()["method"]  # its coefficients: config.json
    assert mapped["run"]["model"]["settings_hash"] != plain["run"]["model"]["settings_hash"]
    assert mapped["run"]["model"]["version"] == plain["run"]["model"]["version"]  # the same weights
    assert _without_confidences(mapped) == _without_confidences(plain)
    pairs = list(zip(plain_fields, _field_objects(mapped)))
    assert len(pairs) == len(plain_fields)
    for before, after in pairs:
        if "status" in after:  # a document field: its raw confidence is kept beside the mapped one
            assert after["raw_confidence"] == pytest.approx(before["confidence"], abs=ROUNDING) or is_unnormalised(after)
            assert after["confidence"] == pytest.approx(_capped(after, known(after["raw_confidence"])), abs=ROUNDING)
        else:
            assert after["confidence"] == pytest.approx(known(before["confidence"]), abs=ROUNDING)
    assert any(abs(a["confidence"] - b["confidence"]) > 0.01 for b, a in pairs)
    for before, after in zip(plain["documents"][0]["line_items"], mapped["documents"][0]["line_items"]):
        assert after["confidence"] == pytest.approx(known(before["confidence"]), abs=ROUNDING)


def _with_a_wrong_truth(labels: Path, out: Path) -> Path:
    """``labels`` with the first invoice's total and number made values its page does not print: the shipped model
    reads these held-out invoices right often enough that all their fields may be right, and a calibration needs
    wrong fields too."""
    records = [json.loads(line) for line in labels.read_text().splitlines()]
    fields = records[0]["fields"]
    fields["total"] = [{**value, "value": "98765.43"} if isinstance(value, dict) else "98765.43"
                       for value in (fields["total"] if isinstance(fields["total"], list) else [fields["total"]])]
    fields["invoice_number"] = ["NOT-ON-THE-PAGE-1"]
    out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))
    return out


def test_calibrate_fields_command_fits_the_shipped_model_on_real_invoices(invoices, tmp_path):
    out = tmp_path / "invoice-calibrated"
    config_before = (REPO / "models" / "invoice" / "config.json").read_bytes()
    labels = _with_a_wrong_truth(invoices / "labels.jsonl", invoices / "labels-with-a-wrong-truth.jsonl")
    result = runner.invoke(app, ["calibrate", "invoice", str(labels), "--fields", "--method", "platt",
                                 "--out", str(out)])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["documents"] == INVOICES and 0 < report["fields_correct"] < report["fields"]
    # at most one invoice per fold (three invoices); fewer where a fold's training part would hold only right fields
    assert 1 <= report["folds"] <= INVOICES
    assert report["calibration"]["method"] == "platt" and report["calibration"]["a"] >= 0
    config = json.loads((out / "config.json").read_text())
    assert config[FIELD_CALIBRATION_KEY] == report["calibration"]
    assert config[REVIEW_POLICY_KEY] == report["review_policy"] and config[REVIEW_POLICY_KEY]["precision"] == 0.99
    assert (REPO / "models" / "invoice" / "config.json").read_bytes() == config_before  # --out leaves MODEL alone

    assert runner.invoke(app, ["calibrate", "invoice", str(labels), "--fields",
                               "--method", "spline"]).exit_code == 2

    pdf = str(invoices / json.loads((invoices / "labels.jsonl").read_text().splitlines()[1])["source"])
    output = extract_file(pdf, RunOptions(model=str(out)))
    jsonschema.validate(output, load_schema())
    fitted = calibration_from_config(report["calibration"])
    for field in output["documents"][0]["fields"].values():
        expected = fitted(field["raw_confidence"])
        if is_unnormalised(field):  # a value that does not normalise is capped at 0.5
            expected = min(expected, 0.5)
        if field.get("valid") is False:  # an identifier failing its check is capped (the synthetic VAT ids do)
            expected = min(expected, INVALID_IDENTIFIER_MAX_CONFIDENCE)
        assert field["confidence"] == pytest.approx(expected, abs=ROUNDING)
    assert output["run"]["model"]["review"]["source"] == "fitted"


def test_calibrate_fields_refuses_data_without_fields(tiny_folder, invoices, tmp_path):
    # labelled words but no document-level `fields`: nothing to judge, a one-line error and no traceback
    records = [json.loads(line) for line in (invoices / "labels.jsonl").read_text().splitlines()[:1]]
    unjudged = tmp_path / "no-fields.jsonl"
    unjudged.write_text("".join(json.dumps({**r, "fields": {}}) + "\n" for r in records))
    result = runner.invoke(app, ["calibrate", str(tiny_folder), str(unjudged), "--fields", "--dry-run"])
    assert result.exit_code == 4 and "cannot fit a field calibration on 0 extracted fields" in result.output


def test_calibration_windows_are_the_ones_run_reads_a_cross_page_model_in(tmp_path):
    from docextract.data.labelled import LabelledDocument
    from docextract.data.tagging import labels_for
    from docextract.modeling.tokenizer import load_tokenizer
    from docextract.vocabulary import INVOICE_LABELS
    from docextract.evaluation.evaluate import prepare_for_model

    record = generate_invoice(5, 0, SynthOptions(("classic_left",), pages_min=2, pages_max=2), tmp_path)
    ldoc = prepare_for_model(LabelledDocument.from_dict(record))
    torch.manual_seed(0)
    labels = labels_for(INVOICE_LABELS, "BIO")
    model = from_preset("lspe-layoutlm", num_labels=len(labels), num_hidden_layers=1,
                        id2label=dict(enumerate(labels)), label2id={t: i for i, t in enumerate(labels)}).eval()
    model.config.docextract_cross_pages = True
    tokenizer = load_tokenizer()
    collected = collect_logits(model, tokenizer, [ldoc])[0]
    doc = collected.document.document
    windows = model_windows(doc, model, tokenizer)
    assert any(len({w.page_index for w in window.words}) > 1 for window in windows)
    run_logits = word_logits(model, tokenizer, doc, windows)
    assert all(torch.equal(row, run_logits[ref]) for ref, row in zip(collected.refs, collected.logits))
    per_page = word_logits(model, tokenizer, doc, document_windows(doc, tokenizer, cross_pages=False))
    assert any(not torch.allclose(row, per_page[ref]) for ref, row in zip(collected.refs, collected.logits))
