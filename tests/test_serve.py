"""`docextract serve` tested as a client sees it: a real server process on loopback, real HTTP requests (one at a
time and concurrent), hostile files and oversized uploads answered with clear 4xx and the CLI's error codes."""

from __future__ import annotations

import http.client
import json
import os
import secrets
import socket
import subprocess
import sys
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import jsonschema
import pytest
from hostile import hostile_cases
from pdf_factory import text_lines_pdf
from typer.testing import CliRunner

from docextract.cli import app

from docextract.extraction.output import load_schema

pytest.importorskip("fastapi", reason="docextract serve needs the 'serve' extra: pip install 'docextract[serve]'")
pytest.importorskip("uvicorn", reason="docextract serve needs the 'serve' extra: pip install 'docextract[serve]'")

REPO = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
UPLOAD_LIMIT_MB = 2
STARTUP_S = 180
TOKEN = secrets.token_urlsafe(32)  # the test server's; it must never appear in its log


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def request(port: int, method: str, path: str, body: bytes | None = None, headers: dict | None = None,
            timeout: float = 120, token: str | None = TOKEN) -> tuple[int, dict, bytes]:
    """One HTTP request; with the test server's bearer token unless ``token`` says otherwise (None: without)."""
    connection = http.client.HTTPConnection(HOST, port, timeout=timeout)
    auth = {} if token is None else {"Authorization": f"Bearer {token}"}
    try:
        connection.request(method, path, body=body, headers={**auth, **(headers or {})})
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


def multipart(files: dict[str, tuple[str, bytes]], fields: dict[str, str] | None = None) -> tuple[bytes, dict]:
    boundary = uuid.uuid4().hex
    parts = []
    for name, value in (fields or {}).items():
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode())
    for name, (filename, data) in files.items():
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
                     f"Content-Type: application/octet-stream\r\n\r\n".encode() + data + b"\r\n")
    body = b"".join(parts) + f"--{boundary}--\r\n".encode()
    return body, {"Content-Type": f"multipart/form-data; boundary={boundary}"}


def extract(port: int, filename: str, data: bytes, **fields) -> tuple[int, dict]:
    body, headers = multipart({"file": (filename, data)}, {k: str(v) for k, v in fields.items()})
    status, _, raw = request(port, "POST", "/extract", body, headers)
    return status, json.loads(raw)


TINY_MODEL_LABELS = ["O", "B-total", "I-total", "B-invoice_number", "I-invoice_number"]  # conftest's tiny_model


@pytest.fixture(scope="module")
def server_files(tmp_path_factory) -> Path:
    """The test server's folder: its token file (``token``, mode 600) and its log (``server.log``: stdout and stderr)."""
    folder = tmp_path_factory.mktemp("serve")
    (folder / "token").write_text(TOKEN + "\n")
    (folder / "token").chmod(0o600)
    return folder


@pytest.fixture(scope="module")
def server(tiny_model, server_files):
    """A `docextract serve` process on 127.0.0.1 with two isolated workers and a token; yields its port; stopped at
    the end."""
    port = free_port()
    log = server_files / "server.log"
    env = {key: value for key, value in os.environ.items() if key != "DOCEXTRACT_TOKEN"} | {"OMP_NUM_THREADS": "1"}
    with open(log, "wb") as sink:
        process = subprocess.Popen(
            [sys.executable, "-c", "from docextract.cli import main; main()", "serve", "--host", HOST, "--port", str(port),
             "--model", str(tiny_model), "--workers", "2", "--timeout", "60", "--max-memory", "1024",
             "--max-upload-mb", str(UPLOAD_LIMIT_MB), "--token-file", str(server_files / "token")],
            stdout=sink, stderr=subprocess.STDOUT, env=env)
    try:
        deadline = time.monotonic() + STARTUP_S
        while True:
            assert process.poll() is None, log.read_text()
            try:
                status, _, body = request(port, "GET", "/health", timeout=5)
                if status == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, "the server did not come up: " + log.read_text()
            time.sleep(0.5)
        yield port
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="module")
def invoice_bytes(tmp_path_factory) -> tuple[Path, bytes]:
    path = tmp_path_factory.mktemp("pdf") / "invoice.pdf"
    text_lines_pdf(path, ["ACME GmbH Musterstrasse 1", "Rechnung Nr. RE-2024-0042", "Gesamt 1.190,00 EUR"])
    return path, path.read_bytes()


