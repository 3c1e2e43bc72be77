"""finetune from a trained model keeps what it knows: its head (labels the new documents do not annotate are masked,
a label it lacks is added and said), a replay of its recorded synthetic recipe beside the new documents, no review
policy fitted for other weights (dropped, and `run` says so), and a compact model at the end."""

import json
from pathlib import Path

import pytest
import torch
from typer.testing import CliRunner

from docextract.cli import app
from docextract.data.labelled import OUTSIDE, LabelledDocument, read_jsonl, write_jsonl
from docextract.data.tagging import labels_for
from docextract.errors import UsageError
from docextract.extraction.confidence import FIELD_CALIBRATION_KEY
from docextract.extraction.review import POLICY_DROPPED_KEY, REVIEW_POLICY_KEY
from docextract.extraction.scoring import FieldScoring
from docextract.modeling import from_preset
from docextract.modeling.compact import COMPACT_MARKER, save_compact
from docextract.pipeline import load_model
from docextract.synth.generate import SynthOptions, generate_invoice
from docextract.vocabulary import INVOICE_LABELS
from docextract.training.finetune import FinetuneOptions, build_model, finetune
from docextract.training.heads import plan_labels
from docextract.training.replay import REPLAY_KEY, synthetic_replay, weighted

FAMILIES = ("classic_left", "banner")
RECIPE = {"count": 20, "seed": 5, "families": list(FAMILIES), "pages_max": 1, "pages_min": 1, "scan_fraction": 0.0}
POLICY = {"precision": 0.99, "min_support": 30, "fields": {}, "pooled": {"support": 40, "curve": [[0.5, 1.0, 0.9]]}}
runner = CliRunner()


@pytest.fixture(scope="module")
def shipped(tmp_path_factory) -> Path:
    """A compact 1-layer invoice model as `ship_model.py` writes one, with what `calibrate --fields` fits and the
    synthetic recipe it was trained on."""
    labels = labels_for(INVOICE_LABELS)
    torch.manual_seed(0)
    model = from_preset("lspe-layoutlm", num_labels=len(labels), num_hidden_layers=1,
                        id2label=dict(enumerate(labels)), label2id={t: i for i, t in enumerate(labels)})
    model.config.docextract_window_tokens, model.config.docextract_stride = 126, 32
    folder = tmp_path_factory.mktemp("shipped") / "invoice"
    save_compact(model, folder)
    config = json.loads((folder / "config.json").read_text())
    config.update({REVIEW_POLICY_KEY: POLICY, FIELD_CALIBRATION_KEY: {"method": "platt", "a": 1.0, "b": 0.0},
                   REPLAY_KEY: {"synth": RECIPE}})
    (folder / "config.json").write_text(json.dumps(config))
    from docextract.modeling.tokenizer import load_tokenizer

    load_tokenizer().save_pretrained(folder)
    return folder


def only(doc: LabelledDocument, keep: set[str]) -> LabelledDocument:
    """The document annotating only ``keep`` (as an e-invoice annotates only what its XML states)."""
    labels = tuple(tuple(label if label in keep else OUTSIDE for label in page) for page in doc.labels)
    fields = {k: v for k, v in doc.fields.items() if k in keep}
    return LabelledDocument(doc.id, doc.document, labels, doc.entities, tuple(sorted(keep)), fields, doc.group)


@pytest.fixture(scope="module")
def supplier(tmp_path_factory) -> Path:
    """Two invoices of one 'supplier' (a family the recipe does not have), annotating three fields only."""
    folder = tmp_path_factory.mktemp("supplier")
    docs = [LabelledDocument.from_dict(generate_invoice(11, i, SynthOptions(("din_letter",), pages_max=1), folder))
            for i in range(2)]
    path = folder / "few.jsonl"
    write_jsonl([only(d, {"invoice_number", "total", "vendor_name"}) for d in docs], path)
    return path


def _options(train: Path, model: Path, out: Path, **kw) -> FinetuneOptions:
    defaults = dict(train_files=(train,), eval_files=(), output_dir=out, model=str(model), max_tokens=126, stride=32,
                    epochs=1, batch_size=4, replay_synth=2)
    return FinetuneOptions(**{**defaults, **kw})


