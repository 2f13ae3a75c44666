"""Connections to Redis for the roles that serve requests: bounded in time, with few quick retries.

redis-py retries a command that failed on the connection up to ten times by default, with no
timeout on a socket: a Redis that is paused or gone would hold a request for as long as it is
away. Here a command that gets no answer within `timeout_s` fails, a dead connection is retried
twice at most (an append retried after it went through is recognised by the store), and the
caller answers 503.

The pool is bounded (`pool_size`) and blocking: a burst of requests beyond it waits for a
connection, at most `timeout_s`, instead of failing at once (redis-py's default pool raises as
soon as its 100 connections are in use); a wait that times out is a 503 like any Redis failure.

Redis Cluster: `REDIS_URL` may name any node of a cluster; every client made here asks that node
once (`INFO cluster`) and makes a RedisCluster client when it is one (a node that does not answer
is asked again, with backoff, for up to `PANTHEON_REDIS_DETECT_S`, then ClusterUnknown: it is never
taken for a single Redis because it was away when the process started), with the same timeouts and
retries (its pools are per node, `pool_size` each, and fail at once when full: a 503 too). Every
key of a game shares its feed partition's hash tag, so its scripts and transactions stay in one
slot. RQ does not support Redis Cluster: the queue lives on a plain Redis, `queue_url`."""

from __future__ import annotations

import asyncio
import logging
import time
from contextlib import asynccontextmanager

import redis
from redis.asyncio import BlockingConnectionPool, Redis, RedisCluster
from redis.asyncio.cluster import ClusterPipeline
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialWithJitterBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.retry import Retry as SyncRetry

from service.config import default

log = logging.getLogger(__name__)

# the defaults of PANTHEON_REDIS_TIMEOUT_S, PANTHEON_REDIS_POOL and PANTHEON_REDIS_DETECT_S: each
# role passes its own settings' values
TIMEOUT_S: float = default("redis_timeout_s")
POOL_SIZE: int = default("redis_pool")
RETRIES = 2
DETECT_S: float = default("redis_detect_s")
DETECT_BACKOFF_S = (0.1, 0.2, 0.5, 1.0, 2.0)  # between two questions to a node that does not answer


class ClusterUnknown(RedisConnectionError):
    """REDIS_URL did not answer, in the time allowed, whether it is a Redis Cluster."""


class ClusterWithoutQueue(ValueError):
    """REDIS_URL names a Redis Cluster and PANTHEON_QUEUE_URL is not set."""


class BoundedCluster(RedisCluster):
    """A RedisCluster whose commands and pipelines wait (at most `wait_s`) for one of `bound`
    turns, like the single Redis's blocking pool: redis-py's cluster pools refuse a command at once
    when a node's connections are all in use. A wait that times out fails as never sent."""

    def __init__(self, *args, bound: int, wait_s: float, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._turns, self._wait_s = asyncio.Semaphore(bound), wait_s
        self.timeout_s, self.pool_size = wait_s, bound  # what a client of one of its nodes gets too

    @asynccontextmanager
    async def turn(self):
        try:
            await asyncio.wait_for(self._turns.acquire(), self._wait_s)
        except TimeoutError:
            raise RedisConnectionError("No connection available (the cluster client's turns stayed busy)") from None
        try:
            yield
        finally:
            self._turns.release()

    async def execute_command(self, *args, **kwargs):
        async with self.turn(), _closed_under_it():
            return await super().execute_command(*args, **kwargs)

    def pipeline(self, transaction=None, shard_hint=None) -> ClusterPipeline:
        super().pipeline(transaction, shard_hint)  # its checks
        return _BoundedPipeline(self, transaction)  # type: ignore[abstract]  # as redis-py makes its ClusterPipeline


class _BoundedPipeline(ClusterPipeline):
    cluster_client: BoundedCluster  # made by BoundedCluster.pipeline only

    async def execute(self, raise_on_error: bool = True, allow_redirections: bool = True):
        async with self.cluster_client.turn(), _closed_under_it():
            return await super().execute(raise_on_error, allow_redirections)


@asynccontextmanager
async def _closed_under_it():
    """redis-py 8.1's asyncio cluster client can close a connection that another command is still
    opening when a node fails (AttributeError: 'NoneType' object has no attribute 'writelines'):
    a lost connection (a 503, `outcome_unknown` on a write), not a bug of the caller (a 500)."""
    try:
        yield
    except AttributeError as error:
        if "'NoneType'" not in str(error):
            raise
        raise RedisConnectionError(f"a cluster connection was closed while in use ({error})") from error


def connection_options(timeout_s: float = TIMEOUT_S) -> dict:
    """The options of such a client (for libraries that make their own)."""
    return {
        "socket_timeout": timeout_s,
        "socket_connect_timeout": min(timeout_s, 2.0),
        "retry": Retry(ExponentialWithJitterBackoff(base=0.01, cap=0.2), RETRIES),
    }


def _sync_options(timeout_s: float) -> dict:
    return {
        "socket_timeout": timeout_s,
        "socket_connect_timeout": min(timeout_s, 2.0),
        "retry": SyncRetry(ExponentialWithJitterBackoff(base=0.01, cap=0.2), RETRIES),
    }


_KNOWN: dict[str, bool] = {}  # url -> whether it is a cluster, once a node has said so (or a caller assumed it)


def ask_cluster(url: str) -> bool:
    """Ask the node at `url` now whether it is in a Redis Cluster (raises when it does not answer)."""
    with redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2) as client:
        return client.info("cluster").get("cluster_enabled") == 1