def test_health_says_the_workers_have_the_model_loaded(server, tiny_model):
    status, _, body = request(server, "GET", "/health")
    health = json.loads(body)
    assert status == 200 and health["status"] == "ok"
    assert health["ready_workers"] == health["workers"] == 2 and health["model"] == str(tiny_model)


def test_with_the_token_extract_answers_the_json_run_prints(server, tiny_model, invoice_bytes):
    path, data = invoice_bytes
    status, out = extract(server, "my invoice.pdf", data, ocr="never")
    assert status == 200, out
    jsonschema.validate(out, load_schema())
    printed = CliRunner().invoke(app, ["run", str(path), "--model", str(tiny_model), "--ocr", "never"])
    assert printed.exit_code == 0, printed.output
    expected = json.loads(printed.stdout)
    assert out["source"].pop("path") == "my invoice.pdf"
    assert expected["source"].pop("path") == str(path)
    assert out == expected and out["documents"]


def test_without_the_token_or_with_a_wrong_one_every_route_but_health_is_401(server, invoice_bytes):
    _, data = invoice_bytes
    body, headers = multipart({"file": ("a.pdf", data)}, {"ocr": "never"})
    for token in (None, "not-the-token-" + secrets.token_urlsafe(16), TOKEN + "x", TOKEN[:-1]):
        for method, path, payload in (("POST", "/extract", body), ("GET", "/openapi.json", None)):
            status, response_headers, raw = request(server, method, path, payload, headers if payload else None, token=token)
            assert status == 401, (token, path, raw)
            error = json.loads(raw)["error"]
            assert error["code"] == "UNAUTHORIZED" and error["exit_code"] == 2 and "\n" not in error["message"]
            assert response_headers["www-authenticate"].startswith("Bearer")
    status, _, raw = request(server, "POST", "/extract", body, {**headers, "Authorization": f"Basic {TOKEN}"}, token=None)
    assert status == 401  # the token in another scheme is not a bearer token
    status, _, raw = request(server, "GET", "/health", token=None)
    assert status == 200 and json.loads(raw)["status"] == "ok"  # a load balancer's check needs no token


def test_the_docs_page_is_off_and_unknown_routes_answer_the_error_body(server):
    for path in ("/docs", "/redoc", "/nothing-here"):  # /docs loaded its scripts from a CDN: blank offline
        status, _, raw = request(server, "GET", path)
        assert status == 404 and json.loads(raw)["error"]["code"] == "NOT_FOUND"
    status, _, raw = request(server, "DELETE", "/health")
    assert status == 405 and json.loads(raw)["error"]["code"] == "METHOD_NOT_ALLOWED"


def test_extract_takes_run_options_and_csv(server, invoice_bytes):
    _, data = invoice_bytes
    status, out = extract(server, "a.pdf", data, include_tokens="true", ocr="never")
    assert status == 200 and out["tokens"] and out["run"]["model"] is not None
    status, out = extract(server, "a.pdf", data, model="none")
    assert status == 200 and out["documents"] == [] and out["run"]["model"] is None
    status, out = extract(server, "a.pdf", data, pdf_text="auto", ocr="never")
    assert status == 200 and out["documents"], out
    body, headers = multipart({"file": ("a.pdf", data)}, {"format": "csv"})
    status, response_headers, raw = request(server, "POST", "/extract", body, headers)
    assert status == 200 and response_headers["content-type"].startswith("text/csv")
    assert raw.decode().splitlines()[0].startswith("source")


def test_concurrent_requests_each_get_their_own_answer(server, tmp_path):
    files = {}
    for n in range(6):
        path = tmp_path / f"invoice-{n}.pdf"
        text_lines_pdf(path, [f"Invoice No: INV-{n:04d}", f"Total {n + 1}0.00 EUR"])
        files[path.name] = path.read_bytes()
    with ThreadPoolExecutor(max_workers=6) as pool:
        answers = dict(zip(files, pool.map(lambda item: extract(server, item[0], item[1], ocr="never"), files.items())))
    for name, (status, out) in answers.items():
        assert status == 200, out
        assert out["source"]["path"] == name
        assert f"INV-{int(name.split('-')[1].split('.')[0]):04d}" in out["text"]


