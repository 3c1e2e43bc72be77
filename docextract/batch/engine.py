"""The batch engine: a folder of documents in, one JSON output per document and a manifest out.

``run_batch`` walks the input folder safely (docextract.batch.discovery), names every output by
mirroring the input tree under the output root (docextract.batch.paths), runs the processing
function on each file in isolated workers with a hard timeout and a memory cap
(docextract.batch.isolation), writes each output atomically (docextract.files), then appends one
terminal record per input to ``OUT/manifest.jsonl`` (docextract.batch.manifest). ``resume=True``
after a kill skips inputs whose record is still valid and redoes the rest, producing the same
bytes an uninterrupted run would. The record format, the error codes and the exit codes are
documented in docs/batch.md.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import signal
import threading
import time
from collections import Counter, deque
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from docextract import __version__
from docextract.batch.discovery import InputFile, discover_inputs
from docextract.batch.isolation import InProcessRunner, Outcome, Runner, WorkerPool, error_info, peak_rss_mb
from docextract.batch.manifest import MANIFEST_NAME, ManifestWriter, read_manifest, write_manifest
from docextract.batch.outputs import store_output, write_error
from docextract.batch.paths import output_relpath
from docextract.errors import (
    EXIT_INPUT_FAILED,
    EXIT_INTERRUPTED,
    EXIT_MISSING_DEPENDENCY,
    EXIT_MODEL_REFUSED,
    EXIT_OK,
    EXIT_TERMINATED,
    MissingDependencyError,
    ModelRefusedError,
    OutputError,
    UsageError,
)
from docextract.files import TEMP_PREFIX, OutputRefused, json_bytes, write_json_atomic

DEFAULT_PROCESS = "docextract.pipeline:extract_file"
SUMMARY_NAME = "summary.json"
LOCK_NAME = ".docextract.lock"
MAX_DEFAULT_WORKERS = 8  # the default stops here: each worker holds a model (~0.3 GB with the default one)
WORKER_LOG_NAME = "workers.log"  # the workers' stderr (library warnings, faulthandler tracebacks)
_ABORTING_EXIT_CODES = {EXIT_MISSING_DEPENDENCY: MissingDependencyError, EXIT_MODEL_REFUSED: ModelRefusedError}


@dataclass(frozen=True)
class BatchSummary:
    """The end of a run: counts per status and per error code, timings, and the process exit code."""

    inputs: int  # inputs discovered (== records in the manifest)
    by_status: dict[str, int]
    by_code: dict[str, int]  # failed inputs per error code
    processed: int  # files run through the processing function in this run
    reused: int  # records kept from the previous run (resume)
    elapsed_s: float
    files_per_s: float  # processed / elapsed
    workers: int
    isolated: bool
    interrupted: str | None  # "SIGINT" / "SIGTERM" / None
    parent_peak_rss_mb: float
    manifest: str
    config_hash: str
    tool_version: str = __version__
    walk_errors: tuple[str, ...] = field(default_factory=tuple)
    # review counts over the ok outputs that have fields with a status (docextract.pipeline:extract_file's)
    fields_accepted: int = 0
    fields_review: int = 0
    documents_needing_review: int = 0
    engine: str = "local"  # or "ray" (docs/ray.md)
    model_workers: int = 0  # ray, split mode: actors running the model stage beside the `workers` reading files
    retried: int = 0  # ray: files sent again because the worker actor running them died
    skipped_by_code: dict[str, int] = field(default_factory=dict)  # UNSUPPORTED_FORMAT, INPUT_UNREADABLE (links)

    @property
    def failed(self) -> int:
        return self.by_status.get("failed", 0)

    @property
    def exit_code(self) -> int:
        """0 all done; 4 at least one input failed; 130/143 interrupted (docs/batch.md)."""
        if self.interrupted == "SIGINT":
            return EXIT_INTERRUPTED
        if self.interrupted == "SIGTERM":
            return EXIT_TERMINATED
        return EXIT_INPUT_FAILED if self.failed else EXIT_OK

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "walk_errors": list(self.walk_errors), "failed": self.failed, "exit_code": self.exit_code}


class _Terminated(Exception):
    """SIGTERM arrived: stop like Ctrl-C does."""


def run_batch(inputs_root: str | os.PathLike[str], out_root: str | os.PathLike[str], *, process: str = DEFAULT_PROCESS,
              options: dict | None = None, workers: int | None = None, glob: str | None = "**/*", timeout_s: float | None = 300,
              max_memory_mb: int | None = 2048, resume: bool = False, overwrite: bool = False,
              follow_symlinks: bool = False, progress: bool = True, isolate: bool = True,
              console: Console | None = None, engine: str = "local", address: str | None = None,
              model_workers: int = 0) -> BatchSummary:
    """Process every file under ``inputs_root`` matching ``glob``; outputs mirror the tree under ``out_root``.
    ``glob=None``: the files docextract reads, by their first bytes; the others are recorded as skipped.

    ``process`` names ``process(path: str, options: dict) -> dict`` as ``"module:function"``.
    Per-file problems become manifest records, never exceptions. Raises ``UsageError`` (bad
    arguments), ``OutputError`` (output folder unusable, another batch holds it, disk full),
    ``MissingDependencyError``/``ModelRefusedError`` (the processing function reported one: every
    file would fail the same way) and ``WorkerCrashedAtStartup`` (the function cannot be loaded).
    Ctrl-C / SIGTERM stop the batch cleanly: the returned summary says ``interrupted``.
    ``isolate=False`` runs files in this process (no timeout, no memory cap): for benchmarks.
    ``engine="ray"`` spreads the files over a Ray cluster (``address``: ``auto``, ``HOST:PORT``, ``ray://HOST:PORT``;
    None starts a local Ray instance or uses this process's connection); ``workers`` then defaults to the cluster's
    CPUs and ``model_workers`` > 0 runs the model in actors of its own (docs/ray.md). Everything else is the same.
    """
    started = time.monotonic()
    console = console or Console(stderr=True)
    options = dict(options or {})
    inputs_root = Path(inputs_root)
    if not inputs_root.is_dir():
        raise UsageError("the input is not a folder", path=str(inputs_root))
    if workers is not None and workers < 1:
        raise UsageError(f"workers must be at least 1, got {workers}")
    if engine not in ("local", "ray"):
        raise UsageError(f"engine must be 'local' or 'ray', got {engine!r}")
    if engine == "local" and (address is not None or model_workers):
        raise UsageError("an address and model workers are options of the Ray engine (engine='ray')")
    if engine == "ray" and not isolate:
        raise UsageError("the Ray engine always isolates files in its workers")
    if ":" not in process:
        raise UsageError(f"processing function must be given as 'module:function', got {process!r}")
    out_real = _prepare_out_root(out_root)
    if os.path.samefile(inputs_root, out_real):
        raise UsageError("the output folder must differ from the input folder", path=str(out_root))
    config_hash = hashlib.sha256(f"{process}\n".encode() + _canonical(options)).hexdigest()
    manifest_path = os.path.join(out_real, MANIFEST_NAME)

    with _exclusive_lock(out_real):
        previous = _previous_records(manifest_path, resume=resume, overwrite=overwrite)
        if resume:
            _remove_temp_leftovers(out_real)
        discovery = discover_inputs(inputs_root, glob, exclude_dir=out_real, follow_symlinks=follow_symlinks)

        records: dict[str, dict[str, Any]] = {}
        reused = 0
        todo: list[tuple[InputFile, str, Path]] = []
        for item in discovery.inputs:
            old = previous.get(item.rel)
            if old is not None and _still_valid(old, item, config_hash, out_real):
                records[item.rel] = old
                reused += 1
            elif item.skip_reason:
                records[item.rel] = _record(item, config_hash, status="skipped",
                                            error=error_info(item.skip_code, item.skip_reason, stage="open"))
            else:
                try:
                    rel_output = output_relpath(item.rel)
                    target = Path(out_real, rel_output)  # folders are created when the output is written
                    if not (overwrite or resume) and os.path.lexists(target):
                        raise OutputRefused("output exists and is not from this batch; pass overwrite to replace it",
                                            path=str(target), stage="write")
                except OutputRefused as error:
                    records[item.rel] = _record(item, config_hash, status="failed", error=write_error(error))
                    continue
                todo.append((item, rel_output, target))
        if engine == "local" and isolate and workers is None:
            workers = default_workers(len(todo))
        # before the first write: a Ray cluster that cannot be reached leaves no manifest behind
        runner = _runner(engine, process, options, workers=workers, timeout_s=timeout_s, max_memory_mb=max_memory_mb,
                         label=out_real, stderr_path=os.path.join(out_real, WORKER_LOG_NAME), isolate=isolate,
                         address=address, model_workers=model_workers)
        try:
            write_manifest(manifest_path, records)  # compact: drops torn lines and vanished inputs
        except BaseException:
            runner.close()
            raise
        for warning in getattr(runner, "warnings", ()):
            console.print(f"docextract: warning: {warning}", highlight=False)
        interrupted, abort = None, None
        processed = 0
        writer = ManifestWriter(manifest_path)
        bar = _BatchProgress(console, total=len(discovery.inputs), done=len(records),
                             failed=sum(record["status"] == "failed" for record in records.values()), enabled=progress)
        restore_sigterm = _sigterm_raises()
        try:
            pending = deque(todo)
            in_flight: dict[str, tuple[InputFile, str, Path]] = {}

            def dispatch() -> None:
                for key in reversed(runner.take_requeued()):  # queued behind a file that killed its worker
                    pending.appendleft(in_flight.pop(key))
                while pending:
                    free = runner.free_slots()
                    if not free:
                        return
                    item, rel_output, target = pending.popleft()
                    runner.submit(free[0], item.rel, item.path)
                    in_flight[item.rel] = (item, rel_output, target)

            while (pending or runner.busy()) and abort is None:
                dispatch()
                outcomes = runner.collect()
                dispatch()  # workers start the next files while this process writes the outputs
                for outcome in outcomes:
                    item, rel_output, target = in_flight.pop(outcome.key)
                    aborting = _ABORTING_EXIT_CODES.get(outcome.header.get("exit_code"))
                    if aborting is not None:  # no record: a resumed run must redo this file
                        error = outcome.header["error"]
                        abort = aborting(error["message"], code=error["code"], stage=error["stage"])
                        break
                    record = _finish(outcome, item, rel_output, out_real, config_hash)
                    records[item.rel] = record  # first: a Ctrl-C between the two lines must not lose it
                    writer.append(record)
                    processed += 1
                    bar.advance(failed=record["status"] == "failed")
        except KeyboardInterrupt:
            interrupted = "SIGINT"
        except _Terminated:
            interrupted = "SIGTERM"
        finally:
            runner.close()
            restore_sigterm()
            bar.stop()
            writer.close()
        write_manifest(manifest_path, records)
        if abort is not None:
            raise abort

        elapsed = time.monotonic() - started
        summary = BatchSummary(
            inputs=len(discovery.inputs),
            by_status=dict(sorted(Counter(record["status"] for record in records.values()).items())),
            by_code=dict(sorted(Counter(record["error"]["code"] for record in records.values()
                                        if record["status"] == "failed").items())),
            processed=processed, reused=reused, elapsed_s=round(elapsed, 3),
            files_per_s=round(processed / elapsed, 3) if elapsed > 0 else 0.0,
            workers=runner.workers if engine == "ray" else (workers or 1) if isolate else 1, isolated=isolate,
            interrupted=interrupted,
            parent_peak_rss_mb=peak_rss_mb(), manifest=manifest_path, config_hash=config_hash,
            walk_errors=discovery.walk_errors,
            **_review_totals(records.values()),
            engine=engine, model_workers=model_workers, retried=getattr(runner, "retried", 0),
            skipped_by_code=dict(sorted(Counter(record["error"]["code"] for record in records.values()
                                                if record["status"] == "skipped").items())),
        )
        write_json_atomic(os.path.join(out_real, SUMMARY_NAME), summary.to_dict())
    print_summary(summary, console)
    return summary


def default_workers(files: int, cpus: int | None = None) -> int:
    """Local workers when none are asked for: one per processor this process may use (each then runs one thread;
    the reading and decoding around the model are single-threaded Python, so two one-thread workers on two cores
    finish a folder sooner than one two-thread worker), at most ``MAX_DEFAULT_WORKERS`` (each holds a model) and
    never more than the files to do."""
    if cpus is None:
        cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, min(cpus, MAX_DEFAULT_WORKERS, files))


def _runner(engine: str, process: str, options: dict, *, workers: int | None, isolate: bool, address: str | None,
            model_workers: int, **limits: Any) -> Runner:
    """The local engine's isolated worker processes (or this process), or the Ray engine's actors."""
    if engine == "ray":
        from docextract.batch.ray_engine import RayRunner  # Ray is an optional extra: imported only here

        return RayRunner(process, options, workers=workers, model_workers=model_workers, address=address,
                         product_process=DEFAULT_PROCESS, out_root=limits["label"], **limits)
    if not isolate:
        return InProcessRunner(process, options)
    return WorkerPool(process, options, workers=workers or 1, **limits)


def read_summary(path: str, options: dict) -> dict[str, Any]:
    """A real processing function without a model: read the document (docextract.readers) and count.

    ``options`` are ``read_document``'s keywords (``ocr``, ``lang``, ``dpi``, ``password``). Used by
    the hostile-input suite and the batch benchmark while no trained model is at hand.
    """
    from docextract.readers import read_document

    document = read_document(path, **options)
    return {
        "mime_type": document.mime_type,
        "pages": len(document.pages),
        "words": document.word_count,
        "text_sources": [page.text_source for page in document.pages],
        "warnings": list(document.warnings),
    }


# ---------------------------------------------------------------- records

def _record(item: InputFile, config_hash: str, *, status: str, error: dict | None = None,
            header: dict | None = None, output: str | None = None, output_sha256: str | None = None,
            outcome: Outcome | None = None, review: dict[str, int] | None = None) -> dict[str, Any]:
    """One manifest record (docs/batch.md lists every field)."""
    header = header or {}
    return {
        "input": item.rel,
        "bytes": item.size,
        "mtime_ns": item.mtime_ns,
        "sha256": header.get("sha256"),
        "status": status,
        "error": error,
        "output": output,
        "output_sha256": output_sha256,
        "elapsed_s": round(outcome.elapsed_s, 4) if outcome else None,
        "worker_s": round(header["worker_s"], 4) if header.get("worker_s") is not None else None,
        "worker_peak_rss_mb": outcome.peak_rss_mb if outcome else None,
        "config_hash": config_hash,
        "tool_version": __version__,
        "review": review,
    }


def _finish(outcome: Outcome, item: InputFile, rel_output: str, out_real: str, config_hash: str) -> dict[str, Any]:
    """Write a successful file's output atomically (unless its worker did) and build its terminal record."""
    header = outcome.header
    if not header.get("ok"):
        return _record(item, config_hash, status="failed", error=header["error"], header=header, outcome=outcome)
    stored = store_output(out_real, rel_output, outcome.payload) if outcome.payload is not None else header["stored"]
    if "write_error" in stored:
        return _record(item, config_hash, status="failed", error=stored["write_error"], header=header, outcome=outcome)
    return _record(item, config_hash, status="ok", header=header, output=rel_output,
                   output_sha256=stored["output_sha256"], outcome=outcome, review=stored["review"])


def _review_totals(records) -> dict[str, int]:
    totals = Counter()
    for record in records:
        if record.get("status") == "ok" and record.get("review"):
            totals.update(record["review"])
    return {key: totals[key] for key in ("fields_accepted", "fields_review", "documents_needing_review")}


def _still_valid(old: dict[str, Any], item: InputFile, config_hash: str, out_real: str) -> bool:
    """A previous record is reused when the input, the configuration and (for ok) the output are unchanged."""
    if old.get("status") not in ("ok", "failed") or item.skip_reason:
        return False
    if old.get("config_hash") != config_hash or old.get("bytes") != item.size or old.get("mtime_ns") != item.mtime_ns:
        return False
    if old["status"] == "failed":
        return True
    try:
        data = Path(out_real, old["output"]).read_bytes()
    except (OSError, TypeError):
        return False
    return hashlib.sha256(data).hexdigest() == old.get("output_sha256")


def _previous_records(manifest_path: str, *, resume: bool, overwrite: bool) -> dict[str, dict[str, Any]]:
    if not os.path.exists(manifest_path):
        return {}
    if resume:
        return read_manifest(manifest_path)
    if overwrite:
        return {}
    raise OutputError("the output folder holds a previous batch (manifest.jsonl): pass --resume to continue it "
                      "or --overwrite to start again", path=os.path.dirname(manifest_path))


# ---------------------------------------------------------------- the output folder

def _prepare_out_root(out_root: str | os.PathLike[str]) -> str:
    try:
        os.makedirs(out_root, exist_ok=True)
    except OSError as error:
        raise OutputError(f"cannot create the output folder: {error.strerror}", path=str(out_root)) from error
    real = os.path.realpath(out_root)
    if not os.access(real, os.W_OK | os.X_OK):
        raise OutputError("the output folder is not writable", path=str(out_root))
    return real


class _exclusive_lock:
    """``flock`` on OUT/.docextract.lock: two batches must not write the same folder (released on kill)."""

    def __init__(self, out_real: str):
        self.path = os.path.join(out_real, LOCK_NAME)

    def __enter__(self) -> None:
        try:
            self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
        except OSError as error:
            raise OutputError(f"cannot create the lock file: {error.strerror}", path=self.path) from error
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(self.fd)
            raise OutputError("another docextract batch is writing to this output folder", path=os.path.dirname(self.path)) from None

    def __exit__(self, *exc: object) -> None:
        os.close(self.fd)


def _remove_temp_leftovers(out_real: str) -> None:
    """Delete the temporary files a killed run left (only names starting with TEMP_PREFIX)."""
    for folder, _, files in os.walk(out_real):
        for name in files:
            if name.startswith(TEMP_PREFIX):
                try:
                    os.unlink(os.path.join(folder, name))
                except OSError:
                    pass


# ---------------------------------------------------------------- progress, signals, summary

class _BatchProgress:
    """A rich progress bar on stderr: files done/total, files/s, failures and ETA."""

    def __init__(self, console: Console, *, total: int, done: int, failed: int, enabled: bool):
        self.failed = failed
        self.started = time.monotonic()
        self.done_this_run = 0
        self.progress = Progress(
            TextColumn("[bold]batch"), BarColumn(), MofNCompleteColumn(),
            TextColumn("{task.fields[rate]} files/s"), TextColumn("[red]{task.fields[failed]} failed"),
            TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
            console=console, disable=not enabled, transient=False,
        )
        self.task = self.progress.add_task("batch", total=total, completed=done, rate="-", failed=failed)
        self.progress.start()

    def advance(self, *, failed: bool) -> None:
        self.done_this_run += 1
        self.failed += failed
        rate = self.done_this_run / max(time.monotonic() - self.started, 1e-9)
        self.progress.update(self.task, advance=1, rate=f"{rate:.2f}", failed=self.failed)

    def stop(self) -> None:
        self.progress.stop()


def _sigterm_raises():
    """Turn SIGTERM into an exception for the duration of the batch; returns the function that restores it."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None

    def handler(signum, frame):
        raise _Terminated()

    previous = signal.signal(signal.SIGTERM, handler)
    return lambda: signal.signal(signal.SIGTERM, previous)


def print_summary(summary: BatchSummary, console: Console) -> None:
    """One line per fact on stderr: counts, failures by code, throughput, where the manifest is."""
    statuses = ", ".join(f"{count} {status}" for status, count in summary.by_status.items()) or "nothing to do"
    console.print(f"docextract: {summary.inputs} inputs: {statuses}", highlight=False)
    if summary.skipped_by_code:
        console.print("  skipped by code: " + ", ".join(f"{code} {count}" for code, count in summary.skipped_by_code.items())
                      + (" (files docextract does not read; --glob takes them anyway)"
                         if "UNSUPPORTED_FORMAT" in summary.skipped_by_code else ""), highlight=False)
    if summary.by_code:
        console.print("  failed by code: " + ", ".join(f"{code} {count}" for code, count in summary.by_code.items()), highlight=False)
    console.print(f"  processed {summary.processed} in {summary.elapsed_s:.1f} s ({summary.files_per_s:.2f} files/s), "
                  f"{summary.reused} kept from the previous run; manifest: {summary.manifest}", highlight=False)
    if summary.engine == "ray":
        stages = f" + {summary.model_workers} model workers" if summary.model_workers else ""
        console.print(f"  on Ray: {summary.workers} workers{stages}; {summary.retried} files sent again after "
                      "their worker died", highlight=False)
    if summary.fields_accepted or summary.fields_review:
        console.print(f"  fields: {summary.fields_accepted} accepted, {summary.fields_review} to review; "
                      f"{summary.documents_needing_review} documents need review", highlight=False)
    if summary.interrupted:
        done = sum(summary.by_status.values())
        console.print(f"  interrupted by {summary.interrupted}: {done} of {summary.inputs} inputs are done and kept "
                      "(each output is written whole, then its manifest record); run the same command with --resume "
                      "to finish the rest", highlight=False)


def _canonical(value: Any) -> bytes:
    return json_bytes(value, indent=None)


