"""Settings: ONE table (`SETTINGS`) of every setting the processes read, each with its environment
variable, default and meaning. The environment is read through it, and the command line makes a
flag of each (`pantheon <role> --help`); a flag given wins over the environment. The only module
that reads the environment: a process builds its `Settings` once at start and passes them on."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from .setting_values import _at_least_one, _list, _optional, _redis_url, _replicas


@dataclass(frozen=True)
class Setting:
    """One setting: `name` (the Settings attribute and the flag, `--name-with-dashes`), its variable,
    its default (a string, as it would be written in the environment, or a function that makes
    one), how to read it, what it means, and the roles that use it."""

    name: str
    env: str
    default: str | Callable[[], str]
    parse: Callable[[str], Any]
    help: str
    roles: frozenset[str]
    flag: bool = True  # False: environment only (a secret would show in the process list)

    @property
    def option(self) -> str:
        return "--" + self.name.replace("_", "-")

    def default_text(self) -> str:
        return self.default() if callable(self.default) else self.default

    def read(self, env: Mapping[str, str] | None = None) -> Any:
        """The setting's value from the environment (`os.environ` by default), else its default."""
        raw = (os.environ if env is None else env).get(self.env)
        return self.parse(raw if raw is not None else self.default_text())


SERVER = frozenset({"serve", "api", "projector", "worker", "alive", "rebuild", "export", "import", "audit", "archiver"})
ARCHIVE = frozenset({"serve", "api", "archiver", "export", "import", "audit"})
HTTP = frozenset({"serve", "api"})
AI = frozenset({"serve", "api", "worker"})


def _setting(
    name: str,
    env: str,
    default: str | Callable[[], str],
    parse: Callable[[str], Any],
    help: str,
    roles: frozenset[str],
    **more: Any,
) -> Setting:
    return Setting(name, env, default, parse, help, roles, **more)


