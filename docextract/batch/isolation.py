"""Running a processing function on one file at a time, isolated in long-lived worker processes.

The processing function is named by a dotted path ``"package.module:function"`` with the
signature ``process(path: str, options: dict) -> dict`` (a JSON-able result). Workers import it
once (importing torch costs seconds) and then run one file at a time. The parent enforces:

* a hard timeout per file: the worker's whole process group is killed (SIGKILL) and a fresh
  worker started; the file becomes ``TIMEOUT``;
* a memory cap: the worker's address space may grow by at most ``max_memory_mb`` beyond its
  size after importing the function (``RLIMIT_AS``); ``MemoryError`` becomes ``MEMORY_LIMIT``
  and the worker is replaced, since a library may be left half-initialised;
* crashes: a worker that dies (SIGSEGV, SIGKILL by the kernel, ``os._exit``) becomes
  ``WORKER_CRASH`` with the signal or exit code, and a fresh worker takes the next file.

Parent and worker talk over two private pipes with length-prefixed frames
(``multiprocessing.connection.Connection.send_bytes``, no pickle): a frame is one JSON header
line, then the canonical JSON bytes of the result. Each worker slot is two processes: a small
supervisor, which forks the real worker and reports its exit status and true peak memory when it
dies (see ``worker_main``), and the worker itself. Workers run in their own session so a
timeout kills Tesseract children too, ignore SIGINT (the parent decides how to stop), and ask
the kernel to kill them when the parent dies (``PR_SET_PDEATHSIG``), so a ``kill -9`` of the
batch leaves no worker behind.
"""

from __future__ import annotations

import ctypes
import faulthandler
import importlib
import json
import os
import resource
import signal
import subprocess
import sys
import time
import traceback
from collections import deque
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any, Callable, Protocol

from docextract.errors import DocextractError, UsageError
from docextract.files import file_sha256, json_bytes

# Each worker gets its next file before it finishes the current one, so it never waits for the
# parent to write an output (measured: ~10 ms a file on a loaded 2-core machine).
TASKS_PER_WORKER = 2
WORKER_STARTUP_TIMEOUT_S = 180.0  # importing torch + transformers on a busy 2-core machine
# A worker that dies by a signal after growing by at least this fraction of its memory cap is
# reported as MEMORY_LIMIT: native code aborts (SIGABRT/SIGSEGV) when RLIMIT_AS refuses memory.
MEMORY_CRASH_FRACTION = 0.5
TRACEBACK_MAX_CHARS = 4000  # kept in the record of an INTERNAL_ERROR
_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
_ALLOCATION_FAILURE_MARKERS = ("can't allocate memory", "std::bad_alloc", "Cannot allocate memory")

ProcessFunction = Callable[[str, dict], Any]


# ---------------------------------------------------------------- the work of one file (both modes)

def resolve_process(spec: str) -> ProcessFunction:
    """Import ``"package.module:function"`` and return the function."""
    module_name, _, attribute = spec.partition(":")
    if not module_name or not attribute:
        raise UsageError(f"processing function must be given as 'module:function', got {spec!r}")
    target: Any = importlib.import_module(module_name)
    for name in attribute.split("."):
        target = getattr(target, name)
    if not callable(target):
        raise UsageError(f"{spec!r} is not a function")
    return target


def threads_per_worker(workers: int, cpus: int | None = None) -> int:
    """Threads each of ``workers`` workers may use: this process's processors shared out, at least one."""
    if cpus is None:
        cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, cpus // max(1, workers))


def error_info(code: str, message: str, *, stage: str | None = None, exception_type: str | None = None,
               signal_name: str | None = None, worker_exit_code: int | None = None) -> dict[str, Any]:
    """The ``error`` object of a manifest record (docs/batch.md)."""
    return {"code": code, "stage": stage, "message": message, "exception_type": exception_type,
            "signal": signal_name, "worker_exit_code": worker_exit_code}


