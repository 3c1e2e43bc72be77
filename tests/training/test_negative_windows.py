"""Subsampling training windows that hold no entity (long contracts are mostly such pages)."""

from docextract.modeling.batching import IGNORE_INDEX
from docextract.training.finetune import keep_negative_windows


def _windows():
    positives = [{"labels": [IGNORE_INDEX, 0, 3, IGNORE_INDEX, 0, IGNORE_INDEX]} for _ in range(10)]
    negatives = [{"labels": [IGNORE_INDEX, 0, 0, IGNORE_INDEX, IGNORE_INDEX]} for _ in range(1000)]
    return positives + negatives


def test_every_window_with_an_entity_is_kept_and_a_share_of_the_others():
    windows = _windows()
    kept = keep_negative_windows(windows, 0.2, seed=1)
    assert sum(any(label > 0 for label in w["labels"]) for w in kept) == 10
    assert 150 < len(kept) - 10 < 250
    assert keep_negative_windows(windows, 0.2, seed=1) == kept  # seeded


def test_zero_keeps_only_entity_windows_and_one_keeps_everything():
    windows = _windows()
    assert len(keep_negative_windows(windows, 0.0, seed=1)) == 10
    assert keep_negative_windows(windows, 1.0, seed=1) is windows
