"""The review policy from the shell, with the shipped invoice model: `run` marks every field, `--precision` picks
another point of the model's curves, a batch counts accepted and review fields, and `evaluate` measures the
confidence (report and PNG; exit 3 with a clear message when matplotlib is missing)."""

import json
import sys
from pathlib import Path

import jsonschema
import pytest
from typer.testing import CliRunner

from docextract.batch.engine import run_batch
from docextract.cli import app
from docextract.extraction.evidence import is_unnormalised
from docextract.extraction.output import load_schema
from docextract.extraction.review import REVIEW_POLICY_KEY
from docextract.modeling.store import resolve_model
from docextract.synth.generate import SynthOptions, generate_invoice
from docextract.evaluation.calibration import write_model_config

REPO = Path(__file__).resolve().parent
INVOICE = REPO.parent / "examples" / "invoice.pdf"
HELD_OUT = ("statement", "sidebar", "window_right", "quantity_first")  # families the shipped model never saw
SYNTH_SEED = 23  # a seed no benchmark uses
DOCUMENTS = 5
runner = CliRunner()
# One curve for every field (a policy's pooled curve): 99% precision was reached above 0.9, 95% above 0.6
CURVE = [[0.0, 0.8, 1.0], [0.6, 0.96, 0.8], [0.9, 0.995, 0.5]]
THRESHOLDS = {None: 0.9, "0.95": 0.6, "0.8": 0.0}


@pytest.fixture(scope="module")
def policy_model(tmp_path_factory) -> Path:
    """The shipped invoice model with a review policy written into a copy of its config."""
    policy = {"precision": 0.99, "min_support": 30, "fields": {}, "pooled": {"support": 200, "curve": CURVE}}
    return write_model_config(resolve_model("invoice"), {REVIEW_POLICY_KEY: policy},
                              tmp_path_factory.mktemp("models") / "invoice-policy")


