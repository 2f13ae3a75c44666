"""A private redis-server for tests that break it: stop it, start it again on the same port and data."""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from contextlib import contextmanager

import pytest
import redis

needs_redis_server = pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs a redis-server binary")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PrivateRedis:
    """A redis-server of this test's own (AOF on), which the test may stop and start again."""

    def __init__(self) -> None:
        self.dir, self.port, self.process = tempfile.mkdtemp(prefix="faults-"), _free_port(), None
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
        self.process.kill()
        self.process.wait()

    def admin(self) -> redis.Redis:
        return redis.Redis(port=self.port)


@contextmanager
def private_server():
    server = PrivateRedis()
    server.start()
    try:
        yield server
    finally:
        server.kill()
        shutil.rmtree(server.dir, ignore_errors=True)
