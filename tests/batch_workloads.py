"""Processing functions that exercise the batch engine itself (not the product).

Each is a real ``process(path, options) -> dict`` the workers import by dotted path. The
``scripted`` one reads its instruction from the input file's first line, so one folder can mix
files that succeed, hang, bomb memory, crash their worker or raise, and prove the batch goes on.
"""

from __future__ import annotations

import hashlib
import os
import signal
import time

from docextract.errors import InputError, MissingDependencyError

MEBIBYTE = 1024 * 1024


def echo_sha256(path: str, options: dict) -> dict:
    """The file's name, size and sha256, after an optional ``options["sleep_s"]`` pause."""
    time.sleep(float(options.get("sleep_s", 0.0)))
    data = open(path, "rb").read()
    return {"name": os.path.basename(path), "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest(),
            "lines": data.decode("utf-8", "replace").splitlines()[:3]}


def scripted(path: str, options: dict) -> dict:
    """Do what the file's first line says: echo | sleep | alloc MB | alloc-abort MB | segv | exit N | malformed | bug | missing-dep."""
    words = open(path, "rb").read().decode("utf-8", "replace").split()
    command = words[0] if words else "echo"
    if command == "sleep":
        time.sleep(3600)
    elif command == "alloc":
        chunks = [bytearray(MEBIBYTE) for _ in range(int(words[1]))]  # touches every page
        return {"allocated_mb": len(chunks)}
    elif command == "alloc-abort":  # native code that aborts when the memory cap refuses an allocation
        chunks = [bytearray(MEBIBYTE) for _ in range(int(words[1]))]
        os.abort()
    elif command == "segv":
        os.kill(os.getpid(), signal.SIGSEGV)
    elif command == "exit":
        os._exit(int(words[1]))
    elif command == "malformed":
        raise InputError("broken cross-reference table", path=path, code="PDF_MALFORMED", stage="parse")
    elif command == "bug":
        raise ZeroDivisionError("a bug in the processing code")
    elif command == "missing-dep":
        raise MissingDependencyError("tesseract is not installed", path=path)
    return echo_sha256(path, options)


def thread_settings(path: str, options: dict) -> dict:
    """The thread settings the worker was started with (what torch and OpenMP read at start-up)."""
    return {"OMP_NUM_THREADS": os.environ.get("OMP_NUM_THREADS"), "OMP_WAIT_POLICY": os.environ.get("OMP_WAIT_POLICY")}
