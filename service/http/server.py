"""The HTTP server: uvicorn with its httptools (llhttp) protocol on uvloop, subclassed to bound what a
client may hold.

uvicorn bounds nothing before a request's head is complete: a connection that sends half a head,
or trickles it a byte at a time, is held forever (its keep-alive timer is armed only after a
response and cancelled by any byte), llhttp has no limit on a head's size, and uvicorn accepts every
connection. This module owns those limits and nothing else (`run_server`):

- a request deadline: a request's head, and its body if it has one, must be complete within
  `header_timeout_s` of the connection's acceptance, or of the first byte of the next request on a
  kept-alive connection (pipelined ones included), however the bytes trickle in; else 408 (if any of
  it came) and the connection is closed;
- a head (request line, headers, blank line) over `max_header_bytes` is a 431 and a close, whether
  it comes whole or in pieces: counted byte for byte as it arrives (a read that opens with a head is
  searched for its end only when it is longer than the room left), and a pipelined head that began
  in the middle of a read is measured from what the parser kept of it;
- beyond `max_connections` open connections a new one is answered 503 at once and closed, so a
  flood costs a file descriptor only for an instant (the cap is lowered to fit the process's limit);
- an idle kept-alive connection is closed after `keep_alive_s` (uvicorn's own timer), and bytes that
  begin no request (empty lines) no longer cancel it.

Both are required dependencies: httptools and uvloop are where most of the server's own cost went
with h11 and asyncio's loop (docs/benchmarks.md, issue 26).
"""

from __future__ import annotations

import asyncio
import copy
import json
import logging
import resource
import secrets
from collections.abc import Callable
from http import HTTPStatus
from typing import Any

import httptools
import uvicorn
from uvicorn.config import LOGGING_CONFIG
from uvicorn.logging import DefaultFormatter
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from service.config import Settings
from service.tuning import for_serving

from .problems import PROBLEM_BASE, PROBLEM_MEDIA_TYPE

log = logging.getLogger("uvicorn.error")
SPARE_FILES = 64  # file descriptors kept free of client connections: Redis, logs, the listening socket


def _answer(status: int, code: str, detail: str, *headers: str) -> Callable[[], bytes]:
    """A whole HTTP/1.1 response with a problem body, that closes the connection: made afresh for each
    answer, with a request id of its own (the request's head was not read, so none of the client's)."""

    def answer() -> bytes:
        rid = secrets.token_hex(16)
        body = json.dumps(
            {
                "type": PROBLEM_BASE + code,
                "title": code.replace("_", " ").capitalize(),
                "status": status,
                "detail": detail,
                "code": code,
                "request_id": rid,
            }
        ).encode()
        head = [
            f"HTTP/1.1 {status} {HTTPStatus(status).phrase}",
            f"content-type: {PROBLEM_MEDIA_TYPE}",
            f"content-length: {len(body)}",
            "connection: close",
            f"x-request-id: {rid}",
            *headers,
        ]
        return "\r\n".join(head).encode() + b"\r\n\r\n" + body

    return answer


HEAD_TIMEOUT = _answer(408, "request_timeout", "The request did not arrive in time.")
HEAD_TOO_LARGE = _answer(431, "request_header_too_large", "The request line and headers are too large.")
TOO_MANY_CONNECTIONS = _answer(
    503, "too_many_connections", "The server has too many open connections; try again shortly.", "retry-after: 1"
)
END_OF_HEAD = b"\r\n\r\n"  # llhttp (strict, as uvicorn runs it) ends a head only there
# where a connection is in the client's current request, as the parser last left it
IDLE, HEAD, BODY = "idle", "head", "body"  # between requests; in a request's head; in its body


class GuardedHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with a request deadline, a head size limit and a connection cap
    (class attributes: `guarded_protocol` makes a subclass with the settings)."""

    header_timeout_s: float = 10.0
    max_header_bytes: int = 16 * 1024
    max_connections: int = 1000

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self._phase = IDLE
        self._head_bytes = 0  # bytes of the unfinished head counted so far (reads before this one; else 0)
        self._head_tail = b""  # its last bytes, where an end of head split across two reads begins
        self._fresh = False  # this read began between two requests (nothing of the next one came before)
        self._began = False  # a request began in this read
        self._exact = True  # the current head began at the start of a read, so its bytes are counted exactly
        self._refused = False  # the connection's last request was refused: nothing more is read
        self._owed: bytes | None = None  # that refusal, sent once earlier (pipelined) requests are answered

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self.max_connections:
            log.warning("Refused a connection: %d open connections.", len(self.connections) - 1)
            self._close(TOO_MANY_CONNECTIONS())
            return
        self._start_deadline()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_deadline()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        """uvicorn's, with the head's size counted as its bytes come; the keep-alive timer is left to
        `on_message_begin`, so that bytes which start no request (empty lines) do not cancel it."""
        phase = self._phase
        if self._refused:
            return
        if phase is not BODY and self._head_overflows(data):
            self._refuse_head()
            return
        self._fresh, self._began = phase is IDLE, False
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserUpgrade:
            if self._should_upgrade():
                self.handle_websocket_upgrade()
            else:
                self._unsupported_upgrade_warning()
        except httptools.HttpParserError:
            if not self._refused:  # else a parser callback refused the request already
                self.logger.warning("Invalid HTTP request received.")
                self.send_400_response("Invalid HTTP request received.")
            return
        if self._phase is HEAD:  # a head is still coming: count what came of it
            self._count_head(data)

    def _head_overflows(self, data: bytes) -> bool:
        """Whether this read, which opens with (more of) a head, takes it over the limit: it does when
        the bytes allowed hold no end of head (an exact count for any head that starts a read)."""
        room = self.max_header_bytes - self._head_bytes
        return len(data) > room and END_OF_HEAD not in self._head_tail + data[:room]

    def _count_head(self, data: bytes) -> None:
        if not self._began:  # the head that was coming before this read
            self._head_bytes += len(data)
        elif self._exact:
            self._head_bytes = len(data)
        # else the head began after another request in this read (pipelining): counted from the next
        # read on, and in full by `on_headers_complete` once it has come
        self._head_tail = data[-3:]
        if self._head_bytes > self.max_header_bytes:  # empty lines before it hid the end of head searched
            self._refuse_head()

    def _refuse_head(self) -> None:
        log.warning("Refused a request: its head is over %d bytes.", self.max_header_bytes)
        self._refuse(HEAD_TOO_LARGE())

    def _refuse(self, answer: bytes) -> None:
        """Stop reading, then answer and close: at once, or once the requests pipelined before this one
        are answered (this one then never reaches the app; one that reached it is cut off)."""
        self._refused = True
        self._stop_deadline()
        if self._phase is BODY:  # the request has a cycle: running (the ones before it answered) or queued
            waiting = bool(self.pipeline) and self.pipeline[0][0] is self.cycle
            if waiting:
                self.pipeline.popleft()
        else:
            waiting = self.cycle is not None and not self.cycle.response_complete
        if waiting:
            self._owed = answer
            self.flow.pause_reading()
        else:
            self._close(answer)

    # the parser's callbacks: where the client is in its request
    def on_message_begin(self) -> None:
        self._phase, self._exact, self._fresh, self._began = HEAD, self._fresh, False, True
        self._unset_keepalive_if_required()
        if self._deadline is None:
            self._start_deadline()  # the first bytes of the next request on a kept-alive connection
        super().on_message_begin()

    def on_headers_complete(self) -> None:
        if not self._exact and self._parsed_head_bytes() > self.max_header_bytes:
            self._refuse_head()
            raise HeadTooLarge  # stops the parser (data_received sees the request refused)
        self._phase, self._head_bytes, self._head_tail = BODY, 0, b""  # the next head starts from nothing
        super().on_headers_complete()

    def _parsed_head_bytes(self) -> int:
        """The head's size as it was sent, from what the parser kept of it (request line, headers, the
        empty line): exact but for spaces around header values."""
        line = len(self.parser.get_method()) + len(self.url) + len(" HTTP/1.1\r\n") + 1
        return line + sum(len(name) + len(value) + 4 for name, value in self.headers) + 2

    def on_message_complete(self) -> None:
        self._phase = IDLE
        self._stop_deadline()
        super().on_message_complete()

    def on_response_complete(self) -> None:
        last = not self.pipeline  # no request waits behind the one just answered
        super().on_response_complete()
        if self._owed is not None and last:  # the last answer owed before a refusal is sent
            self._close(self._owed)
        elif self._phase is not IDLE:  # the next request is coming already: its deadline holds, not keep-alive
            self._unset_keepalive_if_required()

    # the request deadline
    def _start_deadline(self) -> None:
        self._deadline = self.loop.call_later(self.header_timeout_s, self._timed_out)

    def _stop_deadline(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _timed_out(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self._refuse(HEAD_TIMEOUT() if self._phase is not IDLE else b"")  # 408 once some of it came

    def _close(self, answer: bytes) -> None:
        self._stop_deadline()
        if answer:
            self.transport.write(answer)
        self.transport.close()


class HeadTooLarge(Exception):
    """Raised in a parser callback to stop parsing a request refused for its head's size."""


