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
from pathlib import Path

import pytest
import redis

CLUSTER_SCRIPT = str(Path(__file__).resolve().parents[2] / "scripts" / "redis-cluster")
needs_redis_server = pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs a redis-server binary")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PrivateRedis:
    """A redis-server of this test's own (AOF on), which the test may stop and start again."""

    def __init__(self, *args: str) -> None:
        """`args`: more redis-server options (e.g. "--replicaof", "127.0.0.1", "6379")."""
        self.dir, self.port, self.process = tempfile.mkdtemp(prefix="faults-"), free_port(), None
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.args = args

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--dir",
                self.dir,
                "--save",
                "",
                "--appendonly",
                "yes",
                "--appendfsync",
                "always",
                *self.args,
            ],
            stdout=subprocess.DEVNULL,
        )
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

    def pause(self) -> None:
        """SIGSTOP: the process holds its connections and answers nothing."""
        os.kill(self.process.pid, signal.SIGSTOP)

    def resume(self) -> None:
        os.kill(self.process.pid, signal.SIGCONT)

    def restart(self) -> None:
        """kill -9 and start again on the same port with the same data."""
        self.kill()
        self.start()

    def admin(self) -> redis.Redis:
        return redis.Redis(port=self.port)


@contextmanager
def private_server(*args: str) -> Iterator[PrivateRedis]:
    """A private redis-server (`args`: more of its options), which also holds the queue: a
    PANTHEON_QUEUE_URL of the run (the cluster pass's) is hidden while it runs, from this process
    and the roles it starts."""
    server = PrivateRedis(*args)
    server.start()
    queue = os.environ.pop("PANTHEON_QUEUE_URL", None)
    try:
        yield server
    finally:
        if queue is not None:
            os.environ["PANTHEON_QUEUE_URL"] = queue
        server.kill()
        shutil.rmtree(server.dir, ignore_errors=True)


@contextmanager
def replica_of(master: PrivateRedis) -> Iterator[PrivateRedis]:
    """A private redis-server replicating `master`, in sync with it when the block starts."""
    master.admin().config_set("repl-diskless-sync-delay", 0)  # (5 s by default, waiting for more replicas)
    replica = PrivateRedis("--replicaof", "127.0.0.1", str(master.port))
    replica.start()
    try:
        wait_in_sync(master, replica)
        yield replica
    finally:
        replica.kill()
        shutil.rmtree(replica.dir, ignore_errors=True)


def wait_in_sync(master: PrivateRedis, replica: PrivateRedis, timeout_s: float = 20) -> None:
    """Until the replica's link is up and it has acknowledged everything the master has written."""
    deadline = time.monotonic() + timeout_s
    while True:
        info = master.admin().info("replication")
        slave = info.get("slave0") or {}
        if (
            replica.admin().info("replication").get("master_link_status") == "up"
            and slave.get("offset") == info["master_repl_offset"]
        ):
            return
        assert time.monotonic() < deadline, f"the replica did not catch up: {info}"
        time.sleep(0.05)


@contextmanager
def local_cluster(where: Path, *args: str) -> Iterator[str]:
    """A local Redis Cluster in `where` (scripts/redis-cluster: 3 masters, 3 replicas; `args`: more
    options of every node), stopped and removed when the block ends; a node's URL."""
    node = subprocess.run(
        [CLUSTER_SCRIPT, "start", str(where), *args], check=True, capture_output=True, text=True
    ).stdout.strip()
    try:
        yield node
    finally:
        subprocess.run([CLUSTER_SCRIPT, "stop", str(where)], check=False)
