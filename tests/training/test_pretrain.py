"""Pre-training: MLM + 1-LOP masks, unlabelled sources, the loss falls, and finetune starts from the result."""


import pytest
import torch
from typer.testing import CliRunner

from docextract.cli import app
from docextract.document import Box, Document, Page, Word
from docextract.errors import InputError
from docextract.layout import analyze_layout
from docextract.modeling.batching import IGNORE_INDEX, SPECIAL_WORD_INDEX
from docextract.modeling.tokenizer import load_tokenizer
from docextract.training.masking import MaskedWindows, MaskingSettings, MaskVocabulary, local_orders
from docextract.training.pretrain import PretrainOptions, encode_unlabelled, iter_documents, load_unlabelled, pretrain

TINY = {"num_hidden_layers": 1}  # one MiniLM layer: fast, still the real architecture
WINDOW_TOKENS = 62


@pytest.fixture(scope="module")
def tokenizer():
    return load_tokenizer()


@pytest.fixture(scope="module")
def funsd_jsonl(tmp_path_factory):
    from tests.conftest import funsd_jsonl as write_funsd

    return write_funsd(tmp_path_factory.mktemp("funsd") / "funsd4.jsonl", "train", limit=4)


@pytest.fixture(scope="module")
def pretrained(funsd_jsonl, tmp_path_factory):
    """One short pre-training run on real FUNSD forms, shared by the tests below."""
    out = tmp_path_factory.mktemp("pretrain")
    record = pretrain(PretrainOptions(
        sources=(funsd_jsonl,), output_dir=out, model="layoutlm", max_tokens=WINDOW_TOKENS, stride=16, epochs=3,
        learning_rate=5e-4, batch_size=3, limit=2, heldout=1, warmup_ratio=0.0, model_overrides=TINY,
    ))
    return out, record


def _invoice_page() -> Document:
    """Two lines: 'Invoice number: INV-0042 12.03.2024' (16 sub-tokens) and 'Total due'."""
    words = [("Invoice", 50, 110, 100), ("number:", 120, 180, 100), ("INV-0042", 190, 260, 100),
             ("12.03.2024", 270, 340, 100), ("Total", 50, 90, 200), ("due", 100, 130, 200)]
    page = Page(1, 600, 800, tuple(Word(t, Box(x0, top, x1, top + 12)) for t, x0, x1, top in words))
    return analyze_layout(Document("invoice.pdf", (page,)))


def _masked(tokenizer, documents, settings, seed=0, epoch=0):
    encoded = encode_unlabelled(documents, tokenizer, WINDOW_TOKENS, 16)
    vocabulary = MaskVocabulary.from_tokenizer(tokenizer, tokenizer.vocab_size)
    return encoded, MaskedWindows(encoded, settings, vocabulary, seed, epoch)


def test_masking_rate_specials_and_80_10_10(tokenizer, funsd_jsonl):
    documents = load_unlabelled([funsd_jsonl])
    encoded, windows = _masked(tokenizer, documents, MaskingSettings())
    maskable = chosen = to_mask = kept = 0
    for original, masked in zip(encoded, windows):
        specials = [i for i, w in enumerate(original["word_index"]) if w == SPECIAL_WORD_INDEX]
        assert all(masked["labels"][i] == IGNORE_INDEX and masked["position_mask"][i] == 0 for i in specials)
        assert all(masked["input_ids"][i] == original["input_ids"][i] for i in specials)
        n = len(original["input_ids"]) - len(specials)
        picked = [i for i, label in enumerate(masked["labels"]) if label != IGNORE_INDEX]
        assert len(picked) == round(0.3 * n)
        assert all(masked["labels"][i] == original["input_ids"][i] for i in picked)
        maskable += n
        chosen += len(picked)
        to_mask += sum(masked["input_ids"][i] == tokenizer.mask_token_id for i in picked)
        kept += sum(masked["input_ids"][i] == original["input_ids"][i] for i in picked)
    assert chosen / maskable == pytest.approx(0.3, abs=0.01)
    assert to_mask / chosen == pytest.approx(0.8, abs=0.04)
    assert kept / chosen == pytest.approx(0.1, abs=0.03)
    assert (chosen - to_mask - kept) / chosen == pytest.approx(0.1, abs=0.03)  # random replacements
    assert tokenizer.mask_token_id not in [t for e in encoded for t in e["input_ids"]]


def test_masks_depend_on_seed_and_epoch_only(tokenizer):
    documents = [_invoice_page()]
    _, first = _masked(tokenizer, documents, MaskingSettings(), seed=3, epoch=1)
    _, again = _masked(tokenizer, documents, MaskingSettings(), seed=3, epoch=1)
    _, later = _masked(tokenizer, documents, MaskingSettings(), seed=3, epoch=2)
    assert first[0] == again[0]
    assert first[0]["labels"] != later[0]["labels"] or first[0]["position_mask"] != later[0]["position_mask"]


def test_lop_labels_on_a_hand_checked_line(tokenizer):
    encoded, windows = _masked(tokenizer, [_invoice_page()], MaskingSettings(lop_rate=1.0))
    tokens = tokenizer.convert_ids_to_tokens(encoded[0]["input_ids"])
    assert tokens == ["[CLS]", "in", "##vo", "##ice", "number", ":", "in", "##v", "-", "00", "##42",
                      "12", ".", "03", ".", "202", "##4", "total", "due", "[SEP]"]
    # every word hidden: each token's order inside its line, clipped to 10; [CLS]/[SEP] take no part
    assert windows[0]["lop_labels"] == [-100, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 10, 10, 0, 1, -100]
    assert windows[0]["position_mask"] == [0] + [1] * 18 + [0]
    words = local_orders(encoded[0]["line_ids"], encoded[0]["word_index"], unit="word")
    assert words == [0, 0, 0, 0, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 0, 1, 0]


