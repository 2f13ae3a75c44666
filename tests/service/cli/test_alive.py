"""`pantheon alive ROLE`, the health check of the roles without HTTP: true while this host's
projector or AI worker is alive, false once it has stopped or hangs."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def alive(env: dict, role: str) -> bool:
    return (
        subprocess.run([sys.executable, "-m", "service.cli", "alive", role], cwd=ROOT, env=env, timeout=30).returncode
        == 0
    )


def eventually(condition, timeout: float = 20.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.2)
    return False


def test_a_workers_health_check_passes_while_it_runs_and_fails_once_it_has_stopped(env):
    assert not alive(env, "worker")
    worker = subprocess.Popen(
        [sys.executable, "-m", "service.cli", "worker"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        assert eventually(lambda: alive(env, "worker"))
    finally:
        worker.send_signal(signal.SIGTERM)
        worker.wait(timeout=30)
    assert not alive(env, "worker")


def test_a_projectors_health_check_fails_when_it_hangs_and_passes_again_when_it_goes_on(env, start_projector):
    assert not alive(env, "projector")
    projector = start_projector("--dead-after-ms", "2000", "--claim-idle-ms", "400")
    assert eventually(lambda: alive(env, "projector"))
    os.kill(projector.pid, signal.SIGSTOP)  # hung: it no longer says it is alive
    try:
        assert eventually(lambda: not alive(env, "projector"), timeout=10)
    finally:
        os.kill(projector.pid, signal.SIGCONT)
    assert eventually(lambda: alive(env, "projector"))