def run_task(function: ProcessFunction, path: str, options: dict) -> tuple[dict[str, Any], bytes | None]:
    """Run ``function`` on one file; never raises. Returns (header, canonical JSON bytes or None).

    The header holds ``ok``, ``error`` (or None), ``exit_code`` (the DocextractError's process exit
    code, so the parent can stop the batch on a missing dependency), ``recycle`` (replace this
    worker), ``sha256``/``bytes`` of the input and ``worker_s``.
    """
    started = time.perf_counter()
    header: dict[str, Any] = {"ok": False, "error": None, "exit_code": None, "recycle": False, "sha256": None, "bytes": None}
    payload = None
    try:
        header["sha256"], header["bytes"] = file_sha256(path, reuse=True)
    except OSError as error:
        code = "INPUT_NOT_FOUND" if isinstance(error, FileNotFoundError) else "INPUT_UNREADABLE"
        header["error"] = error_info(code, f"cannot read the file: {error.strerror}", stage="open", exception_type=type(error).__name__)
        header["worker_s"] = time.perf_counter() - started
        return header, None
    try:
        payload = json_bytes(function(path, options))
        header["ok"] = True
    except MemoryError:
        header["error"] = error_info("MEMORY_LIMIT", "the file needed more memory than the per-file cap allows", exception_type="MemoryError")
        header["recycle"] = True
    except DocextractError as error:
        header["error"] = error_info(error.code, error.one_line(), stage=error.stage, exception_type=type(error).__name__)
        header["exit_code"] = error.exit_code
    except BaseException as error:  # a bug in the processing code (or SystemExit): record it, go on
        if isinstance(error, RuntimeError) and any(marker in str(error) for marker in _ALLOCATION_FAILURE_MARKERS):
            header["error"] = error_info("MEMORY_LIMIT", f"allocation failed: {str(error)[:200]}", exception_type=type(error).__name__)
            header["recycle"] = True
        else:
            header["error"] = error_info("INTERNAL_ERROR", f"{type(error).__name__}: {error}", exception_type=type(error).__name__)
            header["error"]["traceback"] = traceback.format_exc()[-TRACEBACK_MAX_CHARS:]
            header["recycle"] = isinstance(error, SystemExit)
    header["worker_s"] = time.perf_counter() - started
    return header, payload


# ---------------------------------------------------------------- outcomes the parent receives

@dataclass
class Outcome:
    """What happened to one file, from the parent's side."""

    key: Any  # the caller's task key
    header: dict[str, Any]
    payload: bytes | None
    elapsed_s: float
    peak_rss_mb: float | None = None


@dataclass
class _Slot:
    index: int
    process: subprocess.Popen | None = None
    tasks: Connection | None = None
    results: Connection | None = None
    state: str = "dead"  # dead -> starting -> idle <-> busy
    queue: deque = field(default_factory=deque)  # (key, path) sent to the worker; the head is running
    started_at: float = 0.0  # when the head started (or the worker was spawned)
    deadline: float | None = None
    baseline_rss_mb: float | None = None  # peak RSS when the worker became ready


class Runner(Protocol):
    """What the batch engine drives: the local isolated workers (:class:`WorkerPool`), this process
    (:class:`InProcessRunner`) or the Ray engine's actors (``ray_engine.RayRunner``). A slot is whatever
    ``free_slots`` hands out; a key is the engine's name for a file, handed back on its :class:`Outcome`."""

    isolated: bool

    def free_slots(self) -> list[Any]:
        """Slots that take a file now (none while the runner is full)."""

    def submit(self, slot: Any, key: Any, path: str) -> None:
        """Start ``path`` on ``slot``; its outcome comes back from :meth:`collect` under ``key``."""

    def busy(self) -> bool:
        """Whether a submitted file has not come back yet."""

    def take_requeued(self) -> list[Any]:
        """Keys of files to submit again (queued behind a file whose worker died); each handed out once."""

    def collect(self) -> list[Outcome]:
        """Wait a little for files to finish; their outcomes (possibly none)."""

    def close(self) -> None:
        """Stop every worker."""


class WorkerCrashedAtStartup(DocextractError):
    """A worker could not even import the processing function: the batch cannot run."""


