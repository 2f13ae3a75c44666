"""The server's roles as processes: the API, the projector, the AI worker, and `serve`, which
runs them all on one machine over an embedded Redis when REDIS_URL is not set."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

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
                     quotas=settings.quotas)
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
    roles = ["projector"] + ["worker"] * settings.ai_workers
    helpers = [subprocess.Popen([sys.executable, "-m", "service.cli", role], env=env) for role in roles]
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
        for process in helpers:
            process.send_signal(signal.SIGTERM)
        for process in helpers:
            process.wait(timeout=15)
        if embedded:
            embedded.close()
