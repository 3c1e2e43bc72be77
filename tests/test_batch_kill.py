"""kill -9 of a running batch at several points, then resume: nothing lost, nothing duplicated, same bytes.

The batch runs as a subprocess in its own process group (as a shell would start it); the test
SIGKILLs the whole group, as a crashed machine or an OOM-killed terminal would.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from docextract.batch import run_batch
from docextract.errors import EXIT_INTERRUPTED
from docextract.export import TEMP_PREFIX
from test_batch import make_tree, manifest, no_workers_left

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
SLOW_ECHO = {"sleep_s": 0.04}
INPUTS = 30
KILL_AFTER_RECORDS = (0, 6, 14, 23)  # manifest lines present when the kill comes (0: during worker start-up)
POLL_S = 0.005


def batch_process(inputs: Path, out: Path, *, resume: bool) -> subprocess.Popen:
    code = (
        "import sys; from docextract.batch import run_batch; "
        f"s = run_batch({str(inputs)!r}, {str(out)!r}, process='batch_workloads:echo_sha256', "
        f"options={SLOW_ECHO!r}, workers=2, resume={resume}, overwrite=True, progress=False); "
        "sys.exit(s.exit_code)"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), str(TESTS)])}
    return subprocess.Popen([sys.executable, "-c", code], env=env, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def manifest_lines(out: Path) -> int:
    try:
        return (out / "manifest.jsonl").read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


def wait_for_records(process: subprocess.Popen, out: Path, count: int, *, deadline_s: float = 20.0) -> None:
    deadline = time.monotonic() + deadline_s
    while manifest_lines(out) < count and process.poll() is None:
        assert time.monotonic() < deadline, "the batch made no progress"
        time.sleep(POLL_S)


def test_kill_9_at_several_points_then_resume_loses_and_duplicates_nothing(tmp_path):
    inputs = make_tree(tmp_path / "in", {f"d{i % 4}/file-{i:02d}.txt": f"document {i}\n" * (i + 1) for i in range(INPUTS)})
    reference = tmp_path / "reference"
    run_batch(inputs, reference, process="batch_workloads:echo_sha256", options=SLOW_ECHO, workers=2, progress=False)

    out = tmp_path / "out"
    kills = 0
    for count in KILL_AFTER_RECORDS:
        process = batch_process(inputs, out, resume=kills > 0)
        time.sleep(0.3) if count == 0 else wait_for_records(process, out, count)
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            kills += 1
        process.wait()
        assert no_workers_left(str(out.resolve())), "a worker outlived the killed batch"
    assert kills >= 3, "the batch finished before it could be killed: make the workload slower"

    final = batch_process(inputs, out, resume=True)
    assert final.wait(timeout=60) == 0

    records = manifest(out)  # asserts one record per input
    assert len(records) == INPUTS and all(record["status"] == "ok" for record in records.values())
    for rel, record in records.items():
        produced = (out / record["output"]).read_bytes()
        assert produced == (reference / record["output"]).read_bytes(), rel
    assert not [path for path in out.rglob("*") if path.name.startswith(TEMP_PREFIX)]
    assert no_workers_left(str(out.resolve()))
    assert json.loads((out / "summary.json").read_text())["by_status"] == {"ok": INPUTS}


def test_sigint_stops_cleanly_with_exit_130_and_resume_finishes(tmp_path):
    inputs = make_tree(tmp_path / "in", {f"file-{i:02d}.txt": f"document {i}" for i in range(INPUTS)})
    out = tmp_path / "out"
    process = batch_process(inputs, out, resume=False)
    wait_for_records(process, out, 4)
    process.send_signal(signal.SIGINT)  # to the batch only, as a terminal's Ctrl-C reaches it
    assert process.wait(timeout=20) == EXIT_INTERRUPTED
    assert no_workers_left(str(out.resolve()))
    summary = json.loads((out / "summary.json").read_text())
    assert summary["interrupted"] == "SIGINT" and summary["exit_code"] == EXIT_INTERRUPTED
    assert 4 <= len(manifest(out)) < INPUTS

    assert batch_process(inputs, out, resume=True).wait(timeout=60) == 0
    assert len(manifest(out)) == INPUTS
