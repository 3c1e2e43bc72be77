"""Whole-document training and inference for the long-range presets (finetune --cross-pages), the
refusals that protect it, more positions for presets (--max-positions), and the per-document benchmark.

The documents are real multi-page PDFs: synthetic invoices whose line-item tables run over 2-3 pages,
written by `docextract synth` with labels by construction.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import torch
from typer.testing import CliRunner

from docextract.cli import app
from docextract.errors import EXIT_USAGE
from docextract.synth.generate import SynthOptions, generate_invoice

REPO = Path(__file__).resolve().parents[2]
TINY = {"num_hidden_layers": 1}  # MiniLM's first layer only: the real weights, a fast model
TEST_POSITIONS = 2048  # --max-positions of the test model: more than MiniLM's 512, so the table is tiled
SYNTH_SEED = 5
runner = CliRunner()


@pytest.fixture(scope="module")
def invoices(tmp_path_factory) -> Path:
    """Two multi-page invoices (PDFs) and their labels.jsonl."""
    folder = tmp_path_factory.mktemp("invoices")
    options = SynthOptions(("classic_left",), pages_min=2, pages_max=3)
    records = [generate_invoice(SYNTH_SEED, index, options, folder) for index in range(2)]
    assert all(record["synth"]["page_count"] >= 2 for record in records)
    (folder / "labels.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))
    return folder


@pytest.fixture(scope="module")
def long_model(invoices, tmp_path_factory) -> tuple[Path, dict]:
    """A tiny layout-cosformer finetuned on whole documents: (model folder, training record)."""
    from docextract.training.finetune import FinetuneOptions, finetune

    out = tmp_path_factory.mktemp("long")
    record = finetune(FinetuneOptions(
        train_files=(invoices / "labels.jsonl",), eval_files=(), output_dir=out, model="layout-cosformer",
        epochs=1, batch_size=2, learning_rate=5e-4, cross_pages=True, max_positions=TEST_POSITIONS,
        model_overrides=TINY,
    ))
    return out / "model", record


def test_cross_page_training_reads_each_document_in_one_window_and_says_so(long_model):
    folder, record = long_model
    # each invoice fits the 2046-token window: one training window per document, spanning its pages
    assert record["train_documents"] == 2
    assert record["train_windows"] == 2
    assert record["train_windows_spanning_pages"] == 2
    config = json.loads((folder / "config.json").read_text())
    assert config["docextract_cross_pages"] is True
    assert config["docextract_window_tokens"] == TEST_POSITIONS - 2
    assert config["max_position_embeddings"] == TEST_POSITIONS
    from safetensors import safe_open

    with safe_open(str(folder / "model.safetensors"), framework="pt") as weights:
        table = weights.get_tensor("layout.embeddings.position_embeddings.weight")
    assert table.shape[0] == TEST_POSITIONS


def test_longer_documents_are_cut_into_windows_that_cross_page_boundaries(invoices):
    from docextract.data.labelled import read_jsonl
    from docextract.data.tagging import labels_for
    from docextract.modeling.batching import IGNORE_INDEX
    from docextract.modeling.tokenizer import load_tokenizer
    from docextract.vocabulary import INVOICE_LABELS
    from docextract.evaluation.evaluate import prepare_for_model
    from docextract.training.finetune import encode_documents

    docs = [prepare_for_model(d) for d in read_jsonl(invoices / "labels.jsonl")]
    label_ids = {tag: i for i, tag in enumerate(labels_for(list(INVOICE_LABELS)))}
    tokenizer = load_tokenizer()
    spanning = encode_documents(docs, tokenizer, label_ids, "BIO", max_tokens=128, stride=32, cross_pages=True)
    per_page = encode_documents(docs, tokenizer, label_ids, "BIO", max_tokens=128, stride=32, cross_pages=False)

    def pages(example):
        return set(example["page_ids"][1:-1])  # without [CLS]/[SEP]

    assert all(len(e["input_ids"]) <= 128 + 2 for e in spanning)
    assert sum(len(pages(e)) > 1 for e in spanning) >= 2  # at least the page boundary of each document
    assert all(len(pages(e)) == 1 for e in per_page)
    # either way every word is trained on exactly once (in one window's core)
    words = sum(d.document.word_count for d in docs)
    for examples in (spanning, per_page):
        assert sum(label != IGNORE_INDEX for e in examples for label in e["labels"]) == words


def test_a_long_model_reads_a_multipage_pdf_in_one_window(long_model, invoices):
    from docextract.pipeline import (
        RunOptions,
        extract_file,
        load_model,
        model_cross_pages,
        model_window_size,
        model_windows,
        read_and_analyze,
    )

    folder, _ = long_model
    model, tokenizer = load_model(str(folder))
    assert model_window_size(model) == TEST_POSITIONS - 2  # no 512 cap for a model trained longer
    assert model_cross_pages(model)
    pdf = invoices / "invoice-5-000000.pdf"
    doc, _ = read_and_analyze(pdf, RunOptions())
    assert len(doc.pages) >= 2
    windows = model_windows(doc, model, tokenizer)
    assert len(windows) == 1
    assert windows[0].pages == tuple(range(len(doc.pages)))
    assert len(windows[0].words) == doc.word_count
    # the caller can still ask for per-page windows
    assert len(model_windows(doc, model, tokenizer, RunOptions(cross_pages=False))) == len(doc.pages)

    output = extract_file(str(pdf), RunOptions(model=str(folder), include_tokens=True))
    tokens = output["tokens"]
    assert {t["page"] for t in tokens} == {p.number for p in doc.pages}
    assert all(t["label_confidence"] > 0 for t in tokens)  # every word was in the window's core


def test_run_windows_overlap_by_the_stride_the_model_was_trained_with(long_model, invoices):
    """`run` and `evaluate` read a document in the same windows: the trained stride, not a run default."""
    from docextract.pipeline import RunOptions, document_windows, load_model, model_windows, read_and_analyze

    model, tokenizer = load_model(str(long_model[0]))
    doc, _ = read_and_analyze(invoices / "invoice-5-000000.pdf", RunOptions())
    trained = model.config.docextract_stride
    try:
        for stride in (0, 12):
            model.config.docextract_stride = stride
            got = model_windows(doc, model, tokenizer, RunOptions(max_tokens=64, cross_pages=False))
            assert got == document_windows(doc, tokenizer, max_tokens=64, stride=stride)
        explicit = model_windows(doc, model, tokenizer, RunOptions(max_tokens=64, cross_pages=False, stride=0))
        assert explicit == document_windows(doc, tokenizer, max_tokens=64, stride=0) != got  # an explicit stride wins
    finally:
        model.config.docextract_stride = trained


def test_evaluate_reads_documents_the_way_the_model_was_trained(long_model, invoices, tmp_path):
    folder, _ = long_model
    report_path = tmp_path / "report.json"
    result = runner.invoke(app, ["evaluate", str(folder), str(invoices / "labels.jsonl"), "--report", str(report_path)])
    assert result.exit_code == 0, result.output
    windows = json.loads(report_path.read_text())["reports"]["none"]["windows"]
    assert windows == {"max_tokens": TEST_POSITIONS - 2, "stride": 128, "cross_pages": True, "windows": 2,
                       "spanning_pages": 2}


def test_one_very_long_window_goes_through_alone(long_model):
    from docextract.modeling.inference import INFERENCE_TOKENS_PER_BATCH, token_budget_batches

    short = 512
    assert token_budget_batches([short] * 10) == [range(0, 8), range(8, 10)]
    long = 4 * INFERENCE_TOKENS_PER_BATCH
    assert token_budget_batches([short, long, long, short, short]) == [range(0, 1), range(1, 2), range(2, 3),
                                                                       range(3, 5)]


def _finetune(invoices, tmp_path, *args):
    out = tmp_path / "out"
    result = runner.invoke(app, ["finetune", str(invoices / "labels.jsonl"), "--output", str(out), *args])
    return result, out


def test_max_tokens_beyond_the_position_table_is_refused(invoices, tmp_path):
    result, out = _finetune(invoices, tmp_path, "--model", "layout-cosformer", "--cross-pages", "--max-tokens", "5000")
    assert result.exit_code == EXIT_USAGE, result.output
    assert "4096 positions" in result.output and "4094" in result.output and "--max-positions" in result.output
    assert not out.exists()
    result, out = _finetune(invoices, tmp_path, "--model", "layout-cosformer", "--max-positions", "1024",
                            "--max-tokens", "2000")
    assert result.exit_code == EXIT_USAGE, result.output
    assert "1024 positions" in result.output


def test_cross_pages_needs_page_embeddings(invoices, tmp_path):
    result, out = _finetune(invoices, tmp_path, "--model", "lspe-layoutlm", "--cross-pages")
    assert result.exit_code == EXIT_USAGE, result.output
    assert "page embeddings" in result.output and "lspe-layoutlm" in result.output
    assert not out.exists()


def test_max_positions_is_for_presets_only(invoices, long_model, tmp_path):
    folder, _ = long_model
    result, out = _finetune(invoices, tmp_path, "--model", str(folder), "--max-positions", "8192")
    assert result.exit_code == EXIT_USAGE, result.output
    assert "presets only" in result.output
    assert not out.exists()


@pytest.mark.parametrize("preset", ["layout-cosformer", "layout-linformer"])
def test_presets_take_16384_positions_tiled_from_minilm(preset):
    from docextract.modeling.presets import _minilm_position_table, from_preset

    model = from_preset(preset, task="encoder", num_hidden_layers=1, max_position_embeddings=16384)
    assert model.config.max_position_embeddings == 16384
    if preset == "layout-cosformer":
        table = model.embeddings.position_embeddings.weight  # (16384, 384)
        minilm = _minilm_position_table()  # (512, 384)
        assert table.shape == (16384, minilm.shape[1])
        for position in (0, 511, 512, 5000, 16383):
            assert torch.equal(table[position], minilm[position % 512])
    else:  # sinusoidal 1D; the Linformer projections cover every position
        assert model.encoder.layer[0].attention.self.proj_k.shape[0] == 16384


def test_the_benchmark_measures_each_document(long_model, invoices, tmp_path):
    folder, _ = long_model
    out = tmp_path / "long.json"
    done = subprocess.run([sys.executable, str(REPO / "benchmarks" / "long_document.py"), str(folder),
                           str(invoices / "labels.jsonl"), "--limit", "2", "--out", str(out), "--threads", "1"],
                          capture_output=True, text=True, cwd=REPO, timeout=300)
    assert done.returncode == 0, done.stderr
    record = json.loads(out.read_text())
    assert record["model"]["cross_pages"] is True and record["model"]["window_tokens"] == TEST_POSITIONS - 2
    documents = record["documents"]
    assert [d["id"] for d in documents] == ["invoice-5-000000", "invoice-5-000001"]
    for d in documents:
        assert d["pages"] >= 2 and d["windows"] == 1 and d["windows_spanning_pages"] == 1
        assert d["tokens"] == d["longest_window_tokens"] > 0
        assert d["seconds"] > 0 and d["peak_rss_mb"] > 0
        assert record["memory_method"] != "high-water-reset" or d["peak_mb"] is not None
    assert record["summary"]["documents_in_one_window"] == 2
