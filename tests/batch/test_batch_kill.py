"""The batch as a process: kill -9 then resume loses and duplicates nothing; SIGINT; the CLI's exit codes.

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

import pytest
from test_batch import make_tree, manifest, no_workers_left

from docextract.batch.engine import EXIT_TERMINATED, run_batch
from docextract.errors import EXIT_INPUT_FAILED, EXIT_INTERRUPTED, EXIT_OUTPUT
from docextract.files import TEMP_PREFIX

TESTS = Path(__file__).resolve().parents[1]  # the helpers (batch_workloads.py) live at the top of tests/
REPO = TESTS.parent
SLOW_ECHO = {"sleep_s": 0.04}
INPUTS = 30
KILL_AFTER_RECORDS = (0, 6, 14, 23)  # manifest lines present when the kill comes (0: during worker start-up)
POLL_S = 0.005


def batch_process(inputs: Path, out: Path, *, resume: bool) -> subprocess.Popen:
    code = (
        "import signal, sys; from docextract.batch.engine import EXIT_TERMINATED, run_batch; "
        "signal.signal(signal.SIGINT, signal.default_int_handler); "  # as in a terminal, even when pytest runs with &
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


@pytest.mark.parametrize("stop, exit_code", [(signal.SIGINT, EXIT_INTERRUPTED), (signal.SIGTERM, EXIT_TERMINATED)])
def test_sigint_or_sigterm_stop_cleanly_and_resume_finishes(tmp_path, stop, exit_code):
    inputs = make_tree(tmp_path / "in", {f"file-{i:02d}.txt": f"document {i}" for i in range(INPUTS)})
    out = tmp_path / "out"
    process = batch_process(inputs, out, resume=False)
    wait_for_records(process, out, 4)
    process.send_signal(stop)  # to the batch only, as a terminal's Ctrl-C or a service manager would
    assert process.wait(timeout=20) == exit_code
    assert no_workers_left(str(out.resolve()))
    summary = json.loads((out / "summary.json").read_text())
    assert summary["interrupted"] == stop.name and summary["exit_code"] == exit_code
    assert 4 <= len(manifest(out)) < INPUTS

    assert batch_process(inputs, out, resume=True).wait(timeout=60) == 0
    assert len(manifest(out)) == INPUTS


def docextract_cli(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), str(TESTS)])}
    return subprocess.run([sys.executable, "-c", "from docextract.cli import main; main()", *args],
                          env=env, capture_output=True, text=True, timeout=120)


@pytest.mark.slow
def test_cli_folder_exit_codes_through_the_real_pipeline(tmp_path):
    from hostile import valid_pdf

    inputs = make_tree(tmp_path / "in", {"sub/empty.pdf": ""})
    (inputs / "invoice.pdf").write_bytes(valid_pdf())
    out = tmp_path / "out"

    assert docextract_cli("run", str(inputs)).returncode == 2  # a folder needs --out
    first = docextract_cli("run", str(inputs), "--out", str(out), "--model", "none")
    assert first.returncode == EXIT_INPUT_FAILED, first.stderr
    records = manifest(out)
    assert (records["invoice.pdf"]["status"], records["sub/empty.pdf"]["error"]["code"]) == ("ok", "INPUT_EMPTY")
    assert json.loads((out / "invoice.pdf.json").read_text())["pages"][0]["text_source"] == "pdf_text"
    assert docextract_cli("run", str(inputs), "--out", str(out), "--model", "none").returncode == EXIT_OUTPUT
    again = docextract_cli("run", str(inputs), "--out", str(out), "--model", "none", "--resume")
    assert again.returncode == EXIT_INPUT_FAILED and "2 kept from the previous run" in again.stderr