SETTINGS: tuple[Setting, ...] = (
    _setting(
        "redis_url",
        "REDIS_URL",
        "",
        _redis_url,
        "the Redis to use, e.g. redis://127.0.0.1:6379/0, or any "
        "node of a Redis Cluster (found out by itself) (`serve` without it: an embedded Redis)",
        SERVER,
    ),
    _setting(
        "queue_url",
        "PANTHEON_QUEUE_URL",
        "",
        _redis_url,
        "the plain Redis of the AI turns' queue (RQ), "
        "e.g. redis://127.0.0.1:6380/0; unset: REDIS_URL, unless that is a Redis Cluster (RQ cannot use one: "
        "then this is required)",
        frozenset({"serve", "api", "worker", "alive"}),
    ),
    _setting(
        "data_dir", "PANTHEON_DATA_DIR", "data", str, "where the embedded Redis keeps its data", frozenset({"serve"})
    ),
    _setting("prefix", "PANTHEON_PREFIX", "pantheon", str, "the prefix of every Redis key", SERVER),
    _setting(
        "partitions",
        "PANTHEON_FEED_PARTITIONS",
        "16",
        int,
        "the number of feed partitions (the same for every process of a deployment)",
        SERVER,
    ),
    _setting(
        "redis_timeout_s",
        "PANTHEON_REDIS_TIMEOUT_S",
        "5",
        float,
        "seconds a Redis command (or a wait for a pooled connection) may take before the request fails (503)",
        SERVER,
    ),
    _setting(
        "redis_detect_s",
        "PANTHEON_REDIS_DETECT_S",
        "60",
        float,
        "seconds a role starting while REDIS_URL "
        "does not answer keeps asking it whether it is a Redis Cluster (then it stops; the API starts, not "
        "ready, and asks on)",
        SERVER,
    ),
    _setting(
        "wait_replicas",
        "PANTHEON_WAIT_REPLICAS",
        "",
        _replicas,
        "replicas that must confirm a write (or "
        "the stored outcome a retry is answered from) before it is acknowledged (Redis WAIT); unset: 1 on a "
        "Redis Cluster, 0 on a single Redis (set 1 when it has a replica); fewer: 503 `not_replicated`",
        SERVER,
    ),
    _setting(
        "wait_timeout_ms",
        "PANTHEON_WAIT_TIMEOUT_MS",
        "1000",
        int,
        "milliseconds a write waits for its replicas; unconfirmed by then: 503 `not_replicated`",
        SERVER,
    ),
    _setting(
        "redis_pool",
        "PANTHEON_REDIS_POOL",
        "64",
        int,
        "the most Redis connections an API process's requests share",
        HTTP,
    ),
    _setting("host", "PANTHEON_HOST", "127.0.0.1", str, "the address the API listens on", HTTP),
    _setting("port", "PANTHEON_PORT", "8000", int, "the port the API listens on", HTTP),
    _setting(
        "cors_origins",
        "PANTHEON_CORS_ORIGINS",
        "",
        _list,
        "browser origins allowed to call the API from elsewhere, comma-separated (none by default)",
        HTTP,
    ),
    _setting(
        "idempotency_ttl_s",
        "PANTHEON_IDEMPOTENCY_TTL_S",
        "86400",
        int,
        "seconds an Idempotency-Key is remembered (a retry after that is decided afresh)",
        HTTP,
    ),
    _setting(
        "secret",
        "PANTHEON_SECRET",
        "",
        _optional,
        "the HMAC key (at least 32 characters) that derives the "
        "secrets answered for an Idempotency-Key; unset: one made once and kept in Redis. Environment only: a "
        "flag would show it in the process list",
        HTTP,
        flag=False,
    ),
    _setting(
        "header_timeout_s",
        "PANTHEON_HEADER_TIMEOUT_S",
        "10",
        float,
        "seconds a request's head (and body) has to arrive (else 408)",
        HTTP,
    ),
    _setting(
        "keep_alive_s", "PANTHEON_KEEP_ALIVE_S", "5", float, "seconds an idle kept-alive connection stays open", HTTP
    ),
    _setting(
        "max_header_bytes", "PANTHEON_MAX_HEADER_BYTES", "16384", int, "the largest request head (else 431)", HTTP
    ),
    _setting(
        "max_connections",
        "PANTHEON_MAX_CONNECTIONS",
        "1000",
        int,
        "open connections beyond which a new one is answered 503",
        HTTP,
    ),
    _setting(
        "limit_create",
        "PANTHEON_LIMIT_CREATE",
        "10/minute;100/hour",
        str,
        "games created (or forked) per client address (rates in the `limits` notation, ';' between)",
        HTTP,
    ),
    _setting("limit_commands", "PANTHEON_LIMIT_COMMANDS", "30/second;1800/minute", str, "commands per seat", HTTP),
    _setting(
        "limit_ai_games", "PANTHEON_LIMIT_AI_GAMES", "4", int, "running games with AI seats per client address", HTTP
    ),
    _setting("limit_streams", "PANTHEON_LIMIT_STREAMS", "20", int, "open event streams per client address", HTTP),
    _setting(
        "trusted_proxies",
        "PANTHEON_TRUSTED_PROXIES",
        "",
        _list,
        "proxies whose X-Forwarded-For is believed (addresses or networks, comma-separated)",
        HTTP,
    ),
    _setting(
        "ai_workers",
        "PANTHEON_AI_WORKERS",
        lambda: str(min(2, os.cpu_count() or 1)),
        _at_least_one,
        "AI worker processes `serve` starts (each plays one AI turn at a time; default: min(2, CPUs))",
        frozenset({"serve"}),
    ),
    _setting(
        "ai_sweep_s",
        "PANTHEON_AI_SWEEP_S",
        "2",
        float,
        "how often (seconds) the AI sweeper looks for due AI turns that no job waits for or runs",
        frozenset({"serve", "worker"}),
    ),
    _setting(
        "clock_min_s",
        "PANTHEON_CLOCK_MIN_S",
        "30",
        int,
        "the shortest Fischer bank or time per move a new game's turn clock may have, in seconds "
        "(30; tests set less, to see a clock run out in seconds: never lower it for players)",
        frozenset({"serve", "api"}),
    ),
    _setting(
        "archive_dir",
        "PANTHEON_ARCHIVE_DIR",
        "",
        str,
        "the directory of archived games (finished or "
        "abandoned games moved out of Redis); every API process must read the same one (a shared volume); "
        "unset: `archive` in PANTHEON_DATA_DIR",
        ARCHIVE,
    ),
    _setting(
        "archive_finished_s",
        "PANTHEON_ARCHIVE_FINISHED_S",
        "300",
        int,
        "seconds a finished game stays in Redis after its last event before the archiver moves it to the archive",
        frozenset({"serve", "archiver"}),
    ),
    _setting(
        "archive_abandoned_s",
        "PANTHEON_ARCHIVE_ABANDONED_S",
        "2419200",
        int,
        "seconds without an event after which a game that has not ended (never started, or left) is archived too",
        frozenset({"serve", "archiver"}),
    ),
    _setting(
        "archive_every_s",
        "PANTHEON_ARCHIVE_EVERY_S",
        "60",
        float,
        "how often (seconds) the archiver looks for games to archive",
        frozenset({"serve", "archiver"}),
    ),
    _setting(
        "ai_lease_s",
        "PANTHEON_AI_LEASE_S",
        "30",
        float,
        "seconds a running AI job holds its turn's lease "
        "(renewed while it runs); a turn without a live lease is enqueued again",
        AI,
    ),
    _setting(
        "ai_expert_s",
        "PANTHEON_AI_EXPERT_S",
        "1",
        float,
        "CPU seconds the expert AI thinks per move (turned into ISMCTS iterations, recorded with the move)",
        frozenset({"serve", "worker"}),
    ),
)
BY_NAME = {s.name: s for s in SETTINGS}


