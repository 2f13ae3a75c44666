"""The deployment's server secret: the HMAC key from which a game's or a seat's secrets are derived
for a client's Idempotency-Key, so that a retry derives them again instead of finding them stored.

It is `PANTHEON_SECRET` when set; otherwise one made at random once and kept in Redis under the
deployment's prefix (`<prefix>:secret`, written with SET NX: the first process's value wins and
every API process reads the same one), proven replicated before it is used: a failover that lost it
would make a new one, and every retry of a keyed request would derive other answers."""

from __future__ import annotations

import secrets

from redis.asyncio import Redis, RedisCluster

from .replication import Acknowledger

# KEYS: the secret's key. ARGV: a new secret. Keeps the one there, else sets this one; the one kept.
_MAKE = "redis.call('SET', KEYS[1], ARGV[1], 'NX') return redis.call('GET', KEYS[1])"

MIN_CHARS = 32  # a configured secret shorter than this is refused at startup


def check_configured(configured: str | None) -> None:
    """A ValueError for a configured secret too short to be one."""
    if configured is not None and len(configured) < MIN_CHARS:
        raise ValueError(f"PANTHEON_SECRET must be at least {MIN_CHARS} characters (e.g. `openssl rand -hex 32`).")


class ServerSecret:
    """The secret of one deployment, read once per process."""

    def __init__(
        self,
        redis: Redis | RedisCluster,
        prefix: str,
        configured: str | None = None,
        *,
        acknowledger: Acknowledger | None = None,
    ) -> None:
        check_configured(configured)
        self.redis, self.key = redis, f"{prefix}:secret"
        self.acknowledger = acknowledger or Acknowledger(redis)
        self._make = redis.register_script(_MAKE)
        self._value = configured.encode() if configured else None

    async def value(self) -> bytes:
        """The secret; without a configured one, the one in Redis (made now if there is none yet)."""
        if self._value is None:
            self._value = await self.acknowledger.run(self._make, [self.key], [secrets.token_hex(32)])
        return self._value
