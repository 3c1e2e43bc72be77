"""The Ray engine (`run DIR --engine ray`, docs/ray.md) on a local Ray instance this module starts (2 CPUs).

On a folder of real files (../shared/data: the small odd PDFs and images, e-invoices) and the generated hostile ones:
one record per input, the same records and byte-identical outputs as the local engine, with a worker actor killed
mid-run (``ray.kill``) and with the driver killed (SIGKILL) then resumed; the invoice model through Ray, whole files
per actor and split into OCR and model actors; the per-file timeout, memory cap and crash records; the usage errors,
and the local engine without Ray installed.
"""

from __future__ import annotations

import io
import json
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from hostile import write_hostile_cases
from rich.console import Console
from test_batch import make_tree, manifest, no_workers_left
from test_batch_hostile import SHARED_MAX_BYTES
from test_batch_kill import REPO, TESTS, docextract_cli, manifest_lines

from docextract.batch.engine import EXIT_TERMINATED, run_batch
from docextract.errors import EXIT_INPUT_FAILED, EXIT_INTERRUPTED, EXIT_MISSING_DEPENDENCY, EXIT_USAGE, UsageError
from docextract.pipeline import RunOptions

ray = pytest.importorskip("ray", reason="Ray is not installed: pip install 'docextract[ray]' (the dev extra has it)")

from docextract.batch.ray_engine import NAMESPACE  # noqa: E402  (imports ray only where it is installed)

CPUS = 2
TIMEOUT_S = 60  # per file; the hostile suite's bombs end far sooner at the memory cap
MEMORY_MB = 512  # per worker: the 1 GiB Flate bomb must hit it
MODEL_NONE = RunOptions(model=None).to_dict()  # what `run --model none` passes: the same config hash
# Outcomes that depend on the machine's speed rather than the file (the bomb dies at the memory cap or the clock).
MACHINE_DEPENDENT = {"hostile/flate-bomb.pdf"}
TIMING_FIELDS = ("elapsed_s", "worker_s", "worker_peak_rss_mb")
EINVOICES = ("ZUGFeRDv1/correct/Intarsys/ZUGFeRD_1p0_COMFORT_Haftpflichtversicherung_Versicherungssteuer.pdf",
             "ZUGFeRDv1/correct/Intarsys/ZUGFeRD_1p0_BASIC_Einfach.pdf",
             "ZUGFeRDv2/correct/symtrax/Beispiele/EN16931/zugferd_2p1_EN16931_2_Teilrechnung.pdf")
SCAN = "testing_data/images/82092117.png"  # a scanned FUNSD form: the OCR path


@pytest.fixture(scope="module")
def cluster():
    """A local Ray instance with 2 CPUs for this module; yields its address for drivers in other processes."""
    ray.init(num_cpus=CPUS, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR,
             namespace=NAMESPACE)
    try:
        yield ray.get_runtime_context().gcs_address
    finally:
        ray.shutdown()


def link_tree(root: Path, files: dict[str, Path]) -> Path:
    """A folder of symbolic links to real files (read in place, never copied)."""
    for rel, target in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        os.symlink(target, root / rel)
    return root


@pytest.fixture(scope="module")
def mixed(tmp_path_factory, shared_data):
    """(inputs, the local engine's output) for real small PDFs and images, two e-invoices and the hostile cases."""
    pdfs, einvoices = shared_data("pdfs"), shared_data("einvoices")
    root = tmp_path_factory.mktemp("ray-mixed")
    real = {f"real/{path.relative_to(pdfs).as_posix()}": path for path in sorted(pdfs.rglob("*"))
            if path.is_file() and path.stat().st_size <= SHARED_MAX_BYTES}
    real.update({f"einvoices/{Path(rel).name}": einvoices / rel for rel in EINVOICES[:2]})
    inputs = link_tree(root / "in", real)
    write_hostile_cases(inputs / "hostile")
    local = root / "local"
    summary = run_batch(inputs, local, options=MODEL_NONE, workers=CPUS, timeout_s=TIMEOUT_S, max_memory_mb=MEMORY_MB,
                        follow_symlinks=True, progress=False)
    assert summary.by_status.get("ok", 0) > 40 and summary.failed > 10, summary  # real successes and real failures
    return inputs, local


def comparable(record: dict) -> dict:
    """A manifest record without what depends on the clock (and the error's wording, which names the worker)."""
    error = record["error"] and {key: record["error"][key] for key in ("code", "stage")}
    return {**{key: value for key, value in record.items() if key not in TIMING_FIELDS}, "error": error}


def assert_same_batch(out: Path, reference: Path, inputs: Path) -> None:
    """One record per input, equal to the reference's, and every output byte-identical."""
    records, expected = manifest(out), manifest(reference)
    discovered = {path.relative_to(inputs).as_posix() for path in inputs.rglob("*") if not path.is_dir()}
    assert set(records) == set(expected) == discovered
    differ = [rel for rel in records if rel not in MACHINE_DEPENDENT and comparable(records[rel]) != comparable(expected[rel])]
    assert not differ, {rel: (comparable(records[rel]), comparable(expected[rel])) for rel in differ[:3]}
    for rel, record in records.items():
        if record["status"] == "ok":
            assert (out / record["output"]).read_bytes() == (reference / record["output"]).read_bytes(), rel


