"""Every key the server keeps in Redis, with its type, the adapter of `service/store` that owns it,
its lifetime and its Redis Cluster hash tag: docs/redis.md's table says the same, and
tests/test_redis_door.py checks that it does (and that nothing outside the store spells a key).
Patterns as the table writes them: `<prefix>` is PANTHEON_PREFIX, `{prefix:pN}` the hash tag of a
game's feed partition N, `ID` a game, and other capitals a part that varies."""

from __future__ import annotations

import re
from dataclasses import dataclass

GAME_TAG = "{prefix:pN}"


@dataclass(frozen=True)
class Key:
    pattern: str
    type: str
    owner: str  # module.Class under service/store
    lifetime: str

    @property
    def tag(self) -> str:
        """The hash tag that puts the key in a slot of a Redis Cluster ('none': the key's own)."""
        found = re.match(r"\{[^}]*\}", self.pattern)
        return found.group(0) if found else "none"

    @property
    def first_word(self) -> str:
        """Its first word after the prefix or the hash tag (`lobby`, `game` …)."""
        rest = self.pattern.split("}", 1)[1] if self.pattern.startswith("{") else self.pattern.split(">", 1)[1]
        return rest.lstrip(":").split(":")[0].rstrip("…")


_G = GAME_TAG + ":game:ID"
UNTIL_ARCHIVED = "until the game is archived"

KEYS: tuple[Key, ...] = (
    # the event log, the game's records and whom it awaits: one atomic append writes them together
    Key(f"{_G}:events", "stream", "streams.EventStore", UNTIL_ARCHIVED),
    Key(f"{_G}:meta", "hash", "records.GameRecords", UNTIL_ARCHIVED),
    Key(f"{_G}:idem:KEY", "string", "records.GameRecords", "PANTHEON_IDEMPOTENCY_TTL_S (24 h)"),
    Key(f"{_G}:receipt:…", "string", "streams.EventStore", "60 s"),
    Key(f"{_G}:rejected", "stream", "streams.EventStore", UNTIL_ARCHIVED),
    Key(f"{GAME_TAG}:feed", "stream", "streams.EventStore", "trimmed as the projectors finish"),
    Key(f"{GAME_TAG}:awaiting", "hash", "awaiting.Awaiting", "a field while its game awaits a seat"),
    Key(f"{GAME_TAG}:proof", "string", "replication.Acknowledger", "60 s after the last write"),
    Key("<prefix>:secret", "string", "secret.ServerSecret", "permanent"),
    Key("{<prefix>:secret}:proof", "string", "replication.Acknowledger", "60 s after the last write"),
    # the lobby
    Key("<prefix>:lobby", "sorted set", "lobby.Lobby", "a member until its game ends or is archived"),
    Key("<prefix>:lobby:ended", "sorted set", "lobby.Lobby", "permanent: a member per ended (or archived) game"),
    # read models and the projectors
    Key(f"{_G}:rm:NAME", "hash", "models.ReadModels", UNTIL_ARCHIVED),
    Key("<prefix>:projections:versions", "hash", "models.ReadModels", "permanent"),
    Key("<prefix>:projections:rebuild-lock", "string", "models.ReadModels", "while a rebuild runs (10 min at most)"),
    Key(f"{GAME_TAG}:projectors", "sorted set", "feeds.Feeds", "a member while its projector lives"),
    Key("<prefix>:clock:beat", "string", "awaiting.Awaiting", "permanent: when the clock keeper last looked (ms)"),
    # AI turns
    Key("<prefix>:ai:turns", "hash", "turns.AiTurns", "a field while its game awaits an AI"),
    Key("<prefix>:ai:lease:JOB", "string", "turns.AiTurns", "PANTHEON_AI_LEASE_S, renewed while the job runs"),
    Key("<prefix>:ai:sweeping", "string", "turns.AiTurns", "0.8 of the sweep period (50 ms at least)"),
    Key("<prefix>:ai:status", "hash", "turns.AiTurns", "permanent"),
    Key("<prefix>:ai:awaiting", "hash", "turns.AiTurns", "earlier versions'; deleted when a worker starts"),
    Key("<prefix>:ai:jobs", "earlier versions'", "turns.AiTurns", "earlier versions'; deleted when a worker starts"),
    Key(
        "<prefix>:ai:attempts", "earlier versions'", "turns.AiTurns", "earlier versions'; deleted when a worker starts"
    ),
    # the archiver
    Key(f"{_G}:archiving", "string", "claims.ArchiveClaims", "300 s (the archiver's CLAIM_S)"),
    Key("<prefix>:archiver:alive:HOST", "string", "claims.ArchiveClaims", "three sweep periods and 300 s"),
    Key("<prefix>:archiver:status", "hash", "claims.ArchiveClaims", "permanent"),
    # rate limits and quotas
    Key("<prefix>:quota:ai:ADDR", "sorted set", "quotas.Concurrency", "30 days after its last game"),
    Key("<prefix>:quota:streams:ADDR", "sorted set", "quotas.Concurrency", "120 s after its last renewal"),
    Key("<prefix>:limits…", "`limits`' own", "quotas.rate_storage", "the rate limits' windows"),
)
