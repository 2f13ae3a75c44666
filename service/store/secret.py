"""The deployment's server secret: the HMAC key from which a game's or a seat's secrets are derived
for a client's Idempotency-Key, so that a retry derives them again instead of finding them stored.

It is `PANTHEON_SECRET` when set; otherwise one made at random once and kept in Redis under the
deployment's prefix (`<prefix>:secret`, written with SET NX: the first process's value wins and
every API process reads the same one)."""

from __future__ import annotations

import secrets

from redis.asyncio import Redis

MIN_CHARS = 32  # a configured secret shorter than this is refused at startup


def check_configured(configured: str | None) -> None:
    """A ValueError for a configured secret too short to be one."""
    if configured is not None and len(configured) < MIN_CHARS:
        raise ValueError(f"PANTHEON_SECRET must be at least {MIN_CHARS} characters (e.g. `openssl rand -hex 32`).")


class ServerSecret:
    """The secret of one deployment, read once per process."""

    def __init__(self, redis: Redis, prefix: str, configured: str | None = None) -> None:
        check_configured(configured)
        self.redis, self.key = redis, f"{prefix}:secret"
        self._value = configured.encode() if configured else None

    async def value(self) -> bytes:
        """The secret; without a configured one, the one in Redis (made now if there is none yet)."""
        while self._value is None:
            await self.redis.set(self.key, secrets.token_hex(32), nx=True)
            self._value = await self.redis.get(self.key)  # None only if deleted in between: again
        return self._value
