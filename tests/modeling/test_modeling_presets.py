"""Every preset, tiny and random: padding invariance, gradients to every layout parameter, save/load,
translation invariance of the polar presets, safetensors-only loading."""

from __future__ import annotations

import json

import pytest
import torch

from docextract.errors import ModelRefusedError
from docextract.modeling import (
    PRESETS,
    LayoutEncoder,
    LayoutForPretraining,
    LayoutForTokenClassification,
    SequenceTooLongError,
)
from tests.modeling_helpers import ATOL, pad_batch, tiny_config, toy_document

NUM_LABELS = 5


def tiny_model(name: str, **overrides) -> LayoutForTokenClassification:
    torch.manual_seed(0)
    model = LayoutForTokenClassification(tiny_config(name, num_labels=NUM_LABELS, **overrides)).eval()
    if name == "docpolarbert":
        with torch.no_grad():  # N(0, 0.02) tables move logits by only ~1e-5: make the layout effect measurable
            model.layout.polar.distance_table.mul_(50)
            model.layout.polar.angle_table.mul_(50)
    return model


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_padding_does_not_change_real_token_outputs(name):
    model = tiny_model(name)
    short, long = toy_document(9, seed=1, pages=2), toy_document(14, seed=2, pages=3)
    with torch.no_grad():
        alone = model(**short).logits[0]  # (9, L)
        batch = pad_batch([short, long], 20)
        padded = model(**batch).logits  # (2, 20, L)
        long_alone = model(**long).logits[0]
    torch.testing.assert_close(padded[0, :9], alone, atol=ATOL, rtol=0)
    torch.testing.assert_close(padded[1, :14], long_alone, atol=ATOL, rtol=0)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_gradients_reach_every_parameter(name):
    model = tiny_model(name).train()
    doc = toy_document(12, seed=3, pages=2)
    labels = torch.randint(0, NUM_LABELS, (1, 12))
    model(**doc, labels=labels).loss.backward()
    # the padding row of the word table is never looked up here; every other parameter must train
    missing = [n for n, p in model.named_parameters() if p.requires_grad and (p.grad is None or not p.grad.abs().sum() > 0)]
    assert missing == []


def test_gradients_reach_the_frozen_and_trainable_polar_1d_table_as_configured():
    doc = toy_document(10, seed=4)
    for mode, expect_grad in (("trainable", True), ("frozen", False)):
        model = tiny_model("docpolarbert", polar_rel1d=mode).train()
        model(**doc, labels=torch.zeros(1, 10, dtype=torch.long)).loss.backward()
        grad = model.layout.polar.rel1d_table.grad
        assert (grad is not None and grad.abs().sum() > 0) == expect_grad, mode


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_save_and_load_round_trip_gives_identical_logits(name, tmp_path):
    model = tiny_model(name)
    doc = toy_document(11, seed=5, pages=2)
    with torch.no_grad():
        before = model(**doc).logits
    model.save_pretrained(tmp_path)
    assert (tmp_path / "model.safetensors").is_file()
    assert not list(tmp_path.glob("*.bin"))
    loaded = LayoutForTokenClassification.from_pretrained(tmp_path).eval()
    assert loaded.config.preset == name
    with torch.no_grad():
        after = loaded(**doc).logits
    assert torch.equal(before, after)


@pytest.mark.parametrize("name", ["docpolarbert", "lagabi"])
def test_polar_presets_ignore_a_translation_of_the_whole_page(name):
    model = tiny_model(name)
    doc = toy_document(12, seed=6)
    doc["bbox"] = doc["bbox"] // 2  # leave room to move every box by (+137, +211) on the 0..1000 grid
    moved = dict(doc, bbox=doc["bbox"] + torch.tensor([137, 211, 137, 211]))
    with torch.no_grad():
        torch.testing.assert_close(model(**doc).logits, model(**moved).logits, atol=ATOL, rtol=0)


@pytest.mark.parametrize("name", ["docpolarbert", "lagabi"])
def test_a_layout_preset_does_see_boxes(name):
    """Guard for the invariance tests: moving one box does change the output, far beyond the tolerance."""
    model = tiny_model(name)
    doc = toy_document(12, seed=6)
    changed = dict(doc, bbox=doc["bbox"].clone())
    changed["bbox"][0, 3] = torch.tensor([900, 950, 990, 990])
    with torch.no_grad():
        assert (model(**doc).logits - model(**changed).logits).abs().max() > 50 * ATOL


