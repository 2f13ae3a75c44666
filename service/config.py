"""Settings from the environment: where Redis is, where embedded data lives, key prefix."""

from __future__ import annotations

import os
from dataclasses import dataclass, field


def _env_list(name: str) -> tuple[str, ...]:
    return tuple(item.strip() for item in os.environ.get(name, "").split(",") if item.strip())


@dataclass(frozen=True)
class QuotaSettings:
    """Rate limits and quotas of the API (rates in the `limits` library's notation, ";" between)."""

    create: str = "10/minute;100/hour"  # games created (or forked) per client address
    commands: str = "30/second;1800/minute"  # commands per seat
    ai_games: int = 4  # running games with AI seats per client address
    streams: int = 20  # open event streams per client address
    trusted_proxies: tuple[str, ...] = ()  # proxies whose X-Forwarded-For is believed (addresses or networks)

    @classmethod
    def from_env(cls) -> QuotaSettings:
        env = os.environ.get
        return cls(create=env("PANTHEON_LIMIT_CREATE", cls.create), commands=env("PANTHEON_LIMIT_COMMANDS", cls.commands),
                   ai_games=int(env("PANTHEON_LIMIT_AI_GAMES", cls.ai_games)),
                   streams=int(env("PANTHEON_LIMIT_STREAMS", cls.streams)),
                   trusted_proxies=_env_list("PANTHEON_TRUSTED_PROXIES"))


@dataclass(frozen=True)
class Settings:
    """What the processes need to know; all from environment variables with sane defaults."""

    redis_url: str | None = field(default_factory=lambda: os.environ.get("REDIS_URL") or None)
    data_dir: str = field(default_factory=lambda: os.environ.get("PANTHEON_DATA_DIR", "data"))
    prefix: str = field(default_factory=lambda: os.environ.get("PANTHEON_PREFIX", "pantheon"))
    partitions: int = field(default_factory=lambda: int(os.environ.get("PANTHEON_FEED_PARTITIONS", "16")))
    host: str = field(default_factory=lambda: os.environ.get("PANTHEON_HOST", "127.0.0.1"))
    port: int = field(default_factory=lambda: int(os.environ.get("PANTHEON_PORT", "8000")))
    # AI worker processes `pantheon serve` starts: each plays one AI turn at a time
    ai_workers: int = field(default_factory=lambda: max(1, int(os.environ.get(
        "PANTHEON_AI_WORKERS", min(2, os.cpu_count() or 1)))))
    # how often the AI sweeper looks for due AI turns that no job waits for or runs (seconds)
    ai_sweep_s: float = field(default_factory=lambda: float(os.environ.get("PANTHEON_AI_SWEEP_S", "2")))
    max_body_bytes: int = 64 * 1024
    # how long an accepted command's Idempotency-Key is remembered (a retry after that is decided afresh)
    # browser origins allowed to call the API from elsewhere, comma-separated (none by default)
    cors_origins: tuple[str, ...] = field(default_factory=lambda: _env_list("PANTHEON_CORS_ORIGINS"))
    quotas: QuotaSettings = field(default_factory=QuotaSettings.from_env)
    idempotency_ttl_s: int = field(default_factory=lambda: int(os.environ.get("PANTHEON_IDEMPOTENCY_TTL_S", "86400")))
    # the HMAC key that derives a game's or seat's secrets from a client's Idempotency-Key (at least
    # 32 characters); unset: one is made once and kept in Redis (service/store/secret.py)
    secret: str | None = field(default_factory=lambda: os.environ.get("PANTHEON_SECRET") or None, repr=False)
    # slow and idle clients (service/http/server.py): a request's head must be complete within
    # header_timeout_s and at most max_header_bytes long; an idle kept-alive connection is closed
    # after keep_alive_s; beyond max_connections open connections a new one is answered 503
    header_timeout_s: float = field(default_factory=lambda: float(os.environ.get("PANTHEON_HEADER_TIMEOUT_S", "10")))
    keep_alive_s: float = field(default_factory=lambda: float(os.environ.get("PANTHEON_KEEP_ALIVE_S", "5")))
    max_header_bytes: int = field(default_factory=lambda: int(os.environ.get("PANTHEON_MAX_HEADER_BYTES", "16384")))
    max_connections: int = field(default_factory=lambda: int(os.environ.get("PANTHEON_MAX_CONNECTIONS", "1000")))
