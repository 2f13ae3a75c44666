"""The one error the shell raises for a request it refuses."""

from __future__ import annotations

from typing import Any

from redis.exceptions import (
    BusyLoadingError,
    ConnectionError,
    MaxConnectionsError,
    RedisError,
    ResponseError,
)

from service.store.streams import ReplicationUnconfirmed


class ServiceError(Exception):
    """A request the service refuses: an HTTP status, a stable code and a sentence."""

    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.extra = status, code, message, extra


RETRY_AFTER_S = 1


def store_failure(error: RedisError, *, writing: bool = False) -> ServiceError:
    """A 503 for a Redis that failed: `store_unavailable` when nothing can have been written,
    `outcome_unknown` when a write may have happened (the answer was lost after the script was
    sent): a retry with the same Idempotency-Key then gives the real outcome."""
    if isinstance(error, ReplicationUnconfirmed):
        return ServiceError(503, "outcome_unknown", "The command is stored on the Redis master, but not enough "
                                                    "replicas confirmed it in time, so it may or may not survive a "
                                                    "failover. Retry with the same Idempotency-Key to learn the "
                                                    "outcome.", retry_after=RETRY_AFTER_S)
    if writing and not _nothing_written(error):
        return ServiceError(503, "outcome_unknown", "The event store did not confirm the command in time; it may or "
                                                    "may not have been applied. Retry with the same Idempotency-Key "
                                                    "to learn which.", retry_after=RETRY_AFTER_S)
    return ServiceError(503, "store_unavailable", "The event store (Redis) is unavailable or full; nothing was "
                                                  "changed. Try again shortly.", retry_after=RETRY_AFTER_S)


def _nothing_written(error: RedisError) -> bool:
    """Errors that Redis gives before a script runs (out of memory, loading), or that come before
    a command could be sent (no connection could be made, or had from the pool in time)."""
    if isinstance(error, (ResponseError, BusyLoadingError, MaxConnectionsError)):  # the last: a cluster node's full pool
        return True
    text = str(error).lower()
    return isinstance(error, ConnectionError) and any(s in text for s in _NOT_SENT)


# redis-py's words for a command never sent: a failed connect, a full pool, a wait for the pool that timed out
_NOT_SENT = ("connecting", "too many connections", "no connection available")
