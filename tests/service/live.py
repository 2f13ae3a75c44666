"""A real API process (`pantheon api`, uvicorn on a socket) on the test's Redis and key prefix, for
tests that attack the running server over HTTP."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]


# Tests play as fast as they can from one address (the quota tests set their own limits).
RELAXED_ENV = {
    "PANTHEON_LIMIT_CREATE": "10000/minute",
    "PANTHEON_LIMIT_COMMANDS": "10000/second",
    "PANTHEON_LIMIT_AI_GAMES": "1000",
    "PANTHEON_LIMIT_STREAMS": "1000",
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def live_api(redis_url: str, prefix: str, **env: str) -> Iterator[str]:
    """Start `pantheon api` with these extra settings; its base URL until the block ends."""
    with live_api_process(redis_url, prefix, **env) as (base, _):
        yield base


@contextmanager
def live_api_process(
    redis_url: str, prefix: str, *, log: Path | None = None, **env: str
) -> Iterator[tuple[str, subprocess.Popen]]:
    """`live_api`, also giving the process (for tests that look at what it holds, e.g. its open files);
    `log`: a file its stdout and stderr go to (else nowhere)."""
    port = free_port()
    environment = dict(
        os.environ,
        REDIS_URL=redis_url,
        PANTHEON_PORT=str(port),
        PANTHEON_PREFIX=prefix,
        PANTHEON_FEED_PARTITIONS="4",
        **RELAXED_ENV,
    )
    environment.update(env)
    with running("api", environment, port, log=log) as started:
        yield started


@contextmanager
def running(
    role: str,
    environment: dict[str, str],
    port: int,
    *,
    timeout_s: float = 30,
    stop_s: float = 10,
    log: Path | None = None,
) -> Iterator[tuple[str, subprocess.Popen]]:
    """`pantheon <role>` (api or serve) with exactly this environment, listening on `port`: its base URL
    and process once it is ready, until the block ends (then terminated, killed if it lingers); its
    output goes to `log` (a file, appended to) or nowhere."""
    with open(log, "ab") if log else open(os.devnull, "wb") as output:
        yield from _running(role, environment, port, output, timeout_s, stop_s)


def _running(
    role: str, environment: dict[str, str], port: int, output, timeout_s: float, stop_s: float
) -> Iterator[tuple[str, subprocess.Popen]]:
    process = subprocess.Popen(
        [sys.executable, "-m", "service.cli", role], cwd=ROOT, env=environment, stdout=output, stderr=subprocess.STDOUT
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                if httpx.get(f"{base}/health/ready", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert process.poll() is None and time.monotonic() < deadline, f"pantheon {role} did not become ready"
            time.sleep(0.05)
        yield base, process
    finally:
        process.terminate()
        try:
            process.wait(timeout=stop_s)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