def guarded_protocol(settings: Settings) -> type[GuardedHttpToolsProtocol]:
    """The protocol class with these settings; the connection cap fits the open-files limit."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    room = soft - SPARE_FILES if soft != resource.RLIM_INFINITY else settings.max_connections
    if settings.max_connections > room:
        log.warning(
            "PANTHEON_MAX_CONNECTIONS=%d does not fit the open-files limit (%d): using %d.",
            settings.max_connections,
            soft,
            room,
        )
    return type(
        "GuardedHttpToolsProtocol",
        (GuardedHttpToolsProtocol,),
        {
            "header_timeout_s": settings.header_timeout_s,
            "max_header_bytes": settings.max_header_bytes,
            "max_connections": max(1, min(settings.max_connections, room)),
        },
    )


class AccessFormatter(logging.Formatter):
    """uvicorn's default format (`INFO:     <message>`, the level coloured when stderr is a terminal)
    for the access log, one line per answer: the prefix is made once per level, so a line costs one
    concatenation instead of uvicorn's copy of the record and two format passes."""

    def __init__(self) -> None:
        super().__init__()
        self._uvicorn = DefaultFormatter("%(levelprefix)s %(message)s")
        self._prefixes: dict[int, str] = {}

    def format(self, record: logging.LogRecord) -> str:
        prefix = self._prefixes.get(record.levelno)
        if prefix is None:
            blank = logging.LogRecord(record.name, record.levelno, "", 0, "", None, None)
            prefix = self._prefixes[record.levelno] = self._uvicorn.format(blank)
        return prefix + record.getMessage()


def log_config() -> dict[str, Any]:
    """uvicorn's logging, plus the app's loggers (`pantheon.*`): the app writes the access log lines
    itself, with each answer's request id (service/http/requestid.py), instead of uvicorn."""
    config = copy.deepcopy(LOGGING_CONFIG)
    config["formatters"]["app"] = {"()": f"{__name__}.AccessFormatter"}
    config["handlers"]["app_access"] = {
        "formatter": "app",
        "class": "logging.StreamHandler",
        "stream": "ext://sys.stdout",
    }
    config["loggers"]["pantheon"] = {"handlers": ["default"], "level": "INFO", "propagate": False}
    config["loggers"]["pantheon.access"] = {"handlers": ["app_access"], "level": "INFO", "propagate": False}
    return config


def run_server(app: Any, settings: Settings) -> None:
    """Serve `app` on the settings' host and port until interrupted."""
    for_serving()  # the garbage collector's pauses were most of the paced p99 (service/tuning.py)
    # proxy_headers off: uvicorn would believe X-Forwarded-For from 127.0.0.1; the app decides whom to
    # believe (PANTHEON_TRUSTED_PROXIES)
    uvicorn.run(
        app,
        host=settings.host,
        port=settings.port,
        log_level="info",
        http=guarded_protocol(settings),
        loop="uvloop",
        proxy_headers=False,
        access_log=False,
        log_config=log_config(),
        timeout_keep_alive=settings.keep_alive_s,  # type: ignore[arg-type]  # a float works
    )
