"""A private redis-server for a benchmark: its own port and directory, gone afterwards."""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def private_redis(fsync: str = "everysec") -> Iterator[str]:
    """The URL of a fresh redis-server with AOF and this `appendfsync` policy."""
    directory, port = tempfile.mkdtemp(prefix="bench-redis-"), free_port()
    process = subprocess.Popen(
        [
            "redis-server",
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--dir",
            directory,
            "--save",
            "",
            "--appendonly",
            "yes",
            "--appendfsync",
            fsync,
        ],
        stdout=subprocess.DEVNULL,
    )
    try:
        for _ in range(50):
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.1)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait()
        shutil.rmtree(directory, ignore_errors=True)


@contextlib.contextmanager
def replica_of(url: str) -> Iterator[str]:
    """A replica (no persistence) of the redis-server at `url`, in sync when yielded; its URL."""
    master_port = int(url.rsplit(":", 1)[1].split("/")[0])
    directory, port = tempfile.mkdtemp(prefix="bench-replica-"), free_port()
    process = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--dir", directory, "--save", ""]
        + ["--appendonly", "no", "--replicaof", "127.0.0.1", str(master_port)],
        stdout=subprocess.DEVNULL,
    )
    try:
        for _ in range(100):
            info = subprocess.run(
                ["redis-cli", "-p", str(port), "info", "replication"], capture_output=True, text=True
            ).stdout
            if "master_link_status:up" in info:
                break
            time.sleep(0.1)
        else:
            raise RuntimeError("the replica did not come in sync")
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait()
        shutil.rmtree(directory, ignore_errors=True)
