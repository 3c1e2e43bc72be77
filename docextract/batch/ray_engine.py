"""The Ray engine: a batch's files spread over the worker actors of a Ray cluster (docs/ray.md).

``run_batch(..., engine="ray")`` keeps in the driver everything that makes a batch trustworthy, with the local
engine's own code: discovery, output names, atomic writes, the manifest, resume, the summary, the progress bar and
the exit codes. Only the runner differs. ``RayRunner`` has the interface of ``isolation.WorkerPool``
(``free_slots``/``submit``/``collect``/``take_requeued``/``busy``/``close``) and hands each file to a Ray actor.
Every actor hosts one of the local engine's isolated workers (``WorkerPool`` with one slot), so the per-file hard
timeout, memory cap and crash records are the same code on every node, and the model is loaded once per actor.

Two layouts:

* fused (default): ``workers`` actors, each running the processing function on whole files;
* split (``model_workers`` > 0, the product's workload only): ``workers`` actors read, OCR and analyse files
  (``docextract.batch.stages:read_stage``), ``model_workers`` actors run the model on the documents
  (``model_stage``). The document travels from one actor to the other through Ray's object store, never through the
  driver, so OCR (the slow stage on scans) and the model scale apart.

Backpressure: an actor holds at most ``TASKS_PER_ACTOR`` files (the running one and the next, so it never waits for
the driver); in split mode, documents read but not yet taken by a model actor are capped at ``HANDOFF_PER_MODEL``
per model actor, and reading stops while the cap is reached. Memory in flight is therefore bounded by the number of
actors, whatever the size of the folder.

Faults: an actor that dies (``ray.kill``, a lost node, Ray's memory monitor) fails the tasks it held. The file it was
running is sent again to a fresh actor, at most ``retries`` times, then becomes a ``WORKER_CRASH`` record; files
queued behind it are sent again without counting. Nothing is lost or recorded twice: a file's record is written only
by the driver, once, from the outcome of its last attempt.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import sys
import threading
import uuid
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from docextract.batch.isolation import Outcome, WorkerCrashedAtStartup, WorkerPool, error_info
from docextract.batch.outputs import store_output
from docextract.batch.paths import output_relpath
from docextract.errors import MissingDependencyError, UsageError

# By name, not imported: an actor only hosts the worker process that runs them, and stays free of torch (seconds).
READ_STAGE = "docextract.batch.stages:read_stage"
MODEL_STAGE = "docextract.batch.stages:model_stage"

TASKS_PER_ACTOR = 2  # the running file and the next one
HANDOFF_PER_MODEL = 2  # read documents waiting for a model actor, per model actor
DEFAULT_RETRIES = 2  # times a file is sent again after the actor running it died
WAIT_S = 0.5  # longest ray.wait, so Ctrl-C and SIGTERM are seen promptly
NAMESPACE = "docextract"  # actors are named docextract-<run>-<stage>-<index>.<generation> in this namespace
CONNECT_TIMEOUT_S = 10.0  # to open a TCP connection to the cluster's address
INSTALL_HINT = "pip install 'docextract[ray]'"


def import_ray():
    """``ray``, or MissingDependencyError (exit 3) naming the extra that installs it."""
    try:
        import ray
    except ImportError as error:
        raise MissingDependencyError(f"--engine ray needs Ray, which is not installed ({INSTALL_HINT})") from error
    return ray


class StageWorker:
    """One Ray actor: one isolated local worker process running one processing function, one file at a time."""

    def __init__(self, process: str, options: dict, timeout_s: float | None, max_memory_mb: int | None, label: str,
                 stderr_path: str | None, sys_path: list[str], cwd: str, out_root: str | None = None):
        for entry in sys_path:  # the driver's import path (a processing function outside the package), where present
            if entry not in sys.path and os.path.isdir(entry):
                sys.path.append(entry)
        if os.path.isdir(cwd):
            os.chdir(cwd)  # inputs are opened by the path the driver discovered, which may be relative
        self.options = options
        self.out_root = out_root  # the last stage writes each output itself (shared filesystem): the driver does not
        self.pool = WorkerPool(process, options, workers=1, timeout_s=timeout_s, max_memory_mb=max_memory_mb,
                               label=label, stderr_path=stderr_path)

    def run(self, path: str, rel_output: str | None = None,
            options: dict | None = None) -> tuple[tuple[dict, float, float | None], bytes | None]:
        """Process one file in the isolated worker: ((header, elapsed_s, peak_rss_mb), payload). A last stage writes
        the output under ``rel_output`` itself: the payload is then None and ``header["stored"]`` says how it went."""
        slot = self.pool.slots[0]
        while not self.pool.free_slots():  # the worker process is (re)starting
            self.pool.collect()
        self.pool.submit(slot, path, path, options)
        while True:
            for outcome in self.pool.collect():
                header, payload = outcome.header, outcome.payload
                if self.out_root is not None and header.get("ok"):
                    header = {**header, "stored": store_output(self.out_root, rel_output, payload)}
                    payload = None
                return (header, outcome.elapsed_s, outcome.peak_rss_mb), payload

    def run_on_read(self, path: str, rel_output: str,
                    read_payload: bytes) -> tuple[tuple[dict, float, float | None], bytes | None]:
        """The model stage on the document the read stage produced (its output bytes, from the object store)."""
        return self.run(path, rel_output, {"run": self.options, "read": json.loads(read_payload)})

    def ping(self) -> bool:
        """Answers once the actor is placed on a node and constructed: it may take files."""
        return True

    def close(self) -> None:
        self.pool.close()


@dataclass(eq=False)
class _Actor:
    stage: str  # "file" (fused), "read" or "model"
    index: int
    generation: int = 0
    handle: Any = None
    alive: bool = False
    ping: Any = None  # ObjectRef answered when the actor is up; None once it is
    tasks: deque = field(default_factory=deque)  # _Task, in submission order: the head is running


@dataclass(eq=False)
class _Task:
    key: Any
    path: str
    actor: _Actor
    meta: Any  # ObjectRef of (header, elapsed_s, peak_rss_mb)
    payload: Any  # ObjectRef of the output bytes (or the read document, in split mode)
    read: tuple | None = None  # split mode, model stage: the read stage's (header, elapsed_s, peak_rss_mb)


class RayRunner:
    """The batch runner on a Ray cluster (see the module docstring)."""

    isolated = True

    def __init__(self, process: str, options: dict, *, workers: int | None = None, model_workers: int = 0,
                 address: str | None = None, timeout_s: float | None = 300.0, max_memory_mb: int | None = 2048,
                 label: str = "", stderr_path: str | None = None, retries: int = DEFAULT_RETRIES,
                 product_process: str = "docextract.pipeline:extract_file", out_root: str | None = None):
        if model_workers < 0 or (workers is not None and workers < 1):
            raise UsageError("workers must be at least 1 and model workers at least 0")
        if model_workers and process != product_process:
            raise UsageError(f"model workers split the product's workload ({product_process}) in two stages; "
                             f"{process!r} runs whole files only")
        self.ray = import_ray()
        self.owns_ray = connect(self.ray, address)
        try:
            cpus = int(self.ray.cluster_resources().get("CPU", 1))
        except Exception:
            self.close()
            raise
        self.model_workers = model_workers
        self.workers = workers or max(1, cpus - model_workers)
        wanted = self.workers + model_workers
        # Actors wait for free CPUs (an autoscaling cluster adds nodes for them): said, not refused.
        self.warnings = [] if wanted <= cpus else [
            f"{wanted} worker actors need {wanted} CPUs and the cluster has {cpus} now: the others start when CPUs free up "
            "or the cluster grows"]
        self.retries = retries
        self.retried = 0  # files sent again because the actor running them died
        self.requeued: list[Any] = []
        self.attempts: dict[Any, int] = {}
        self.tasks: dict[Any, _Task] = {}  # meta ObjectRef -> task
        self.handoff: deque[_Task] = deque()  # split mode: read documents waiting for a model actor
        self.run_id = uuid.uuid4().hex[:8]
        common = {"timeout_s": timeout_s, "max_memory_mb": max_memory_mb, "label": label, "stderr_path": stderr_path,
                  "sys_path": list(sys.path), "cwd": os.getcwd()}
        if model_workers:
            self.stage_args = {"read": dict(process=READ_STAGE, options=options, **common),
                               "model": dict(process=MODEL_STAGE, options=options, out_root=out_root, **common)}
            self.actors = [_Actor("read", i) for i in range(self.workers)] + \
                [_Actor("model", i) for i in range(model_workers)]
        else:
            self.stage_args = {"file": dict(process=process, options=options, out_root=out_root, **common)}
            self.actors = [_Actor("file", i) for i in range(self.workers)]
        self.actor_class = self.ray.remote(StageWorker)
        for actor in self.actors:
            self._start(actor)

    # -- actors
    def _start(self, actor: _Actor) -> None:
        name = f"docextract-{self.run_id}-{actor.stage}-{actor.index}.{actor.generation}"
        actor.handle = self.actor_class.options(num_cpus=1, name=name, namespace=NAMESPACE, max_restarts=0,
                                                max_concurrency=1).remote(**self.stage_args[actor.stage])
        actor.alive = True
        actor.ping = actor.handle.ping.remote()  # files go only to actors that are up: one waiting for a CPU holds none

    def _pings(self) -> dict[Any, _Actor]:
        return {actor.ping: actor for actor in self.actors if actor.alive and actor.ping is not None}

    def _answered(self, refs: list[Any]) -> None:
        """Actors whose ping answered are up; one that died before is replaced (or the batch stops, if it could
        not even be constructed)."""
        pings = self._pings()
        for ref in refs:
            actor = pings.get(ref)
            if actor is None:
                continue
            try:
                self.ray.get(ref)
            except self.ray.exceptions.RayError as error:
                if getattr(error, "actor_init_failed", False):
                    raise WorkerCrashedAtStartup(f"a Ray worker actor could not start: {_first_line(error)}") from None
                actor.alive = False
                continue
            actor.ping = None

    def _entry_actors(self) -> list[_Actor]:
        return [actor for actor in self.actors if actor.stage in ("file", "read")]

    def _model_actors(self) -> list[_Actor]:
        return [actor for actor in self.actors if actor.stage == "model"]

    # -- the runner interface (docextract.batch.isolation.Runner, driven by docextract.batch.engine)
    def free_slots(self) -> list[_Actor]:
        """Actors that take a file now (dead ones are replaced); none while the model stage's queue is full."""
        for actor in self.actors:
            if not actor.alive:
                actor.generation += 1
                self._start(actor)
        if self.model_workers and len(self.handoff) >= HANDOFF_PER_MODEL * self.model_workers:
            return []
        pings = list(self._pings())
        if pings:
            with signals_after_the_call():
                self._answered(self.ray.wait(pings, num_returns=len(pings), timeout=0, fetch_local=True)[0])
        free = [actor for actor in self._entry_actors()
                if actor.alive and actor.ping is None and len(actor.tasks) < TASKS_PER_ACTOR]
        return sorted(free, key=lambda actor: len(actor.tasks))

    def submit(self, actor: _Actor, key: Any, path: str) -> None:
        meta, payload = actor.handle.run.options(num_returns=2).remote(path, output_relpath(key))
        self._track(_Task(key, path, actor, meta, payload))

    def busy(self) -> bool:
        return bool(self.tasks or self.handoff)

    def take_requeued(self) -> list[Any]:
        keys, self.requeued = self.requeued, []
        return keys

    def collect(self) -> list[Outcome]:
        """Wait (at most WAIT_S) for tasks to end; return the files that are finished."""
        with signals_after_the_call():
            return self._collect()

    def _collect(self) -> list[Outcome]:
        self._feed_model_stage()
        pings = self._pings()
        refs = list(self.tasks) + list(pings)
        if not refs:
            return []
        ready, _ = self.ray.wait(refs, num_returns=1, timeout=WAIT_S, fetch_local=False)
        if ready:
            ready, _ = self.ray.wait(refs, num_returns=len(refs), timeout=0, fetch_local=False)
        self._answered([ref for ref in ready if ref in pings])
        outcomes: list[Outcome] = []
        died: list[tuple[_Task, Exception]] = []
        for ref in ready:
            task = self.tasks.get(ref)
            if task is None:  # dropped with an actor that died earlier in this loop
                continue
            try:
                meta = self.ray.get(ref)
            except self.ray.exceptions.RayTaskError as error:
                self._raise_task_error(error)
            except self.ray.exceptions.RayActorError as error:  # the actor (or its node) is gone
                died.append((task, error))
                continue
            except self.ray.exceptions.RayError as error:  # the task's input or result was lost, the actor lives
                self._untrack(task)
                outcomes.extend(self._lost([task], error))
                continue
            self._untrack(task)
            outcome = self._finished(task, meta)
            if outcome is not None:
                outcomes.append(outcome)
        for task, error in died:  # after the results that did arrive: those files are done
            outcomes.extend(self._actor_died(task.actor, error))
        self._feed_model_stage()
        return outcomes

    def close(self) -> None:
        for actor in getattr(self, "actors", []):
            if actor.alive and actor.handle is not None:
                try:
                    self.ray.kill(actor.handle)  # its worker process dies with it (PR_SET_PDEATHSIG)
                except Exception:
                    pass
                actor.alive = False
        self.tasks, self.handoff = {}, deque()
        if getattr(self, "owns_ray", False) and self.ray.is_initialized():
            self.ray.shutdown()
            self.owns_ray = False

    # -- internals
    def _track(self, task: _Task) -> None:
        task.actor.tasks.append(task)
        self.tasks[task.meta] = task

    def _untrack(self, task: _Task) -> None:
        self.tasks.pop(task.meta, None)
        try:
            task.actor.tasks.remove(task)
        except ValueError:
            pass

    def _finished(self, task: _Task, meta: tuple) -> Outcome | None:
        header, elapsed_s, peak_rss_mb = meta
        if task.actor.stage == "read" and header.get("ok"):
            task.read = meta
            self.handoff.append(task)  # the document stays in the object store until a model actor takes it
            return None
        payload = self.ray.get(task.payload) if header.get("ok") and "stored" not in header else None
        if task.read is not None:  # split mode: one record for both stages
            read_header, read_elapsed, read_peak = task.read
            header = {**header, "sha256": read_header.get("sha256"),
                      "worker_s": (read_header.get("worker_s") or 0.0) + (header.get("worker_s") or 0.0)}
            elapsed_s += read_elapsed
            peak_rss_mb = max((value for value in (read_peak, peak_rss_mb) if value is not None), default=None)
        self.attempts.pop(task.key, None)
        return Outcome(task.key, header, payload, elapsed_s, peak_rss_mb)

    def _feed_model_stage(self) -> None:
        if not self.handoff:
            return
        for actor in self._model_actors():
            if not actor.alive:
                actor.generation += 1
                self._start(actor)
        up = [actor for actor in self._model_actors() if actor.alive and actor.ping is None]
        for actor in sorted(up, key=lambda actor: len(actor.tasks)):
            while self.handoff and len(actor.tasks) < TASKS_PER_ACTOR:
                read_task = self.handoff.popleft()
                meta, payload = actor.handle.run_on_read.options(num_returns=2).remote(
                    read_task.path, output_relpath(read_task.key), read_task.payload)
                self._track(_Task(read_task.key, read_task.path, actor, meta, payload, read=read_task.read))

    def _actor_died(self, actor: _Actor, error: Exception) -> list[Outcome]:
        """The actor is gone: its running file is retried (or recorded), the ones queued behind it are sent again."""
        if not actor.alive:
            return []
        if getattr(error, "actor_init_failed", False):
            raise WorkerCrashedAtStartup(f"a Ray worker actor could not start: {_first_line(error)}")
        actor.alive = False
        try:
            self.ray.kill(actor.handle)  # unavailable rather than dead: it must not hold its CPU beside its successor
        except Exception:
            pass
        lost = list(actor.tasks)
        for task in lost:
            self._untrack(task)
        return self._lost(lost, error)

    def _lost(self, lost: list[_Task], error: Exception) -> list[Outcome]:
        """Tasks that will never report: the first (the running file) counts as an attempt, the rest are resent."""
        outcomes: list[Outcome] = []
        for position, task in enumerate(lost):
            if position == 0:
                self.attempts[task.key] = attempts = self.attempts.get(task.key, 0) + 1
                if attempts > self.retries:
                    self.attempts.pop(task.key, None)
                    message = (f"the Ray worker running this file was lost {attempts} times "
                               f"(last: {type(error).__name__}: {_first_line(error)})")
                    outcomes.append(Outcome(task.key, {"ok": False, "exit_code": None,
                                                       "error": error_info("WORKER_CRASH", message,
                                                                           exception_type=type(error).__name__)},
                                            None, 0.0))
                    continue
            self.retried += 1
            self.requeued.append(task.key)  # from the start: the read document may have died with its node
        return outcomes

    def _raise_task_error(self, error: Exception) -> None:
        cause = getattr(error, "cause", None)
        if isinstance(cause, WorkerCrashedAtStartup):
            raise WorkerCrashedAtStartup(str(cause)) from None
        raise RuntimeError(f"a Ray worker actor failed: {_first_line(error)}") from error


