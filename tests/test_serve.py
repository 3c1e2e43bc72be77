"""`docextract serve` tested as a client sees it: a real server process on loopback, real HTTP requests (one at a
time and concurrent), hostile files and oversized uploads answered with clear 4xx and the CLI's error codes."""

from __future__ import annotations

import http.client
import json
import os
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

from docextract.extraction.output import load_schema
from docextract.pipeline import RunOptions, extract_file

pytest.importorskip("fastapi", reason="docextract serve needs the 'serve' extra: pip install 'docextract[serve]'")
pytest.importorskip("uvicorn", reason="docextract serve needs the 'serve' extra: pip install 'docextract[serve]'")

HOST = "127.0.0.1"
UPLOAD_LIMIT_MB = 2
STARTUP_S = 180


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def request(port: int, method: str, path: str, body: bytes | None = None, headers: dict | None = None,
            timeout: float = 120) -> tuple[int, dict, bytes]:
    connection = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        connection.request(method, path, body=body, headers=headers or {})
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


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory):
    import torch

    from docextract.modeling import from_preset

    labels = ["O", "B-total", "I-total", "B-invoice_number", "I-invoice_number"]
    torch.manual_seed(0)
    model = from_preset("lspe-layoutlm", num_labels=len(labels), id2label=dict(enumerate(labels)),
                        label2id={l: i for i, l in enumerate(labels)}, num_hidden_layers=1)
    folder = tmp_path_factory.mktemp("model")
    model.save_pretrained(folder, safe_serialization=True)
    return folder


@pytest.fixture(scope="module")
def server(tiny_model, tmp_path_factory):
    """A `docextract serve` process with two isolated workers; yields its port; stopped at the end."""
    port = free_port()
    log = tmp_path_factory.mktemp("serve") / "server.log"
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    with open(log, "wb") as sink:
        process = subprocess.Popen(
            [sys.executable, "-c", "from docextract.cli import main; main()", "serve", "--host", HOST, "--port", str(port),
             "--model", str(tiny_model), "--workers", "2", "--timeout", "60", "--max-memory", "1024",
             "--max-upload-mb", str(UPLOAD_LIMIT_MB)], stdout=sink, stderr=subprocess.STDOUT, env=env)
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


def test_extract_answers_what_run_prints(server, tiny_model, invoice_bytes):
    path, data = invoice_bytes
    status, out = extract(server, "my invoice.pdf", data, ocr="never")
    assert status == 200, out
    jsonschema.validate(out, load_schema())
    assert out["source"]["path"] == "my invoice.pdf"
    local = extract_file(str(path), RunOptions(model=str(tiny_model), ocr="never"))
    assert out["documents"] == local["documents"] and out["text"] == local["text"]
    assert out["source"]["sha256"] == local["source"]["sha256"]


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
        for key, value in {**headers, **framing}.items():
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


def test_the_openapi_schema_is_served(server):
    status, _, raw = request(server, "GET", "/openapi.json")
    schema = json.loads(raw)
    assert status == 200 and {"/extract", "/health"} <= set(schema["paths"])
    form = schema["paths"]["/extract"]["post"]["requestBody"]["content"]["multipart/form-data"]
    assert form  # the upload and run's options are documented
