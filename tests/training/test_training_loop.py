"""The training loop: loss falls, checkpoints are atomic, resume after a kill equals an uninterrupted run."""

import json

import pytest
import torch
from transformers import BertConfig, BertForTokenClassification

from docextract.training.checkpoints import COMPLETE_MARKER, latest_complete_checkpoint, list_checkpoints
from docextract.training.loop import TrainConfig, TrainingAborted, train


def _tiny_model(seed=0):
    torch.manual_seed(seed)
    config = BertConfig(vocab_size=50, hidden_size=32, num_hidden_layers=1, num_attention_heads=2,
                        intermediate_size=64, max_position_embeddings=64, num_labels=3,
                        attention_probs_dropout_prob=0.0, hidden_dropout_prob=0.1)
    return BertForTokenClassification(config)


def _examples(n=24):
    """A learnable toy tagging task: the label of a token is its id modulo 3."""
    g = torch.Generator().manual_seed(1)
    out = []
    for _ in range(n):
        ids = torch.randint(1, 50, (12,), generator=g).tolist()
        out.append({"input_ids": ids, "attention_mask": [1] * 12, "labels": [i % 3 for i in ids]})
    return out


def _accuracy(model, examples):
    from docextract.modeling.batching import collate

    model.eval()
    with torch.no_grad():
        batch = collate(examples)
        predicted = model(input_ids=batch["input_ids"], attention_mask=batch["attention_mask"]).logits.argmax(-1)
    return {"f1": (predicted == batch["labels"]).float().mean().item()}


def test_loss_falls_and_best_checkpoint_is_kept(tmp_path):
    model, data = _tiny_model(), _examples()
    losses = []
    history = train(model, data, TrainConfig(tmp_path, epochs=6, learning_rate=5e-3, batch_size=4),
                    evaluate=lambda m: _accuracy(m, data), on_step=lambda s, t, loss: losses.append(loss))
    assert history["epochs"][-1]["train_loss"] < history["epochs"][0]["train_loss"]
    assert (tmp_path / "best" / "model.safetensors").is_file()
    assert history["best"]["f1"] == max(e["f1"] for e in history["epochs"])
    assert json.loads((tmp_path / "history.json").read_text())["best"] == history["best"]
    checkpoints = list_checkpoints(tmp_path)
    assert len(checkpoints) == 1 and (checkpoints[0] / COMPLETE_MARKER).is_file()


def test_resume_after_interruption_matches_uninterrupted_run(tmp_path):
    data = _examples()
    config = dict(epochs=4, learning_rate=5e-3, batch_size=4)
    full = _tiny_model()
    train(full, data, TrainConfig(tmp_path / "full", **config))

    resumed = _tiny_model()
    # "killed" in the middle of epoch 3 (6 steps an epoch): checkpoints exist for epochs 1 and 2
    train(resumed, data, TrainConfig(tmp_path / "resumed", stop_after_steps=15, **config))
    checkpoint = latest_complete_checkpoint(tmp_path / "resumed")
    assert checkpoint.name == "checkpoint-12"
    seconds_before_kill = json.loads((checkpoint / "trainer_state.json").read_text())["history"]["train_seconds"]
    resumed = _tiny_model(seed=123)  # a fresh process: weights come from the checkpoint, not from memory
    history = train(resumed, data, TrainConfig(tmp_path / "resumed", **config))
    assert 0 < seconds_before_kill <= history["train_seconds"]  # wall time adds up across the resume
    for (name, a), (_, b) in zip(full.state_dict().items(), resumed.state_dict().items()):
        assert torch.equal(a, b), name


def test_a_half_written_checkpoint_is_never_resumed_from(tmp_path):
    data = _examples(8)
    train(_tiny_model(), data, TrainConfig(tmp_path, epochs=1, batch_size=4))
    good = latest_complete_checkpoint(tmp_path)
    broken = tmp_path / "checkpoint-99"
    broken.mkdir()
    (broken / "model.safetensors").write_bytes(b"truncated")
    assert latest_complete_checkpoint(tmp_path) == good
    # a checkpoint whose files changed after sealing is refused too
    (good / "trainer_state.json").write_text("{}")
    assert latest_complete_checkpoint(tmp_path) is None


def test_nan_loss_aborts_with_a_clear_message(tmp_path):
    model = _tiny_model()
    with torch.no_grad():
        model.classifier.weight.fill_(float("nan"))
    with pytest.raises(TrainingAborted, match="not finite"):
        train(model, _examples(), TrainConfig(tmp_path, epochs=1, batch_size=4))


