"""Slow and idle clients against a real `pantheon api` process over real sockets on 127.0.0.1: a
request head that stalls or trickles is cut off by the total header deadline, hundreds of such
connections neither block a normal client nor stay open, an oversized head is a 431, an idle
keep-alive connection is closed, and connections beyond the cap are answered 503 and closed at once
instead of eating the process's file descriptors (and the cap fits the open-files limit).

Every test runs its own API with short limits (about a second) and bounds each wait itself."""

from __future__ import annotations

import contextlib
import os
import resource
import selectors
import socket
import time

import httpx
import pytest

from service.config import Settings
from service.http.server import SPARE_FILES, guarded_protocol

from ..live import live_api, live_api_process

pytestmark = pytest.mark.alone

HOST = "127.0.0.1"
REQUEST = b"GET /health/live HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"


def _port(base: str) -> int:
    return int(base.rsplit(":", 1)[1])


def _connect(base: str, first: bytes = b"") -> socket.socket:
    sock = socket.create_connection((HOST, _port(base)), timeout=5)
    if first:
        sock.sendall(first)
    return sock


def _closing_times(socks: list[socket.socket], start: float, within: float) -> tuple[list[float | None], list[bytes]]:
    """Wait (at most until `start + within`) for the server to close each socket (end of stream or
    reset): the seconds from `start` to each close (None: still open), and what the server sent."""
    closed: list[float | None] = [None] * len(socks)
    got = [b""] * len(socks)
    with selectors.DefaultSelector() as selector:
        for i, sock in enumerate(socks):
            sock.setblocking(False)
            selector.register(sock, selectors.EVENT_READ, i)
        while selector.get_map():
            left = start + within - time.monotonic()
            if left <= 0:
                break
            for key, _ in selector.select(timeout=left):
                i = key.data
                try:
                    chunk = socks[i].recv(65536)
                except BlockingIOError:
                    continue
                except (ConnectionResetError, BrokenPipeError):
                    chunk = b""
                if chunk:
                    got[i] += chunk
                    continue
                closed[i] = time.monotonic() - start
                selector.unregister(socks[i])
    return closed, got


def _status(answer: bytes) -> int:
    assert answer.startswith(b"HTTP/1.1 "), answer[:80]
    return int(answer.split(b" ", 2)[1])


