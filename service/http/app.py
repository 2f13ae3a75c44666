"""The HTTP API: a Litestar app over the game service (routes in api_games and api_play)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager

from litestar import Controller, Litestar, get
from litestar.config.compression import CompressionConfig
from litestar.config.cors import CORSConfig
from litestar.datastructures import State
from litestar.di import NamedDependency, Provide
from litestar.types import Message, Scope

from service.ai.scheduler import Scheduler, TurnNotifier
from service.ai.sweeper import ai_status
from service.audit.cold import Archive
from service.config import Settings
from service.errors import Code, ServiceError
from service.read.lag import FeedLag, projection_lag
from service.store.connection import (
    DETECT_BACKOFF_S,
    ClusterUnknown,
    ask_cluster,
    assume,
    connect,
    connect_one,
    is_cluster,
)
from service.store.connection import queue_url as plain_url
from service.store.errors import RedisError
from service.store.fanout import Fanout
from service.store.secret import check_configured
from service.store.streams import EventStore
from service.write import GameService

from .audit import AuditController
from .auth import provide_fanout, provide_metrics, provide_service
from .bodies import StrictBody
from .caching import conditional, tag_coding
from .caching import document as document_caching
from .caching import finish as cache_headers
from .created import document
from .docs import swagger_assets
from .games import GamesController
from .headers import secure
from .kinds import KindsController
from .metrics import Metrics
from .models import Health
from .openapi import (
    ByKindSchemaPlugin,
    StrictStructSchemaPlugin,
    finish,
    openapi_config,
)
from .page import PageController
from .play import PlayController
from .problems import EXCEPTION_HANDLERS, problems
from .quotas import Quotas
from .rematch import RematchController
from .requestid import stamp
from .seats import SeatsController
from .sse import Frames
from .strict import HeadAsGet, StrictRequests
from .web import web_routes

log = logging.getLogger("pantheon.api")
COMPRESS_FROM_BYTES = 1024  # smaller answers go as they are: compressing them saves next to nothing


async def _check_cluster(url: str, state: State) -> None:
    """The API started while `url` did not answer and went on as a single Redis's client (not
    ready meanwhile): ask it until it answers. A single Redis: ready. A Redis Cluster: the process
    stops (SIGTERM, a graceful shutdown) so that its supervisor starts it again with a cluster
    client, rather than serve a cluster through a single Redis's client."""
    attempt = 0
    while True:
        try:
            cluster = await asyncio.to_thread(ask_cluster, url)
            break
        except (RedisError, OSError):
            await asyncio.sleep(DETECT_BACKOFF_S[min(attempt, len(DETECT_BACKOFF_S) - 1)])
            attempt += 1
    if cluster:
        log.error(
            "REDIS_URL is a Redis Cluster, which did not answer when this process started: stopping, "
            "to be started again with a cluster client"
        )
        os.kill(os.getpid(), signal.SIGTERM)
    else:
        state.redis_unknown = False


def _compression() -> CompressionConfig:
    """brotli for clients that accept it, else gzip, for answers of at least COMPRESS_FROM_BYTES; never
    the event stream, whose events must leave one by one as they happen."""
    return CompressionConfig(
        backend="brotli",
        brotli_gzip_fallback=True,
        gzip_compress_level=6,
        minimum_size=COMPRESS_FROM_BYTES,
        exclude=[r"/stream$"],
    )


class OperationsController(Controller):
    """Liveness, readiness and Prometheus metrics."""

    tags = ["operations"]
    dependencies = {
        "service": Provide(provide_service, sync_to_thread=False),
        "metrics": Provide(provide_metrics, sync_to_thread=False),
        "fanout": Provide(provide_fanout, sync_to_thread=False),
    }

    @get("/health/live", operation_id="health_live", status_code=200, summary="The process is up")
    async def live(self) -> Health:
        return Health(status="ok")

    @get(
        "/health/ready", operation_id="health_ready", status_code=200, summary="Redis answers", responses=problems(503)
    )
    async def ready(self, service: NamedDependency[GameService], state: State) -> Health:
        if state.get("redis_unknown"):  # started while Redis was away: not ready until it said what it is
            raise ServiceError(Code.NOT_READY, "The event store (Redis) has not answered yet.")
        try:
            await service.store.ping()
        except Exception:  # any failure to reach Redis means not ready, whatever its type
            raise ServiceError(Code.NOT_READY, "The event store (Redis) does not answer.") from None
        return Health(status="ok")

    @get(
        "/metrics",
        operation_id="metrics",
        status_code=200,
        summary="Prometheus metrics",
        media_type="text/plain; version=0.0.4",
    )
    async def metrics(
        self, metrics: NamedDependency[Metrics], service: NamedDependency[GameService], fanout: NamedDependency[Fanout]
    ) -> str:
        lag: list[FeedLag] | None
        ai: dict[str, float] | None
        archiver: dict[str, float] | None
        try:
            lag = await projection_lag(service.store)
            ai = await ai_status(service.store)
            archiver = await service.store.claims.status()
        except (RedisError, OSError):  # Redis away: this process's own metrics still, without Redis' figures
            lag = ai = archiver = None
        return metrics.exposition(lag, ai, streams=(fanout.listeners, len(fanout.channels)), archiver=archiver)


