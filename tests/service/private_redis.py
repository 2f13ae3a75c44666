"""A redis-server of a test's own (AOF on, fsync always), which the test may fault: kill and start
again on the same port, fill, pause or stop."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import redis

needs_redis_server = pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs a redis-server binary")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PrivateRedis:
    """A redis-server of this test's own (AOF on), which the test may stop and start again."""

    def __init__(self) -> None:
        self.dir, self.port, self.process = tempfile.mkdtemp(prefix="faults-"), free_port(), None
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--dir", self.dir, "--save", "",
             "--appendonly", "yes", "--appendfsync", "always"], stdout=subprocess.DEVNULL)
        for _ in range(100):
            try:
                if redis.Redis(port=self.port).ping():
                    return
            except redis.ConnectionError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def kill(self) -> None:
        """kill -9 (a resumed SIGSTOP first, or the kill would wait for it)."""
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGCONT)
        self.process.kill()
        self.process.wait()

    def restart(self) -> None:
        """kill -9 and start again on the same port with the same data."""
        self.kill()
        self.start()

    def admin(self) -> redis.Redis:
        return redis.Redis(port=self.port)


@contextmanager
def private_server() -> Iterator[PrivateRedis]:
    """A private redis-server, which also holds the queue: a PANTHEON_QUEUE_URL of the run (the
    cluster pass's) is hidden while it runs, from this process and the roles it starts."""
    server = PrivateRedis()
    server.start()
    queue = os.environ.pop("PANTHEON_QUEUE_URL", None)
    try:
        yield server
    finally:
        if queue is not None:
            os.environ["PANTHEON_QUEUE_URL"] = queue
        server.kill()
        shutil.rmtree(server.dir, ignore_errors=True)
