"""Temperature calibration: the fit recovers a known temperature on real logits, lowers the NLL, T = 1 leaves
inference exactly as it was, and a fitted T survives save/load, compact shipping and the CLI."""

import json
import sys
from pathlib import Path

import pytest
import torch
from typer.testing import CliRunner

from docextract.cli import app
from docextract.data.funsd import convert_funsd
from docextract.data.labelled import write_jsonl
from docextract.data.tagging import labels_for
from docextract.errors import OutputError
from docextract.modeling.inference import TEMPERATURE_KEY, model_temperature, tag_words, word_probabilities
from docextract.modeling import LayoutForTokenClassification, from_preset
from docextract.modeling.batching import collate, encode_words
from docextract.modeling.tokenizer import load_tokenizer
from docextract.pipeline import document_windows, load_model
from docextract.evaluation.calibration import (
    calibrate,
    collect_logits,
    fit_temperature,
    stack_words,
    write_temperature,
)
from docextract.evaluation.evaluate import prepare_for_model

REPO = Path(__file__).resolve().parents[2]
WINDOW_TOKENS = 126  # small windows: several per FUNSD form, so the window merging is exercised too
KNOWN_TEMPERATURE = 2.5  # logits sharpened by this factor must be fitted back to it
TEMPERATURE_TOLERANCE = 0.05  # relative; ~40k sampled gold tags pin T down to about 1 %
BASE_LOGIT_STD = 2.0  # the tiny untrained model's logits are near-uniform; scaled so the tags carry information
DRAWS_PER_WORD = 40  # gold tags sampled per word from the "true" distribution


@pytest.fixture(scope="module")
def funsd_docs(shared_data):
    documents, _ = convert_funsd(shared_data("funsd"), "test", limit=3)
    return [prepare_for_model(d) for d in documents]


@pytest.fixture(scope="module")
def tokenizer():
    return load_tokenizer()


@pytest.fixture(scope="module")
def tiny_model(funsd_docs):
    """MiniLM's first layer with LSPE positions and a fresh classifier for FUNSD's BIO tags."""
    torch.manual_seed(0)
    labels = labels_for(["header", "question", "answer"], "BIO")
    model = from_preset("lspe-layoutlm", num_labels=len(labels), num_hidden_layers=1,
                        id2label=dict(enumerate(labels)), label2id={t: i for i, t in enumerate(labels)}).eval()
    model.config.docextract_window_tokens = WINDOW_TOKENS
    model.config.docextract_stride = 32
    return model


@pytest.fixture(scope="module")
def model_folder(tiny_model, tokenizer, tmp_path_factory):
    folder = tmp_path_factory.mktemp("tiny") / "model"
    tiny_model.save_pretrained(folder, safe_serialization=True)
    tokenizer.save_pretrained(folder)
    return folder


def test_fit_recovers_a_known_temperature_on_real_logits(tiny_model, tokenizer, funsd_docs):
    logits, _ = stack_words(collect_logits(tiny_model, tokenizer, funsd_docs))  # (N, C)
    assert logits.shape[0] > 300
    true_logits = logits / logits.std() * BASE_LOGIT_STD
    generator = torch.Generator().manual_seed(0)
    gold = torch.multinomial(true_logits.softmax(-1), DRAWS_PER_WORD, replacement=True, generator=generator)  # (N, D)
    sharpened = (true_logits * KNOWN_TEMPERATURE).repeat_interleave(DRAWS_PER_WORD, dim=0)  # (N * D, C)
    fitted = fit_temperature(sharpened, gold.reshape(-1))
    assert fitted == pytest.approx(KNOWN_TEMPERATURE, rel=TEMPERATURE_TOLERANCE)
    # and an already calibrated input stays at ~1
    assert fit_temperature(true_logits.repeat_interleave(DRAWS_PER_WORD, dim=0), gold.reshape(-1)) == pytest.approx(
        1.0, rel=TEMPERATURE_TOLERANCE)


