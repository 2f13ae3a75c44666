"""A Redis failure as the service's error (`service.errors`): what the client may conclude from it."""

from __future__ import annotations

import logging

from service.errors import Code, ServiceError
from service.store.errors import (
    BusyLoadingError,
    ConnectionError,
    MaxConnectionsError,
    RedisError,
    ResponseError,
)
from service.store.replication import refused_for_replicas

RETRY_AFTER_S = 1

log = logging.getLogger(__name__)


def store_failure(error: RedisError, *, writing: bool = False) -> ServiceError:
    """The error for a Redis that failed (try again shortly): `store_unavailable` when nothing can
    have been written, `outcome_unknown` when a write may have happened (the answer was lost after
    the script was sent), `not_replicated` when fewer replicas than the deployment requires confirmed it (or the
    master refused it for want of replicas). For the last two, a retry with the same
    Idempotency-Key gives the real outcome. Each is logged with redis-py's words: the operator's only
    account of why a client was told to try again."""
    log.warning("Redis failed (%s: %s)%s", type(error).__name__, error, " while writing" if writing else "")
    if refused_for_replicas(error):
        return ServiceError(
            Code.NOT_REPLICATED,
            "Fewer Redis replicas than this server requires confirmed the "
            "request in time, so it was not acknowledged: it may or may not "
            "have been applied, and may not survive a failover. Send it again "
            "with the same Idempotency-Key to learn the outcome.",
            retry_after=RETRY_AFTER_S,
        )
    if writing and not _nothing_written(error):
        return ServiceError(
            Code.OUTCOME_UNKNOWN,
            "The event store did not confirm the command in time; it may or "
            "may not have been applied. Retry with the same Idempotency-Key "
            "to learn which.",
            retry_after=RETRY_AFTER_S,
        )
    return ServiceError(
        Code.STORE_UNAVAILABLE,
        "The event store (Redis) is unavailable or full; nothing was changed. Try again shortly.",
        retry_after=RETRY_AFTER_S,
    )


def _nothing_written(error: RedisError) -> bool:
    """Errors that Redis gives before a script runs (out of memory, loading), or that come before
    a command could be sent (no connection could be made, or had from the pool in time)."""
    if isinstance(
        error, (ResponseError, BusyLoadingError, MaxConnectionsError)
    ):  # the last: a cluster node's full pool
        return True
    text = str(error).lower()
    return isinstance(error, ConnectionError) and any(s in text for s in _NOT_SENT)


# redis-py's words for a command never sent: a failed connect, a full pool, a wait for the pool that timed out
_NOT_SENT = ("connecting", "too many connections", "no connection available")
