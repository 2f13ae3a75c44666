"""Connections to Redis for the roles that serve requests: bounded in time, with few quick retries.

redis-py retries a command that failed on the connection up to ten times by default, with no
timeout on a socket: a Redis that is paused or gone would hold a request for as long as it is
away. Here a command that gets no answer within `timeout_s` fails, a dead connection is retried
twice at most (an append retried after it went through is recognised by the store), and the
caller answers 503."""

from __future__ import annotations

import os

from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialWithJitterBackoff

TIMEOUT_S = float(os.environ.get("PANTHEON_REDIS_TIMEOUT_S", "5"))
RETRIES = 2


def connection_options(timeout_s: float = TIMEOUT_S) -> dict:
    """The options of such a client (for libraries that make their own)."""
    return {"socket_timeout": timeout_s, "socket_connect_timeout": min(timeout_s, 2.0),
            "retry": Retry(ExponentialWithJitterBackoff(base=0.01, cap=0.2), RETRIES)}


def connect(url: str, *, timeout_s: float = TIMEOUT_S) -> Redis:
    """An asyncio Redis client for `url` whose commands fail after `timeout_s` without an answer."""
    return Redis.from_url(url, **connection_options(timeout_s))
