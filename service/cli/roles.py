"""The server's roles as processes: the API, the projector, the AI worker, and `serve`, which
runs them all on one machine over an embedded Redis when REDIS_URL is not set."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

from service.config import Settings


def _require_redis(settings: Settings) -> str:
    if not settings.redis_url:
        sys.exit("Set REDIS_URL (e.g. redis://127.0.0.1:6379/0) to run this role on its own, "
                 "or use `pantheon serve` to run everything over an embedded Redis.")
    return settings.redis_url


def run_api(settings: Settings, redis_url: str | None = None) -> None:
    """Serve the HTTP API with uvicorn (bounded against slow and idle clients) until interrupted."""
    from service.http.app import create_app
    from service.http.server import run_server

    app = create_app(redis_url or _require_redis(settings), prefix=settings.prefix, partitions=settings.partitions,
                     idempotency_ttl_s=settings.idempotency_ttl_s, cors_origins=settings.cors_origins,
                     quotas=settings.quotas, secret=settings.secret)
    run_server(app, settings)


def run_worker(settings: Settings, redis_url: str | None = None, *, burst: bool = False,
               sweep_every_s: float = 2.0) -> None:
    """An RQ worker on the AI queue, with a sweeper thread that re-enqueues lost AI turns and hands
    idle seats to the AI."""
    import threading

    from redis import Redis
    from rq import Queue, SimpleWorker

    from service.ai.scheduler import Scheduler, queue_name

    url = redis_url or _require_redis(settings)
    connection = Redis.from_url(url)
    scheduler = Scheduler(url, settings.prefix, settings.partitions)
    scheduler.drop_legacy_keys()
    stop = threading.Event()

    def sweeper() -> None:
        while not stop.wait(sweep_every_s):
            try:
                scheduler.sweep()
            except Exception as error:  # keep sweeping: a Redis hiccup must not end the worker
                print(f"sweep failed: {error!r}", file=sys.stderr)

    threading.Thread(target=sweeper, daemon=True, name="ai-sweeper").start()
    try:
        # SimpleWorker runs each job in this process (no fork per job): an AI turn is short, and a
        # worker that dies mid-job is covered by the sweeper and the idempotency key.
        SimpleWorker([Queue(queue_name(settings.prefix), connection=connection)], connection=connection).work(burst=burst)
    finally:
        stop.set()


def serve(settings: Settings) -> None:
    """Everything on one machine: embedded Redis (unless REDIS_URL), a projector, AI workers, the API."""
    embedded = None
    url = settings.redis_url
    if not url:
        from service.store.embedded import EmbeddedRedis

        embedded = EmbeddedRedis(settings.data_dir)
        url = embedded.url
    env = dict(os.environ, REDIS_URL=url)
    helpers = Supervisor(["projector"] + ["worker"] * settings.ai_workers, env)
    helpers.start()
    base = f"http://{settings.host}:{settings.port}"
    where = f"embedded Redis, data in {os.path.abspath(settings.data_dir)}" if embedded else url
    print(f"Pantheon server on {base}  ({where})\n  API docs: {base}/schema\n  OpenAPI:  {base}/schema/openapi.json"
          f"\n  For other pantheon commands (export, audit --game): REDIS_URL={url}", flush=True)
    # uvicorn shuts down gracefully on SIGTERM and then raises the signal again; make that an
    # exit that runs the clean-up below instead of killing the process outright.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        run_api(settings, url)
    finally:
        helpers.stop()
        if embedded:
            embedded.close()


class Supervisor:
    """The helper roles of `pantheon serve`, each its own process, started again (after 1, 2, 4 …
    30 s, logged) whenever one dies; stopped with SIGTERM at the end."""

    RESTART_BACKOFF_S = (1, 2, 4, 8, 16, 30)
    HEALTHY_AFTER_S = 60  # a process that ran this long starts its backoff afresh when it dies

    def __init__(self, roles: list[str], env: dict[str, str]) -> None:
        self.roles, self.env = roles, env
        self.processes: list[subprocess.Popen] = []
        self.started_at: list[float] = []
        self.failures = [0] * len(roles)
        self.restarts = 0
        self._stop = threading.Event()
        self._lock = threading.Lock()

    def start(self) -> None:
        self.processes = [self._spawn(role) for role in self.roles]
        self.started_at = [time.monotonic()] * len(self.roles)
        threading.Thread(target=self._watch, daemon=True, name="supervisor").start()

    def _spawn(self, role: str) -> subprocess.Popen:
        return subprocess.Popen([sys.executable, "-m", "service.cli", role], env=self.env)

    def _watch(self) -> None:
        due: dict[int, float] = {}
        while not self._stop.wait(0.2):
            for i, process in enumerate(self.processes):
                if process.poll() is None or self._stop.is_set():
                    continue
                now = time.monotonic()
                if i not in due:
                    ran = now - self.started_at[i]
                    self.failures[i] = 1 if ran > self.HEALTHY_AFTER_S else self.failures[i] + 1
                    wait = self.RESTART_BACKOFF_S[min(self.failures[i], len(self.RESTART_BACKOFF_S)) - 1]
                    print(f"pantheon serve: {self.roles[i]} (pid {process.pid}) exited with {process.returncode}; "
                          f"starting it again in {wait} s", file=sys.stderr, flush=True)
                    due[i] = now + wait
                elif now >= due[i]:
                    del due[i]
                    with self._lock:
                        if not self._stop.is_set():
                            self.processes[i], self.started_at[i] = self._spawn(self.roles[i]), now
                            self.restarts += 1

    def stop(self) -> None:
        with self._lock:
            self._stop.set()
        for process in self.processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
