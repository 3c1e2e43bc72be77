"""The progress lines a finetune prints into a log file: the time left is estimated from the steps this process
took, so a run resumed at step 600 of 900 does not promise to end in seconds."""

from __future__ import annotations

import io

from rich.console import Console

from docextract.commands import train_common


def _lines(monkeypatch, steps: list[int], total: int, seconds_per_step: float) -> list[str]:
    clock = {"now": 1000.0}
    monkeypatch.setattr("time.monotonic", lambda: clock["now"])
    out = io.StringIO()
    monkeypatch.setattr(train_common, "stderr", Console(file=out, width=200))
    progress = train_common.progress_bar(visible=False)  # no terminal: printed lines, as under nohup
    task = progress.add_task("finetune", total=total, info="")
    on_step, _, _ = train_common.training_callbacks(progress, task)
    for step in steps:
        clock["now"] += seconds_per_step
        on_step(step, total, 0.5)
    return [line for line in out.getvalue().splitlines() if line.startswith("finetune: step")]


def test_time_left_of_a_resumed_run_counts_only_its_own_steps(monkeypatch):
    # resumed after step 600: its pace is 4 s a step, so a line at step N says 4 * (900 - N) s
    lines = _lines(monkeypatch, list(range(601, 901)), total=900, seconds_per_step=4.0)
    first = lines[0]
    step = int(first.split("step ")[1].split("/")[0])
    left = first.split("left ~")[1].split(":")
    left_seconds = int(left[0]) * 3600 + int(left[1]) * 60 + int(left[2])
    assert left_seconds == 4 * (900 - step)
    assert lines[-1].startswith("finetune: step 900/900") and lines[-1].endswith("left ~0:00:00")


def test_time_left_of_a_fresh_run(monkeypatch):
    lines = _lines(monkeypatch, list(range(1, 101)), total=100, seconds_per_step=2.0)
    assert lines[0].startswith("finetune: step 10/100") and lines[0].endswith("left ~0:03:00")
