"""Early stopping and the convergence report on tiny real runs (6 FUNSD forms, a 1-layer MiniLM layout model)."""

import json

import pytest
from typer.testing import CliRunner

from docextract.cli import app
from docextract.training.finetune import FinetuneOptions, finetune


def _options(data, output, **kw):
    defaults = dict(train_files=(data / "train.jsonl",), eval_files=(data / "val.jsonl",), output_dir=output,
                    model=str(data / "tiny"), epochs=2, learning_rate=5e-4, batch_size=4, max_tokens=126, stride=32,
                    device="cpu")
    return FinetuneOptions(**{**defaults, **kw})


def test_patience_stops_a_real_run_that_no_longer_improves(tiny_funsd, tmp_path):
    # At learning rate 0 the model never changes: validation F1 is the same every epoch, so the first epoch stays
    # the best and patience 2 ends the run at epoch 3 of 6.
    record = finetune(_options(tiny_funsd, tmp_path / "run", epochs=6, learning_rate=0.0, patience=2))
    history = record["history"]
    assert [e["epoch"] for e in history["epochs"]] == [1, 2, 3]
    assert len({e["f1"] for e in history["epochs"]}) == 1
    assert history["stopped_early"] == {"epoch": 3, "patience": 2}
    assert history["convergence"] == {"epochs_run": 3, "steps": history["epochs"][-1]["step"], "final_lr": 0.0,
                                      "stopped_by": "patience", "best_epoch": 1, "still_improving": False}
    saved = json.loads((tmp_path / "run" / "model" / "training.json").read_text())
    assert saved["history"]["convergence"] == history["convergence"]


def test_finetune_says_when_the_run_ended_while_still_improving(tiny_funsd, tmp_path):
    output = tmp_path / "run"
    result = CliRunner().invoke(app, [
        "finetune", str(tiny_funsd / "train.jsonl"), "--eval", str(tiny_funsd / "val.jsonl"), "-o", str(output),
        "--model", str(tiny_funsd / "tiny"), "--epochs", "2", "--lr", "1e-3", "--batch-size", "4", "--max-tokens", "126",
        "--stride", "32", "--threads", "1", "--device", "cpu"])
    assert result.exit_code == 0, result.output
    history = json.loads((output / "model" / "training.json").read_text())["history"]
    first, last = history["epochs"]
    assert last["f1"] > first["f1"]  # the premise: this short run is still learning
    assert history["convergence"]["still_improving"] is True and history["convergence"]["stopped_by"] == "epochs"
    assert last["lr"] == 0.0  # the plain schedule has decayed to zero ...
    assert "still improving" in result.output and "--lr-floor" in result.output  # ... and the user is told


def test_a_floor_keeps_the_last_epochs_learning_rate_above_zero(tiny_funsd, tmp_path):
    record = finetune(_options(tiny_funsd, tmp_path / "run", lr_floor=0.1))
    lrs = [e["lr"] for e in record["history"]["epochs"]]
    assert lrs[-1] == pytest.approx(5e-5)  # 0.1 of the peak 5e-4
    assert record["history"]["config"]["lr_floor"] == 0.1