def default(name: str) -> Any:
    """A setting's default value (the table's, not the environment's): for a parameter that callers
    give from their `Settings`."""
    setting = BY_NAME[name]
    return setting.parse(setting.default_text())


def _from_env(name: str) -> Any:
    return field(default_factory=lambda: BY_NAME[name].read())


@dataclass(frozen=True)
class QuotaSettings:
    """Rate limits and quotas of the API (rates in the `limits` library's notation, ";" between)."""

    create: str = BY_NAME["limit_create"].default_text()  # games created (or forked) per client address
    commands: str = BY_NAME["limit_commands"].default_text()  # commands per seat
    ai_games: int = int(BY_NAME["limit_ai_games"].default_text())  # running games with AI seats per client address
    streams: int = int(BY_NAME["limit_streams"].default_text())  # open event streams per client address
    trusted_proxies: tuple[str, ...] = ()  # proxies whose X-Forwarded-For is believed (addresses or networks)

    @classmethod
    def from_environ(cls, environ: Mapping[str, str] | None = None) -> QuotaSettings:
        """The quotas from `environ` (`os.environ` by default)."""
        return cls(
            create=BY_NAME["limit_create"].read(environ),
            commands=BY_NAME["limit_commands"].read(environ),
            ai_games=BY_NAME["limit_ai_games"].read(environ),
            streams=BY_NAME["limit_streams"].read(environ),
            trusted_proxies=BY_NAME["trusted_proxies"].read(environ),
        )


@dataclass(frozen=True)
class Settings:
    """What the processes need to know: each field from its environment variable (see SETTINGS)."""

    redis_url: str | None = _from_env("redis_url")
    queue_url: str | None = _from_env("queue_url")
    data_dir: str = _from_env("data_dir")
    prefix: str = _from_env("prefix")
    partitions: int = _from_env("partitions")
    host: str = _from_env("host")
    port: int = _from_env("port")
    ai_workers: int = _from_env("ai_workers")
    ai_sweep_s: float = _from_env("ai_sweep_s")
    clock_min_s: int = _from_env("clock_min_s")
    max_body_bytes: int = 64 * 1024
    cors_origins: tuple[str, ...] = _from_env("cors_origins")
    quotas: QuotaSettings = field(default_factory=QuotaSettings.from_environ)
    idempotency_ttl_s: int = _from_env("idempotency_ttl_s")
    secret: str | None = field(default_factory=lambda: BY_NAME["secret"].read(), repr=False)
    # slow and idle clients (service/http/server.py)
    header_timeout_s: float = _from_env("header_timeout_s")
    keep_alive_s: float = _from_env("keep_alive_s")
    max_header_bytes: int = _from_env("max_header_bytes")
    max_connections: int = _from_env("max_connections")
    redis_timeout_s: float = _from_env("redis_timeout_s")
    redis_pool: int = _from_env("redis_pool")
    redis_detect_s: float = _from_env("redis_detect_s")
    # acknowledgements (service/store/replication.py)
    wait_replicas: int | None = _from_env("wait_replicas")
    wait_timeout_ms: int = _from_env("wait_timeout_ms")
    ai_lease_s: float = _from_env("ai_lease_s")
    ai_expert_s: float = _from_env("ai_expert_s")
    archive_dir: str = _from_env("archive_dir")
    archive_finished_s: int = _from_env("archive_finished_s")
    archive_abandoned_s: int = _from_env("archive_abandoned_s")
    archive_every_s: float = _from_env("archive_every_s")

    @classmethod
    def from_environ(cls, environ: Mapping[str, str]) -> Settings:
        """Every setting from `environ` (the environment with the command line's flags over it): the
        one read of the settings at a process's start, handed from there to what needs them."""
        read = {f.name: BY_NAME[f.name].read(environ) for f in fields(cls) if f.name in BY_NAME}
        return cls(**read, quotas=QuotaSettings.from_environ(environ))

    @property
    def archive_path(self) -> str:
        """The archive directory: PANTHEON_ARCHIVE_DIR, else `archive` in the data directory."""
        return self.archive_dir or os.path.join(self.data_dir, "archive")