def _allow_header_fix(app: Litestar):
    """A before_send hook that lists every method of the route in the Allow header of OPTIONS answers.

    Litestar 2.25 builds the automatic OPTIONS handler of a path when its first handler is
    registered, so for /games (GET and POST) it answered `Allow: OPTIONS, POST` (litestar#4169, fixed
    in Litestar 3 only); and it lists no HEAD, which HeadAsGet answers."""
    allowed = {
        route.path_format: ", ".join(sorted(route.methods | ({"HEAD"} if "GET" in route.methods else set()))).encode()
        for route in app.routes
        if hasattr(route, "route_handler_map")
    }

    async def fix(message: Message, scope: Scope) -> None:
        if message["type"] == "http.response.start" and scope.get("method") == "OPTIONS":
            methods = allowed.get(scope.get("path_template", ""))
            if methods:
                message["headers"] = [(k, methods if k.lower() == b"allow" else v) for k, v in message["headers"]]

    return fix


def _cors(origins: Sequence[str]) -> CORSConfig | None:
    """Cross-origin calls only from the origins named (a browser client elsewhere, on purpose)."""
    if not origins:
        return None
    return CORSConfig(
        allow_origins=list(origins),
        allow_methods=["GET", "HEAD", "POST", "DELETE", "OPTIONS"],
        allow_headers=["Authorization", "Content-Type", "Idempotency-Key", "Last-Event-ID"],
        expose_headers=["Retry-After", "Location"],
        max_age=600,
    )


def create_app(settings: Settings) -> Litestar:
    """The API app on `settings.redis_url`; it connects to Redis at startup and disconnects at
    shutdown. From `settings`: the key prefix and feed partitions; `cors_origins`, the browser
    origins allowed to call it from another origin (none by default); `quotas`, its rate limits and
    quotas; `redis_timeout_s` and `redis_pool`, how long a Redis command may take and the most
    connections its requests share; `wait_replicas` and `wait_timeout_ms`, the acknowledgements;
    `secret`, the server secret (None: the one in Redis); `queue_url`, the plain Redis of the AI
    turns' queue and of the rate limits' counters (None: `redis_url` unless it is a Redis Cluster);
    `archive_path`, the archive of games moved out of Redis, whose games are read from there."""
    if not settings.redis_url:
        raise ValueError("the API needs a Redis: settings.redis_url")
    redis_url, prefix, partitions = settings.redis_url, settings.prefix, settings.partitions
    redis_timeout_s, secret = settings.redis_timeout_s, settings.secret
    check_configured(secret)  # a weak secret stops the process before it serves anything

    @asynccontextmanager
    async def redis_client(app: Litestar) -> AsyncIterator[None]:
        watch = None
        try:  # asked once now; the API starts (not ready) even while Redis is away
            await asyncio.to_thread(is_cluster, redis_url, 0)
        except ClusterUnknown:
            assume(redis_url, False)  # provisionally: checked as soon as it answers
            app.state.redis_unknown = True
            watch = asyncio.create_task(_check_cluster(redis_url, app.state), name="cluster-check")
        client = connect(redis_url, timeout_s=redis_timeout_s, pool_size=settings.redis_pool)
        store = EventStore(
            client,
            prefix=prefix,
            partitions=partitions,
            idempotency_ttl_s=settings.idempotency_ttl_s,
            wait_replicas=settings.wait_replicas,
            wait_timeout_ms=settings.wait_timeout_ms,
            cold=Archive(settings.archive_path),
        )
        queue = plain_url(redis_url, settings.queue_url)  # RQ's and the rate limits' Redis
        scheduler = Scheduler(
            redis_url, prefix, partitions, lease_s=settings.ai_lease_s, queue=queue, timeout_s=redis_timeout_s
        )
        notifier = TurnNotifier(scheduler, store)
        server_secret = store.server_secret(secret)
        app.state.service = GameService(store, on_awaiting=notifier, secret=server_secret)
        app.state.service.clock_min_s = settings.clock_min_s
        # read (or made) now, so that every process agrees from the start
        with contextlib.suppress(
            RedisError, OSError
        ):  # Redis is away: read on first use (the process starts not ready)
            await server_secret.value()
        app.state.quotas = Quotas(
            queue, prefix, settings.quotas, timeout_s=redis_timeout_s, pool_size=settings.redis_pool
        )
        app.state.fanout = Fanout(store, connect_one(redis_url, timeout_s=redis_timeout_s, partitions=partitions))
        await app.state.fanout.start()
        try:
            yield
        finally:
            if watch is not None:
                watch.cancel()
            await app.state.fanout.stop()
            await app.state.quotas.close()
            await client.aclose()
            notifier.close()

    metrics, strict = Metrics(), StrictRequests()
    app = HeadAsGet(
        route_handlers=[
            GamesController,
            SeatsController,
            PlayController,
            PageController,
            RematchController,
            KindsController,
            AuditController,
            OperationsController,
            swagger_assets(),
            *web_routes(),
        ],
        lifespan=[redis_client],
        state=State({"metrics": metrics, "frames": Frames()}),
        exception_handlers=EXCEPTION_HANDLERS,
        # bad requests fail first, before a 304 (`conditional`) or the handler; the guard's connection is
        # typed a Request: it guards HTTP routes only
        guards=[strict],  # type: ignore[list-item]
        before_request=conditional,
        after_request=cache_headers,
        before_send=[stamp, secure, tag_coding, metrics.before_send],
        compression_config=_compression(),
        request_max_body_size=settings.max_body_bytes,
        dto=StrictBody,  # every body is decoded once, by StrictRequests (bodies.read)
        openapi_config=openapi_config(),
        plugins=[ByKindSchemaPlugin(), StrictStructSchemaPlugin()],
        cors_config=_cors(settings.cors_origins),
    )
    app.before_send.append(_allow_header_fix(app))
    document_caching(document(finish(app.openapi_schema)))
    strict.learn(app)
    return app
