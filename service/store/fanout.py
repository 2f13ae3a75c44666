"""The fan-out of one process: a single reader follows the event streams of every game someone
listens to, with one XREAD on a connection of its own, and hands each game's new envelopes to all
of its listeners at once, so a thousand spectators cost no Redis connection and no read each."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass
from typing import Any, cast

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
SEED_BACK = 64  # envelopes before the head a channel starts with: how far back a reset can tell what is kept
CHECK_S = 1.0  # how often the reader checks that the games' logs still end with what it published


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
    (None until a listener has read the game's head), and the event its listeners wait on.

    `resets` counts the times the game's log was found to no longer hold what the channel had
    published (a failover lost events that were never acknowledged, and their versions may hold
    other events now); `agreed` is the newest version on which the log and the lost events agreed
    at the last reset (0 when that is not known)."""

    def __init__(self, game: str) -> None:
        self.game, self.listeners = game, 0
        self.version: int | None = None
        self.hash = ""  # the hash of event `version`
        self.tail: list[Envelope] = []  # consecutive, ending at `version`
        self.finished = self.revealed = False
        self.resets, self.agreed = 0, 0
        self.seeding = False  # a listener is reading the game's head to seed the channel
        self._moved = asyncio.Event()

    def since(self, after: int) -> Batch | None:
        """The envelopes after `after` from memory; None when memory does not reach back that far."""
        if self.version is None:
            return None
        first = self.version - len(self.tail) + 1
        if after < first - 1:
            return None
        return Batch(self.tail[max(0, after + 1 - first) :], self.version, self.finished, self.revealed)

    async def wait(self, after: int, timeout_s: float, resets: int = 0) -> bool:
        """Until the game has moved past `after` or been reset since `resets` (True), or for
        `timeout_s` (False)."""
        try:
            async with asyncio.timeout(timeout_s):
                while self._waiting(after) and self.resets == resets:
                    await self._moved.wait()
        except TimeoutError:
            return False
        return True

    def _waiting(self, after: int) -> bool:
        """Nothing past `after` yet (or a listener is seeding the channel: its seed tells)."""
        return self.seeding if self.version is None else self.version <= after

    def seed(self, batch: Batch, head_hash: str) -> None:
        """Start from what a listener has just read of the game (its newest envelopes, its status)."""
        if self.version is None:
            self.version, self.finished, self.revealed = batch.version, batch.finished, batch.revealed
            self.tail = list(batch.envelopes[-TAIL:]) if batch.envelopes else []
            self.hash = head_hash
            self._wake()

    def publish(self, envelopes: Sequence[Envelope], finished: bool, revealed: bool) -> None:
        """The stream grew by `envelopes` (they follow `version`): keep them and wake the listeners."""
        self.tail.extend(envelopes)
        if len(self.tail) > 2 * TAIL:  # trimmed now and then, not on every event
            del self.tail[:-TAIL]
        self.version, self.finished, self.revealed = envelopes[-1].version, finished, revealed
        self.hash = envelopes[-1].hash
        self._wake()

    def reset(self, agreed: int) -> None:
        """The log no longer holds what was published after `agreed`: forget it (the next listener
        to read seeds the channel again) and wake the listeners, who end their streams if they
        sent anything after `agreed`."""
        self.version, self.hash, self.tail = None, "", []
        self.resets, self.agreed = self.resets + 1, agreed
        self._wake()

    def _wake(self) -> None:
        moved, self._moved = self._moved, asyncio.Event()
        moved.set()


