"""Run inside a private network and mount namespace by test_proxy.py: a redis-server, two `pantheon
api` processes named api-1 and api-2 (/etc/hosts of the namespace), and HAProxy on
deploy/haproxy.cfg; prints what clients of the proxy saw, as JSON. Every process it starts is
killed at the end."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

TMP, ROOT = Path(sys.argv[1]), Path(sys.argv[2])
PROXY = "http://127.0.0.5:8000"
APIS = {"api-1": "127.0.0.21", "api-2": "127.0.0.22"}


def status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=5) as answer:
            return answer.status
    except urllib.error.HTTPError as error:
        return error.code
    except OSError:
        return 0


def served(address: str) -> int:
    """/health/live answers this API process gave, from its own /metrics."""
    try:
        with urllib.request.urlopen(f"http://{address}:8000/metrics", timeout=5) as answer:
            text = answer.read().decode()
    except OSError:
        return -1
    found = re.search(r'pantheon_http_requests_total\{method="GET",route="/health/live",status="200"\} (\d+)', text)
    return int(found.group(1)) if found else 0


def until(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.2)
    return False


def main() -> None:
    subprocess.run(["mount", "--bind", str(TMP / "hosts"), "/etc/hosts"], check=True)
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
    # in Docker each service has its own address; here they share the loopback, so the proxy binds one
    # and there is no DNS server: the names are resolved once, from /etc/hosts (init-addr libc)
    cfg = (ROOT / "deploy" / "haproxy.cfg").read_text().replace("bind :8000", "bind 127.0.0.5:8000")
    assert " resolvers docker " in cfg
    cfg = cfg.replace(" resolvers docker ", " ")
    (TMP / "haproxy.cfg").write_text(cfg)
    processes: dict[str, subprocess.Popen] = {}

    def start(name: str, args: list[str], env: dict | None = None) -> None:
        log = open(TMP / f"{name}.log", "w")  # noqa: SIM115 - open as long as the process writes or is read at once
        processes[name] = subprocess.Popen(args, env=env, cwd=ROOT, stdout=log, stderr=log)

    seen: dict = {}
    try:
        start("redis", ["redis-server", "--port", "6379", "--bind", "127.0.0.1", "--save", "", "--dir", str(TMP)])
        for name, address in APIS.items():
            start(
                name,
                [sys.executable, "-m", "service.cli", "api"],
                dict(os.environ, REDIS_URL="redis://127.0.0.1:6379/0", PANTHEON_HOST=address, PANTHEON_PORT="8000"),
            )
        start("proxy", ["haproxy", "-db", "-f", str(TMP / "haproxy.cfg")])
        seen["proxy_healthy"] = until(lambda: status(f"{PROXY}/proxy/health") == 200, 60)

        def both_serve() -> bool:
            for _ in range(6):
                status(f"{PROXY}/health/live")
            return all(served(address) > 0 for address in APIS.values())

        seen["both_served"] = until(both_serve, 40)
        seen["metrics_through_proxy"] = status(f"{PROXY}/metrics")
        seen["ready_through_proxy"] = status(f"{PROXY}/health/ready")
        processes["api-1"].kill()
        # dead, its socket closed: a request that reached the dying process (in its accept queue) is
        # answered 502 and rightly not retried by the proxy (it may have been applied; a client
        # retries it with its Idempotency-Key); the test is about those that come after
        processes["api-1"].wait()
        statuses = []
        deadline = time.monotonic() + 15  # past the health check's `fall 2` at `inter 5s`
        while time.monotonic() < deadline:
            statuses.append(status(f"{PROXY}/health/live"))
            time.sleep(0.1)
        seen["with_api_1_dead"] = {str(s): statuses.count(s) for s in sorted(set(statuses))}
        processes["api-2"].kill()
        seen["proxy_unhealthy_with_none"] = until(lambda: status(f"{PROXY}/proxy/health") == 503, 30)
    finally:
        for process in processes.values():
            process.kill()
            process.wait()
    print(json.dumps(seen))


if __name__ == "__main__":
    main()