def live_actors(stage: str) -> list[str]:
    return sorted(entry["name"] for entry in ray.util.list_named_actors(all_namespaces=True)
                  if entry["namespace"] == NAMESPACE and f"-{stage}-" in entry["name"])


def test_ray_run_with_a_worker_actor_killed_mid_run_equals_the_local_engine(cluster, mixed, tmp_path):
    inputs, local = mixed
    out = tmp_path / "out"
    killed: list[str] = []

    def kill_one_actor_mid_run() -> None:
        deadline = time.monotonic() + 300
        while manifest_lines(out) < 5 and time.monotonic() < deadline:  # the run is under way, files in every actor
            time.sleep(0.05)
        names = live_actors("file")
        if names:
            ray.kill(ray.get_actor(names[0], namespace=NAMESPACE))
            killed.append(names[0])

    killer = threading.Thread(target=kill_one_actor_mid_run)
    killer.start()
    summary = run_batch(inputs, out, options=MODEL_NONE, engine="ray", workers=CPUS, timeout_s=TIMEOUT_S,
                        max_memory_mb=MEMORY_MB, follow_symlinks=True, progress=False)
    killer.join()

    assert killed, "no worker actor was killed"
    assert summary.retried >= 1  # the file in the killed actor's hands went to another actor
    assert (summary.engine, summary.workers, summary.inputs) == ("ray", CPUS, len(manifest(local)))
    assert summary.processed == summary.inputs  # one terminal outcome per input: none lost, none twice
    assert_same_batch(out, local, inputs)
    assert summary.exit_code == EXIT_INPUT_FAILED  # the hostile files fail, as they do locally
    assert no_workers_left(str(out.resolve()))
    deadline = time.monotonic() + 30
    while live_actors("file") and time.monotonic() < deadline:  # ray.kill is asynchronous
        time.sleep(0.1)
    assert live_actors("file") == []


