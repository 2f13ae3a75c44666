"""Request ids: every answer carries `X-Request-ID` (the client's own when it is sane, else a new
one), and the same id is in the access log line, the error log and problem details."""

from __future__ import annotations

import logging
import re
import secrets
from typing import Any

from litestar.types import Message, Scope

HEADER = "X-Request-ID"
_SANE = re.compile(rb"[!-~]{1,128}")  # visible ASCII, bounded: safe to echo and to log as it is
_STATE_KEY = "request_id"
access_log = logging.getLogger("pantheon.access")


def request_id(scope: Scope | Any) -> str:
    """The request's id, fixed on first use: the client's `X-Request-ID` if it is 1 to 128 visible
    ASCII characters, else 32 random hex digits."""
    state = scope.setdefault("state", {})
    rid = state.get(_STATE_KEY)
    if rid is None:
        given = next((v for k, v in scope.get("headers", ()) if k.lower() == b"x-request-id"), None)
        rid = given.decode("ascii") if given is not None and _SANE.fullmatch(given) else secrets.token_hex(16)
        state[_STATE_KEY] = rid
    return rid


async def stamp(message: Message, scope: Scope) -> None:
    """A before_send hook: the id goes out as `X-Request-ID`, and the answer's access log line is written."""
    if message["type"] != "http.response.start":
        return
    rid = request_id(scope)
    message["headers"] = [
        *(h for h in message.get("headers", ()) if h[0].lower() != b"x-request-id"),
        (b"x-request-id", rid.encode()),
    ]
    if access_log.isEnabledFor(logging.INFO):
        _log_access(scope, message["status"], rid)


def _log_access(scope: Scope, status: int, rid: str) -> None:
    """The answer's access log line, `<client>:<port> - "<METHOD> <path?query>" <status> request_id=<id>`:
    made with one f-string and handed to the handlers as a record, without the caller lookup and
    argument formatting of `Logger.info` (a tenth of the line's cost went there, issue 26)."""
    client = scope.get("client") or ("-", 0)
    query = scope.get("query_string", b"")
    path = scope.get("raw_path", scope.get("path", "").encode()) + (b"?" + query if query else b"")
    method = "HEAD" if scope.get("head") else scope.get("method", "-")  # HeadAsGet runs HEAD as GET
    line = f'{client[0]}:{client[1]} - "{method} {path.decode("latin-1")}" {status} request_id={rid}'
    access_log.handle(logging.LogRecord(access_log.name, logging.INFO, __file__, 0, line, None, None))
