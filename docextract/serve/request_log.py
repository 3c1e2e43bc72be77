"""One log line per request, on stderr, for the people who run the server:

    2025-11-26T10:12:03+0000 client=10.0.0.7:52114 method=POST path=/extract status=200 in_bytes=31457584 out_bytes=4821 ms=412
    2025-11-26T10:12:05+0000 client=10.0.0.9:40022 method=POST path=/extract status=401 in_bytes=0 out_bytes=187 ms=0 error=UNAUTHORIZED

``client`` is the caller's address (behind a trusted reverse proxy, the address it forwards: uvicorn's proxy
headers, ``docextract serve --forwarded-allow-ips``), ``in_bytes``/``out_bytes`` the bodies read and sent, ``ms``
the time from the request to the last byte of the answer, ``error`` the code of an error answer. A line never
holds a header (the token travels in one), the query string, the uploaded file's name or any of its content.
"""

from __future__ import annotations

import json
import logging
import sys
import time

LOGGER_NAME = "docextract.serve.requests"
MAX_PATH_CHARS = 200
ERROR_BODY_BYTES = 4096  # error answers are one small JSON object; a bigger body is not read for its code


def request_logger() -> logging.Logger:
    """The logger the lines go to: stderr, one line each with an ISO 8601 time, set up once per process."""
    logger = logging.getLogger(LOGGER_NAME)
    if not logger.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(asctime)s %(message)s", datefmt="%Y-%m-%dT%H:%M:%S%z"))
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
        logger.propagate = False
    return logger


def _path(scope) -> str:
    """The request path as it came on the wire (still percent-encoded: a ``%0A`` cannot start a forged line)."""
    raw = scope.get("raw_path")
    text = raw.decode("ascii", "backslashreplace") if raw else scope.get("path", "")
    text = text.partition("?")[0]
    return "".join(c if c.isprintable() and not c.isspace() else "?" for c in text)[:MAX_PATH_CHARS] or "-"


def _client(scope) -> str:
    client = scope.get("client")
    return f"{client[0]}:{client[1]}" if client else "-"


def _error_code(body: bytes) -> str | None:
    try:
        code = json.loads(body)["error"]["code"]
    except (ValueError, KeyError, TypeError):
        return None
    return code if isinstance(code, str) and code.isidentifier() else None


class RequestLog:
    """ASGI middleware: after each HTTP request, one line to ``logger`` (see the module's docstring)."""

    def __init__(self, app, logger: logging.Logger | None = None):
        self.app = app
        self.logger = logger or request_logger()

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        started = time.perf_counter()
        status: int | None = None
        received = sent = 0
        error_body = bytearray()

        async def counted_receive():
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
            return message

        async def counted_send(message):
            nonlocal status, sent
            if message["type"] == "http.response.start":
                status = message["status"]
            elif message["type"] == "http.response.body":
                body = message.get("body", b"")
                sent += len(body)
                if status is not None and status >= 400 and len(error_body) + len(body) <= ERROR_BODY_BYTES:
                    error_body.extend(body)
            await send(message)

        failed = True
        try:
            await self.app(scope, counted_receive, counted_send)
            failed = False
        finally:
            shown = status if status is not None else (500 if failed else "-")  # uvicorn answers a raised error 500
            line = (f"client={_client(scope)} method={scope.get('method', '-')} path={_path(scope)} "
                    f"status={shown} in_bytes={received} out_bytes={sent} "
                    f"ms={round((time.perf_counter() - started) * 1000)}")
            code = _error_code(bytes(error_body)) if error_body else None
            self.logger.info(line + (f" error={code}" if code else ""))