def test_driver_killed_then_resume_gives_the_local_engines_outputs(cluster, mixed, tmp_path):
    inputs, local = mixed
    out = tmp_path / "out"
    command = ["run", str(inputs), "--out", str(out), "--model", "none", "--engine", "ray", "--address", cluster,
               "--workers", str(CPUS), "--timeout", str(TIMEOUT_S), "--max-memory", str(MEMORY_MB), "--follow-symlinks",
               "--glob", "**/*"]  # every file, as the local reference run took them (hostile ones included)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), str(TESTS)])}
    driver = subprocess.Popen([sys.executable, "-c", "from docextract.cli import main; main()", *command], env=env,
                              start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 300
    while manifest_lines(out) < 20 and driver.poll() is None:
        assert time.monotonic() < deadline, "the Ray batch made no progress"
        time.sleep(0.02)
    assert driver.poll() is None, "the batch finished before it could be killed"
    os.killpg(driver.pid, signal.SIGKILL)
    driver.wait()
    assert no_workers_left(str(out.resolve()), wait_s=60), "a worker outlived its killed driver"

    resumed = docextract_cli(*command, "--resume")
    assert resumed.returncode == EXIT_INPUT_FAILED, resumed.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert (summary["engine"], summary["workers"]) == ("ray", CPUS)
    assert summary["reused"] >= 20 and summary["reused"] + summary["processed"] == summary["inputs"]
    assert_same_batch(out, local, inputs)
    assert no_workers_left(str(out.resolve()))


@pytest.mark.slow
def test_the_invoice_model_through_ray_whole_files_and_split_stages_gives_the_local_bytes(cluster, tmp_path, shared_data):
    files = {Path(rel).name: shared_data("einvoices", rel) for rel in EINVOICES}
    files["scan.png"] = shared_data("funsd", SCAN)
    inputs = link_tree(tmp_path / "in", files)
    options = RunOptions(model="invoice").to_dict()
    common = dict(options=options, timeout_s=300, follow_symlinks=True, progress=False)
    local = run_batch(inputs, tmp_path / "local", workers=CPUS, **common)
    assert local.by_status == {"ok": len(files)} and local.fields_accepted > 0

    fused = run_batch(inputs, tmp_path / "fused", engine="ray", workers=CPUS, **common)
    split = run_batch(inputs, tmp_path / "split", engine="ray", workers=1, model_workers=1, **common)

    for out, summary in ((tmp_path / "fused", fused), (tmp_path / "split", split)):
        assert_same_batch(out, tmp_path / "local", inputs)
        assert (summary.fields_accepted, summary.fields_review) == (local.fields_accepted, local.fields_review)
    assert (split.workers, split.model_workers) == (1, 1)


def test_timeout_memory_cap_and_crashes_are_the_local_engines_records(cluster, tmp_path):
    inputs = make_tree(tmp_path / "in", {"ok.txt": "echo", "deep/ok.txt": "hello", "hang.txt": "sleep",
                                         "bomb.txt": "alloc 400", "segv.txt": "segv", "exit.txt": "exit 7",
                                         "malformed.txt": "malformed", "bug.txt": "bug"})
    limits = dict(process="batch_workloads:scripted", workers=CPUS, timeout_s=3, max_memory_mb=256, progress=False)
    for out in (tmp_path / "local", tmp_path / "ray"):  # an output folder on the way is a link: refused, not written
        out.mkdir()
        (tmp_path / f"elsewhere-{out.name}").mkdir()
        os.symlink(tmp_path / f"elsewhere-{out.name}", out / "deep")
    run_batch(inputs, tmp_path / "local", **limits)
    summary = run_batch(inputs, tmp_path / "ray", engine="ray", **limits)

    codes = {rel: record["error"] and record["error"]["code"] for rel, record in manifest(tmp_path / "ray").items()}
    assert not list((tmp_path / "elsewhere-ray").iterdir())  # the actor wrote nothing through the link
    assert codes == {"ok.txt": None, "deep/ok.txt": "OUTPUT_WRITE_FAILED", "hang.txt": "TIMEOUT", "bomb.txt": "MEMORY_LIMIT",
                     "segv.txt": "WORKER_CRASH", "exit.txt": "WORKER_CRASH", "malformed.txt": "PDF_MALFORMED",
                     "bug.txt": "INTERNAL_ERROR"}
    assert_same_batch(tmp_path / "ray", tmp_path / "local", inputs)
    assert summary.retried == 0  # the isolated worker inside the actor died, never the actor


def test_usage_errors_come_before_any_cluster_is_reached(tmp_path):
    inputs = make_tree(tmp_path / "in", {"a.txt": "echo"})
    with pytest.raises(UsageError, match="Ray engine"):
        run_batch(inputs, tmp_path / "o1", engine="local", model_workers=1)
    with pytest.raises(UsageError, match="whole files only"):
        run_batch(inputs, tmp_path / "o2", process="batch_workloads:echo_sha256", engine="ray", model_workers=1)
    single = docextract_cli("run", str(inputs / "a.txt"), "--engine", "ray")
    assert single.returncode == EXIT_USAGE and "take a folder" in single.stderr
    unreachable = docextract_cli("run", str(inputs), "--out", str(tmp_path / "o3"), "--engine", "ray",
                                 "--address", "127.0.0.1:9")  # the discard port: nothing listens
    assert unreachable.returncode == EXIT_MISSING_DEPENDENCY
    assert unreachable.stderr.strip().splitlines() == ["docextract: cannot reach the Ray cluster at 127.0.0.1:9: Connection refused"]
    assert not (tmp_path / "o3" / "manifest.jsonl").exists()  # nothing half-written


@pytest.mark.parametrize("stop, exit_code", [(signal.SIGINT, EXIT_INTERRUPTED), (signal.SIGTERM, EXIT_TERMINATED)])
def test_sigint_or_sigterm_stop_a_ray_batch_cleanly_and_resume_finishes(cluster, tmp_path, stop, exit_code):
    inputs = make_tree(tmp_path / "in", {f"file-{i:02d}.txt": f"document {i}" for i in range(30)})
    out = tmp_path / "out"
    code = ("import signal, sys; from docextract.batch.engine import run_batch; "
            "signal.signal(signal.SIGINT, signal.default_int_handler); "  # as in a terminal, even when pytest runs with &
            f"s = run_batch({str(inputs)!r}, {str(out)!r}, process='batch_workloads:echo_sha256', "
            f"options={{'sleep_s': 0.2}}, engine='ray', address={cluster!r}, workers=2, resume=True, progress=False); "
            "sys.exit(s.exit_code)")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), str(TESTS)])}

    def driver() -> subprocess.Popen:
        return subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    process = driver()
    deadline = time.monotonic() + 120
    while manifest_lines(out) < 4 and process.poll() is None:
        assert time.monotonic() < deadline, "the Ray batch made no progress"
        time.sleep(0.02)
    process.send_signal(stop)  # to the driver only, as a terminal's Ctrl-C or a service manager would
    assert process.wait(timeout=60) == exit_code
    summary = json.loads((out / "summary.json").read_text())
    assert summary["interrupted"] == stop.name and summary["exit_code"] == exit_code
    assert 4 <= len(manifest(out)) < 30
    assert no_workers_left(str(out.resolve()), wait_s=30)

    assert driver().wait(timeout=120) == 0
    assert len(manifest(out)) == 30


def test_an_actor_waiting_for_a_cpu_holds_no_file_and_the_batch_finishes(cluster, tmp_path):
    inputs = make_tree(tmp_path / "in", {f"file-{i:02d}.txt": f"document {i}" for i in range(12)})
    console = Console(file=io.StringIO(), width=200)
    summary = run_batch(inputs, tmp_path / "out", process="batch_workloads:echo_sha256", engine="ray", workers=CPUS + 1,
                        progress=False, console=console)  # one actor more than the cluster has CPUs: it never starts
    assert summary.by_status == {"ok": 12} and summary.workers == CPUS + 1
    assert f"warning: {CPUS + 1} worker actors need {CPUS + 1} CPUs and the cluster has {CPUS} now" in console.file.getvalue()