def test_fitting_on_gold_tags_never_raises_the_nll_and_keeps_every_tag(tiny_model, tokenizer, funsd_docs):
    report = calibrate(tiny_model, tokenizer, funsd_docs)
    assert report.documents == 3 and report.words > 300
    assert report.previous_temperature == 1.0 and report.temperature != 1.0
    assert report.nll_after <= report.nll_before
    assert 0.0 <= report.ece_after <= 1.0 and 0.0 <= report.ece_before <= 1.0
    assert report.fields == 0 and report.field_ece_before is None  # FUNSD has no document-level fields

    doc = funsd_docs[0].document
    windows = document_windows(doc, tokenizer, max_tokens=WINDOW_TOKENS, stride=32)
    plain = tag_words(tiny_model, tokenizer, doc, windows)
    scaled = tag_words(tiny_model, tokenizer, doc, windows, temperature=report.temperature)
    assert [w.tag for w in plain] == [w.tag for w in scaled]  # a temperature only moves confidences
    assert [w.probability for w in plain] != [w.probability for w in scaled]


def _probabilities_as_before_calibration(model, tokenizer, doc, windows):
    """What inference computed before temperatures existed: one softmax over each batch's logits."""
    from docextract.modeling.batching import SPECIAL_WORD_INDEX

    out = {}
    encoded = [encode_words(doc, w, tokenizer) for w in windows]
    batch = collate(encoded)
    batch.pop("labels", None)
    with torch.inference_mode():
        probs = model(**batch).logits.float().softmax(-1)  # (B, S, C)
    for row, (enc, window) in enumerate(zip(encoded, windows)):
        core_end = len(window.words) if window.core_end < 0 else window.core_end
        previous = SPECIAL_WORD_INDEX
        for position, index in enumerate(enc["word_index"]):
            if index != SPECIAL_WORD_INDEX and index != previous and window.core_start <= index < core_end:
                out[window.words[index]] = probs[row, position]
            previous = index
    return out


def test_temperature_one_gives_exactly_the_uncalibrated_probabilities(tiny_model, tokenizer, funsd_docs):
    doc = funsd_docs[1].document
    windows = document_windows(doc, tokenizer, max_tokens=WINDOW_TOKENS, stride=32)[:2]  # one batch, as the reference
    reference = _probabilities_as_before_calibration(tiny_model, tokenizer, doc, windows)
    assert model_temperature(tiny_model) == 1.0
    for temperature in (None, 1.0):
        probabilities = word_probabilities(tiny_model, tokenizer, doc, windows, temperature=temperature)
        assert probabilities.keys() == reference.keys()
        assert all(torch.equal(probabilities[r], reference[r]) for r in reference)
    halved = word_probabilities(tiny_model, tokenizer, doc, windows, temperature=2.0)
    ref = next(iter(reference))
    assert torch.allclose(halved[ref], (reference[ref].log() / 2.0).softmax(-1), atol=1e-6)


