"""The access log operators read: one line per answer, in uvicorn's format, written by the app with the
answer's request id (service/http/requestid.py), through the cheap formatter of service/http/server.py."""

from __future__ import annotations

import logging
import re

import httpx
from uvicorn.logging import DefaultFormatter

from service.http.server import AccessFormatter

from ..live import live_api_process

LINE = re.compile(r'INFO: {5}127\.0\.0\.1:\d+ - "(GET|HEAD|POST) (/\S*)" (\d{3}) request_id=(\S+)')


def _record(level: int, message: str) -> logging.LogRecord:
    return logging.LogRecord("pantheon.access", level, __file__, 1, message, None, None)


def test_the_access_formatter_writes_what_uvicorns_default_formatter_wrote():
    uvicorn = DefaultFormatter("%(levelprefix)s %(message)s")
    ours = AccessFormatter()
    for level in (logging.INFO, logging.WARNING, logging.INFO):  # the second INFO from the cached prefix
        line = '127.0.0.1:5000 - "GET /games?limit=3" 200 request_id=a%b'  # a % is no format here
        assert ours.format(_record(level, line)) == uvicorn.format(_record(level, line))


def test_every_answer_of_a_running_api_writes_one_line_in_that_format(redis_url, prefix, tmp_path):
    log = tmp_path / "api.log"
    with live_api_process(redis_url, prefix, log=log) as (base, _), httpx.Client(base_url=base) as client:
        client.get("/health/live", headers={"X-Request-ID": "line-1"})
        client.head("/games?limit=2", headers={"X-Request-ID": "line-2"})
        client.post("/games", content=b"{", headers={"X-Request-ID": "line-3", "Content-Type": "application/json"})
        client.get("/games/0123456789abcdef")
    access = [m.groups() for line in log.read_text().splitlines() if (m := LINE.fullmatch(line))]
    mine = [a for a in access if a[1] != "/health/ready"]  # the readiness polls before the first request
    assert mine[:3] == [
        ("GET", "/health/live", "200", "line-1"),
        ("HEAD", "/games?limit=2", "200", "line-2"),
        ("POST", "/games", "400", "line-3"),
    ], access
    assert mine[3][:3] == ("GET", "/games/0123456789abcdef", "404") and re.fullmatch(r"[0-9a-f]{32}", mine[3][3])
    assert len(mine) == 4, access
