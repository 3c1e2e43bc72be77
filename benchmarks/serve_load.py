"""A bounded load test of `docextract serve` on localhost: N concurrent clients POST one file to /extract, each
sending its next request as soon as its answer comes, for M seconds; throughput, p50/p99 latency and errors.

Without ``--url`` it starts its own server on 127.0.0.1 (a free port, a fresh token in ``DOCEXTRACT_TOKEN``,
``--workers``, ``--model``) and stops it at the end; with ``--url`` it loads a server already running (its token
from ``--token-file``). Each file is one scenario; ``--pad-mb 30`` adds one: the first file padded with zeros to
30 MB after its ``%%EOF`` (the upload of issue 29 item 9, which took 120 s before docextract/readers/pdf_end.py).

    PYTHONPATH=$PWD .venv/bin/python benchmarks/serve_load.py [--clients 4] [--seconds 20] [--workers 2] \
        [--model invoice] [--pad-mb 30] [--out benchmarks/results/serve_load.json] [FILE ...]

Per scenario: ``requests`` answered in the window, ``ok`` (200), ``errors`` (any other status, or no answer) by
kind, ``throughput_rps`` (answers / seconds from the first request to the last answer), ``p50_ms``/``p99_ms``/
``max_ms`` of the answers' latencies, and ``distinct_answers``: how many different 200 bodies came back for the
same file (1: every client got the same JSON). Clients stop sending after ``--seconds``; a request still in
flight then is waited for up to ``--request-timeout`` seconds, so the run is bounded.
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import http.client
import json
import os
import platform
import secrets
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit

REPO = Path(__file__).resolve().parent.parent
RESULTS = REPO / "benchmarks" / "results" / "serve_load.json"
DEFAULT_FILE = REPO / "examples" / "invoice.pdf"
STARTUP_S = 300


def multipart(filename: str, data: bytes, fields: dict[str, str]) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode() for k, v in fields.items()]
    parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{filename}"\r\n'
                 "Content-Type: application/octet-stream\r\n\r\n".encode() + data + b"\r\n")
    return b"".join(parts) + f"--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


def padded(source: Path, megabytes: float, folder: Path) -> Path:
    """``source`` followed by zeros up to ``megabytes`` MB (2**20 bytes), as a new file in ``folder``."""
    data = source.read_bytes()
    path = folder / f"{source.stem}-padded-{megabytes:g}MB{source.suffix}"
    path.write_bytes(data + b"\0" * max(0, int(megabytes * 2**20) - len(data)))
    return path


def percentile(values: list[float], share: float) -> float | None:
    """The ``share`` quantile (0..1) of ``values``, interpolated between the nearest ranks; None for none."""
    if not values:
        return None
    ordered = sorted(values)
    rank = share * (len(ordered) - 1)
    low = int(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def load(host: str, port: int, token: str | None, path: Path, *, clients: int, seconds: float,
         request_timeout: float, fields: dict[str, str]) -> dict:
    """``clients`` threads, each POSTing ``path`` back to back over its own connection for ``seconds``."""
    body, content_type = multipart(path.name, path.read_bytes(), fields)
    headers = {"Content-Type": content_type, "Content-Length": str(len(body))}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    lock = threading.Lock()
    latencies: list[float] = []
    errors: Counter = Counter()
    answers: Counter = Counter()
    first_sent: list[float] = []
    last_answer = [0.0]
    start = time.monotonic()
    stop_at = start + seconds

    def client() -> None:
        connection = None
        while time.monotonic() < stop_at:
            sent = time.monotonic()
            try:
                if connection is None:
                    connection = http.client.HTTPConnection(host, port, timeout=request_timeout)
                connection.request("POST", "/extract", body=body, headers=headers)
                response = connection.getresponse()
                raw = response.read()
                status = response.status
                if response.getheader("connection", "").lower() == "close":
                    connection.close()
                    connection = None
            except (OSError, http.client.HTTPException) as error:
                status, raw = type(error).__name__, b""
                if connection is not None:
                    connection.close()
                connection = None
            done = time.monotonic()
            with lock:
                first_sent.append(sent)
                last_answer[0] = max(last_answer[0], done)
                latencies.append((done - sent) * 1000)
                if status == 200:
                    answers[hashlib.sha256(raw).hexdigest()] += 1
                else:
                    errors[str(status)] += 1
        if connection is not None:
            connection.close()

    threads = [threading.Thread(target=client, name=f"client-{n}") for n in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    window = (last_answer[0] - min(first_sent)) if first_sent else 0.0
    ok = sum(answers.values())
    return {
        "file": path.name, "file_bytes": path.stat().st_size, "clients": clients, "seconds": seconds,
        "requests": len(latencies), "ok": ok, "errors": sum(errors.values()), "errors_by_kind": dict(errors),
        "throughput_rps": round(len(latencies) / window, 3) if window else None,
        "p50_ms": _rounded(percentile(latencies, 0.50)), "p99_ms": _rounded(percentile(latencies, 0.99)),
        "max_ms": _rounded(max(latencies, default=None)), "distinct_answers": len(answers),
    }


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def health(host: str, port: int) -> tuple[int, dict]:
    connection = http.client.HTTPConnection(host, port, timeout=10)
    try:
        connection.request("GET", "/health")
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


def start_server(args, token: str, log) -> tuple[subprocess.Popen, int]:
    port = free_port()
    env = {**os.environ, "DOCEXTRACT_TOKEN": token}
    command = [sys.executable, "-m", "docextract", "serve", "--host", "127.0.0.1", "--port", str(port),
               "--model", args.model, "--workers", str(args.workers), "--max-upload-mb", str(args.max_upload_mb)]
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=REPO)
    deadline = time.monotonic() + STARTUP_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"the server exited with {process.returncode}; its log: {log.name}")
        try:
            if health("127.0.0.1", port)[0] == 200:
                return process, port
        except OSError:
            pass
        time.sleep(0.5)
    process.terminate()
    raise SystemExit(f"the server did not come up in {STARTUP_S} s; its log: {log.name}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path, default=[DEFAULT_FILE])
    parser.add_argument("--url", help="a running server (http://127.0.0.1:PORT); default: start one")
    parser.add_argument("--token-file", type=Path, help="the running server's token (with --url)")
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--request-timeout", type=float, default=300.0)
    parser.add_argument("--workers", type=int, default=2, help="of the server this script starts")
    parser.add_argument("--model", default="invoice", help="of the server this script starts")
    parser.add_argument("--max-upload-mb", type=float, default=50.0, help="of the server this script starts")
    parser.add_argument("--pad-mb", type=float, help="add a scenario: the first file padded with zeros to this size")
    parser.add_argument("--field", action="append", default=[], metavar="NAME=VALUE",
                        help="a form field sent with every request (e.g. ocr=never)")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()
    fields = dict(item.split("=", 1) for item in args.field)

    with tempfile.TemporaryDirectory(prefix="serve-load-") as scratch:
        files = list(args.files)
        if args.pad_mb:
            files.append(padded(files[0], args.pad_mb, Path(scratch)))
        server, log = None, None
        if args.url:
            parts = urlsplit(args.url)
            host, port = parts.hostname, parts.port or 80
            token = args.token_file.read_text().strip() if args.token_file else None
            server_info = {"url": args.url}
        else:
            token = secrets.token_urlsafe(32)
            log = open(Path(scratch) / "server.log", "w+")
            server, port = start_server(args, token, log)
            host = "127.0.0.1"
            server_info = {"started_by_this_script": True, "model": args.model, "workers": args.workers}
        try:
            health_before = health(host, port)[1]
            scenarios = []
            for path in files:
                result = load(host, port, token, path, clients=args.clients, seconds=args.seconds,
                              request_timeout=args.request_timeout, fields=fields)
                scenarios.append(result)
                print(json.dumps(result), flush=True)
            health_after = health(host, port)[1]
        finally:
            if server is not None:
                server.terminate()
                try:
                    server.wait(timeout=60)
                except subprocess.TimeoutExpired:
                    server.kill()
        request_log_lines = None
        if log is not None:
            log.seek(0)
            request_log_lines = sum(" path=/extract " in line for line in log)
            log.close()

    results = {
        "benchmark": "serve_load",
        "command": " ".join([Path(sys.argv[0]).name, *sys.argv[1:]]),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "machine": {"cpus": os.cpu_count(), "platform": platform.platform(), "python": platform.python_version(),
                    "load_average_at_end": [round(x, 2) for x in os.getloadavg()]},
        "server": {**server_info, "health_before": health_before, "health_after": health_after,
                   "request_log_lines_for_extract": request_log_lines},
        "fields": fields,
        "scenarios": scenarios,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2) + "\n")
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