def test_lop_rate_picks_whole_words(tokenizer, funsd_jsonl):
    encoded, windows = _masked(tokenizer, load_unlabelled([funsd_jsonl], limit=1), MaskingSettings())
    for original, masked in zip(encoded, windows):
        hidden = {w for w, m in zip(original["word_index"], masked["position_mask"]) if m}
        words = set(original["word_index"]) - {SPECIAL_WORD_INDEX}
        assert len(hidden) == round(0.3 * len(words))
        assert all(m == (w in hidden) for w, m in zip(original["word_index"], masked["position_mask"]))


def test_pretraining_loss_falls_and_model_folder_is_written(pretrained):
    out, record = pretrained
    epochs = record["history"]["epochs"]
    assert epochs[-1]["train_loss"] < epochs[0]["train_loss"]
    assert epochs[-1]["heldout_mlm_loss"] < epochs[0]["heldout_mlm_loss"]
    assert record["train_documents"] == 1 and record["heldout_documents"] == 1
    assert {"model.safetensors", "config.json", "tokenizer.json", "pretraining.json"} <= {p.name for p in (out / "model").iterdir()}


def test_finetune_starts_from_the_pretrained_encoder(pretrained, funsd_jsonl, tmp_path):
    from safetensors.torch import load_file

    from docextract.modeling import from_preset
    from docextract.training.finetune import FinetuneOptions, build_model, finetune

    out, _ = pretrained
    saved = load_file(str(out / "model" / "model.safetensors"))
    model = build_model(str(out / "model"), ["O", "B-QUESTION", "I-QUESTION"], {})
    assert model.config.num_hidden_layers == 1
    minilm = from_preset("layoutlm", num_labels=3, **TINY).state_dict()
    key = "layout.encoder.layer.0.attention.self.query.weight"
    assert key in saved
    assert torch.equal(model.state_dict()[key], saved[key])
    assert not torch.equal(model.state_dict()[key], minilm[key])  # pretraining moved it away from MiniLM

    record = finetune(FinetuneOptions(train_files=(funsd_jsonl,), eval_files=(), output_dir=tmp_path,
                                      model=str(out / "model"), max_tokens=WINDOW_TOKENS, stride=16, epochs=1,
                                      batch_size=8, limit=1))
    assert (tmp_path / "model" / "model.safetensors").is_file()
    assert record["history"]["epochs"][0]["train_loss"] > 0


def test_folder_of_pdfs_is_read_through_the_readers(tmp_path):
    from fpdf import FPDF

    pytest.importorskip("docextract.readers")
    pdf = FPDF(unit="pt", format=(600, 800))
    pdf.add_page()
    pdf.set_font("helvetica", size=12)
    pdf.text(50, 100, "Invoice number INV-0042")
    pdf.text(50, 200, "Total due 12.00")
    pdf.output(str(tmp_path / "invoice.pdf"))
    (tmp_path / "notes.txt").write_text("not a document")
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.4 truncated")
    skipped = []
    documents = load_unlabelled([tmp_path], on_skip=lambda path, error: skipped.append(path.name))
    assert len(documents) == 1 and skipped == ["broken.pdf"]
    assert [w.text for w in documents[0].pages[0].words][:3] == ["Invoice", "number", "INV-0042"]
    assert len(documents[0].pages[0].lines) == 2
    assert len(list(iter_documents(tmp_path / "invoice.pdf"))) == 1
    with pytest.raises(InputError):  # a file named directly must be readable
        list(iter_documents(tmp_path / "broken.pdf"))


def test_cli_reports_bad_sources(tmp_path):
    runner = CliRunner()
    missing = runner.invoke(app, ["pretrain", str(tmp_path / "nothing.jsonl"), "--output", str(tmp_path / "out")])
    assert missing.exit_code == 4 and "no such file or folder" in missing.output
    (tmp_path / "notes.txt").write_text("hello")
    unsupported = runner.invoke(app, ["pretrain", str(tmp_path / "notes.txt"), "--output", str(tmp_path / "out")])
    assert unsupported.exit_code == 4 and "not a JSONL file, PDF or image" in unsupported.output


@pytest.mark.slow
def test_interrupted_pretraining_resumes_with_the_same_masks(funsd_jsonl, tmp_path):
    from safetensors.torch import load_file

    def run(folder, stop=None):
        return pretrain(PretrainOptions(
            sources=(funsd_jsonl,), output_dir=folder, model="layoutlm", max_tokens=30, stride=8, epochs=2,
            learning_rate=5e-4, batch_size=6, limit=1, model_overrides=TINY,
        ), stop_after_steps=stop)

    run(tmp_path / "full")
    assert run(tmp_path / "cut", stop=3)["interrupted"]  # killed inside epoch 2: epoch 1's checkpoint remains
    run(tmp_path / "cut")
    full = load_file(str(tmp_path / "full" / "model" / "model.safetensors"))
    resumed = load_file(str(tmp_path / "cut" / "model" / "model.safetensors"))
    assert all(torch.equal(full[k], resumed[k]) for k in full)
