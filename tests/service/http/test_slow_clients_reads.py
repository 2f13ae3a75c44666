"""The slow-client limits where a request's bytes and the server's reads do not line up, against a real
`pantheon api` over sockets on 127.0.0.1: a head split across reads right at the size limit (its end
straddling two reads), pipelined requests in one write (served in order; an oversized or trickling
head behind a good request still refused), a body trickled byte by byte inside the deadline (served
whole), and empty lines that must not cancel the keep-alive timer.

The server reads whatever the socket holds, so each piece is sent after a pause long enough for it
to be read alone (`PAUSE`)."""

from __future__ import annotations

import contextlib
import json
import socket
import time

import pytest

from ..live import live_api
from .test_slow_clients import REQUEST, _closing_times, _connect, _header_of, _read_response, _status, _trickle

pytestmark = pytest.mark.alone

PAUSE = 0.15  # seconds between two pieces: each is a read of its own


def _send_in_pieces(sock: socket.socket, data: bytes, cuts: list[int]) -> None:
    for start, end in zip([0, *cuts], [*cuts, len(data)]):
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # refused before all of it came
            sock.sendall(data[start:end])
        time.sleep(PAUSE)


def _request_id(head: bytes) -> str:
    line = next(line for line in head.split(b"\r\n") if line.lower().startswith(b"x-request-id:"))
    return line.split(b":", 1)[1].strip().decode()


@pytest.mark.parametrize(
    ("size", "cut", "status"),
    [
        (8192, 8190, 200),  # the end of the head ("\r\n\r\n") split across the two reads
        (8192, 8189, 200),
        (8192, 4096, 200),
        (8193, 8191, 431),  # one byte over, its end split the same way
        (8193, 8192, 431),  # the first read is exactly the limit, without the end of the head
        (8193, 100, 431),
    ],
)
def test_a_head_split_across_reads_is_measured_to_the_byte(redis_url, prefix, size, cut, status):
    with live_api(redis_url, prefix, PANTHEON_MAX_HEADER_BYTES="8192") as base, _connect(base) as sock:
        start = time.monotonic()
        _send_in_pieces(sock, _header_of(size), [cut])
        closed, got = _closing_times([sock], start, within=3)
    assert closed[0] is not None, f"a {size}-byte head cut at {cut}: no answer, and the connection held"
    assert _status(got[0]) == status, (size, cut, got[0][:200])


def test_each_head_on_a_kept_alive_connection_has_the_whole_limit(redis_url, prefix):
    kept = _header_of(8192).replace(b"Connection: close\r\n", b"X-Keep: 123456789\r\n")  # the same size
    with live_api(redis_url, prefix, PANTHEON_MAX_HEADER_BYTES="8192") as base, _connect(base) as sock:
        _send_in_pieces(sock, kept, [6000])  # counted across two reads
        assert _read_response(sock)[0] == 200
        _send_in_pieces(sock, kept, [8000])  # its end in the second read, 192 bytes past the first's count
        assert _read_response(sock)[0] == 200
        sock.sendall(kept)  # whole
        assert _read_response(sock)[0] == 200


def test_pipelined_requests_in_one_write_are_all_answered_in_order(redis_url, prefix):
    ids = [f"pipelined-{i}" for i in range(5)]
    heads = [
        f"GET /games/0123456789abcdef HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Request-ID: {rid}\r\n\r\n".encode()
        for rid in ids
    ]
    body = b'{"seats": [{"type": "human"}, {"type": "human"}]}'
    post = (
        b"POST /games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body
    )
    with live_api(redis_url, prefix) as base, _connect(base) as sock:
        sock.sendall(heads[0] + post + b"".join(heads[1:]) + REQUEST)
        answers = [_read_response(sock) for _ in range(7)]
        sock.sendall(REQUEST)  # and the connection is still good for more
        assert _read_response(sock)[0] == 200
    assert [status for status, _ in answers] == [404, 201, 404, 404, 404, 404, 200]
    assert [_request_id(head) for _, head in answers[2:6]] == ids[1:]  # each answer is its own request's


def test_an_oversized_head_pipelined_behind_a_good_request_is_a_431(redis_url, prefix):
    oversized = _header_of(12 * 1024)  # begins in the middle of the write, after a whole request
    with live_api(redis_url, prefix, PANTHEON_MAX_HEADER_BYTES="8192") as base:
        for data in (REQUEST + oversized, REQUEST + oversized[:6000]):  # whole, or its first part, then the rest
            with _connect(base) as sock:
                start = time.monotonic()
                sock.sendall(data)
                if len(data) < len(REQUEST + oversized):
                    time.sleep(PAUSE)
                    with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                        sock.sendall(oversized[6000:])
                closed, got = _closing_times([sock], start, within=3)
            assert closed[0] is not None, "an oversized pipelined head: the connection was held"
            first, _, rest = got[0].partition(b"\r\n\r\n")
            assert _status(first) == 200 and b"HTTP/1.1 431 " in rest, got[0][:400]


def test_a_head_trickling_behind_a_pipelined_request_has_the_deadline(redis_url, prefix):
    with live_api(redis_url, prefix, PANTHEON_HEADER_TIMEOUT_S="1", PANTHEON_KEEP_ALIVE_S="30") as base:  # noqa: SIM117 - a server, then its client
        with _connect(base, REQUEST + b"GET /health/live HTTP/1.1\r\nX-Slow: ") as sock:
            assert _read_response(sock)[0] == 200
            start = time.monotonic()
            closed_at, sent = _trickle(sock, start)
    assert closed_at is not None, f"a pipelined head trickling after an answer was held for 4 s ({sent} bytes)"
    assert closed_at <= 2.5, (closed_at, sent)


def test_a_body_trickled_byte_by_byte_within_the_deadline_is_served_whole(redis_url, prefix):
    body = json.dumps({"seats": [{"type": "human"}, {"type": "human"}]}).encode()
    head = (
        b"POST /games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n"
    )
    with live_api(redis_url, prefix, PANTHEON_HEADER_TIMEOUT_S="5") as base, _connect(base, head) as sock:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        for i in range(len(body)):
            sock.sendall(body[i : i + 1])
            time.sleep(0.01)
        status, _ = _read_response(sock)
        sock.sendall(REQUEST)  # the connection is kept alive after it
        assert _read_response(sock)[0] == 200
    assert status == 201


def test_empty_lines_between_requests_do_not_hold_a_connection_past_keep_alive(redis_url, prefix):
    with live_api(redis_url, prefix, PANTHEON_KEEP_ALIVE_S="1", PANTHEON_HEADER_TIMEOUT_S="30") as base:  # noqa: SIM117 - a server, then its client
        with _connect(base, REQUEST) as sock:
            assert _read_response(sock)[0] == 200
            start = time.monotonic()
            for _ in range(3):
                time.sleep(0.3)
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                    sock.sendall(b"\r\n")  # no request begins: the keep-alive timer still runs
            closed, got = _closing_times([sock], start, within=4)
    assert closed[0] is not None and closed[0] <= 2.5 and got == [b""], (closed, got)
