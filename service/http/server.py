"""The HTTP server: uvicorn with its h11 protocol, subclassed to bound what a client may hold.

uvicorn bounds nothing before a request's head is complete: a connection that sends half a head,
or trickles it a byte at a time, is held forever (its keep-alive timer is armed only after a
response and cancelled by any byte), a head that arrives in one read is not size-checked, and it
accepts every connection. This module owns those limits and nothing else (`run_server`):

- a request deadline: a request's head, and its body if it has one, must be complete within
  `header_timeout_s` of the connection's acceptance, or of the first byte of the next request on a
  kept-alive connection, however the bytes trickle in; else 408 (if any of it came) and the
  connection is closed;
- a head (request line, headers, blank line) over `max_header_bytes` is a 431 and a close, whether
  it comes whole or in pieces;
- beyond `max_connections` open connections a new one is answered 503 at once and closed, so a
  flood costs a file descriptor only for an instant (the cap is lowered to fit the process's limit);
- an idle kept-alive connection is closed after `keep_alive_s` (uvicorn's own timer).
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

import h11
import uvicorn
from uvicorn.config import LOGGING_CONFIG
from uvicorn.protocols.http.h11_impl import H11Protocol

from service.config import Settings

from .problems import PROBLEM_BASE, PROBLEM_MEDIA_TYPE

log = logging.getLogger("uvicorn.error")
SPARE_FILES = 64  # file descriptors kept free of client connections: Redis, logs, the listening socket


def _answer(status: int, code: str, detail: str, *headers: str) -> Callable[[], bytes]:
    """A whole HTTP/1.1 response with a problem body, that closes the connection: made afresh for each
    answer, with a request id of its own (the request's head was not read, so none of the client's)."""
    def answer() -> bytes:
        rid = secrets.token_hex(16)
        body = json.dumps({"type": PROBLEM_BASE + code, "title": code.replace("_", " ").capitalize(),
                           "status": status, "detail": detail, "code": code, "request_id": rid}).encode()
        head = [f"HTTP/1.1 {status} {HTTPStatus(status).phrase}", f"content-type: {PROBLEM_MEDIA_TYPE}",
                f"content-length: {len(body)}", "connection: close", f"x-request-id: {rid}", *headers]
        return "\r\n".join(head).encode() + b"\r\n\r\n" + body
    return answer


HEAD_TIMEOUT = _answer(408, "request_timeout", "The request did not arrive in time.")
_ARRIVING = (h11.IDLE, h11.SEND_BODY)  # the client's states while its request is still coming
HEAD_TOO_LARGE = _answer(431, "request_header_too_large", "The request line and headers are too large.")
TOO_MANY_CONNECTIONS = _answer(503, "too_many_connections", "The server has too many open connections; "
                               "try again shortly.", "retry-after: 1")


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a header deadline, a head size limit and a connection cap
    (class attributes: `guarded_protocol` makes a subclass with the settings)."""

    header_timeout_s: float = 10.0
    max_header_bytes: int = 16 * 1024
    max_connections: int = 1000

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head_deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self.max_connections:
            log.warning("Refused a connection: %d open connections.", len(self.connections) - 1)
            self._close(TOO_MANY_CONNECTIONS())
            return
        self._start_head_deadline()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_head_deadline()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.conn.their_state is h11.IDLE and self._head_too_large(data):  # a request's head is coming
            log.warning("Refused a request: its head is over %d bytes.", self.max_header_bytes)
            self._close(HEAD_TOO_LARGE())
            return
        super().data_received(data)
        if self.conn.their_state not in _ARRIVING:  # the request is complete (or the connection is done)
            self._stop_head_deadline()
        elif self._head_deadline is None and not self.transport.is_closing():
            self._start_head_deadline()  # the first bytes of the next request on a kept-alive connection

    def _head_too_large(self, data: bytes) -> bool:
        buffered = self.conn.trailing_data[0]
        if len(buffered) + len(data) <= self.max_header_bytes:
            return False
        head = (buffered + data)[:self.max_header_bytes]  # h11 ends a head at an empty line, \r\n or \n
        return b"\n\r\n" not in head and b"\n\n" not in head

    def _start_head_deadline(self) -> None:
        self._head_deadline = self.loop.call_later(self.header_timeout_s, self._head_timed_out)

    def _stop_head_deadline(self) -> None:
        if self._head_deadline is not None:
            self._head_deadline.cancel()
            self._head_deadline = None

    def _head_timed_out(self) -> None:
        self._head_deadline = None
        if self.conn.their_state in _ARRIVING and not self.transport.is_closing():
            started = self.conn.their_state is h11.SEND_BODY or self.conn.trailing_data[0]
            self._close(HEAD_TIMEOUT() if started else b"")

    def _close(self, answer: bytes) -> None:
        if answer:
            self.transport.write(answer)
        self.transport.close()


def guarded_protocol(settings: Settings) -> type[GuardedH11Protocol]:
    """The protocol class with these settings; the connection cap fits the open-files limit."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    room = soft - SPARE_FILES if soft != resource.RLIM_INFINITY else settings.max_connections
    if settings.max_connections > room:
        log.warning("PANTHEON_MAX_CONNECTIONS=%d does not fit the open-files limit (%d): using %d.",
                    settings.max_connections, soft, room)
    return type("GuardedH11Protocol", (GuardedH11Protocol,), {
        "header_timeout_s": settings.header_timeout_s, "max_header_bytes": settings.max_header_bytes,
        "max_connections": max(1, min(settings.max_connections, room))})


def log_config() -> dict[str, Any]:
    """uvicorn's logging, plus the app's loggers (`pantheon.*`): the app writes the access log lines
    itself, with each answer's request id (service/http/requestid.py), instead of uvicorn."""
    config = copy.deepcopy(LOGGING_CONFIG)
    config["formatters"]["app"] = {"()": "uvicorn.logging.DefaultFormatter", "fmt": "%(levelprefix)s %(message)s"}
    config["handlers"]["app_access"] = {"formatter": "app", "class": "logging.StreamHandler", "stream": "ext://sys.stdout"}
    config["loggers"]["pantheon"] = {"handlers": ["default"], "level": "INFO", "propagate": False}
    config["loggers"]["pantheon.access"] = {"handlers": ["app_access"], "level": "INFO", "propagate": False}
    return config


def run_server(app: Any, settings: Settings) -> None:
    """Serve `app` on the settings' host and port until interrupted."""
    # proxy_headers off: uvicorn would believe X-Forwarded-For from 127.0.0.1; the app decides whom to
    # believe (PANTHEON_TRUSTED_PROXIES)
    uvicorn.run(app, host=settings.host, port=settings.port, log_level="info", http=guarded_protocol(settings),
                proxy_headers=False, access_log=False, log_config=log_config(),
                timeout_keep_alive=settings.keep_alive_s,  # type: ignore[arg-type]  # a float works
                h11_max_incomplete_event_size=settings.max_header_bytes)
