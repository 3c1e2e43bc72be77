"""A tiny end-to-end finetune -> evaluate on real FUNSD forms, and resume after an interruption."""

import json

import pytest
import torch
from typer.testing import CliRunner

from docextract.cli import app
from docextract.data.funsd import convert_funsd
from docextract.data.labelled import write_jsonl
from docextract.training.finetune import FinetuneOptions, finetune

TINY = {"num_hidden_layers": 1}  # MiniLM's first layer only: the real weights, a fast model


@pytest.fixture(scope="module")
def funsd_files(tmp_path_factory, shared_data):
    src = shared_data("funsd")
    folder = tmp_path_factory.mktemp("funsd")
    train, _ = convert_funsd(src, "train", limit=6)
    test, _ = convert_funsd(src, "test", limit=3)
    write_jsonl(train, folder / "train.jsonl")
    write_jsonl(test, folder / "test.jsonl")
    return folder / "train.jsonl", folder / "test.jsonl"


def _options(files, output, **kw):
    defaults = dict(train_files=(files[0],), eval_files=(files[1],), output_dir=output, model="lspe-layoutlm",
                    epochs=3, learning_rate=5e-4, batch_size=4, max_tokens=126, stride=32, model_overrides=TINY)
    return FinetuneOptions(**{**defaults, **kw})


def test_finetune_then_evaluate_on_real_forms(funsd_files, tmp_path):
    losses = []
    record = finetune(_options(funsd_files, tmp_path / "run"), on_step=lambda s, t, loss: losses.append(loss))
    epochs = record["history"]["epochs"]
    assert epochs[-1]["train_loss"] < epochs[0]["train_loss"]
    model_dir = tmp_path / "run" / "model"
    assert (model_dir / "model.safetensors").is_file() and (model_dir / "tokenizer.json").is_file()
    assert not list(model_dir.glob("*.bin"))

    report_path = tmp_path / "report.json"
    threads = torch.get_num_threads()
    try:
        result = CliRunner().invoke(app, ["evaluate", str(model_dir), str(funsd_files[1]), "--report", str(report_path),
                                          "--robustness", "all", "--threads", "1"])
        assert torch.get_num_threads() == 1  # evaluating beside a running training takes one core, not all
    finally:
        torch.set_num_threads(threads)
    assert result.exit_code == 0, result.output
    report = json.loads(report_path.read_text())
    assert set(report["reports"]) == {"none", "global-shuffle", "neighbour-swap", "drop-1d"}
    plain = report["reports"]["none"]
    assert plain["documents"] == 3
    assert set(plain["per_label"]) <= {"header", "question", "answer"}
    assert all(0.0 <= plain[k] <= 1.0 for k in ("precision", "recall", "f1"))
    assert sum(v["support"] for v in plain["per_label"].values()) > 0


@pytest.fixture()
def one_thread():
    """With two threads, CPU reductions may sum in a different order from run to run (seen: the 8th
    digit of a loss); bit-identical resume is a promise for a fixed thread count."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


def test_resume_after_interruption_gives_the_same_model(funsd_files, tmp_path, one_thread):
    full = finetune(_options(funsd_files, tmp_path / "full", epochs=2))
    # killed in the second epoch: the epoch-1 checkpoint is complete, the rest is redone on resume
    finetune(_options(funsd_files, tmp_path / "resumed", epochs=2), stop_after_steps=3)
    resumed = finetune(_options(funsd_files, tmp_path / "resumed", epochs=2))
    assert resumed["history"]["epochs"] == full["history"]["epochs"]
    from safetensors.torch import load_file

    a = load_file(str(tmp_path / "full" / "model" / "model.safetensors"))
    b = load_file(str(tmp_path / "resumed" / "model" / "model.safetensors"))
    assert a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)


def test_defective_training_data_is_refused_before_training(funsd_files, tmp_path):
    bad = tmp_path / "bad.jsonl"
    line = json.loads(funsd_files[0].read_text().splitlines()[0])
    line["pages"][0]["words"][0]["box"] = [10, 50, 5, 40]  # inverted box
    bad.write_text(json.dumps(line) + "\n")
    result = CliRunner().invoke(app, ["finetune", str(bad), "--output", str(tmp_path / "out")])
    assert result.exit_code == 4
    assert "bad.jsonl" in result.output and "defect" in result.output
    assert not (tmp_path / "out").exists()
