"""Requests to isolated workers: one thread owns the batch engine's :class:`WorkerPool` and hands each
request's file to a free worker; the request waits on a future for its :class:`Outcome`.

The pool is the one `docextract run DIR` uses, so a request gets what a batch file gets: a hard timeout (the
worker's process group is killed and a fresh worker started), a memory cap over the worker's size with the
model loaded, and a crash that ends only that worker. The pool is not thread-safe; only the dispatcher thread
touches it. Requests beyond ``max_pending`` waiting for a worker are refused (:class:`Busy`) rather than queued
without bound.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from concurrent.futures import Future
from multiprocessing import Pipe
from typing import Any

from docextract.batch.isolation import Outcome, WorkerCrashedAtStartup, WorkerPool
from docextract.errors import DocextractError

PROCESS = "docextract.serve.worker:extract"
WARMUP = "docextract.serve.worker:warm"


class Busy(Exception):
    """Every worker is busy and the waiting line is full."""


class Dispatcher:
    def __init__(self, options: dict[str, Any], *, workers: int = 1, timeout_s: float = 120.0,
                 max_memory_mb: int = 2048, max_pending: int = 16, stderr_path: str | None = None):
        self.options = options
        self.workers = workers
        self.max_pending = max_pending
        self.pool = WorkerPool(PROCESS, options, workers=workers, timeout_s=timeout_s, max_memory_mb=max_memory_mb,
                               label="serve", stderr_path=stderr_path, warmup=WARMUP)
        self._wake_read, self._wake_write = Pipe(duplex=False)
        self._lock = threading.Lock()
        self._waiting: deque[tuple[int, str, dict[str, Any]]] = deque()
        self._futures: dict[int, Future] = {}
        self._paths: dict[int, tuple[str, dict[str, Any]]] = {}
        self._next_key = 0
        self._stopping = False
        self.failure: DocextractError | None = None  # the pool could not start a worker: nothing can be served
        self._thread = threading.Thread(target=self._loop, name="docextract-dispatch", daemon=True)

    # ---------------------------------------------------------------- the request side (any thread)

    def start(self, wait_ready_s: float | None = None) -> None:
        """Start the workers; with ``wait_ready_s``, wait until each has loaded the model (raises the startup
        failure, e.g. a model that cannot be loaded)."""
        self._thread.start()
        deadline = None if wait_ready_s is None else time.monotonic() + wait_ready_s
        while wait_ready_s is not None and self.ready_workers() < self.workers:
            if self.failure is not None:
                raise self.failure
            if time.monotonic() > deadline:
                raise DocextractError(f"the workers did not load the model within {wait_ready_s:g} s")
            time.sleep(0.1)

    def ready_workers(self) -> int:
        return sum(slot.state in ("idle", "busy") for slot in self.pool.slots)

    def pending(self) -> int:
        with self._lock:
            return len(self._futures)

    def submit(self, path: str, options: dict[str, Any]) -> Future:
        """Queue ``path`` with its ``options``; the future's result is the file's :class:`Outcome`."""
        future: Future = Future()
        with self._lock:
            if self.failure is not None:
                raise self.failure
            if len(self._waiting) >= self.max_pending:
                raise Busy()
            key, self._next_key = self._next_key, self._next_key + 1
            self._futures[key] = future
            self._paths[key] = (path, options)
            self._waiting.append((key, path, options))
        self._wake_write.send_bytes(b"!")
        return future

    def close(self) -> None:
        self._stopping = True
        self._wake_write.send_bytes(b"!")
        self._thread.join(timeout=10)
        self.pool.close()

    # ---------------------------------------------------------------- the dispatcher thread

    def _loop(self) -> None:
        try:
            while not self._stopping:
                self._hand_out()
                outcomes = self.pool.collect(wake=self._wake_read)
                while self._wake_read.poll():
                    self._wake_read.recv_bytes()
                for outcome in outcomes:
                    self._finish(outcome)
        except WorkerCrashedAtStartup as error:
            self._fail_all(error)
        except BaseException as error:  # a bug here must not leave requests waiting forever
            self._fail_all(DocextractError(f"the dispatcher stopped: {type(error).__name__}: {error}"))

    def _hand_out(self) -> None:
        with self._lock:
            for key in self.pool.take_requeued():  # queued on a worker that was killed: not started, send again
                if key in self._paths:
                    self._waiting.appendleft((key, *self._paths[key]))
            while self._waiting:
                free = self.pool.free_slots()
                if not free:
                    break
                key, path, options = self._waiting.popleft()
                self.pool.submit(free[0], key, path, options)
            if not self._waiting:
                self.pool.free_slots()  # restart dead workers while idle, so they load the model before a request

    def _finish(self, outcome: Outcome) -> None:
        with self._lock:
            future = self._futures.pop(outcome.key, None)
            self._paths.pop(outcome.key, None)
        if future is not None:
            future.set_result(outcome)

    def _fail_all(self, error: DocextractError) -> None:
        with self._lock:
            self.failure = error
            futures, self._futures = list(self._futures.values()), {}
            self._waiting.clear()
            self._paths.clear()
        for future in futures:
            future.set_exception(error)