class WorkerPool:
    """``workers`` long-lived worker processes, each running one file at a time."""

    isolated = True

    def __init__(self, process: str, options: dict, *, workers: int = 1, timeout_s: float | None = 300.0,
                 max_memory_mb: int | None = 2048, label: str = "", stderr_path: str | None = None,
                 warmup: str | None = None):
        self.process = process
        self.warmup = warmup  # "module:function" called with the options once per worker, before its memory cap
        self.options = options
        self.timeout_s = timeout_s
        self.max_memory_mb = max_memory_mb
        self.label = label
        self.stderr_path = stderr_path
        self.slots = [_Slot(index) for index in range(max(1, workers))]
        self.requeued: list[Any] = []

    # -- lifecycle
    def _spawn(self, slot: _Slot) -> None:
        task_read, task_write = os.pipe()
        result_read, result_write = os.pipe()
        env = dict(os.environ)
        env.setdefault("OMP_THREAD_LIMIT", "1")  # Tesseract single-threaded per worker
        # torch's threads: the processors shared out between the workers, so 2 workers on 2 cores run one thread
        # each instead of four threads fighting over two cores
        env.setdefault("OMP_NUM_THREADS", str(threads_per_worker(len(self.slots))))
        env.setdefault("MALLOC_ARENA_MAX", "2")  # glibc reserves 64 MiB of address space per arena
        stderr = open(self.stderr_path, "ab") if self.stderr_path else subprocess.DEVNULL
        try:
            slot.process = subprocess.Popen(
                [sys.executable, "-m", "docextract.batch.isolation", str(task_read), str(result_write), self.label],
                pass_fds=(task_read, result_write), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=stderr, start_new_session=True, env=env,
            )
        finally:
            os.close(task_read)
            os.close(result_write)
            if stderr is not subprocess.DEVNULL:
                stderr.close()
        slot.tasks = Connection(task_write, readable=False)
        slot.results = Connection(result_read, writable=False)
        config = {"process": self.process, "options": self.options, "max_memory_mb": self.max_memory_mb, "sys_path": sys.path,
                  "warmup": self.warmup}
        slot.tasks.send_bytes(json_bytes(config, indent=None))
        slot.state = "starting"
        slot.started_at = time.monotonic()
        slot.deadline = slot.started_at + WORKER_STARTUP_TIMEOUT_S

    def _kill(self, slot: _Slot) -> int | None:
        """SIGKILL the worker's whole process group (supervisor, worker, Tesseract) and reap it."""
        returncode = None
        if slot.process is not None:
            try:
                os.killpg(slot.process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            returncode = slot.process.wait()
        for connection in (slot.tasks, slot.results):
            if connection is not None:
                connection.close()
        slot.process = slot.tasks = slot.results = None
        slot.state, slot.deadline = "dead", None
        self.requeued.extend(key for key, _ in slot.queue)  # sent but never started: to be run again
        slot.queue.clear()
        return returncode

    def close(self) -> None:
        for slot in self.slots:
            self._kill(slot)
        self.requeued.clear()

    def take_requeued(self) -> list[Any]:
        """Keys of files a killed worker had queued but not started: the caller submits them again."""
        keys, self.requeued = self.requeued, []
        return keys

    # -- scheduling
    def free_slots(self) -> list[_Slot]:
        """Workers that can take a file now, idle ones first (dead workers are restarted)."""
        for slot in self.slots:
            if slot.state == "dead":
                self._spawn(slot)
        free = [slot for slot in self.slots if slot.state in ("idle", "busy") and len(slot.queue) < TASKS_PER_WORKER]
        return sorted(free, key=lambda slot: len(slot.queue))

    def busy(self) -> bool:
        return any(slot.queue for slot in self.slots)

    def submit(self, slot: _Slot, key: Any, path: str, options: dict | None = None) -> None:
        """Send ``path`` to ``slot``'s worker; ``options``: this file's own (default: the pool's)."""
        slot.queue.append((key, path))
        if len(slot.queue) == 1:
            self._start_clock(slot)
        try:
            slot.tasks.send_bytes(json_bytes({"path": path, **({} if options is None else {"options": options})}, indent=None))
        except OSError:
            pass  # the worker died while idle: collect() sees the closed pipe and reports a crash

    def _start_clock(self, slot: _Slot) -> None:
        slot.state = "busy"
        slot.started_at = time.monotonic()
        slot.deadline = slot.started_at + self.timeout_s if self.timeout_s else None

    def collect(self, wake: Any = None) -> list[Outcome]:
        """Wait until something happens (a result, a crash, a timeout, a worker ready); return finished files.
        ``wake``: a connection (or file descriptor) that also ends the wait when readable (a server's new request)."""
        watched = [slot for slot in self.slots if slot.state == "starting" or slot.queue]
        if not watched:
            if wake is not None:
                wait([wake])
            return []
        deadlines = [slot.deadline for slot in watched if slot.deadline is not None]
        timeout = max(0.0, min(deadlines) - time.monotonic()) if deadlines else None
        ready = wait([slot.results for slot in watched] + ([] if wake is None else [wake]), timeout)
        outcomes: list[Outcome] = []
        for slot in watched:
            if slot.results in ready:
                outcome = self._receive(slot)
            elif slot.deadline is not None and time.monotonic() >= slot.deadline:
                outcome = self._expire(slot)
            else:
                continue
            if outcome is not None:
                outcomes.append(outcome)
        return outcomes

    def _receive(self, slot: _Slot) -> Outcome | None:
        try:
            frame = slot.results.recv_bytes()
        except (EOFError, OSError):
            return self._crashed(slot)
        head, _, payload = frame.partition(b"\n")
        try:
            header = json.loads(head)
        except ValueError:  # a frame cut short by the worker's death, completed by the supervisor's report
            return self._crashed(slot)
        if header.get("type") == "exit":  # the supervisor's report: the worker process ended
            return self._crashed(slot, header["returncode"], header["peak_rss_mb"])
        if header.get("type") == "startup_error":
            self._kill(slot)
            self.close()
            raise WorkerCrashedAtStartup(f"cannot load the processing function {self.process!r}: {header['message']}")
        if header.get("type") == "ready":
            slot.state, slot.deadline, slot.baseline_rss_mb = "idle", None, header.get("rss_mb")
            return None
        key, _ = slot.queue.popleft()
        outcome = Outcome(key, header, payload if header.get("ok") else None,
                          time.monotonic() - slot.started_at, header.get("peak_rss_mb"))
        if header.get("recycle"):
            self._kill(slot)
        elif slot.queue:
            self._start_clock(slot)  # the worker went straight on to the queued file
        else:
            slot.state, slot.deadline = "idle", None
        return outcome

    def _crashed(self, slot: _Slot, returncode: int | None = None, peak_rss_mb: float | None = None) -> Outcome | None:
        """The worker died (reported by its supervisor, or the pipe closed with no report)."""
        key, state, elapsed = _head(slot), slot.state, time.monotonic() - slot.started_at
        baseline_mb = slot.baseline_rss_mb
        supervisor_returncode = self._kill(slot)
        if returncode is None:
            returncode = supervisor_returncode
        signal_name = _signal_name(returncode)
        if state == "starting":
            self.close()
            raise WorkerCrashedAtStartup(
                f"a worker died while loading {self.process!r} ({signal_name or f'exit code {returncode}'})")
        how = f"killed by {signal_name}" if signal_name else f"exited with code {returncode}"
        if self._died_of_memory(peak_rss_mb, baseline_mb):
            # C/C++ code (PDFium, libpng, torch) aborts instead of raising when RLIMIT_AS refuses an allocation.
            error = error_info("MEMORY_LIMIT", f"the worker process {how} at its memory cap "
                               f"(peak {peak_rss_mb:.0f} MB resident, cap +{self.max_memory_mb} MB over {baseline_mb:.0f} MB)",
                               signal_name=signal_name, worker_exit_code=returncode)
        else:
            error = error_info("WORKER_CRASH", f"the worker process {how} while processing this file",
                               signal_name=signal_name, worker_exit_code=returncode)
        return Outcome(key, {"ok": False, "error": error, "exit_code": None}, None, elapsed, peak_rss_mb)

    def _died_of_memory(self, peak_rss_mb: float | None, baseline_mb: float | None) -> bool:
        if not self.max_memory_mb or peak_rss_mb is None or baseline_mb is None:
            return False
        return peak_rss_mb - baseline_mb >= MEMORY_CRASH_FRACTION * self.max_memory_mb

    def _expire(self, slot: _Slot) -> Outcome | None:
        key, state, elapsed = _head(slot), slot.state, time.monotonic() - slot.started_at
        self._kill(slot)
        if state == "starting":
            self.close()
            raise WorkerCrashedAtStartup(f"a worker took more than {WORKER_STARTUP_TIMEOUT_S:.0f} s to load {self.process!r}")
        error = error_info("TIMEOUT", f"processing took longer than the {self.timeout_s:g} s limit; the worker was killed")
        return Outcome(key, {"ok": False, "error": error, "exit_code": None}, None, elapsed)


class InProcessRunner:
    """The same interface without isolation (no timeout, no memory cap): for benchmarks and debugging."""

    isolated = False

    def __init__(self, process: str, options: dict):
        self.function = resolve_process(process)
        self.options = options
        self._pending: tuple[Any, str] | None = None

    def free_slots(self) -> list[Any]:
        return [] if self._pending else [self]

    def take_requeued(self) -> list[Any]:
        return []

    def busy(self) -> bool:
        return self._pending is not None

    def submit(self, slot: Any, key: Any, path: str) -> None:
        self._pending = (key, path)

    def collect(self) -> list[Outcome]:
        if self._pending is None:
            return []
        (key, path), self._pending = self._pending, None
        started = time.monotonic()
        header, payload = run_task(self.function, path, self.options)
        return [Outcome(key, header, payload, time.monotonic() - started, peak_rss_mb())]

    def close(self) -> None:
        pass


def _head(slot: _Slot) -> Any:
    """Take the running file's key off the slot's queue (None while the worker is starting)."""
    return slot.queue.popleft()[0] if slot.queue else None


def _signal_name(returncode: int | None) -> str | None:
    if returncode is None or returncode >= 0:
        return None
    try:
        return signal.Signals(-returncode).name
    except ValueError:
        return f"signal {-returncode}"


def peak_rss_mb() -> float:
    """This process's peak resident memory in MB.

    ``VmHWM`` rather than ``getrusage().ru_maxrss``: Linux carries ru_maxrss across fork + exec, so
    a process started by a big one would report its parent's size.
    """
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            return round(next(int(line.split()[1]) for line in status if line.startswith("VmHWM:")) / 1024, 1)
    except (OSError, StopIteration):
        return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)  # Linux reports KiB