def test_polar_outputs_do_not_depend_on_batch_mates():
    model = tiny_model("docpolarbert")
    doc = toy_document(10, seed=7)
    far_mate = toy_document(10, seed=8)
    far_mate["bbox"] = far_mate["bbox"] // 10  # a tiny, dense page: very different distance quantiles
    with torch.no_grad():
        alone = model(**doc).logits[0]
        together = model(**pad_batch([doc, far_mate], 10)).logits[0]
    torch.testing.assert_close(together, alone, atol=ATOL, rtol=0)


def test_pretraining_loss_is_mlm_plus_half_lop():
    torch.manual_seed(0)
    model = LayoutForPretraining(tiny_config("docpolarbert")).eval()
    doc = toy_document(12, seed=9)
    labels = torch.full((1, 12), -100)
    labels[0, [2, 5]] = doc["input_ids"][0, [2, 5]]
    lop_labels = torch.full((1, 12), -100)
    lop_labels[0, [1, 7]] = torch.tensor([0, 3])
    position_mask = lop_labels != -100
    out = model(**doc, labels=labels, lop_labels=lop_labels, position_mask=position_mask)
    assert out.mlm_logits.shape == (2, 120)  # only the two masked tokens reach the LM head
    torch.testing.assert_close(out.loss, out.mlm_loss + 0.5 * out.lop_loss)
    out.loss.backward()
    assert model.lop_head.weight.grad.abs().sum() > 0 and model.mlm_head.dense.weight.grad.abs().sum() > 0


def test_hiding_1d_positions_changes_the_encoding():
    model = tiny_model("docpolarbert")
    doc = toy_document(8, seed=10)
    hide = torch.zeros(1, 8, dtype=torch.bool)
    hide[0, 3] = True
    with torch.no_grad():
        plain = model.layout(**doc).last_hidden_state
        hidden = model.layout(**doc, position_mask=hide).last_hidden_state
    assert not torch.allclose(plain[0, 3], hidden[0, 3], atol=1e-3)


def test_sinusoidal_and_lspe_positions_extrapolate_past_the_table_but_learned_ones_refuse():
    doc = toy_document(300, seed=11)  # tiny configs have max_position_embeddings=256
    with torch.no_grad():
        assert tiny_model("lspe-layoutlm")(**doc).logits.shape == (1, 300, NUM_LABELS)
        with pytest.raises(SequenceTooLongError):
            tiny_model("layoutlm")(**doc)
        with pytest.raises(SequenceTooLongError):
            tiny_model("layout-linformer")(**doc)


def test_boxes_off_the_grid_are_rejected():
    doc = toy_document(5, seed=12)
    doc["bbox"][0, 0, 2] = 1001
    with pytest.raises(ValueError, match="0..1000"):
        tiny_model("layoutlm")(**doc)


def test_loading_refuses_pickle_weights_and_remote_code(tmp_path):
    model = tiny_model("layoutlm")
    model.save_pretrained(tmp_path)
    (tmp_path / "model.safetensors").rename(tmp_path / "pytorch_model.bin")
    with pytest.raises(ModelRefusedError, match="safetensors"):
        LayoutForTokenClassification.from_pretrained(tmp_path)
    (tmp_path / "pytorch_model.bin").unlink()
    model.save_pretrained(tmp_path)
    config = json.loads((tmp_path / "config.json").read_text())
    (tmp_path / "config.json").write_text(json.dumps({**config, "auto_map": {"AutoModel": "evil.Model"}}))
    with pytest.raises(ModelRefusedError, match="remote code"):
        LayoutEncoder.from_pretrained(tmp_path)
    with pytest.raises(ModelRefusedError):
        LayoutEncoder.from_pretrained(tmp_path, trust_remote_code=True)


def test_auto_classes_know_the_layout_model(tmp_path):
    from transformers import AutoConfig, AutoModelForTokenClassification

    tiny_model("lagabi").save_pretrained(tmp_path)
    assert type(AutoConfig.from_pretrained(tmp_path)).__name__ == "LayoutConfig"
    assert isinstance(AutoModelForTokenClassification.from_pretrained(tmp_path), LayoutForTokenClassification)
