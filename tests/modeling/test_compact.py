"""Compact (fp16 + int8 embedding) checkpoints: smaller, and the same predictions on a real document."""

import torch
from funsd_words import funsd_document

from docextract.modeling import LayoutForTokenClassification, from_preset
from docextract.modeling.batching import collate, encode_words
from docextract.modeling.compact import is_compact, load_compact, quantize_rows, save_compact
from docextract.modeling.loading import check_loadable_folder
from docextract.modeling.tokenizer import load_tokenizer
from docextract.pipeline import document_windows


def test_row_quantisation_error_is_within_half_a_step():
    weight = torch.randn(50, 16)
    q, scale = quantize_rows(weight)
    assert q.dtype == torch.int8 and scale.shape == (50,)
    assert (q.float() * scale.float()[:, None] - weight).abs().max() <= scale.float().max() / 2 + 1e-3


def test_compact_checkpoint_is_smaller_and_predicts_the_same_tags(tmp_path, shared_data):
    torch.manual_seed(0)
    model = from_preset("lspe-layoutlm", num_labels=5, num_hidden_layers=1).eval()
    model.save_pretrained(tmp_path / "full", safe_serialization=True)
    save_compact(model, tmp_path / "compact")
    full_size = (tmp_path / "full" / "model.safetensors").stat().st_size
    compact_size = (tmp_path / "compact" / "model.safetensors").stat().st_size
    assert compact_size < 0.45 * full_size
    folder = check_loadable_folder(tmp_path / "compact")
    assert is_compact(folder)
    restored = load_compact(folder, LayoutForTokenClassification)

    doc = funsd_document(shared_data("funsd", "testing_data", "annotations", "82092117.json"))
    tokenizer = load_tokenizer()
    window = document_windows(doc, tokenizer)[0]
    batch = collate([encode_words(doc, window, tokenizer)])
    with torch.no_grad():
        a = model(input_ids=batch["input_ids"], attention_mask=batch["attention_mask"], bbox=batch["bbox"]).logits
        b = restored(input_ids=batch["input_ids"], attention_mask=batch["attention_mask"], bbox=batch["bbox"]).logits
    assert (a.argmax(-1) == b.argmax(-1)).float().mean() > 0.99
    assert (a - b).abs().max() < 0.05 * a.abs().max()


def test_a_long_models_position_table_is_int8_and_predicts_the_same_tags(tmp_path, shared_data):
    torch.manual_seed(0)
    model = from_preset("layout-cosformer", num_labels=5, num_hidden_layers=1, max_position_embeddings=8192).eval()
    save_compact(model, tmp_path / "compact")
    folder = check_loadable_folder(tmp_path / "compact")
    assert "layout.embeddings.position_embeddings.weight" in __import__("json").loads(
        (folder / "config.json").read_text())["docextract_compact"]
    restored = load_compact(folder, LayoutForTokenClassification)

    doc = funsd_document(shared_data("funsd", "testing_data", "annotations", "82092117.json"))
    tokenizer = load_tokenizer()
    window = document_windows(doc, tokenizer)[0]
    batch = collate([encode_words(doc, window, tokenizer)])
    batch.pop("labels", None)
    with torch.no_grad():
        a, b = model(**batch).logits, restored(**batch).logits
    assert (a.argmax(-1) == b.argmax(-1)).float().mean() > 0.99
    assert (a - b).abs().max() < 0.05 * a.abs().max()
