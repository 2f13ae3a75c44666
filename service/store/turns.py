"""What the AI scheduler, its sweeper and its workers keep in Redis, through a synchronous client
(RQ's client is synchronous, and the sweeper and the lease renewal run in threads): the job of each
game's current AI turn, the running jobs' leases, the sweepers' lock and figures, and what they
read of the games (whom each awaits: the append writes it; the seats' AI levels). RQ's own keys are
RQ's: it gets its connection here (`queue_connection`). Scheduling is `service.ai`'s."""

from __future__ import annotations

from collections.abc import Iterator
from typing import cast

import redis

from .connection import TIMEOUT_S, connect_sync
from .streams import REV_FIELD, EventStore


def lease_key(prefix: str, job_id: str) -> str:
    return f"{prefix}:ai:lease:{job_id}"


def status_key(prefix: str) -> str:
    """The last sweep's figures and the running counts of turns enqueued again, by reason."""
    return f"{prefix}:ai:status"


async def read_status(store: EventStore) -> dict[str, float]:
    """The AI sweepers' figures, for /metrics (through the store's asyncio client)."""
    raw = cast("dict[bytes, bytes]", await store.redis.hgetall(status_key(store.prefix)))  # no decode_responses
    return {k.decode(): float(v) for k, v in raw.items()}


class AiTurns:
    """`redis_url`: the store's Redis; `queue_url`: the plain Redis of RQ's queue (the same or another)."""

    def __init__(
        self,
        redis_url: str,
        queue_url: str,
        prefix: str,
        partitions: int,
        *,
        timeout_s: float = TIMEOUT_S,
        detect_s: float | None = None,
    ) -> None:
        self.prefix, self.partitions = prefix, partitions
        self.redis: redis.Redis | redis.RedisCluster = connect_sync(redis_url, timeout_s=timeout_s, detect_s=detect_s)
        self._queue = self.redis if queue_url == redis_url else connect_sync(queue_url, timeout_s=timeout_s, plain=True)
        self.layout = EventStore(self.redis, prefix, partitions)  # type: ignore[arg-type]  # only for its key layout
        self.turns_key = f"{prefix}:ai:turns"  # game -> its current AI turn's job (one field per running game)
        self.status_key = status_key(prefix)
        self.sweeping_key = f"{prefix}:ai:sweeping"
        # where earlier versions kept whom each game awaits (now the append's awaiting hashes), and
        # the keys they grew per turn
        self.legacy_keys = (f"{prefix}:ai:awaiting", f"{prefix}:ai:jobs", f"{prefix}:ai:attempts")

    def queue_connection(self) -> redis.Redis:
        """The client of RQ's queue, for RQ (Queue, Job.fetch)."""
        return self._queue  # type: ignore[return-value]

    def close(self) -> None:
        self.redis.close()
        if self._queue is not self.redis:
            self._queue.close()

    def now(self) -> float:
        """The Redis clock in seconds: one clock for every process, whatever machine it runs on."""
        seconds, micros = self.redis.time()
        return seconds + micros / 1e6

    def meta_key(self, game: str) -> str:
        return self.layout.keys(game).meta

    # --- the turns' jobs ----------------------------------------------------------------------
    def record(self, game: str, turn: str) -> None:
        """Record the (encoded) job of the game's current AI turn."""
        self.redis.hset(self.turns_key, game, turn)

    def current(self, game: str) -> bytes | None:
        return self.redis.hget(self.turns_key, game)  # type: ignore[return-value]

    def recorded(self) -> Iterator[tuple[bytes, bytes]]:
        """Every game's recorded turn job (game, encoded job), scanned."""
        return self.redis.hscan_iter(self.turns_key, count=500)

    def forget(self, games: list[bytes]) -> None:
        if games:
            self.redis.hdel(self.turns_key, *games)

    def have_ended(self, games: list[str]) -> list[bool]:
        """Whether each game has ended, as Redis holds it (one round trip)."""
        pipe = self.redis.pipeline(transaction=False)
        for game in games:
            pipe.hexists(self.meta_key(game), "finished")
        return [bool(e) for e in pipe.execute()]

    # --- leases ---------------------------------------------------------------------------------
    def hold_lease(self, job_id: str, ttl_ms: int) -> None:
        """Say the job runs, for `ttl_ms` (renew it while it runs)."""
        self.redis.set(lease_key(self.prefix, job_id), 1, px=ttl_ms)

    def drop_lease(self, job_id: str) -> None:
        self.redis.delete(lease_key(self.prefix, job_id))

    def lease_held(self, job_id: str) -> bool:
        return bool(self.redis.exists(lease_key(self.prefix, job_id)))

    def waits_in_queue(self, queue_key: str, job_id: str) -> bool:
        """Whether the job waits in RQ's queue (`queue_key`: RQ's key of it)."""
        return self._queue.lpos(queue_key, job_id) is not None

    # --- the sweepers -----------------------------------------------------------------------------
    def take_sweep(self, period_ms: int) -> bool:
        """The turn to sweep for `period_ms`, unless another sweeper took it in this period."""
        return bool(self.redis.set(self.sweeping_key, "1", nx=True, px=period_ms))

    def record_sweep(self, figures: dict[str, str | int]) -> None:
        self.redis.hset(self.status_key, mapping=figures)  # type: ignore[arg-type]

    def count_requeued(self, reason: str) -> None:
        self.redis.hincrby(self.status_key, f"requeued:{reason}", 1)

    def awaiting(self, partition: int) -> dict[bytes, bytes]:
        """The partition's running games and whom each awaits (game -> "version|seat|since ms")."""
        return self.redis.hgetall(self.layout.awaiting_key(partition))  # type: ignore[return-value]

    def stop_awaiting(self, partition: int, game: str) -> None:
        """Drop a game that no longer awaits anyone (ended, or gone) from its partition's awaiting hash."""
        self.redis.hdel(self.layout.awaiting_key(partition), game)

    def seat_facts(self, turns: list[tuple[str, int]]) -> list[list]:
        """For each (game, seat): the game's version, finished, seats, idle_seconds and the seat's
        AI level if handed over (one round trip)."""
        pipe = self.redis.pipeline(transaction=False)
        for game, seat in turns:
            pipe.hmget(self.meta_key(game), "version", "finished", "seats", "idle_seconds", f"ai:{seat}")
        return pipe.execute()

    def hand_to_ai(self, game: str, seat: int, level: str) -> None:
        """Hand the seat to the AI `level`, counting a metadata revision in the same step."""
        with self.redis.pipeline(transaction=True) as pipe:
            pipe.hset(self.meta_key(game), f"ai:{seat}", level)
            pipe.hincrby(self.meta_key(game), REV_FIELD, 1)
            pipe.execute()

    def migrate_legacy(self) -> int:
        """Carry over whom running games await from the hash earlier versions kept (their next
        append records it in the store); drop the keys earlier versions grew per turn. The count
        carried over."""
        carried = 0
        legacy = cast("dict[bytes, bytes]", self.redis.hgetall(self.legacy_keys[0]))  # no decode_responses
        for game, value in legacy.items():
            version, seat, since = value.decode().split("|")
            meta_version, finished = cast(
                "list[bytes | None]", self.redis.hmget(self.meta_key(game.decode()), "version", "finished")
            )
            if finished is None and meta_version is not None and int(meta_version) == int(version):
                key = self.layout.awaiting_key(self.layout.partition(game.decode()))
                carried += self.redis.hsetnx(key, game, f"{version}|{seat}|{int(float(since) * 1000)}")
        self.redis.delete(*self.legacy_keys)
        return carried