def test_lspe_position_ffns_train_at_a_scaled_learning_rate(tmp_path):
    from docextract.modeling import from_preset
    from docextract.training.loop import parameter_groups

    model = from_preset("lspe-layoutlm", num_labels=3, num_hidden_layers=1)
    groups = parameter_groups(model, TrainConfig(tmp_path, learning_rate=1e-4, lspe_lr_scale=0.02))
    lspe_ids = {id(p) for n, p in model.named_parameters() if ".lspe." in n}
    assert lspe_ids
    for group in groups:
        in_lspe = {id(p) in lspe_ids for p in group["params"]}
        assert len(in_lspe) == 1  # a group is all LSPE or none
        assert group["lr"] == pytest.approx(2e-6 if in_lspe.pop() else 1e-4)
    assert sum(len(g["params"]) for g in groups) == sum(1 for p in model.parameters() if p.requires_grad)


def test_patience_stops_once_the_metric_has_not_improved_for_that_many_epochs(tmp_path):
    scores = iter([0.5, 0.7, 0.6, 0.65, 0.9, 0.95])  # best at epoch 2, then two epochs without a better one
    history = train(_tiny_model(), _examples(), TrainConfig(tmp_path, epochs=6, batch_size=4, patience=2),
                    evaluate=lambda m: {"f1": next(scores)})
    assert [e["epoch"] for e in history["epochs"]] == [1, 2, 3, 4]
    assert history["best"]["epoch"] == 2 and history["stopped_early"] == {"epoch": 4, "patience": 2}
    # a re-run of the finished command resumes nothing: training is over
    again = train(_tiny_model(), _examples(), TrainConfig(tmp_path, epochs=6, batch_size=4, patience=2),
                  evaluate=lambda m: {"f1": 1.0})
    assert again["epochs"] == history["epochs"]


def test_interrupted_write_of_history_leaves_the_previous_file_whole(tmp_path, monkeypatch):
    import os
    from pathlib import Path

    from docextract import files

    data = _examples(8)
    train(_tiny_model(), data, TrainConfig(tmp_path, epochs=1, batch_size=4))
    previous = (tmp_path / "history.json").read_bytes()
    real_fsync = os.fsync

    def interrupted_at_history(fd):  # Ctrl-C after the new history's bytes are written, before the rename
        written = Path(os.readlink(f"/proc/self/fd/{fd}"))
        if written.parent == tmp_path and written.name.startswith(files.TEMP_PREFIX):
            raise KeyboardInterrupt
        real_fsync(fd)

    monkeypatch.setattr(files.os, "fsync", interrupted_at_history)
    with pytest.raises(KeyboardInterrupt):
        train(_tiny_model(), data, TrainConfig(tmp_path, epochs=2, batch_size=4))  # resumes, then writes history
    assert (tmp_path / "history.json").read_bytes() == previous
    assert json.loads(previous)["epochs"]  # whole, and readable
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(files.TEMP_PREFIX)]


def test_the_untrained_layout_parameters_train_at_the_layout_scale(tmp_path):
    from docextract.modeling import from_preset
    from docextract.training.loop import parameter_groups

    config = TrainConfig(tmp_path, learning_rate=1e-4, lspe_lr_scale=0.02, layout_lr_scale=100)
    expected = {  # parameter name part -> its rate
        "layout.polar.": 1e-2,  # DocPolarBERT's distance and angle tables
        "encoder.layer.0.attention.self.query.weight": 1e-4,  # the text encoder keeps the base rate
    }
    polar = from_preset("docpolarbert", num_labels=3, num_hidden_layers=1)
    lspe = from_preset("lspe-layoutlm", num_labels=3, num_hidden_layers=1)
    expected_lspe = {"layout_2d.x.lspe.": 1e-4 * 0.02 * 100, "position_encoder.lspe.": 1e-4 * 0.02,
                     "word_embeddings": 1e-4}
    for model, table in ((polar, expected), (lspe, expected_lspe)):
        rate = {id(p): g["lr"] for g in parameter_groups(model, config) for p in g["params"]}
        for part, lr in table.items():
            named = [p for n, p in model.named_parameters() if part in n]
            assert named, part
            assert all(rate[id(p)] == pytest.approx(lr) for p in named), part


def test_a_pull_to_the_starting_weights_keeps_the_model_near_them(tmp_path):
    data = _examples()

    def distance(pull: float) -> float:
        model = _tiny_model()
        start = {name: p.detach().clone() for name, p in model.named_parameters()}
        train(model, data, TrainConfig(tmp_path / f"pull-{pull}", epochs=3, learning_rate=5e-3, batch_size=4,
                                       pull_to_start=pull))
        return sum(float((p.detach() - start[name]).norm()) for name, p in model.named_parameters())

    free, pulled = distance(0.0), distance(100.0)
    assert pulled < 0.5 * free


def test_the_pull_is_the_gradient_of_half_the_squared_distance():
    from docextract.training.loop import pull_towards, starting_weights

    model = torch.nn.Linear(3, 2)
    start = starting_weights(model)
    with torch.no_grad():
        model.weight.add_(1.0)
    model.weight.grad, model.bias.grad = torch.zeros(2, 3), torch.full((2,), 0.5)
    pull_towards(model, start, 0.1)
    assert torch.allclose(model.weight.grad, torch.full((2, 3), 0.1)) and torch.allclose(model.bias.grad, torch.full((2,), 0.5))
