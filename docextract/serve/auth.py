"""Who may call the server: one shared bearer token, and no port open to a network without one by accident.

The token comes from a file (``--token-file``) or the ``DOCEXTRACT_TOKEN`` environment variable, never from the
command line, where every user of the machine can read it in the process list. Every request but ``GET /health``
must carry ``Authorization: Bearer <token>`` (RFC 6750); :class:`BearerToken` answers any other with 401 before
the request's body is read. The middleware keeps only the token's SHA-256, so no object in the server holds the
token itself (a traceback or a repr cannot show it), and compares digests with :func:`hmac.compare_digest`, in
time that depends neither on where a guess first differs nor on its length.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import os
import re
import stat
from pathlib import Path
from typing import Mapping

from docextract.errors import EXIT_USAGE, UsageError

TOKEN_ENV = "DOCEXTRACT_TOKEN"
MIN_TOKEN_CHARS = 16  # 16 random characters are beyond guessing over HTTP; shorter ones are mostly words
MAKE_TOKEN = "python3 -c 'import secrets; print(secrets.token_urlsafe(32))' > token && chmod 600 token"
OPEN_ROUTES = {("GET", "/health")}  # what a load balancer's health check may call without the token
_TOKEN_CHARS = re.compile(r"[\x21-\x7e]+")  # visible ASCII: what an HTTP header carries unchanged


def read_token(token_file: Path | None, environ: Mapping[str, str] = os.environ) -> str | None:
    """The token from ``token_file`` or ``$DOCEXTRACT_TOKEN`` (None when neither is given); a UsageError for
    both at once, a file that cannot be read, or a token that is empty, too short or not plain ASCII."""
    from_env = environ.get(TOKEN_ENV)
    if token_file is not None and from_env is not None:
        raise UsageError(f"both --token-file and {TOKEN_ENV} give a token; give one")
    if token_file is not None:
        try:
            text = Path(token_file).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            reason = error.strerror if isinstance(error, OSError) else "not UTF-8 text"
            raise UsageError(f"cannot read the token file: {reason}", path=str(token_file)) from None
        where = f"the token file {token_file}"
    elif from_env is not None:
        text, where = from_env, TOKEN_ENV
    else:
        return None
    token = text.strip()  # the line break an editor or `echo` leaves
    if not token:
        raise UsageError(f"{where} is empty; make a token with: {MAKE_TOKEN}")
    if not _TOKEN_CHARS.fullmatch(token):
        raise UsageError(f"the token in {where} must be printable ASCII without spaces (it travels in an HTTP header)")
    if len(token) < MIN_TOKEN_CHARS:
        raise UsageError(f"the token in {where} has {len(token)} characters, fewer than {MIN_TOKEN_CHARS}; "
                         f"make one with: {MAKE_TOKEN}")
    return token


def readable_by_others(token_file: Path) -> bool:
    """Whether the token file's mode lets its group or other users read it."""
    return bool(Path(token_file).stat().st_mode & (stat.S_IRGRP | stat.S_IROTH))


def is_loopback(host: str) -> bool:
    """Whether ``host`` listens on this machine only: ``localhost`` or a loopback address (127.0.0.0/8, ::1).
    A host name other than localhost counts as reachable from a network: it may name any interface."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_listen(host: str, has_token: bool, insecure_no_token: bool) -> None:
    """Refuse (UsageError, exit 2) to listen beyond this machine without a token, unless the operator said so."""
    if has_token and insecure_no_token:
        raise UsageError("--insecure-no-token was given together with a token; give one or the other")
    if not has_token and not insecure_no_token and not is_loopback(host):
        raise UsageError(f"--host {host} can be reached from other machines: give a token with --token-file FILE "
                         f"or {TOKEN_ENV}, or pass --insecure-no-token to serve without one")


def _digest(value: bytes) -> bytes:
    return hashlib.sha256(value).digest()


class BearerToken:
    """ASGI middleware: a request without the right ``Authorization: Bearer`` token is answered 401 (the error
    body every failure has, code ``UNAUTHORIZED``) before the application or its body is touched."""

    def __init__(self, app, token: str):
        # here, not at the top: the checks above run before `serve` imports FastAPI (an optional extra)
        from docextract.serve.app import error_response

        self.app = app
        self._expected = _digest(token.encode("ascii"))
        self._error_response = error_response

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or (scope["method"], scope["path"]) in OPEN_ROUTES:
            return await self.app(scope, receive, send)
        given = self._credentials(scope)
        if given is not None and hmac.compare_digest(_digest(given), self._expected):
            return await self.app(scope, receive, send)
        problem = ("this server needs a token: send the header 'Authorization: Bearer <token>'" if given is None
                   else "the bearer token is not this server's")
        response = self._error_response(401, "UNAUTHORIZED", problem, EXIT_USAGE,
                                  headers={"WWW-Authenticate": 'Bearer realm="docextract"'})
        await response(scope, receive, send)

    @staticmethod
    def _credentials(scope) -> bytes | None:
        """The token of the request's ``Authorization: Bearer`` header, None when there is none."""
        for name, value in scope.get("headers") or ():
            if name == b"authorization":
                scheme, _, credentials = value.strip().partition(b" ")
                if scheme.lower() == b"bearer" and credentials.strip():
                    return credentials.strip()
                return None
        return None
