"""`pantheon alive ROLE`: a health check for the roles that serve no HTTP (a container's
`healthcheck`): is a projector, an AI worker or an archiver of this host alive, as Redis last heard
from it?"""

from __future__ import annotations

import socket

from service.config import Settings
from service.store.connection import ClusterUnknown, ClusterWithoutQueue, connect_sync, queue_url
from service.store.errors import RedisError


def alive(settings: Settings, role: str) -> bool:
    """Whether this host runs a live `role`: an AI worker registered with RQ (its heartbeat keeps
    its key; a hung one's lapses), or a projector that said it is alive on every feed partition
    within its `--dead-after-ms`."""
    if not settings.redis_url:
        raise SystemExit("Set REDIS_URL to the Redis the role uses.")
    try:
        if role == "worker":
            client = connect_sync(
                queue_url(settings.redis_url, settings.queue_url, detect_s=3), timeout_s=3, plain=True
            )
        else:
            client = connect_sync(settings.redis_url, timeout_s=3, detect_s=3)
    except ClusterWithoutQueue as error:
        raise SystemExit(str(error)) from None
    except ClusterUnknown:  # Redis does not answer: nothing here can be alive on it
        return False
    try:
        host = socket.gethostname()
        if role == "worker":
            return _worker_alive(client, settings.prefix, host)
        if role == "archiver":  # it says so before each sweep, for three periods and five minutes
            from service.store.claims import archiver_alive

            return archiver_alive(client, settings.prefix, host)
        return _projector_alive(client, settings, host)
    except RedisError:
        return False
    finally:
        client.close()


def _worker_alive(client, prefix: str, host: str) -> bool:
    from rq import Queue, SimpleWorker

    from service.ai.scheduler import queue_name

    return any(w.hostname == host for w in SimpleWorker.all(queue=Queue(queue_name(prefix), connection=client)))


def _projector_alive(client, settings: Settings, host: str) -> bool:
    from service.store.feeds import consumers_alive
    from service.store.streams import EventStore

    return consumers_alive(client, EventStore(client, settings.prefix, settings.partitions).feed_keys(), host)
