"""Connections to Redis for the roles that serve requests: bounded in time, with few quick retries.

redis-py retries a command that failed on the connection up to ten times by default, with no
timeout on a socket: a Redis that is paused or gone would hold a request for as long as it is
away. Here a command that gets no answer within `timeout_s` fails, a dead connection is retried
twice at most (an append retried after it went through is recognised by the store), and the
caller answers 503.

The pool is bounded (`pool_size`) and blocking: a burst of requests beyond it waits for a
connection, at most `timeout_s`, instead of failing at once (redis-py's default pool raises as
soon as its 100 connections are in use); a wait that times out is a 503 like any Redis failure."""

from __future__ import annotations

import os

from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialWithJitterBackoff

TIMEOUT_S = float(os.environ.get("PANTHEON_REDIS_TIMEOUT_S", "5"))
POOL_SIZE = int(os.environ.get("PANTHEON_REDIS_POOL", "64"))
RETRIES = 2


def connection_options(timeout_s: float = TIMEOUT_S) -> dict:
    """The options of such a client (for libraries that make their own)."""
    return {"socket_timeout": timeout_s, "socket_connect_timeout": min(timeout_s, 2.0),
            "retry": Retry(ExponentialWithJitterBackoff(base=0.01, cap=0.2), RETRIES)}


def connect(url: str, *, timeout_s: float = TIMEOUT_S, pool_size: int = POOL_SIZE) -> Redis:
    """An asyncio Redis client for `url` whose commands fail after `timeout_s` without an answer, and
    that waits up to `timeout_s` for one of its `pool_size` connections."""
    pool = BlockingConnectionPool.from_url(url, max_connections=pool_size, timeout=timeout_s,
                                           **connection_options(timeout_s))
    return Redis.from_pool(pool)


def connect_one(url: str, *, timeout_s: float = TIMEOUT_S) -> Redis:
    """A client with one connection of its own, for a loop that blocks on Redis (XREAD) and must
    neither wait for nor hold a connection of the shared pool."""
    return Redis.from_url(url, single_connection_client=True, **connection_options(timeout_s))