def _run(*args: str) -> dict:
    result = runner.invoke(app, ["run", str(INVOICE), *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def _thresholds(model: str | Path, precision: str | None = None) -> dict:
    """The thresholds `run` judged by: the model's review policy at ``precision`` (the output names the policy point;
    the thresholds are the model's config)."""
    from docextract.extraction.scoring import FieldScoring
    from docextract.pipeline import load_model

    net, _ = load_model(str(model))
    return FieldScoring.from_model(net, float(precision) if precision else None).describe()["thresholds"]


def test_run_marks_every_field_and_precision_moves_the_marks_as_the_curve_says(policy_model):
    accepted = {}
    for precision, threshold in THRESHOLDS.items():
        output = _run("--model", str(policy_model), *(["--precision", precision] if precision else []))
        jsonschema.validate(output, load_schema())
        review = output["run"]["model"]["review"]
        assert review["source"] == "fitted" and review["precision"] == float(precision or 0.99)
        assert set(_thresholds(policy_model, precision).values()) == {threshold}
        fields = output["documents"][0]["fields"]
        for label, field in fields.items():
            expected = field["confidence"] >= threshold and not is_unnormalised(field)
            assert field["status"] == ("accepted" if expected else "review"), (precision, label)
        accepted[precision] = {label for label, field in fields.items() if field["status"] == "accepted"}
        validation = output["documents"][0]["validation"]
        required = [label for label in review["required"] if label in fields]
        assert validation["needs_review"] == (any(fields[label]["status"] == "review" for label in required)
                                              or any(c["status"] == "fail" for c in validation["checks"]))
    assert accepted[None] <= accepted["0.95"] <= accepted["0.8"] and accepted[None] != accepted["0.8"]
    assert accepted["0.8"] == {label for label, f in fields.items() if not is_unnormalised(f)}


def test_the_shipped_model_accepts_by_the_per_field_policy_it_carries():
    """models/invoice ships the review policy fitted across producers: each field is accepted at its own threshold
    (the one that reached 99% precision there; none where no point did), never where its value does not normalise."""
    assert REVIEW_POLICY_KEY in json.loads((resolve_model("invoice") / "config.json").read_text())
    output = _run()
    review = output["run"]["model"]["review"]
    assert review["source"] == "fitted" and review["precision"] == 0.99
    thresholds = _thresholds("invoice")
    assert len(set(thresholds.values())) > 1  # a threshold per field, from its own curve
    assert review["required"] == ["invoice_number", "invoice_date", "total", "currency", "vendor_name"]
    fields = output["documents"][0]["fields"]
    assert {f["status"] for f in fields.values()} == {"accepted", "review"}
    for label, field in fields.items():
        # a field whose curve never reached 99% has no threshold: never accepted
        accepted = thresholds[label] is not None and field["confidence"] >= thresholds[label] and not is_unnormalised(field)
        assert field["status"] == ("accepted" if accepted else "review"), label


def test_a_batch_counts_accepted_and_review_fields(policy_model, tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "invoice.pdf").write_bytes(INVOICE.read_bytes())
    summary = run_batch(folder, tmp_path / "out", options={"model": str(policy_model), "precision": 0.95},
                        isolate=False, progress=False)
    output = json.loads((tmp_path / "out" / "invoice.pdf.json").read_text())
    statuses = [f["status"] for f in output["documents"][0]["fields"].values()]
    assert (summary.fields_accepted, summary.fields_review) == (statuses.count("accepted"), statuses.count("review"))
    assert summary.fields_accepted > 0
    assert summary.documents_needing_review == int(output["documents"][0]["validation"]["needs_review"])
    written = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert written["fields_accepted"] == summary.fields_accepted
    record = json.loads((tmp_path / "out" / "manifest.jsonl").read_text())
    assert record["review"] == {"fields_accepted": summary.fields_accepted, "fields_review": summary.fields_review,
                                "documents_needing_review": summary.documents_needing_review}


@pytest.fixture(scope="module")
def labelled(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("invoices")
    options = SynthOptions(HELD_OUT, pages_max=1)
    records = [generate_invoice(SYNTH_SEED, index, options, folder) for index in range(DOCUMENTS)]
    path = folder / "labels.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))
    return path


def test_evaluate_reports_the_confidence_and_draws_it(policy_model, labelled, tmp_path):
    plot, report = tmp_path / "confidence.png", tmp_path / "report.json"
    result = runner.invoke(app, ["evaluate", str(policy_model), str(labelled), "--plot", str(plot),
                                 "--report", str(report)])
    assert result.exit_code == 0, result.output
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and plot.stat().st_size > 20_000
    confidence = json.loads(report.read_text())["reports"]["none"]["confidence"]
    overall = confidence["overall"]
    truth = [json.loads(line)["fields"] for line in labelled.read_text().splitlines()]
    assert overall["fields"] == sum(len(fields) for fields in truth) and confidence["documents"] == DOCUMENTS
    assert set(overall["straight_through"]) == {"0.99", "0.95"} and 0.0 <= overall["ece"] <= 1.0
    assert overall["curve"][0][1] <= overall["curve"][-1][1]  # coverage grows as the threshold falls
    assert overall["policy"]["accepted"] + overall["policy"]["review"] == overall["fields"]
    assert set(confidence["per_field"]) == {key for fields in truth for key in fields}
    assert confidence["review"]["thresholds"]["total"] == 0.9


def test_plot_without_matplotlib_is_a_missing_dependency(labelled, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # what an install without the [plots] extra has
    result = runner.invoke(app, ["evaluate", "invoice", str(labelled), "--plot", str(tmp_path / "c.png")])
    assert result.exit_code == 3
    assert "pip install 'docextract[plots]'" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "c.png").exists()


def test_calibrate_fits_the_evidence_model_and_policy_that_run_then_applies(labelled, tmp_path):
    # a fit needs right and wrong fields: the model now reads these five invoices all right, so one document's truth
    # names an invoice number its page does not print (as a label that disagrees with the page would)
    records = [json.loads(line) for line in labelled.read_text().splitlines()]
    records[-1]["fields"]["invoice_number"] = ["NOT-PRINTED-0000"]
    disagreeing = labelled.parent / "labels_one_wrong.jsonl"
    disagreeing.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))
    out = tmp_path / "invoice-evidence"
    result = runner.invoke(app, ["calibrate", "invoice", str(disagreeing), "--fields", "--precision", "0.95",
                                 "--out", str(out)])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["method"] == "evidence" and report["review_policy"]["fitted_on"]["folds"] == report["folds"]
    assert report["review_policy"]["precision"] == 0.95
    pdf = labelled.parent / json.loads(labelled.read_text().splitlines()[0])["source"]
    output = json.loads(runner.invoke(app, ["run", str(pdf), "--model", str(out)]).stdout)
    jsonschema.validate(output, load_schema())
    model = output["run"]["model"]
    assert model["field_calibration"] == report["calibration"]["method"] == "evidence"
    assert json.loads((out / "config.json").read_text())["docextract_field_calibration"] == report["calibration"]
    assert model["review"]["source"] == "fitted" and model["review"]["precision"] == 0.95
    thresholds = _thresholds(out)
    for label, field in output["documents"][0]["fields"].items():
        threshold = thresholds[label]
        accepted = threshold is not None and field["confidence"] >= threshold and not is_unnormalised(field)
        assert field["status"] == ("accepted" if accepted else "review")


def test_calibrate_refuses_a_label_map_naming_labels_the_model_lacks(labelled):
    result = runner.invoke(app, ["calibrate", "invoice", str(labelled), "--fields", "--dry-run",
                                 "--label-map", "date=receipt_date"])
    assert result.exit_code == 2 and "receipt_date" in result.output


def test_evaluate_reports_what_the_policy_accepted_per_producer(policy_model, labelled, tmp_path):
    records = [json.loads(line) for line in labelled.read_text().splitlines()]
    for record, producer in zip(records, ("renderer-a", *["renderer-b"] * (DOCUMENTS - 1))):
        record["producer"] = producer  # the data names the producers of its layouts
    named = tmp_path / "named.jsonl"
    named.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))
    report = tmp_path / "report.json"
    result = runner.invoke(app, ["evaluate", str(policy_model), str(named), "--report", str(report)],
                           env={"COLUMNS": "240"})
    assert result.exit_code == 0, result.output
    confidence = json.loads(report.read_text())["reports"]["none"]["confidence"]
    per_producer = confidence["per_producer"]
    assert set(per_producer) == {"renderer-a", "renderer-b"}
    assert sum(p["fields"] for p in per_producer.values()) == confidence["overall"]["fields"]
    assert sum(p["policy"]["accepted"] for p in per_producer.values()) == confidence["overall"]["policy"]["accepted"]
    assert "producer renderer-b" in result.output  # a row per producer in the confidence table
