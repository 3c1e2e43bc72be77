"""What `finetune` says about the epoch it kept: the metric that picked it, and that the first epoch was kept because
that metric never rose while another did (a tiny run printed "best epoch 1, f1 0.0000" while field F1 rose)."""

from docextract.commands.finetune_cmd import best_epoch_lines


def _history(select_by, rows):
    epochs = [{"epoch": n, "train_loss": 1.0 / n, **row} for n, row in enumerate(rows, start=1)]
    best = None
    for record in epochs:  # as training/loop.py keeps it: the first epoch with the highest value
        if best is None or record[select_by] > best[select_by]:
            best = record
    return {"epochs": epochs, "best": best}


def test_the_metric_that_picked_the_epoch_is_named_with_the_others():
    history = _history("f1", [{"f1": 0.2, "field_f1": 0.1}, {"f1": 0.5, "field_f1": 0.3}])
    assert best_epoch_lines(history, "f1") == [
        "best epoch 2, picked by entity F1 on the --eval data (--select-by f1): 0.5000 (field F1 0.3000)"]


def test_a_metric_that_never_rose_says_the_first_epoch_was_kept_and_which_one_rose():
    history = _history("f1", [{"f1": 0.0, "field_f1": 0.1, "field_accuracy": 0.1},
                              {"f1": 0.0, "field_f1": 0.4, "field_accuracy": 0.3},
                              {"f1": 0.0, "field_f1": 0.2, "field_accuracy": 0.2}])
    lines = best_epoch_lines(history, "f1")
    assert lines[0].startswith("best epoch 1, picked by entity F1") and "field F1 0.1000" in lines[0]
    assert lines[1:] == [
        "entity F1 never rose above its first epoch's 0.0000, so epoch 1 was kept; field F1 rose from 0.1000 to "
        "0.4000 (epoch 2): --select-by field_f1 picks the epoch by it",
        "entity F1 never rose above its first epoch's 0.0000, so epoch 1 was kept; field accuracy rose from 0.1000 "
        "to 0.3000 (epoch 2): --select-by field_accuracy picks the epoch by it"]


def test_without_eval_data_nothing_is_said():
    assert best_epoch_lines({"epochs": [{"epoch": 1}], "best": None}, "f1") == []
