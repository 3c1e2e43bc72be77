"""The HTTP application: ``POST /extract``, ``GET /health``, and the OpenAPI schema FastAPI serves at
``/openapi.json``. FastAPI's browsable pages (``/docs``, ``/redoc``) are off: they load their scripts from a CDN
(blank offline, and every visit announced to a third party), and a browser cannot send the bearer token a
networked server asks for (:mod:`docextract.serve.auth`).

``POST /extract`` takes one file (multipart field ``file``) and the options of `docextract run` as form fields,
runs it in an isolated worker (:mod:`docextract.serve.dispatch`) and answers with the JSON `run` prints
(``source.path`` is the uploaded file's name). Failures answer with one JSON object,
``{"error": {"code", "message", "exit_code", "stage"}}``: ``code`` from the CLI's closed set of error codes
(docs/batch.md), ``exit_code`` what `docextract run` exits with for the same file. The HTTP status says whose
problem it is (:func:`http_status`): 400 a bad option, 413 too large, 415 not a document, 422 a file that
cannot be processed (corrupt, encrypted, empty, over the time or memory a request may use), 503 the server
is busy or cannot serve, 500 a bug.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

from fastapi import FastAPI, File, Form, Request, UploadFile
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from docextract import __version__
from docextract.errors import (
    EXIT_INPUT_FAILED,
    EXIT_INTERNAL,
    EXIT_MISSING_DEPENDENCY,
    EXIT_MODEL_REFUSED,
    EXIT_USAGE,
    DocextractError,
)
from docextract.serve.dispatch import Busy, Dispatcher

COPY_CHUNK = 1 << 20
# Per-file error codes that a request's own file causes -> HTTP status (the rest: see http_status).
_STATUS_BY_CODE = {
    "PDF_TOO_LARGE": 413, "IMAGE_TOO_LARGE": 413, "RESOURCE_LIMIT": 413,
    "UNSUPPORTED_FORMAT": 415,
    "INPUT_EMPTY": 422, "INPUT_UNREADABLE": 422, "PDF_MALFORMED": 422, "PDF_ENCRYPTED": 422, "IMAGE_TRUNCATED": 422,
    "OCR_FAILED": 422, "OCR_TIMEOUT": 422, "TIMEOUT": 422, "MEMORY_LIMIT": 422, "WORKER_CRASH": 422,
    "MISSING_DEPENDENCY": 503, "MODEL_ERROR": 500, "INTERNAL_ERROR": 500,
}
_FORMATS = ("json", "csv")  # labelstudio is `run`'s only: it renders page images, which a server would do unisolated
_SAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")


@dataclass(frozen=True)
class ServeConfig:
    model: str | None = "invoice"  # the model every worker loads (None: text and layout only)
    workers: int = 1
    timeout_s: float = 120.0
    max_memory_mb: int = 2048
    max_upload_mb: float = 50.0
    max_pending: int = 16  # requests waiting for a worker beyond which the server answers 503
    startup_timeout_s: float = 300.0


def http_status(code: str, exit_code: int | None) -> int:
    """The HTTP status for a per-file error ``code`` (and the CLI exit code it carries)."""
    if code in _STATUS_BY_CODE:
        return _STATUS_BY_CODE[code]
    return {EXIT_USAGE: 400, EXIT_INPUT_FAILED: 422, EXIT_MISSING_DEPENDENCY: 503,
            EXIT_MODEL_REFUSED: 500}.get(exit_code or EXIT_INTERNAL, 500)


def exit_code_for(code: str, given: int | None) -> int:
    """What `docextract run` exits with for a file that failed with ``code``."""
    if given is not None:
        return given
    return EXIT_INTERNAL if code == "INTERNAL_ERROR" else EXIT_INPUT_FAILED  # TIMEOUT, MEMORY_LIMIT, WORKER_CRASH


def error_response(status: int, code: str, message: str, exit_code: int, stage: str | None = None,
                   headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message, "exit_code": exit_code, "stage": stage}},
                        status_code=status, headers=headers)


class UploadLimit:
    """ASGI middleware: a request body over ``limit`` bytes is answered 413 before it is read whole (by its
    Content-Length when sent, else by counting what arrives), so an oversized upload never fills the disk."""

    def __init__(self, app, limit: int):
        self.app = app
        self.limit = limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        declared = dict(scope.get("headers") or ()).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.limit:
            return await self._refuse(send)
        seen = 0
        started = too_large = False

        async def counted_receive():
            nonlocal seen, too_large
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    too_large = True
                    raise _TooLarge()
            return message

        async def tracked_send(message):
            nonlocal started
            if too_large:
                return  # the app's own answer to the aborted body (a 500) is replaced by the 413 below
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counted_receive, tracked_send)
        except _TooLarge:
            pass
        if too_large and not started:
            await self._refuse(send)

    async def _refuse(self, send):
        mb = self.limit / 2**20
        response = error_response(413, "RESOURCE_LIMIT", f"the upload is larger than this server's limit of {mb:g} MB "
                                  "(docextract serve --max-upload-mb)", EXIT_INPUT_FAILED, "upload",
                                  headers={"Connection": "close"})
        await send({"type": "http.response.start", "status": 413, "headers": response.raw_headers})
        await send({"type": "http.response.body", "body": response.body})


class _TooLarge(Exception):
    pass


def create_app(config: ServeConfig, dispatcher: Dispatcher | None = None) -> FastAPI:
    """The application; ``dispatcher``: the workers (started here when not given)."""
    from contextlib import asynccontextmanager

    options = {"model": config.model}

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        nonlocal dispatcher
        own = dispatcher is None
        if own:
            dispatcher = Dispatcher(options, workers=config.workers, timeout_s=config.timeout_s,
                                    max_memory_mb=config.max_memory_mb, max_pending=config.max_pending)
            dispatcher.start(wait_ready_s=config.startup_timeout_s)
        app.state.dispatcher = dispatcher
        try:
            yield
        finally:
            if own:
                dispatcher.close()

    app = FastAPI(
        title="docextract", version=__version__, lifespan=lifespan, docs_url=None, redoc_url=None,
        description="Business documents (PDFs, scans, photos) to structured entity JSON, as `docextract run` gives it. "
                    "Errors: {\"error\": {\"code\", \"message\", \"exit_code\", \"stage\"}} with the CLI's error codes. "
                    "A server started with a token (docextract serve --token-file) answers every request but GET /health "
                    "401 UNAUTHORIZED without the header Authorization: Bearer <token>.",
    )

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, error: RequestValidationError):
        problems = "; ".join(f"{'.'.join(str(p) for p in e.get('loc', ())[1:]) or 'request'}: {e.get('msg')}"
                             for e in error.errors())
        return error_response(400, "USAGE_ERROR", problems or "bad request", EXIT_USAGE)

    @app.exception_handler(StarletteHTTPException)
    async def no_such_route(request: Request, error: StarletteHTTPException):
        # FastAPI's own {"detail": ...} for an unknown path or method, in the error body every other failure has
        code = {404: "NOT_FOUND", 405: "METHOD_NOT_ALLOWED"}.get(error.status_code, "USAGE_ERROR")
        return error_response(error.status_code, code, f"{request.method} {request.url.path}: {error.detail}",
                              EXIT_USAGE, headers=getattr(error, "headers", None))

    @app.get("/health", summary="Whether the workers are up, and what they serve")
    async def health() -> JSONResponse:
        d: Dispatcher = app.state.dispatcher
        ready = d.ready_workers()
        body = {"status": "ok" if ready and d.failure is None else "unavailable", "version": __version__,
                "model": config.model, "workers": d.workers, "ready_workers": ready, "pending": d.pending(),
                "limits": {"timeout_s": config.timeout_s, "max_memory_mb": config.max_memory_mb,
                           "max_upload_mb": config.max_upload_mb, "max_pending": config.max_pending}}
        if d.failure is not None:
            body["error"] = d.failure.one_line()
        return JSONResponse(body, status_code=200 if body["status"] == "ok" else 503)

    @app.post("/extract", summary="Extract entity JSON from one document (the output of `docextract run FILE`)",
              responses={400: {"description": "a bad option"}, 413: {"description": "the upload or the document is too large"},
                         415: {"description": "not a supported document"}, 422: {"description": "the file cannot be processed"},
                         503: {"description": "busy, or cannot serve (retry later)"}})
    async def extract(
        file: UploadFile = File(..., description="A PDF, PNG, JPEG, TIFF or words JSON."),
        format: str = Form("json", description="json (the output of `docextract run`) or csv (one row per document)."),
        model: Optional[str] = Form(None, description="Must be the served model (see /health) or 'none' (text and layout only)."),
        ocr: str = Form("auto", description="auto: OCR only pages without a usable text layer; always; never."),
        lang: str = Form("auto", description="Tesseract language(s), e.g. eng or deu+eng. auto: read in English, then again in the page's own language when it is German, French, Dutch, Italian, Spanish, Swedish, Danish, Norwegian, Finnish, Portuguese, Polish or Czech."),
        dpi: int = Form(300, ge=50, le=1200, description="Rendering resolution for OCR."),
        password: Optional[str] = Form(None, description="Password of an encrypted PDF."),
        include_tokens: bool = Form(False, description="Add every word with its tag."),
        ignore_embedded: bool = Form(False, description="Read the page only, even when a PDF embeds its invoice as XML."),
        precision: Optional[float] = Form(None, ge=0.5, le=1.0, description="Review policy precision (default: the model's)."),
        split: bool = Form(True, description="Split a stack of invoices into documents (false: one document)."),
        pdf_text: str = Form("pdfplumber", description="How PDF text layers are read: pdfplumber, or auto (PDFium's "
                             "text page on the pages where it gives pdfplumber's words)."),
    ) -> Response:
        name = Path(file.filename or "upload").name or "upload"
        if format not in _FORMATS:
            return error_response(400, "USAGE_ERROR", f"format must be one of {', '.join(_FORMATS)}, got {format!r}", EXIT_USAGE)
        if ocr not in ("auto", "always", "never"):
            return error_response(400, "USAGE_ERROR", f"ocr must be auto, always or never, got {ocr!r}", EXIT_USAGE)
        if pdf_text not in ("pdfplumber", "auto"):
            return error_response(400, "USAGE_ERROR", f"pdf_text must be pdfplumber or auto, got {pdf_text!r}", EXIT_USAGE)
        served = "none" if config.model is None else config.model
        if model is not None and model.lower() not in (served.lower(), "none"):
            return error_response(400, "USAGE_ERROR", f"this server serves the model {served!r} (or 'none'); "
                                  f"start another with docextract serve --model {model}", EXIT_USAGE)
        run_options = {"model": None if (model or served).lower() == "none" else config.model, "ocr": ocr, "lang": lang,
                       "dpi": dpi, "password": password, "include_tokens": include_tokens,
                       "ignore_embedded": ignore_embedded, "precision": precision, "split": split,
                       "pdf_text": pdf_text}
        folder = tempfile.mkdtemp(prefix="docextract-serve-")
        try:
            path = os.path.join(folder, _SAFE_NAME.sub("_", name)[-100:] or "upload")
            with open(path, "wb") as sink:
                while chunk := await file.read(COPY_CHUNK):
                    sink.write(chunk)
            try:
                future: Future = app.state.dispatcher.submit(path, run_options)
            except Busy:
                return error_response(503, "BUSY", "every worker is busy and the waiting line is full; retry later",
                                      EXIT_INPUT_FAILED, headers={"Retry-After": "5"})
            except DocextractError as error:
                return error_response(503, error.code, error.one_line(), error.exit_code)
            import asyncio

            try:
                outcome = await asyncio.wrap_future(future)
            except DocextractError as error:
                return error_response(503, error.code, error.one_line(), error.exit_code)
            header = outcome.header
            if not header.get("ok"):
                error = header["error"]
                code = error["code"]
                exit_code = exit_code_for(code, header.get("exit_code"))
                message = error["message"].replace(path, name).replace(folder, "")
                if not message.startswith(f"{name}: "):  # the pool's own errors (TIMEOUT, MEMORY_LIMIT) name no file
                    message = f"{name}: {message}"
                return error_response(http_status(code, exit_code), code, message, exit_code, error.get("stage"))
            result = json.loads(outcome.payload)
            result["source"]["path"] = name
            return _formatted(result, format)
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    return app


def _formatted(result: dict[str, Any], format: str) -> Response:
    if format == "csv":
        from docextract.extraction.tabular import DOCUMENT_KEYS, document_rows, to_csv

        return PlainTextResponse(to_csv(document_rows([result]), DOCUMENT_KEYS), media_type="text/csv")
    return JSONResponse(result)