def is_cluster(url: str, wait_s: float | None = None) -> bool:
    """Whether `url` names a node of a Redis Cluster, asked once per process. A node that does not
    answer is asked again, after 0.1, 0.2, 0.5, 1, 2, 2 … s, for up to `wait_s` (default
    PANTHEON_REDIS_DETECT_S); then ClusterUnknown. (It blocks: roles ask before they serve.)"""
    if url in _KNOWN:
        return _KNOWN[url]
    deadline, attempt = time.monotonic() + (DETECT_S if wait_s is None else wait_s), 0
    while True:
        try:
            _KNOWN[url] = ask_cluster(url)
            return _KNOWN[url]
        except (redis.RedisError, OSError) as error:
            pause = DETECT_BACKOFF_S[min(attempt, len(DETECT_BACKOFF_S) - 1)]
            where = redis.connection.parse_url(url).get("host", url)
            if time.monotonic() + pause > deadline:
                raise ClusterUnknown(
                    f"{where} did not answer whether it is a Redis Cluster ({error!r}); "
                    "is Redis up? (PANTHEON_REDIS_DETECT_S: how long to keep asking)"
                ) from error
            if attempt == 0:
                log.warning("could not ask %s whether it is a Redis Cluster (%r); asking again", where, error)
            attempt += 1
            time.sleep(pause)


def assume(url: str, cluster: bool) -> None:
    """Take `url` for a cluster or not in this process without asking (the API, started while Redis
    is away, goes on as a single Redis's client and checks later: `service.http.app`)."""
    _KNOWN[url] = cluster


def forget(url: str) -> None:
    """Ask `url` again next time (tests)."""
    _KNOWN.pop(url, None)


def queue_url(redis_url: str, queue: str | None, detect_s: float | None = None) -> str:
    """The plain Redis of the RQ queue (and of what else cannot live on a cluster): `queue`
    (PANTHEON_QUEUE_URL) when set, else `redis_url` unless that is a cluster."""
    if queue:
        return queue
    if is_cluster(redis_url, detect_s):
        raise ClusterWithoutQueue(
            "REDIS_URL names a Redis Cluster, which RQ (the AI turns' queue) does not "
            "support: set PANTHEON_QUEUE_URL to a plain Redis for the queue"
        )
    return redis_url


def connect(
    url: str, *, timeout_s: float = TIMEOUT_S, pool_size: int = POOL_SIZE, detect_s: float | None = None
) -> Redis | RedisCluster:
    """An asyncio Redis client for `url` whose commands fail after `timeout_s` without an answer, and
    that waits up to `timeout_s` for one of its `pool_size` connections (on a cluster: `pool_size`
    per node); `detect_s`: how long to ask whether it is a cluster (see `is_cluster`)."""
    if is_cluster(url, detect_s):  # a node's pool has room for every turn (a command waits for a turn instead)
        return BoundedCluster.from_url(
            url, max_connections=pool_size + 8, bound=pool_size, wait_s=timeout_s, **connection_options(timeout_s)
        )
    pool = BlockingConnectionPool.from_url(
        url, max_connections=pool_size, timeout=timeout_s, **connection_options(timeout_s)
    )
    return Redis.from_pool(pool)


def connect_node(host: str, port: int, *, timeout_s: float = TIMEOUT_S, pool_size: int = POOL_SIZE) -> Redis:
    """A plain asyncio client of one node of a Redis Cluster (its own bounded pool), for what must
    run on one connection of that node: an append followed by its WAIT."""
    pool = BlockingConnectionPool(
        host=host, port=port, max_connections=pool_size, timeout=timeout_s, **connection_options(timeout_s)
    )
    return Redis.from_pool(pool)


def connect_one(
    url: str, *, timeout_s: float = TIMEOUT_S, detect_s: float | None = None, partitions: int = default("partitions")
) -> Redis | RedisCluster:
    """A client with one connection of its own, for a loop that blocks on Redis (XREAD) and must
    neither wait for nor hold a connection of the shared pool (on a cluster: a client of its own,
    with a connection per hash slot it reads at once, one per feed partition at most)."""
    if is_cluster(url, detect_s):
        return RedisCluster.from_url(url, max_connections=partitions, **connection_options(timeout_s))
    return Redis.from_url(url, single_connection_client=True, **connection_options(timeout_s))


def connect_sync(
    url: str, *, timeout_s: float = TIMEOUT_S, detect_s: float | None = None, plain: bool = False, **options
) -> redis.Redis | redis.RedisCluster:
    """A synchronous client for `url` (a RedisCluster on a cluster), with the same timeouts;
    `options` override them. `plain`: a single Redis by contract (the queue), not asked."""
    options = {**_sync_options(timeout_s), **options}
    if not plain and is_cluster(url, detect_s):
        return redis.RedisCluster.from_url(url, **options)
    return redis.Redis.from_url(url, **options)


def queue_connection(url: str, *, timeout_s: float) -> redis.Redis:
    """The synchronous client an RQ worker blocks on the queue with (`url`: the queue's plain Redis):
    its reads wait up to `timeout_s` and its connects 2 s (redis-py's defaults otherwise, as RQ expects)."""
    return redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=timeout_s)
