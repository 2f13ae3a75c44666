"""The fan-out of one process: a single reader follows the event streams of every game someone
listens to, with one XREAD on a connection of its own, and hands each game's new envelopes to all
of its listeners at once, so a thousand spectators cost no Redis connection and no read each."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass

from redis.asyncio import Redis, RedisCluster
from redis.crc import key_slot
from redis.exceptions import RedisError

from .codec import UNPACK_ENVELOPE, Envelope
from .streams import EventStore

log = logging.getLogger("pantheon.fanout")
BLOCK_MS = 200  # one XREAD waits this long at most, so a game newly listened to joins it that soon
COUNT = 256  # entries of one stream per XREAD; a longer burst comes in the next one
TAIL = 512  # envelopes a game keeps in memory for listeners a little behind (the rest read Redis)
BACKOFF_S = (0.05, 0.1, 0.2, 0.5, 1.0, 2.0)  # between failed reads, while Redis is away


@dataclass(frozen=True)
class Batch:
    """A listener's share: the envelopes after its version, the game's version, whether the game
    has ended and whether its secrets may be shown (the hashes)."""

    envelopes: Sequence[Envelope]
    version: int
    finished: bool
    revealed: bool


class Channel:
    """One game listened to in this process: its listeners, its newest envelopes up to `version`
    (None until a listener has read the game's head), and the event its listeners wait on."""

    def __init__(self, game: str) -> None:
        self.game, self.listeners = game, 0
        self.version: int | None = None
        self.tail: list[Envelope] = []  # consecutive, ending at `version`
        self.finished = self.revealed = False
        self._moved = asyncio.Event()

    def since(self, after: int) -> Batch | None:
        """The envelopes after `after` from memory; None when memory does not reach back that far."""
        if self.version is None:
            return None
        first = self.version - len(self.tail) + 1
        if after < first - 1:
            return None
        return Batch(self.tail[max(0, after + 1 - first):], self.version, self.finished, self.revealed)

    async def wait(self, after: int, timeout_s: float) -> bool:
        """Until the game has moved past `after` (True), or for `timeout_s` (False)."""
        try:
            async with asyncio.timeout(timeout_s):
                while self.version is None or self.version <= after:
                    await self._moved.wait()
        except TimeoutError:
            return False
        return True

    def seed(self, batch: Batch) -> None:
        """Start from what a listener has just read of the game (its newest envelopes, its status)."""
        if self.version is None:
            self.version, self.finished, self.revealed = batch.version, batch.finished, batch.revealed
            self.tail = list(batch.envelopes[-TAIL:]) if batch.envelopes else []

    def publish(self, envelopes: Sequence[Envelope], finished: bool, revealed: bool) -> None:
        """The stream grew by `envelopes` (they follow `version`): keep them and wake the listeners."""
        self.tail.extend(envelopes)
        if len(self.tail) > 2 * TAIL:  # trimmed now and then, not on every event
            del self.tail[:-TAIL]
        self.version, self.finished, self.revealed = envelopes[-1].version, finished, revealed
        moved, self._moved = self._moved, asyncio.Event()
        moved.set()


class Fanout:
    """The channels of the games listened to in this process and the task that reads for them all:
    `redis` is its own connection (it blocks in XREAD); the shared pool of `store` serves the
    listeners' catch-up reads and the game status."""

    def __init__(self, store: EventStore, redis: Redis) -> None:
        self.store, self.redis = store, redis
        self.channels: dict[str, Channel] = {}
        self.listeners = 0
        self._joined = asyncio.Event()
        self._task: asyncio.Task | None = None

    async def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="fanout")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with suppress(asyncio.CancelledError):
                await self._task
        await self.redis.aclose()

    @asynccontextmanager
    async def follow(self, game: str) -> AsyncIterator[Channel]:
        """Listen to `game` while the block runs: the game is read while it has a listener."""
        channel = self.channels.get(game) or self.channels.setdefault(game, Channel(game))
        channel.listeners += 1
        self.listeners += 1
        try:
            yield channel
        finally:
            channel.listeners -= 1
            self.listeners -= 1
            if channel.listeners == 0 and self.channels.get(game) is channel:
                del self.channels[game]

    async def catch_up(self, game: str, after: int, channel: Channel | None = None) -> Batch:
        """The envelopes after `after` read from Redis now, with the game's status; they seed
        `channel` if nobody has yet."""
        version, finished = await self._status(game)
        envelopes = await self.store.read(game, after, version) if after < version else []
        batch = Batch(envelopes, version, finished, finished and await self.store.revealed(game))
        if channel is not None and channel.version is None:
            channel.seed(batch)
            self._joined.set()
        return batch

    async def _status(self, game: str) -> tuple[int, bool]:
        # version and end are set in the append's one atomic step: read together, they agree
        version, finished = await self.store.redis.hmget(self.store.keys(game).meta, "version", "finished")
        if version is None and (cold := await self.store.archived(game)):
            return int(cold.meta.get("version") or 0), True  # archived: it takes no more events, streams end
        return int(version or 0), finished is not None

    async def _run(self) -> None:
        failures = 0
        while True:
            try:
                await self._read_once()
                failures = 0
            except (RedisError, OSError) as error:  # Redis away or restarted: the listeners wait
                if failures == 0:
                    log.warning("the stream reader lost Redis (%r); retrying", error)
                await self._back_off(failures)
                failures += 1
            except Exception:  # a bug must not end the one reader of every stream: log it, go on
                log.exception("the stream reader failed; retrying")
                await self._back_off(failures)
                failures += 1

    @staticmethod
    async def _back_off(failures: int) -> None:
        await asyncio.sleep(BACKOFF_S[min(failures, len(BACKOFF_S) - 1)])

    async def _read_once(self) -> None:
        followed = {self.store.keys(c.game).events: c for c in self.channels.values() if c.version is not None}
        if not followed:
            self._joined.clear()
            await self._joined.wait()
            return
        moved: dict[Channel, list[Envelope]] = {}
        reads = [self.redis.xread(streams, count=COUNT, block=BLOCK_MS)
                 for streams in self._slots({key: f"{c.version}-1" for key, c in followed.items()})]
        for reply in await asyncio.gather(*reads):  # on a cluster, one XREAD per hash slot, side by side
            for key, entries in reply or []:
                moved[followed[key.decode()]] = [UNPACK_ENVELOPE.decode(fields[b"e"]) for _, fields in entries]
        if moved:
            await self._publish(moved)

    def _slots(self, streams: dict[str, str]) -> list[dict[str, str]]:
        """The XREADs that cover `streams`: one on a single Redis, one per hash slot on a Redis
        Cluster (a game's keys carry its feed partition's tag, so at most one per partition)."""
        if not isinstance(self.redis, RedisCluster):
            return [streams]
        slots: dict[int, dict[str, str]] = {}
        for key, after in streams.items():
            slots.setdefault(key_slot(key.encode()), {})[key] = after
        return list(slots.values())

    async def _publish(self, moved: dict[Channel, list[Envelope]]) -> None:
        """Hand each game its new envelopes, with its status: one round trip for all of them."""
        async with self.store.redis.pipeline(transaction=False) as pipe:
            for channel in moved:
                pipe.hmget(self.store.keys(channel.game).meta, "version", "finished")
            heads = await pipe.execute()
        for (channel, envelopes), (version, finished) in zip(moved.items(), heads):
            # ended only once the last of its envelopes is here (a long burst comes in several reads)
            ended = finished is not None and int(version) == envelopes[-1].version
            channel.publish(envelopes, ended, ended and await self.store.revealed(channel.game))
