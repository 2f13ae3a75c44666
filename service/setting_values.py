"""How the settings' values are read from their text (service/config.py's table names them): lists,
optional strings, a number of replicas, a Redis URL; each refuses a value it cannot take, with why."""

from __future__ import annotations


def _list(text: str) -> tuple[str, ...]:
    return tuple(item.strip() for item in text.split(",") if item.strip())


def _optional(text: str) -> str | None:
    return text or None


def _replicas(text: str) -> int | None:
    """A number of replicas, or unset (None: by the deployment, 1 on a Redis Cluster, 0 on a single Redis)."""
    text = text.strip()
    if text == "auto":  # it waited for the replicas a master happened to have: none after a failover
        raise ValueError(
            "`auto` is no longer a value: the replicas an acknowledgement needs are the deployment's "
            "promise, not the number connected now. Leave it unset (1 on a Redis Cluster, 0 on a "
            "single Redis) or give a number, e.g. 1 for a single Redis with a replica"
        )
    if text and int(text) < 0:
        raise ValueError("a number of replicas cannot be negative")
    return int(text) if text else None


def _redis_url(text: str) -> str | None:
    """A redis:// (or rediss://, unix://) URL; a Sentinel URL is refused with the reason."""
    if text.split("://", 1)[0].lower() in ("redis+sentinel", "rediss+sentinel", "sentinel"):
        raise ValueError(
            "Redis Sentinel is not supported: the roles would not follow a failover to the new "
            "master, nor wait for its replicas. Use a Redis Cluster (REDIS_URL at any node) or a "
            "single Redis"
        )
    return text or None


def _at_least_one(text: str) -> int:
    return max(1, int(text))