# ---------------------------------------------------------------- the worker process

def _die_with_parent() -> None:
    """Ask Linux to SIGKILL this worker when the batch process dies (even by kill -9)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        pass  # not Linux: the closed task pipe still ends an idle worker


def _limit_memory(max_memory_mb: int | None) -> None:
    """Cap the address space at its current size + ``max_memory_mb`` (the imported libraries are baseline)."""
    if not max_memory_mb:
        return
    with open("/proc/self/status", encoding="ascii") as status:
        vm_size_kb = next(int(line.split()[1]) for line in status if line.startswith("VmSize:"))
    limit = vm_size_kb * 1024 + max_memory_mb * 1024 * 1024
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def _send(results: Connection, header: dict[str, Any], payload: bytes | None = None) -> None:
    results.send_bytes(json_bytes(header, indent=None) + b"\n" + (payload or b""))


def worker_main(task_fd: int, result_fd: int) -> int:
    """Fork the real worker and report how it ended (exit status, its own peak RSS) when it dies.

    Why the extra process: Linux carries ``ru_maxrss`` across fork + exec, so a worker started by a
    big parent (a test run that loaded torch) would report the parent's size as its own peak and
    every crash would look like a memory death. A process forked here starts its accounting afresh,
    and ``wait4`` gives its true peak even after it died by a signal.
    """
    _die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if os.getppid() == 1:
        return 0  # the batch died before we set the death signal
    child = os.fork()
    if child == 0:
        code = 70  # EX_SOFTWARE, if serving itself failed
        try:
            code = _serve(task_fd, result_fd)
        finally:
            os._exit(code)
    os.close(task_fd)  # only the real worker reads tasks
    _, status, usage = os.wait4(child, 0)
    report = {"type": "exit", "returncode": os.waitstatus_to_exitcode(status),
              "peak_rss_mb": round(usage.ru_maxrss / 1024, 1)}  # Linux reports KiB
    _send(Connection(result_fd, readable=False), report)
    return 0


def _serve(task_fd: int, result_fd: int) -> int:
    """The real worker: load the function, cap memory, then run one file per task until the pipe closes."""
    supervisor = os.getppid()
    _die_with_parent()
    if os.getppid() != supervisor:
        return 0
    faulthandler.enable()  # a segfault leaves a Python traceback in the workers' log
    tasks = Connection(task_fd, writable=False)
    results = Connection(result_fd, readable=False)
    config = json.loads(tasks.recv_bytes())
    sys.path[:] = config["sys_path"]
    try:
        function = resolve_process(config["process"])
        if config.get("warmup"):  # e.g. load the model once: it belongs to the baseline, not to a file's cap
            resolve_process(config["warmup"])(config["options"])
    except BaseException as error:
        _send(results, {"type": "startup_error", "message": f"{type(error).__name__}: {error}"})
        return 2
    _limit_memory(config["max_memory_mb"])
    _send(results, {"type": "ready", "pid": os.getpid(), "rss_mb": peak_rss_mb()})
    while True:
        try:
            task = json.loads(tasks.recv_bytes())
        except EOFError:
            return 0
        header, payload = run_task(function, task["path"], task.get("options", config["options"]))
        header["peak_rss_mb"] = peak_rss_mb()
        _send(results, header, payload)


if __name__ == "__main__":
    sys.exit(worker_main(int(sys.argv[1]), int(sys.argv[2])))