def test_temperature_survives_save_load_and_compact_shipping(model_folder, tmp_path, funsd_docs, tokenizer):
    calibrated = write_temperature(model_folder, 0.5, tmp_path / "calibrated")
    assert TEMPERATURE_KEY not in json.loads((model_folder / "config.json").read_text())  # --out leaves MODEL alone
    assert json.loads((calibrated / "config.json").read_text())[TEMPERATURE_KEY] == 0.5
    with pytest.raises(OutputError):
        write_temperature(model_folder, 0.5, calibrated)  # never into an existing folder

    reloaded = LayoutForTokenClassification.from_pretrained(str(calibrated), dtype=torch.float32)
    assert model_temperature(reloaded) == 0.5
    # re-saving (what finetune and ship do) keeps it
    reloaded.save_pretrained(tmp_path / "resaved", safe_serialization=True)
    assert json.loads((tmp_path / "resaved" / "config.json").read_text())[TEMPERATURE_KEY] == 0.5

    sys.path.insert(0, str(REPO / "scripts"))
    from ship_model import ship

    ship(calibrated, tmp_path / "shipped")
    net, _ = load_model(str(tmp_path / "shipped"))  # the compact loader `run` and batch workers use
    assert net.config.docextract_compact and model_temperature(net) == 0.5
    doc = funsd_docs[0].document
    windows = document_windows(doc, tokenizer, max_tokens=WINDOW_TOKENS, stride=32)[:1]
    applied = word_probabilities(net, tokenizer, doc, windows)
    explicit = word_probabilities(net, tokenizer, doc, windows, temperature=0.5)
    uncalibrated = word_probabilities(net, tokenizer, doc, windows, temperature=1.0)
    ref = next(iter(applied))
    assert torch.equal(applied[ref], explicit[ref]) and not torch.equal(applied[ref], uncalibrated[ref])


def test_write_temperature_in_place_replaces_only_the_config(model_folder, tmp_path):
    import shutil

    folder = tmp_path / "inplace"
    shutil.copytree(model_folder, folder)
    weights = (folder / "model.safetensors").read_bytes()
    before = json.loads((folder / "config.json").read_text())
    assert write_temperature(folder, 1.7) == folder
    after = json.loads((folder / "config.json").read_text())
    assert after == {**before, TEMPERATURE_KEY: 1.7}
    assert (folder / "model.safetensors").read_bytes() == weights
    assert sorted(p.name for p in folder.iterdir()) == sorted(p.name for p in model_folder.iterdir())  # no temp left


def test_calibrate_command_writes_a_calibrated_copy(model_folder, funsd_docs, tmp_path):
    data = tmp_path / "cal.jsonl"
    write_jsonl(funsd_docs[:2], data)
    out = tmp_path / "calibrated"
    result = CliRunner().invoke(app, ["calibrate", str(model_folder), str(data), "--out", str(out)])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["documents"] == 2 and report["nll_after"] <= report["nll_before"]
    assert json.loads((out / "config.json").read_text())[TEMPERATURE_KEY] == report["temperature"]
    assert TEMPERATURE_KEY not in json.loads((model_folder / "config.json").read_text())

    missing = CliRunner().invoke(app, ["calibrate", str(model_folder), str(tmp_path / "nope.jsonl")])
    assert missing.exit_code == 4 and "no such labelled JSONL file" in missing.output


def test_finetune_can_fit_the_temperature_on_its_eval_data(funsd_docs, tmp_path, shared_data):
    from docextract.errors import UsageError
    from docextract.training.finetune import FinetuneOptions, finetune

    train, _ = convert_funsd(shared_data("funsd"), "train", limit=2)
    write_jsonl(train, tmp_path / "train.jsonl")
    write_jsonl(funsd_docs[:1], tmp_path / "eval.jsonl")
    options = FinetuneOptions(train_files=(tmp_path / "train.jsonl",), eval_files=(tmp_path / "eval.jsonl",),
                              output_dir=tmp_path / "run", epochs=1, learning_rate=5e-4, batch_size=4, max_tokens=WINDOW_TOKENS,
                              stride=32, model_overrides={"num_hidden_layers": 1}, calibrate=True)
    record = finetune(options)
    fitted = record["calibration"]["temperature"]
    assert record["calibration"]["nll_after"] <= record["calibration"]["nll_before"]
    model_dir = tmp_path / "run" / "model"
    assert json.loads((model_dir / "config.json").read_text())[TEMPERATURE_KEY] == fitted
    assert json.loads((model_dir / "training.json").read_text())["calibration"]["temperature"] == fitted

    with pytest.raises(UsageError):
        finetune(FinetuneOptions(**{**options.__dict__, "eval_files": (), "output_dir": tmp_path / "run2"}))