def _read_response(sock: socket.socket) -> tuple[int, bytes]:
    """Read one response with a Content-Length from a blocking socket: its status and head."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, f"the server closed the connection mid-response: {data!r}"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(
        int(line.split(b":", 1)[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")
    )
    while len(body) < length:
        body += sock.recv(65536)
    return _status(head), head


def _open_files(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def test_a_client_that_stops_sending_its_head_is_disconnected_at_the_header_timeout(redis_url, prefix):
    heads = [b"", b"GET /health/live HT", b"GET /health/live HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Wait: "]
    with live_api(redis_url, prefix, PANTHEON_HEADER_TIMEOUT_S="1") as base:
        start = time.monotonic()
        socks = [_connect(base, head) for head in heads]
        try:
            closed, got = _closing_times(socks, start, within=3.5)
        finally:
            for sock in socks:
                sock.close()
    for head, when, answer in zip(heads, closed, got):
        assert when is not None, f"after {head!r} the server still held the connection 3.5 s later"
        assert 0.8 <= when <= 2.5, (head, when)
        assert (_status(answer) == 408) if head else answer == b"", answer  # 408 once some of it came


def _trickle(sock: socket.socket, start: float, within: float = 4) -> tuple[float | None, int]:
    """Send one byte every 0.1 s (far quicker than any header timeout here) until the server closes
    the connection: the seconds from `start` to the close (None: still open), and the bytes sent."""
    sock.setblocking(False)
    sent = 0
    with selectors.DefaultSelector() as selector:
        selector.register(sock, selectors.EVENT_READ)
        while time.monotonic() - start < within:
            try:
                sock.send(b"a")
                sent += 1
            except (BrokenPipeError, ConnectionResetError):
                return time.monotonic() - start, sent
            if selector.select(timeout=0.1):
                try:
                    while chunk := sock.recv(65536):
                        assert _status(chunk) == 408, chunk
                except BlockingIOError:
                    continue
                except ConnectionResetError:
                    pass
                return time.monotonic() - start, sent
    return None, sent


def test_a_client_trickling_its_head_is_cut_off_by_the_total_deadline_not_a_per_read_one(redis_url, prefix):
    with live_api(redis_url, prefix, PANTHEON_HEADER_TIMEOUT_S="1") as base:
        start = time.monotonic()
        with _connect(base, b"GET /health/live HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ") as sock:
            closed_at, sent = _trickle(sock, start)
    assert closed_at is not None, f"the server still took a byte every 0.1 s after 4 s ({sent} bytes)"
    assert 0.8 <= closed_at <= 2.5 and sent >= 6, (closed_at, sent)


def test_a_client_trickling_its_body_is_cut_off_by_the_same_deadline(redis_url, prefix):
    head = (
        b"POST /games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b'Content-Length: 2000\r\n\r\n{"seats": '
    )
    with live_api(redis_url, prefix, PANTHEON_HEADER_TIMEOUT_S="1") as base:
        start = time.monotonic()
        with _connect(base, head) as sock:
            closed_at, sent = _trickle(sock, start)  # any answer before the close must be a 408
    assert closed_at is not None, f"the server still took a body byte every 0.1 s after 4 s ({sent} bytes)"
    assert 0.8 <= closed_at <= 2.5, (closed_at, sent)


def test_hundreds_of_stalled_heads_neither_block_a_normal_client_nor_stay_open(redis_url, prefix):
    with live_api_process(redis_url, prefix, PANTHEON_HEADER_TIMEOUT_S="2") as (base, process):
        baseline = _open_files(process.pid)
        start = time.monotonic()
        socks = [_connect(base, b"GET /games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Wait: ") for _ in range(300)]
        try:
            with httpx.Client(base_url=base, timeout=5) as client:
                for _ in range(5):
                    asked = time.monotonic()
                    assert client.get("/health/ready").status_code == 200
                    assert client.get("/games").status_code == 200
                    assert time.monotonic() - asked < 1.0, "a normal client waited behind the stalled ones"
            assert time.monotonic() - start < 1.5  # all that, well inside the stalled heads' 2 s
            held = _closing_times(socks, time.monotonic(), within=0.05)[0]
            assert held.count(None) == 300, "the stalled connections were dropped before their deadline"
            closed, _ = _closing_times(socks, start, within=4.5)
        finally:
            for sock in socks:
                sock.close()
        assert closed.count(None) == 0, f"{closed.count(None)} of 300 stalled connections still open after 4.5 s"
        assert max(closed) <= 4.0, max(closed)
        deadline = time.monotonic() + 2
        while _open_files(process.pid) > baseline + 10 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _open_files(process.pid) <= baseline + 10, (baseline, _open_files(process.pid))


def _header_of(size: int) -> bytes:
    """A request whose head (request line, headers, blank line) is exactly `size` bytes."""
    start = b"GET /health/live HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nX-Big: "
    return start + b"a" * (size - len(start) - 4) + b"\r\n\r\n"


def test_a_head_over_the_limit_is_a_431_at_once_whether_sent_whole_or_in_pieces(redis_url, prefix):
    with live_api(redis_url, prefix, PANTHEON_MAX_HEADER_BYTES="8192") as base:
        for size, status in ((8192, 200), (8193, 431), (12 * 1024, 431), (200 * 1024, 431)):
            start = time.monotonic()
            with _connect(base) as sock:
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # refused before all of it was sent
                    sock.sendall(_header_of(size))
                closed, got = _closing_times([sock], start, within=2)
            assert closed[0] is not None, f"a head of {size} bytes: no answer and the connection held for 2 s"
            assert _status(got[0]) == status, (size, got[0][:200])
        # in pieces: refused as soon as the limit is passed, long before the header timeout (10 s)
        start = time.monotonic()
        with _connect(base) as sock:
            request, answer, pieces = _header_of(12 * 1024), b"", 0
            sock.settimeout(0.02)
            for i in range(0, len(request), 512):
                try:
                    sock.sendall(request[i : i + 512])
                    pieces += 1
                    answer += sock.recv(65536)
                except TimeoutError:
                    continue
                except (BrokenPipeError, ConnectionResetError):
                    break
                if answer:
                    break
            closed, got = _closing_times([sock], start, within=2)
        assert closed[0] is not None and closed[0] < 2, closed
        assert _status(answer + got[0]) == 431 and pieces <= 17, (pieces, (answer + got[0])[:200])


def test_the_default_header_limit_is_16_kib(redis_url, prefix):
    with live_api(redis_url, prefix) as base:
        for size, status in ((16 * 1024, 200), (16 * 1024 + 1, 431), (64 * 1024, 431)):
            start = time.monotonic()
            with _connect(base, _header_of(size)) as sock:
                closed, got = _closing_times([sock], start, within=2)
            assert closed[0] is not None and _status(got[0]) == status, (size, closed, got[0][:200])


def test_an_idle_keep_alive_connection_is_closed_after_the_keep_alive_timeout(redis_url, prefix):
    with live_api(redis_url, prefix, PANTHEON_KEEP_ALIVE_S="1") as base, _connect(base, REQUEST) as sock:
        assert _read_response(sock)[0] == 200
        start = time.monotonic()
        closed, got = _closing_times([sock], start, within=3)
    assert closed[0] is not None, "an idle keep-alive connection was still open 3 s after its response"
    assert 0.7 <= closed[0] <= 2.5 and got == [b""], (closed, got)


def test_a_keep_alive_connection_may_idle_but_its_next_head_has_the_header_deadline(redis_url, prefix):
    with live_api(redis_url, prefix, PANTHEON_KEEP_ALIVE_S="30", PANTHEON_HEADER_TIMEOUT_S="1") as base:  # noqa: SIM117 - a server, then its clients: two steps
        with _connect(base, REQUEST) as sock:
            assert _read_response(sock)[0] == 200
            time.sleep(1.5)  # idle longer than the header timeout: keep-alive still holds
            sock.sendall(REQUEST)
            assert _read_response(sock)[0] == 200
            start = time.monotonic()
            sock.sendall(b"GET /health/live HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            closed_at, sent = _trickle(sock, start)
    assert closed_at is not None, "a keep-alive connection trickling its next head was held for 4 s"
    assert 0.8 <= closed_at <= 2.5 and sent >= 6, (closed_at, sent)


def test_connections_beyond_the_cap_are_answered_503_and_closed_at_once(redis_url, prefix):
    cap = 50
    with live_api_process(redis_url, prefix, PANTHEON_MAX_CONNECTIONS=str(cap), PANTHEON_HEADER_TIMEOUT_S="5") as (
        base,
        process,
    ):
        baseline = _open_files(process.pid)
        held = [_connect(base) for _ in range(cap)]
        try:
            deadline = time.monotonic() + 2
            while _open_files(process.pid) < baseline + cap and time.monotonic() < deadline:
                time.sleep(0.02)
            with httpx.Client(base_url=base, timeout=5) as client:
                answer = client.get("/health/live")
            assert answer.status_code == 503 and answer.headers["connection"] == "close", answer
            assert answer.headers["retry-after"] == "1"
            assert answer.json()["code"] == "too_many_connections", answer.text
            assert answer.json()["request_id"] == answer.headers["x-request-id"]  # one of its own, as every answer
            start = time.monotonic()
            extra = [_connect(base, b"GET /health/live HTTP/1.1\r\nHost: 127.0.0.1\r\n") for _ in range(200)]
            try:
                closed, got = _closing_times(extra, start, within=3)
                # the clients still hold their ends open: the server holds none of them
                holding = _open_files(process.pid)
            finally:
                for sock in extra:
                    sock.close()
            assert closed.count(None) == 0, f"{closed.count(None)} of 200 connections over the cap were held"
            assert max(closed) < 1.5, max(closed)
            assert [_status(g) for g in got] == [503] * 200
            assert holding <= baseline + cap + 10, (baseline, holding)
        finally:
            for sock in held:
                sock.close()
        deadline = time.monotonic() + 2
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{base}/health/live", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        else:
            raise AssertionError("the API refused a client after the held connections closed")


def test_the_connection_cap_is_lowered_to_fit_the_open_files_limit():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    limit = min(300, hard)
    resource.setrlimit(resource.RLIMIT_NOFILE, (limit, hard))
    try:
        assert guarded_protocol(Settings(max_connections=1000)).max_connections == limit - SPARE_FILES
        assert guarded_protocol(Settings(max_connections=100)).max_connections == 100
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_a_client_gone_before_its_body_is_counted_as_gone_not_as_a_server_error(redis_url, prefix):
    """A client that closes its connection in the middle of its body (a browser tab closed, a load
    generator stopped) was counted and logged as a 500 (Litestar's "client disconnected prematurely"),
    which an operator reads as our failure: it is a 499, client closed request, as nginx says."""
    head = (
        b"POST /games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b'Content-Length: 2000\r\n\r\n{"seats": '
    )
    with live_api(redis_url, prefix) as base:
        for _ in range(3):
            with _connect(base, head):
                time.sleep(0.1)  # the app has the head and waits for the body when the client goes
        until, counted = time.monotonic() + 5, ""
        while time.monotonic() < until:
            metrics = httpx.get(f"{base}/metrics").text
            counted = [
                line for line in metrics.splitlines() if line.startswith('pantheon_http_requests_total{method="POST"')
            ]
            if any('status="499"' in line for line in counted):
                break
            time.sleep(0.1)
    assert any('route="/games",status="499"} 3' in line for line in counted), counted
    assert not any('status="500"' in line for line in counted), counted