def test_the_obvious_command_keeps_the_head_replays_and_drops_the_policy(shipped, supplier, tmp_path):
    notes = []
    record = finetune(_options(supplier, shipped, tmp_path / "run"), on_note=notes.append)
    start = json.loads((shipped / "config.json").read_text())
    config = json.loads((tmp_path / "run" / "model" / "config.json").read_text())
    assert config["id2label"] == start["id2label"]  # the same 21 labels in the same order: its head, kept
    assert record["head"] == {"kept": len(start["id2label"]), "added": [], "message": record["head"]["message"]}
    assert "masked" in record["head"]["message"] and "iban" in record["head"]["message"]
    # the replay: the recipe's documents regenerated beside the run, the new windows repeated against them
    assert record["replay_documents"] == 2 and len(list(read_jsonl(tmp_path / "run" / "replay" / "labels.jsonl"))) == 2
    assert record["options"]["repeat"] == 4
    assert record["train_windows"] == 4 * record["new_windows"] + record["replay_windows"]
    assert config[REPLAY_KEY] == {"synth": RECIPE}  # a later finetune of this model replays the same recipe
    # what was fitted for the old weights is gone, and the model says why
    assert REVIEW_POLICY_KEY not in config and FIELD_CALIBRATION_KEY not in config
    assert config[POLICY_DROPPED_KEY]["dropped"] == ["the review policy", "the field calibration"]
    assert any("dropped" in line and "calibrate" in line for line in notes)
    assert COMPACT_MARKER in config  # saved compact, as shipped models are
    net, _ = load_model(str(tmp_path / "run" / "model"))
    assert FieldScoring.from_model(net).source == "dropped"


def test_run_says_the_policy_was_dropped_until_calibrate_fits_one(shipped, supplier, tmp_path):
    finetune(_options(supplier, shipped, tmp_path / "run", replay_synth=0))
    pdf = supplier.parent / json.loads(supplier.read_text().splitlines()[0])["source"]
    result = runner.invoke(app, ["run", str(pdf), "--model", str(tmp_path / "run" / "model")])
    assert result.exit_code == 0, result.output
    output = json.loads(result.stdout)
    assert output["run"]["model"]["review"]["source"] == "dropped"
    assert all(f["status"] == "review" for d in output["documents"] for f in d["fields"].values())


def test_a_label_the_model_lacks_grows_the_head_and_keeps_the_old_rows(tmp_path):
    labels = labels_for(["total"])
    torch.manual_seed(0)
    model = from_preset("lspe-layoutlm", num_labels=len(labels), num_hidden_layers=1,
                        id2label=dict(enumerate(labels)), label2id={t: i for i, t in enumerate(labels)})
    save_compact(model, tmp_path / "start")
    plan = plan_labels(labels, ["total", "due_date"], "BIO", False, "start")
    assert plan.labels == ["O", "B-total", "I-total", "B-due_date", "I-due_date"] and plan.added == ["due_date"]
    assert "grows" in plan.message and "due_date" in plan.message
    grown = build_model(str(tmp_path / "start"), plan.labels, {}, kept=plan.kept)
    assert grown.classifier.out_features == 5 == grown.config.num_labels
    assert torch.allclose(grown.classifier.weight[:3], model.classifier.weight, atol=1e-3)  # fp16 round trip


def test_data_sharing_no_label_with_the_model_is_refused_unless_a_new_head_is_asked_for():
    tags = labels_for(["total"])
    with pytest.raises(UsageError, match="--new-head"):
        plan_labels(tags, ["question", "answer"], "BIO", False, "start")
    plan = plan_labels(tags, ["question", "answer"], "BIO", True, "start")
    assert plan.labels == labels_for(["question", "answer"]) and plan.kept == 0


def test_a_recipe_regenerates_the_same_documents_and_reuses_them(tmp_path):
    first = synthetic_replay(RECIPE, 3, seed=1, folder=tmp_path / "a")
    again = synthetic_replay(RECIPE, 3, seed=1, folder=tmp_path / "b")
    assert [d.id for d in first] == [d.id for d in again] and len(first) == 3
    assert {d.id.rsplit("-", 2)[1] for d in first} == {"5"}  # the recipe's seed
    assert [d.to_dict() for d in first] == [d.to_dict() for d in again]
    (tmp_path / "a" / first[0].document.source).unlink()  # reused as recorded, not made again
    assert [d.id for d in synthetic_replay(RECIPE, 3, seed=1, folder=tmp_path / "a")] == [d.id for d in first]
    assert weighted(["n1", "n2"], ["r"], 3) == ["n1", "n2"] * 3 + ["r"]


def test_a_replay_recipe_naming_unknown_families_is_refused(tmp_path):
    with pytest.raises(UsageError, match="families"):
        synthetic_replay({**RECIPE, "families": ["no_such_family"]}, 1, seed=1, folder=tmp_path)


def test_a_log_file_gets_progress_lines(shipped, supplier, tmp_path):
    result = runner.invoke(app, ["finetune", str(supplier), "--model", str(shipped), "-o", str(tmp_path / "run"),
                                 "--replay-synth", "1", "--max-tokens", "126", "--stride", "32", "--epochs", "1",
                                 "--threads", "1"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert any(line.startswith("finetune: replay: 1 synthetic invoices") for line in lines)
    assert any(line.startswith("finetune: keeping ") for line in lines)
    assert any(line.startswith("finetune: step ") and " loss " in line and "left ~" in line for line in lines)
    assert any("model written to" in line and "compact" in line for line in lines)