EXPECTED_STATUS = {"INPUT_EMPTY": 422, "UNSUPPORTED_FORMAT": 415, "PDF_MALFORMED": 422, "PDF_ENCRYPTED": 422,
                   "IMAGE_TOO_LARGE": 413, "IMAGE_TRUNCATED": 422, "INPUT_UNREADABLE": 422, "RESOURCE_LIMIT": 413,
                   "PDF_TOO_LARGE": 413, "MEMORY_LIMIT": 422, "TIMEOUT": 422}


def test_hostile_files_get_clear_4xx_answers_and_the_server_keeps_serving(server, invoice_bytes):
    for case in hostile_cases():
        status, out = extract(server, case.name, case.data)
        if status == 200:
            assert ("ok", None) in case.expected, case.name
            continue
        error = out["error"]
        assert ("failed", error["code"]) in case.expected, (case.name, out)
        assert status == EXPECTED_STATUS[error["code"]], (case.name, out)
        assert error["exit_code"] == 4 and error["message"].startswith(case.name), (case.name, out)
        assert "docextract-serve-" not in error["message"]  # no server paths leak
    status, out = extract(server, "after.pdf", invoice_bytes[1], ocr="never")
    assert status == 200 and out["source"]["path"] == "after.pdf"


def post_refused_early(port: int, body: bytes, headers: dict, *, chunked: bool) -> tuple[int, dict]:
    """POST ``body`` in pieces, as a client does that keeps sending while the server has already answered."""
    connection = http.client.HTTPConnection(HOST, port, timeout=60)
    try:
        connection.putrequest("POST", "/extract")
        framing = {"Transfer-Encoding": "chunked"} if chunked else {"Content-Length": str(len(body))}
        for key, value in {"Authorization": f"Bearer {TOKEN}", **headers, **framing}.items():
            connection.putheader(key, value)
        connection.endheaders()
        try:
            for start in range(0, len(body), 1 << 16):
                chunk = body[start:start + (1 << 16)]
                connection.send(b"%x\r\n%s\r\n" % (len(chunk), chunk) if chunked else chunk)
            if chunked:
                connection.send(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server answered and closed before the whole body was sent
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


def test_an_upload_over_the_limit_is_refused_before_it_is_read(server):
    big = b"%PDF-1.7\n" + b"0" * (UPLOAD_LIMIT_MB * 2**20 + 1)
    body, headers = multipart({"file": ("big.pdf", big)})
    for chunked in (False, True):  # by its Content-Length; without one, counted as it arrives
        status, out = post_refused_early(server, body, headers, chunked=chunked)
        assert status == 413, (chunked, out)
        assert out["error"]["code"] == "RESOURCE_LIMIT" and out["error"]["exit_code"] == 4
    status, _, _ = request(server, "GET", "/health")
    assert status == 200


def test_bad_options_are_usage_errors(server, invoice_bytes):
    _, data = invoice_bytes
    status, out = extract(server, "a.pdf", data, ocr="sometimes")
    assert status == 400 and out["error"]["code"] == "USAGE_ERROR" and out["error"]["exit_code"] == 2
    status, out = extract(server, "a.pdf", data, pdf_text="pdfium")
    assert status == 400 and out["error"]["code"] == "USAGE_ERROR"
    status, out = extract(server, "a.pdf", data, model="sroie")
    assert status == 400 and "serves the model" in out["error"]["message"]
    status, _, raw = request(server, "POST", "/extract", b"", {"Content-Type": "multipart/form-data; boundary=x"})
    assert status == 400 and json.loads(raw)["error"]["exit_code"] == 2


def test_a_non_loopback_host_without_a_token_exits_2_before_binding():
    env = {key: value for key, value in os.environ.items() if key != "DOCEXTRACT_TOKEN"}
    with socket.socket() as taken:  # the port held: had serve got as far as binding, uvicorn would fail on it (exit 1)
        taken.bind((HOST, 0))
        port = taken.getsockname()[1]
        done = subprocess.run([sys.executable, "-c", "from docextract.cli import main; main()", "serve", "--host",
                               "0.0.0.0", "--port", str(port), "--model", "none"],
                              capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 2, done.stderr
    assert done.stdout == "" and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "--token-file" in done.stderr and "DOCEXTRACT_TOKEN" in done.stderr and "--insecure-no-token" in done.stderr
    assert "listening" not in done.stderr  # nothing was loaded or started


def test_the_openapi_schema_is_served(server):
    status, _, raw = request(server, "GET", "/openapi.json")
    schema = json.loads(raw)
    assert status == 200 and {"/extract", "/health"} <= set(schema["paths"])
    form = schema["paths"]["/extract"]["post"]["requestBody"]["content"]["multipart/form-data"]
    assert form  # the upload and run's options are documented


def test_a_bounded_load_test_gets_no_errors_and_the_same_json_every_time(server, server_files, invoice_bytes, tmp_path):
    """benchmarks/serve_load.py against the test server: bounds on behaviour only (its timings are the benchmark's)."""
    path, _ = invoice_bytes
    out = tmp_path / "serve_load.json"
    done = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "serve_load.py"), str(path), "--url", f"http://{HOST}:{server}",
         "--token-file", str(server_files / "token"), "--clients", "3", "--seconds", "3", "--field", "ocr=never",
         "--out", str(out)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    (scenario,) = json.loads(out.read_text())["scenarios"]
    assert scenario["requests"] >= 3 and scenario["ok"] == scenario["requests"], scenario  # every client was answered
    assert scenario["errors"] == 0 and scenario["errors_by_kind"] == {}, scenario
    assert scenario["distinct_answers"] == 1, scenario  # every answer the same JSON
    assert scenario["p50_ms"] <= scenario["p99_ms"] <= scenario["max_ms"]


def new_log_lines(log: Path, offset: int, count: int) -> list[str]:
    """The request log lines written after byte ``offset`` of ``log``, once there are ``count`` of them (the server
    writes a line when its answer has gone, so it may come just after the client has read the answer)."""
    deadline = time.monotonic() + 30
    while True:
        with open(log, "rb") as file:
            file.seek(offset)
            lines = [line for line in file.read().decode().splitlines() if " client=" in line]
        if len(lines) >= count or time.monotonic() > deadline:
            return lines
        time.sleep(0.1)


def fields_of(line: str) -> dict[str, str]:
    timestamp, *pairs = line.split(" ")
    assert timestamp[:4].isdigit() and "T" in timestamp, line
    return dict(pair.split("=", 1) for pair in pairs)


def test_one_log_line_per_request_with_the_caller_and_never_the_token_or_the_document(server, server_files, invoice_bytes):
    log = server_files / "server.log"
    offset = log.stat().st_size
    _, data = invoice_bytes
    body, headers = multipart({"file": ("Jane Doe salary.pdf", data)}, {"ocr": "never"})
    wrong = "wrong-" + secrets.token_urlsafe(24)
    statuses = [request(server, "POST", "/extract", body, headers)[0],
                request(server, "POST", "/extract", body, headers, token=wrong)[0],
                request(server, "GET", "/health", token=None)[0],
                request(server, "GET", "/openapi.json?secret=query")[0],
                request(server, "GET", "/forged%0A2025-01-01T00:00:00+0000%20client=evil")[0]]
    assert statuses == [200, 401, 200, 200, 404]
    lines = new_log_lines(log, offset, len(statuses))
    assert len(lines) == len(statuses), lines
    logged = [fields_of(line) for line in lines]
    assert [(f["method"], f["path"], int(f["status"])) for f in logged] == [
        ("POST", "/extract", 200), ("POST", "/extract", 401), ("GET", "/health", 200), ("GET", "/openapi.json", 200),
        ("GET", "/forged%0A2025-01-01T00:00:00+0000%20client=evil", 404)]
    assert all(f["client"].startswith(f"{HOST}:") for f in logged)
    assert int(logged[0]["in_bytes"]) == len(body) and int(logged[0]["out_bytes"]) > 0 and int(logged[0]["ms"]) >= 0
    assert logged[1]["in_bytes"] == "0" and logged[1]["error"] == "UNAUTHORIZED"  # refused before the body is read
    assert "error" not in logged[0] and logged[4]["error"] == "NOT_FOUND"
    text = log.read_text()  # everything the server wrote in this module, every request before this one included
    assert TOKEN not in text and wrong not in text
    assert "Jane Doe" not in text and "RE-2024-0042" not in text and "secret=query" not in text
