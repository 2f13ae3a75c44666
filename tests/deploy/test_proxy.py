"""deploy/haproxy.cfg in front of two real `pantheon api` processes (no Docker: a private network
namespace where api-1 and api-2 are names, see proxy_driver.py): healthy once an API process is,
spreads requests over both, keeps /metrics to the compose network, loses no request when one process
is killed (a refused connection goes to the other), and is unhealthy when none is left. Needs root
(unshare), haproxy and redis-server: skipped otherwise."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _why_not() -> str | None:
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        return "needs root and unshare (a private network namespace)"
    missing = [tool for tool in ("haproxy", "redis-server") if shutil.which(tool) is None]
    if missing:
        return f"needs {' and '.join(missing)} (Debian: apt-get install {' '.join(missing)})"
    if subprocess.run(["unshare", "-mn", "true"], capture_output=True).returncode != 0:
        return "unshare -mn is not permitted here"
    return None


@pytest.mark.long
def test_the_proxy_spreads_over_the_api_processes_and_survives_one_dying(tmp_path):
    if (why := _why_not()) is not None:
        pytest.skip(why)
    (tmp_path / "hosts").write_text("127.0.0.1 localhost\n127.0.0.21 api-1\n127.0.0.22 api-2\n")
    done = subprocess.run(
        ["unshare", "-mn", sys.executable, str(Path(__file__).with_name("proxy_driver.py")), str(tmp_path), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=240,
    )
    logs = {p.name: p.read_text()[-1500:] for p in tmp_path.glob("*.log")}
    assert done.returncode == 0, (done.stdout, done.stderr[-3000:], logs)
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["proxy_healthy"] and seen["both_served"], (seen, logs)
    assert seen["metrics_through_proxy"] == 404 and seen["ready_through_proxy"] == 200
    assert set(seen["with_api_1_dead"]) == {"200"}, seen  # every request answered by api-2
    assert seen["proxy_unhealthy_with_none"], seen
