"""The server's roles as processes: the API, the projector, the AI worker, and `serve`, which
runs them all on one machine over an embedded Redis when REDIS_URL is not set."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Mapping
from dataclasses import replace

from service.config import Settings

log = logging.getLogger(__name__)
RECONNECT_MAX_S = 5.0  # the longest an AI worker waits between attempts to reach Redis again
# an AI worker says it is alive at least this often (RQ's heartbeat: the worker's key lives this
# long plus a minute); RQ's default is 420 s
WORKER_TTL_S = 60


def _require_redis(settings: Settings) -> str:
    if not settings.redis_url:
        sys.exit(
            "Set REDIS_URL (e.g. redis://127.0.0.1:6379/0) to run this role on its own, "
            "or use `pantheon serve` to run everything over an embedded Redis."
        )
    return settings.redis_url


def _require_queue(settings: Settings, redis_url: str, *, api: bool = False) -> str:
    """The queue's Redis (PANTHEON_QUEUE_URL, else REDIS_URL); on a Redis Cluster without one, the
    process stops here with a sentence that says what to set. The API asks REDIS_URL once: when it
    does not answer, REDIS_URL for now (the app checks it as soon as it answers, not ready until then)."""
    from service.store.connection import ClusterUnknown, ClusterWithoutQueue, queue_url

    try:
        return queue_url(redis_url, settings.queue_url, detect_s=0 if api else settings.redis_detect_s)
    except ClusterWithoutQueue as error:
        sys.exit(str(error))
    except ClusterUnknown:
        if not api:
            raise
        return redis_url


def run_api(settings: Settings, redis_url: str | None = None) -> None:
    """Serve the HTTP API with uvicorn (bounded against slow and idle clients) until interrupted."""
    from service.http.app import create_app
    from service.http.server import run_server

    url = redis_url or _require_redis(settings)
    app = create_app(replace(settings, redis_url=url, queue_url=_require_queue(settings, url, api=True)))
    run_server(app, settings)


def run_worker(
    settings: Settings, redis_url: str | None = None, *, burst: bool = False, sweep_every_s: float | None = None
) -> None:
    """An RQ worker on the AI queue, with a sweeper thread that enqueues again any AI turn that is
    due and that no job waits for or runs, and hands idle seats to the AI. The worker outlives Redis
    restarts: whenever RQ's loop gives up (RQ quits on a Redis timeout or an unexpected error), a new
    one starts after 1, 2, 4, 5 s; only SIGTERM or SIGINT ends it."""
    from rq import Queue, SimpleWorker

    from service.ai import worker
    from service.ai.clocks import ClockKeeper
    from service.ai.scheduler import Scheduler, queue_name
    from service.ai.sweeper import Sweeper
    from service.store.connection import queue_connection

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    url = redis_url or _require_redis(settings)
    queue = _require_queue(settings, url)
    worker.use(replace(settings, queue_url=queue))  # the settings its AI turns run with
    sweeper = Sweeper(
        Scheduler(
            url,
            settings.prefix,
            settings.partitions,
            lease_s=settings.ai_lease_s,
            queue=queue,
            timeout_s=settings.redis_timeout_s,
            detect_s=settings.redis_detect_s,
        ),
        every_s=sweep_every_s if sweep_every_s is not None else settings.ai_sweep_s,
    )
    keeper = ClockKeeper(settings, url, sweeper.scheduler)
    stop = threading.Event()
    threading.Thread(target=_sweep_until, args=(sweeper, stop, keeper), daemon=True, name="ai-sweeper").start()

    class Worker(SimpleWorker):
        # RQ waits 1, 2, 4 … 60 s between attempts to reach a Redis that is away; at most 5 s here,
        # so that a turn is played soon after Redis is back
        max_connection_wait_time = RECONNECT_MAX_S

        def request_stop(self, signum, frame):  # SIGTERM/SIGINT: this process is to end, not restart RQ
            stop.set()
            super().request_stop(signum, frame)

    failures = 0
    try:
        while not stop.is_set():
            # SimpleWorker runs each job in this process (no fork per job): an AI turn is short, and a
            # worker that dies mid-job is covered by the sweeper and the idempotency key. RQ blocks on
            # the queue for up to its TTL less 15 s: a longer silence is a dead connection.
            connection = queue_connection(queue, timeout_s=WORKER_TTL_S + 15)
            started = time.monotonic()
            try:
                Worker(
                    [Queue(queue_name(settings.prefix), connection=connection)],
                    connection=connection,
                    worker_ttl=WORKER_TTL_S,
                ).work(burst=burst)
            except Exception as error:  # noqa: BLE001 - Redis away at start-up, or RQ failed: start again
                log.warning("AI worker stopped: %r", error)
            finally:
                connection.close()
            if burst or stop.is_set():
                break
            failures = 1 if time.monotonic() - started > 60 else failures + 1
            wait = min(2 ** (failures - 1), RECONNECT_MAX_S)
            log.warning("AI worker's RQ loop ended (Redis away or restarted?); starting it again in %d s", wait)
            _wait_or_stop(stop, wait)
    finally:
        stop.set()


def _wait_or_stop(stop: threading.Event, seconds: float) -> None:
    """Wait, ending early on SIGTERM or SIGINT (RQ's handlers are gone between its loops)."""
    previous = {sig: signal.signal(sig, lambda *_: stop.set()) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        stop.wait(seconds)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def run_archiver(settings: Settings, redis_url: str | None = None, *, once: bool = False) -> None:
    """Move finished games (after PANTHEON_ARCHIVE_FINISHED_S) and abandoned ones (after
    PANTHEON_ARCHIVE_ABANDONED_S without an event) to the archive, every PANTHEON_ARCHIVE_EVERY_S,
    until SIGTERM or SIGINT (`once`: one sweep). Any number may run: each game is claimed first."""
    import asyncio

    from service.audit.archiver import Archiver, run
    from service.audit.cold import Archive
    from service.store.connection import connect
    from service.store.streams import EventStore

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    url = redis_url or _require_redis(settings)

    async def main() -> None:
        archive = Archive(settings.archive_path)
        client = connect(
            url, timeout_s=settings.redis_timeout_s, pool_size=settings.redis_pool, detect_s=settings.redis_detect_s
        )
        store = EventStore(
            client,
            prefix=settings.prefix,
            partitions=settings.partitions,
            wait_replicas=settings.wait_replicas,
            wait_timeout_ms=settings.wait_timeout_ms,
            cold=archive,
        )
        limits = dict(finished_s=settings.archive_finished_s, abandoned_s=settings.archive_abandoned_s)
        try:
            if once:
                archiver = Archiver(store, archive, **limits)
                done = await archiver.sweep()
                skipped = (
                    f"; skipped {len(archiver.skipped)} that cannot be archived (logged)" if archiver.skipped else ""
                )
                print(f"archived {len(done)} games{skipped}", flush=True)
                return
            stop = asyncio.Event()
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGTERM, signal.SIGINT):
                loop.add_signal_handler(sig, stop.set)
            await run(store, archive, every_s=settings.archive_every_s, stop=stop, **limits)
        finally:
            await store.aclose()

    asyncio.run(main())


def _sweep_until(sweeper, stop: threading.Event, keeper=None) -> None:
    """The sweeper thread: carry over what earlier versions kept, then sweep every period until
    stopped, and let the clock keeper look in the same period (`keeper`); a Redis that fails is
    tried again next period (and logged), never the end of it."""
    migrated = False
    while not stop.wait(sweeper.every_s):
        try:
            if not migrated:
                sweeper.migrate_legacy()
                migrated = True
            swept = sweeper.sweep_if_due()
        except Exception as error:  # noqa: BLE001 - keep sweeping: a Redis hiccup must not end it
            log.warning("AI sweep failed: %r", error)
            continue
        try:
            if keeper is not None and swept is not None:  # one keeper at a time too: the sweep's lock
                keeper.look()
        except Exception as error:  # noqa: BLE001 - the same: the next period looks again
            log.warning("clock keeper's look failed: %r", error)


def serve(settings: Settings, environ: Mapping[str, str]) -> None:
    """Everything on one machine: embedded Redis (unless REDIS_URL), a projector, AI workers, the
    API. The helper processes get `environ` (the environment the settings were read from, with the
    command line's flags in it), so they read the same settings."""
    embedded = None
    url = settings.redis_url
    if not url:
        from service.store.embedded import EmbeddedRedis

        embedded = EmbeddedRedis(settings.data_dir)
        url = embedded.url
    _require_queue(settings, url)
    env = dict(environ, REDIS_URL=url)
    helpers = Supervisor(["projector", "archiver"] + ["worker"] * settings.ai_workers, env)
    helpers.start()
    base = f"http://{settings.host}:{settings.port}"
    where = f"embedded Redis, data in {os.path.abspath(settings.data_dir)}" if embedded else url
    print(
        f"Pantheon server on {base}  ({where})\n  Play in your browser: {base}/"
        f"\n  API docs: {base}/schema\n  OpenAPI:  {base}/schema/openapi.json"
        f"\n  For other pantheon commands (export, audit --game): REDIS_URL={url}",
        flush=True,
    )
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
                    print(
                        f"pantheon serve: {self.roles[i]} (pid {process.pid}) exited with {process.returncode}; "
                        f"starting it again in {wait} s",
                        file=sys.stderr,
                        flush=True,
                    )
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
