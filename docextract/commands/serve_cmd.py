"""`docextract serve`: the extraction of `run` over HTTP (FastAPI + uvicorn, the optional extra `serve`)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional

import typer

from docextract.commands.common import stderr, user_errors
from docextract.errors import MissingDependencyError

DEFAULT_FORWARDED_ALLOW_IPS = "127.0.0.1,::1"  # uvicorn's own default: a reverse proxy on this machine


def serve(
    host: str = typer.Option("127.0.0.1", help="Address to listen on (127.0.0.1: this machine only). Any other needs a token."),
    port: int = typer.Option(8000, min=0, max=65535, help="Port to listen on."),
    model: str = typer.Option("invoice", "--model", "-m", help="The model every worker loads once: a shipped name, a model folder, or 'none' (text and layout only)."),
    workers: int = typer.Option(1, min=1, max=64, help="Isolated worker processes extracting in parallel (each loads the model once)."),
    timeout: float = typer.Option(120, min=1, help="Seconds one request's file may take; beyond, its worker is killed and replaced (422 TIMEOUT)."),
    max_memory: int = typer.Option(2048, min=256, help="Memory cap per worker in MB over its size with the model loaded (422 MEMORY_LIMIT beyond)."),
    max_upload_mb: float = typer.Option(50, min=0.001, help="Largest upload accepted (413 beyond, refused before it is read whole)."),
    max_pending: int = typer.Option(16, min=0, help="Requests that may wait for a worker; more are answered 503 BUSY."),
    token_file: Optional[Path] = typer.Option(None, "--token-file", help="A file holding the bearer token every request but GET /health must send (Authorization: Bearer <token>). Or set DOCEXTRACT_TOKEN. Never on the command line: the process list shows it to every user."),
    insecure_no_token: bool = typer.Option(False, "--insecure-no-token", help="Listen on a non-loopback --host without a token: anyone who can reach the port can extract documents."),
    forwarded_allow_ips: str = typer.Option(DEFAULT_FORWARDED_ALLOW_IPS, help="Reverse proxies whose X-Forwarded-For / X-Forwarded-Proto are believed (comma-separated addresses or networks, '*' for any): the request log then names the caller they forward for."),
) -> None:
    """Serve `docextract run` over HTTP: POST /extract (a file upload plus run's options as form fields; the same JSON
    as run), GET /health, and the OpenAPI schema at /openapi.json. One line per request on stderr.

    Example: docextract serve --port 8000 & curl -F file=@examples/invoice.pdf http://127.0.0.1:8000/extract
    """
    with user_errors():
        from docextract.serve.auth import TOKEN_ENV, check_listen, read_token, readable_by_others

        token = read_token(token_file)
        os.environ.pop(TOKEN_ENV, None)  # the workers, which open untrusted files, inherit the environment: not the token
        check_listen(host, token is not None, insecure_no_token)  # before anything is loaded or bound
        if token_file is not None and readable_by_others(token_file):
            stderr.print(f"docextract serve: warning: the token file {token_file} can be read by other users "
                         f"(chmod 600 {token_file})", highlight=False, soft_wrap=True)
        try:
            import uvicorn

            from docextract.serve.app import ServeConfig
            from docextract.serve.service import service
        except ImportError as error:
            raise MissingDependencyError(f"docextract serve needs FastAPI and uvicorn ({error.name} is missing): "
                                         "pip install 'docextract[serve]'") from None
        name = None if model.lower() == "none" else model
        if name is not None and name != "auto":
            from docextract.commands.data_cmds import model_labels

            model_labels(name)  # a model that cannot be found or read: its one-line error and exit code now
        config = ServeConfig(model=name, workers=workers, timeout_s=timeout, max_memory_mb=max_memory,
                             max_upload_mb=max_upload_mb, max_pending=max_pending)
        access = ("every request but GET /health needs the bearer token" if token is not None
                  else "no token: anyone who can reach the port may use it")
        stderr.print(f"docextract serve: loading {name or 'no model'} in {workers} worker(s), then listening on "
                     f"http://{host}:{port} ({access})", highlight=False, soft_wrap=True)
        uvicorn.run(service(config, token), host=host, port=port, log_level="warning", lifespan="on",
                    proxy_headers=True, forwarded_allow_ips=forwarded_allow_ips)