class Fanout:
    """The channels of the games listened to in this process and the task that reads for them all:
    `redis` is its own connection (it blocks in XREAD); the shared pool of `store` serves the
    listeners' catch-up reads and the game status."""

    def __init__(self, store: EventStore, redis: Redis | RedisCluster) -> None:
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
        seeding = channel is not None and channel.version is None and not channel.seeding
        if seeding:  # one listener at a time seeds (with a little more than it needs), the others just read
            assert channel is not None  # seeding implies a channel (for mypy)
            channel.seeding = True
        try:
            version, finished, head_hash = await self._status(game)
            start = min(after, max(0, version - SEED_BACK)) if seeding else after
            envelopes = await self.store.read(game, start, version) if start < version else []
            revealed = finished and await self.store.records.revealed(game)
        except BaseException:
            if seeding:  # the listeners waiting for this seed read (and seed) themselves
                assert channel is not None
                channel.seeding = False
                channel._wake()
            raise
        if seeding:
            assert channel is not None
            channel.seeding = False
            channel.seed(Batch(envelopes, version, finished, revealed), head_hash)
            self._joined.set()
        return Batch(envelopes[max(0, after - start) :], version, finished, revealed)

    async def _status(self, game: str) -> tuple[int, bool, str]:
        # version, end and last hash are set in the append's one atomic step: read together, they agree
        version, finished, last = cast(
            "list[bytes | None]",
            await self.store.redis.hmget(self.store.keys(game).meta, "version", "finished", "hash"),
        )
        if version is None and (cold := await self.store.archived(game)):
            # archived: it takes no more events, streams end
            return int(cold.meta.get("version") or 0), True, (cold.meta.get("hash") or b"").decode()
        return int(version or 0), finished is not None, (last or b"").decode()

    async def _run(self) -> None:
        failures, next_check = 0, time.monotonic() + CHECK_S
        while True:
            try:
                await self._read_once()
                if time.monotonic() >= next_check:
                    await self._check_heads()
                    next_check = time.monotonic() + CHECK_S
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
        reads = [
            # redis-py's parameter is a dict of unions (invariant); RESP2's answer: [[key, entries], ...]
            cast("Any", self.redis.xread(cast("dict[Any, Any]", streams), count=COUNT, block=BLOCK_MS))
            for streams in self._slots({key: f"{c.version}-1" for key, c in followed.items()})
        ]
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
            assert channel.version is not None  # it was followed: seeded
            if envelopes[0].version != channel.version + 1 or envelopes[0].prev_hash != channel.hash:
                await self._diverged(channel)  # they do not follow what was published: a failover lost it
                continue
            # ended only once the last of its envelopes is here (a long burst comes in several reads)
            ended = finished is not None and int(version) == envelopes[-1].version
            channel.publish(envelopes, ended, ended and await self.store.records.revealed(channel.game))

    async def _check_heads(self) -> None:
        """Reset the channels whose game's log now ends before what they published, or at the same
        version with another hash (a failover lost events; the next appends reuse their versions,
        and the XREAD after the published version does not see those until the log passes it).
        One pipelined read of every followed game's head, every CHECK_S."""
        channels = [c for c in self.channels.values() if c.version is not None]
        if not channels:
            return
        async with self.store.redis.pipeline(transaction=False) as pipe:
            for channel in channels:
                pipe.hmget(self.store.keys(channel.game).meta, "version", "hash")
            heads = await pipe.execute()
        for channel, (version, last) in zip(channels, heads):
            if channel.version is None or version is None:
                continue
            if int(version) < channel.version or (int(version) == channel.version and last.decode() != channel.hash):
                await self._diverged(channel)

    async def _diverged(self, channel: Channel) -> None:
        """Reset a channel whose game's log no longer holds what it published, with the newest
        version the log and its kept tail still agree on (0 when even the tail's first differs)."""
        agreed = 0
        if channel.tail:
            first = channel.tail[0].version
            logged = {e.version: e.hash for e in await self.store.read(channel.game, first - 1, channel.version)}
            for envelope in channel.tail:
                if logged.get(envelope.version) != envelope.hash:
                    break
                agreed = envelope.version
        log.warning(
            "game %s: its log no longer holds events %d..%s as streamed (a failover lost them); "
            "streams past %d end with a reset",
            channel.game,
            agreed + 1,
            channel.version,
            agreed,
        )
        channel.reset(agreed)