@contextlib.contextmanager
def signals_after_the_call():
    """Ctrl-C and SIGTERM that arrive during a call into Ray take effect when it returns: an exception raised by a
    signal handler inside Ray's compiled code comes out as a SystemError (exit 1) instead of a clean stop."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    previous = {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM)}
    for number in previous:
        signal.signal(number, lambda signum, frame: caught.append(signum))
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
        for number in caught:  # as if it arrived now
            if callable(previous[number]):
                previous[number](number, None)
            elif previous[number] == signal.SIG_DFL:
                signal.raise_signal(number)


def connect(ray, address: str | None) -> bool:
    """Join the cluster at ``address`` (``auto``, ``HOST:PORT``, ``ray://HOST:PORT``), reuse the connection this
    process already has, or start a local Ray instance on this machine; True when this runner must shut Ray down."""
    if ray.is_initialized():
        return False
    import logging

    settings = dict(log_to_driver=False, logging_level=logging.ERROR, namespace=NAMESPACE)
    if address not in (None, "auto"):
        _check_reachable(address)  # ray.init retries an address where nothing listens for many minutes
    try:
        with signals_after_the_call():
            if address is None:
                ray.init(include_dashboard=False, **settings)
            else:
                ray.init(address=address, **settings)
    except (ConnectionError, RuntimeError, ValueError, TimeoutError) as error:
        where = f"the Ray cluster at {address}" if address else "a local Ray instance"
        raise MissingDependencyError(f"cannot connect to {where}: {_first_line(error)}") from None
    return True


def _check_reachable(address: str) -> None:
    """MissingDependencyError (exit 3) at once when nothing accepts a connection at ``[ray://]HOST:PORT``."""
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        raise UsageError(f"a Ray address is auto, HOST:PORT or ray://HOST:PORT, got {address!r}")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=CONNECT_TIMEOUT_S).close()
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise MissingDependencyError(f"cannot reach the Ray cluster at {address}: {reason}") from None


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
