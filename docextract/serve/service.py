"""The server as it listens: each request passes the request log, then the token check, then the upload limit,
then the routes (``app``). uvicorn's proxy-headers middleware sits outside all of them (``docextract serve
--forwarded-allow-ips``), so the log names the caller a trusted reverse proxy forwards for."""

from __future__ import annotations

from docextract.serve.app import ServeConfig, UploadLimit, create_app
from docextract.serve.auth import BearerToken
from docextract.serve.dispatch import Dispatcher
from docextract.serve.request_log import RequestLog


def service(config: ServeConfig, token: str | None, dispatcher: Dispatcher | None = None):
    """The ASGI application of ``docextract serve``; ``token``: the bearer token every request but ``GET /health``
    must carry (None: none, which ``serve`` allows on a loopback address or with ``--insecure-no-token`` only)."""
    application = UploadLimit(create_app(config, dispatcher), int(config.max_upload_mb * 2**20))
    if token is not None:
        application = BearerToken(application, token)
    return RequestLog(application)
