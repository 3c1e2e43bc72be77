"""The batch engine: isolation, outputs confined to the root, manifest, resume, exit codes.

The processing functions are the engine's own workloads (tests/batch_workloads.py): they hang,
bomb memory, crash their worker or raise on purpose, to prove the engine survives each.
"""

from __future__ import annotations

import fcntl
import json
import os
import time
from pathlib import Path

import pytest

from docextract.batch.discovery import discover_inputs, glob_regex
from docextract.batch.engine import LOCK_NAME, run_batch
from docextract.batch.isolation import WorkerCrashedAtStartup
from docextract.batch.paths import NAME_MAX_BYTES, output_relpath, prepare_output_path
from docextract.errors import EXIT_INPUT_FAILED, EXIT_OK, MissingDependencyError, OutputError, UsageError
from docextract.files import TEMP_PREFIX, OutputRefused, json_bytes, write_bytes_atomic

SCRIPTED = "batch_workloads:scripted"
ECHO = "batch_workloads:echo_sha256"


def make_tree(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def manifest(out: Path) -> dict[str, dict]:
    lines = (out / "manifest.jsonl").read_text().splitlines()
    records = [json.loads(line) for line in lines]
    assert len({record["input"] for record in records}) == len(records), "an input has two records"
    return {record["input"]: record for record in records}


def worker_pids(label: str) -> list[int]:
    """Live worker processes of the batch whose output root is ``label`` (zombies have no cmdline)."""
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                argv = Path("/proc", name, "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if b"docextract.batch.isolation" in argv and os.fsencode(label) in argv:
                found.append(int(name))
    return found


def no_workers_left(label: str, wait_s: float = 5.0) -> bool:
    deadline = time.monotonic() + wait_s
    while worker_pids(label):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def test_every_failure_becomes_a_record_and_the_batch_goes_on(tmp_path):
    inputs = make_tree(tmp_path / "in", {
        "ok.txt": "echo", "deep/er/ok.txt": "hello", "hang.txt": "sleep", "bomb.txt": "alloc 400",
        "segv.txt": "segv", "exit.txt": "exit 7", "abort-at-cap.txt": "alloc-abort 150", "malformed.txt": "malformed", "bug.txt": "bug",
        "after.txt": "echo",
    })
    os.symlink("/etc/passwd", inputs / "passwd-link.txt")
    os.mkfifo(inputs / "fifo.txt")
    out = tmp_path / "out"

    summary = run_batch(inputs, out, process=SCRIPTED, workers=2, timeout_s=2, max_memory_mb=200, progress=False)

    records = manifest(out)
    expected = {
        "ok.txt": ("ok", None), "deep/er/ok.txt": ("ok", None), "after.txt": ("ok", None),
        "hang.txt": ("failed", "TIMEOUT"), "bomb.txt": ("failed", "MEMORY_LIMIT"),
        "abort-at-cap.txt": ("failed", "MEMORY_LIMIT"),
        "segv.txt": ("failed", "WORKER_CRASH"), "exit.txt": ("failed", "WORKER_CRASH"),
        "malformed.txt": ("failed", "PDF_MALFORMED"), "bug.txt": ("failed", "INTERNAL_ERROR"),
        "passwd-link.txt": ("skipped", "INPUT_UNREADABLE"), "fifo.txt": ("skipped", "INPUT_UNREADABLE"),
    }
    assert {rel: (r["status"], r["error"] and r["error"]["code"]) for rel, r in records.items()} == expected
    assert records["segv.txt"]["error"]["signal"] == "SIGSEGV"
    assert records["exit.txt"]["error"]["worker_exit_code"] == 7
    assert records["malformed.txt"]["error"]["stage"] == "parse"
    assert "ZeroDivisionError" in records["bug.txt"]["error"]["traceback"]
    assert records["abort-at-cap.txt"]["error"]["signal"] == "SIGABRT"
    assert summary.inputs == len(records) == 12
    assert summary.by_code == {"INTERNAL_ERROR": 1, "MEMORY_LIMIT": 2, "PDF_MALFORMED": 1, "TIMEOUT": 1, "WORKER_CRASH": 2}
    assert summary.exit_code == EXIT_INPUT_FAILED
    assert json.loads((out / "deep/er/ok.txt.json").read_text())["lines"] == ["hello"]
    assert records["deep/er/ok.txt"]["output"] == "deep/er/ok.txt.json"
    assert not (out / "hang.txt.json").exists() and not (out / "passwd-link.txt.json").exists()
    assert json.loads((out / "summary.json").read_text())["exit_code"] == EXIT_INPUT_FAILED
    assert no_workers_left(str(out.resolve()), wait_s=0)


def test_all_ok_exits_0_and_in_process_gives_the_same_bytes(tmp_path):
    inputs = make_tree(tmp_path / "in", {f"d{i % 3}/f{i}.txt": f"file {i} ünïcode" for i in range(8)})
    isolated = run_batch(inputs, tmp_path / "iso", process=ECHO, workers=2, progress=False)
    in_process = run_batch(inputs, tmp_path / "inproc", process=ECHO, isolate=False, progress=False)
    assert isolated.exit_code == in_process.exit_code == EXIT_OK
    for rel in manifest(tmp_path / "iso"):
        assert (tmp_path / "iso" / f"{rel}.json").read_bytes() == (tmp_path / "inproc" / f"{rel}.json").read_bytes()


@pytest.mark.parametrize("workers", [1, 2])
def test_workers_share_out_the_processors_for_their_threads(tmp_path, monkeypatch, workers):
    from docextract.batch.isolation import threads_per_worker

    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    root = make_tree(tmp_path / "in", {"a.txt": "echo"})
    summary = run_batch(root, tmp_path / "out", process="batch_workloads:thread_settings", workers=workers)
    assert summary.exit_code == EXIT_OK
    result = json.loads((tmp_path / "out" / "a.txt.json").read_text())
    assert result["OMP_NUM_THREADS"] == str(threads_per_worker(workers)) == str(max(1, len(os.sched_getaffinity(0)) // workers))
    assert [threads_per_worker(w, cpus=2) for w in (1, 2, 3)] == [2, 1, 1]
    assert threads_per_worker(2, cpus=16) == 8


def test_a_folder_gets_one_worker_per_processor_by_default(tmp_path, monkeypatch):
    from docextract.batch.engine import MAX_DEFAULT_WORKERS, default_workers

    assert [default_workers(files, cpus=2) for files in (0, 1, 2, 50)] == [1, 1, 2, 2]
    assert default_workers(50, cpus=64) == MAX_DEFAULT_WORKERS
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    cpus = len(os.sched_getaffinity(0))
    root = make_tree(tmp_path / "in", {f"{i}.txt": "echo" for i in range(3)})
    summary = run_batch(root, tmp_path / "out", process="batch_workloads:thread_settings")  # no workers given
    assert summary.exit_code == EXIT_OK and summary.workers == min(cpus, MAX_DEFAULT_WORKERS, 3)
    result = json.loads((tmp_path / "out" / "0.txt.json").read_text())
    assert result["OMP_NUM_THREADS"] == str(max(1, cpus // summary.workers))  # one thread each on 2 cores


def test_discovery_glob_skips_links_special_files_and_the_output_folder(tmp_path):
    inputs = make_tree(tmp_path / "in", {"a.pdf": "", "b.png": "", "sub/c.pdf": "", "sub/deeper/d.PDF": ""})
    os.symlink(inputs / "a.pdf", inputs / "link.pdf")
    os.symlink(inputs, inputs / "sub" / "loop")  # a folder link back to the root
    os.mkfifo(inputs / "pipe.pdf")
    make_tree(inputs / "out", {"x.pdf.json": ""})  # output folder inside the input folder

    found = discover_inputs(inputs, "*.pdf", exclude_dir=inputs / "out")
    assert [(item.rel, item.skip_reason is None) for item in found.inputs] == [
        ("a.pdf", True), ("link.pdf", False), ("pipe.pdf", False), ("sub/c.pdf", True)]

    followed = discover_inputs(inputs, "**/*.pdf", exclude_dir=inputs / "out", follow_symlinks=True)
    rels = {item.rel: item.skip_reason for item in followed.inputs}
    assert rels["link.pdf"] is None  # a link to a regular file is read when asked
    assert rels["pipe.pdf"] is not None  # special files never are
    assert not any(rel.startswith("sub/loop") for rel in rels)  # the loop is walked once, not forever


def test_glob_semantics():
    assert glob_regex("**/*").match("x.pdf") and glob_regex("**/*").match("a/b/x.pdf")
    assert glob_regex("a/*.pdf").match("a/x.pdf") and not glob_regex("a/*.pdf").match("a/b/x.pdf")
    assert glob_regex("*.[pP][dD][fF]").match("q/X.PDF")
    assert not glob_regex("*.pdf").match("x.pdf.json")


def test_output_names_mirror_the_tree_and_refuse_escapes(tmp_path):
    assert output_relpath("a/b/x.pdf") == "a/b/x.pdf.json"
    for unsafe in ("../x.pdf", "a/../../x.pdf", "/etc/x", "a//x", "bad\nname.pdf"):
        with pytest.raises(OutputRefused):
            output_relpath(unsafe)
    long_name = output_relpath("dir/" + "é" * 200 + ".pdf")
    assert long_name.startswith("dir/") and long_name.endswith(".json")
    assert len(os.fsencode(long_name.split("/")[-1])) <= NAME_MAX_BYTES
    assert long_name == output_relpath("dir/" + "é" * 200 + ".pdf")  # deterministic

    out = tmp_path / "out"
    out.mkdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    os.symlink(elsewhere, out / "a")  # a pre-planted folder link
    with pytest.raises(OutputRefused):
        prepare_output_path(str(out), "a/x.pdf.json")
    assert prepare_output_path(str(out), "b/c/x.pdf.json") == out / "b" / "c" / "x.pdf.json"


def test_existing_outputs_are_never_clobbered(tmp_path):
    inputs = make_tree(tmp_path / "in", {"x.txt": "echo", "y.txt": "echo"})
    out = make_tree(tmp_path / "out", {"x.txt.json": "the user's own file"})
    sentinel = make_tree(tmp_path / "sentinel", {"precious": "keep me"}) / "precious"
    os.symlink(sentinel, out / "y.txt.json")

    summary = run_batch(inputs, out, process=ECHO, progress=False)
    records = manifest(out)
    assert summary.exit_code == EXIT_INPUT_FAILED
    assert records["x.txt"]["error"]["code"] == records["y.txt"]["error"]["code"] == "OUTPUT_WRITE_FAILED"
    assert (out / "x.txt.json").read_text() == "the user's own file"

    summary = run_batch(inputs, out, process=ECHO, overwrite=True, progress=False)
    records = manifest(out)
    assert records["x.txt"]["status"] == "ok"  # replaced on request...
    assert records["y.txt"]["error"]["code"] == "OUTPUT_WRITE_FAILED"  # ...but a link is never written through
    assert sentinel.read_text() == "keep me"
    assert not [p for p in out.rglob("*") if p.name.startswith(TEMP_PREFIX)]


def test_rerun_needs_resume_which_skips_done_work_and_redoes_changed(tmp_path):
    inputs = make_tree(tmp_path / "in", {f"f{i}.txt": f"echo {i}" for i in range(5)})
    out = tmp_path / "out"
    run_batch(inputs, out, process=ECHO, progress=False)
    with pytest.raises(OutputError):
        run_batch(inputs, out, process=ECHO, progress=False)

    before = {p.name: (p.stat().st_mtime_ns, p.read_bytes()) for p in out.glob("*.txt.json")}
    again = run_batch(inputs, out, process=ECHO, resume=True, progress=False)
    assert (again.processed, again.reused) == (0, 5)
    assert {p.name: (p.stat().st_mtime_ns, p.read_bytes()) for p in out.glob("*.txt.json")} == before

    (out / "f1.txt.json").unlink()  # lost output
    (inputs / "f2.txt").write_text("echo changed")  # changed input
    (inputs / "f4.txt").unlink()  # vanished input
    (inputs / "f5.txt").write_text("echo new")  # new input
    third = run_batch(inputs, out, process=ECHO, resume=True, progress=False)
    assert (third.processed, third.reused) == (3, 2)
    records = manifest(out)
    assert sorted(records) == ["f0.txt", "f1.txt", "f2.txt", "f3.txt", "f5.txt"]
    assert json.loads((out / "f2.txt.json").read_text())["lines"] == ["echo changed"]

    other_options = run_batch(inputs, out, process=ECHO, options={"sleep_s": 0}, resume=True, progress=False)
    assert other_options.processed == 5  # another configuration: every record is stale


def test_run_level_errors(tmp_path):
    inputs = make_tree(tmp_path / "in", {"a.txt": "echo", "b.txt": "missing-dep"})
    with pytest.raises(UsageError):
        run_batch(tmp_path / "nope", tmp_path / "out", process=ECHO, progress=False)
    with pytest.raises(UsageError):
        run_batch(inputs, tmp_path / "out", process="no_colon", progress=False)
    (tmp_path / "a-file").write_text("")
    with pytest.raises(OutputError) as error:
        run_batch(inputs, tmp_path / "a-file" / "out", process=ECHO, progress=False)
    assert error.value.exit_code == 5
    with pytest.raises(WorkerCrashedAtStartup):
        run_batch(inputs, tmp_path / "out1", process="no_such_module_here:run", progress=False)
    assert no_workers_left(str((tmp_path / "out1").resolve()))

    # A missing dependency would fail every file the same way: stop with exit 3, no record for it.
    with pytest.raises(MissingDependencyError) as error:
        run_batch(inputs, tmp_path / "out2", process=SCRIPTED, progress=False)
    assert error.value.exit_code == 3
    assert "b.txt" not in manifest(tmp_path / "out2")

    # Two batches must not write the same folder at once.
    (tmp_path / "out3").mkdir()
    with open(tmp_path / "out3" / LOCK_NAME, "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        with pytest.raises(OutputError, match="another docextract batch"):
            run_batch(inputs, tmp_path / "out3", process=ECHO, progress=False)


def test_json_bytes_are_canonical_and_survive_lone_surrogates(tmp_path):
    assert json_bytes({"b": 1, "a": [1.5, "é"]}) == json_bytes({"a": [1.5, "é"], "b": 1})
    assert json_bytes({"a": "é"}).decode("utf-8") == '{\n  "a": "é"\n}\n'
    broken = json_bytes({"text": "bad \ud800 surrogate"})
    assert json.loads(broken) == {"text": "bad \ud800 surrogate"}
    with pytest.raises(ValueError):
        json_bytes({"x": float("nan")})

    target = tmp_path / "x.json"
    write_bytes_atomic(target, b"one")
    write_bytes_atomic(target, b"two")
    assert target.read_bytes() == b"two" and os.listdir(tmp_path) == ["x.json"]
