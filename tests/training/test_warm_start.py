"""finetune can continue from a shipped (compact) model: same labels keep its classifier, new labels grow it (the
old rows kept), and what was fitted to the old model's outputs (temperature, field calibration) is dropped."""

import json

import torch

from docextract.data.tagging import labels_for
from docextract.modeling import from_preset
from docextract.modeling.compact import save_compact
from docextract.training.finetune import build_model


def _shipped(tmp_path, labels):
    torch.manual_seed(0)
    model = from_preset("lspe-layoutlm", num_labels=len(labels), num_hidden_layers=1,
                        id2label=dict(enumerate(labels)), label2id={t: i for i, t in enumerate(labels)})
    save_compact(model, tmp_path / "shipped")
    config = json.loads((tmp_path / "shipped" / "config.json").read_text())
    config["docextract_temperature"] = 1.3
    config["docextract_field_calibration"] = {"method": "platt", "a": 1.0, "b": 0.0}
    (tmp_path / "shipped" / "config.json").write_text(json.dumps(config))
    return model


def test_a_compact_model_continues_with_its_classifier_and_without_its_calibration(tmp_path):
    labels = labels_for(["total", "invoice_number"])
    shipped = _shipped(tmp_path, labels)
    model = build_model(str(tmp_path / "shipped"), labels, {})
    assert model.training and model.classifier.weight.dtype == torch.float32
    assert torch.allclose(model.classifier.weight, shipped.classifier.weight, atol=1e-3)  # fp16 round trip
    config = model.config.to_dict()
    assert "docextract_temperature" not in config and "docextract_field_calibration" not in config
    assert "docextract_compact" not in config


def test_new_labels_grow_the_classifier(tmp_path):
    shipped = _shipped(tmp_path, labels_for(["total"]))
    labels = labels_for(["total", "due_date"])
    model = build_model(str(tmp_path / "shipped"), labels, {})
    assert model.classifier.out_features == len(labels) == model.config.num_labels
    assert model.config.id2label[len(labels) - 1] == "I-due_date"
    assert torch.allclose(model.classifier.weight[:3], shipped.classifier.weight, atol=1e-3)


def test_labels_in_another_order_get_a_fresh_classifier(tmp_path):
    shipped = _shipped(tmp_path, labels_for(["total", "due_date"]))
    labels = labels_for(["due_date", "total"])
    model = build_model(str(tmp_path / "shipped"), labels, {})
    assert model.config.id2label[1] == "B-due_date"
    assert not torch.allclose(model.classifier.weight[1:], shipped.classifier.weight[1:], atol=1e-3)
