"""The feed partitions as the projectors consume them: a consumer group (`projectors`) on each
partition's feed stream (which the append writes), the sorted set of the consumers alive on each
partition, and the age of what is not projected yet. What a projector does with an entry is
`service.read.projector`'s."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, cast

from redis.asyncio import RedisCluster
from redis.exceptions import ResponseError

from .models import GROUP

if TYPE_CHECKING:
    from .streams import EventStore

# KEYS: a feed partition, the sorted set of the consumers alive on it (member: name, score: the
#       Redis time in ms until which it says it is alive). ARGV: group, dead_after_ms, this
#       consumer's name.
# Says this consumer is alive for dead_after_ms more, forgets those whose time has passed, and
# removes from the group every consumer that is not alive, was given no entry for dead_after_ms
# and holds no pending entry; the names removed. One step, so an entry delivered meanwhile is
# never dropped with its consumer.
_SWEEP = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local dead_after = tonumber(ARGV[2])
redis.call('ZADD', KEYS[2], now + dead_after, ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', '(' .. now)
local removed = {}
local consumers = redis.pcall('XINFO', 'CONSUMERS', KEYS[1], ARGV[1])
if consumers['err'] then return removed end
for _, c in ipairs(consumers) do
  local info = {}
  for i = 1, #c, 2 do info[c[i]] = c[i + 1] end
  if info['pending'] == 0 and info['idle'] >= dead_after and not redis.call('ZSCORE', KEYS[2], info['name']) then
    redis.call('XGROUP', 'DELCONSUMER', KEYS[1], ARGV[1], info['name'])
    removed[#removed + 1] = info['name']
  end
end
return removed
"""

# KEYS: a feed partition. ARGV: the projectors' group. Returns the id of its oldest entry
# delivered and not acknowledged (false if none), the id of its oldest entry not delivered yet
# (false if none; every entry when the group does not exist yet), the count pending, the count
# of consumers.
_OLDEST = """
if redis.call('EXISTS', KEYS[1]) == 0 then return {false, false, 0, 0} end
for _, g in ipairs(redis.call('XINFO', 'GROUPS', KEYS[1])) do
  local info = {}
  for i = 1, #g, 2 do info[g[i]] = g[i + 1] end
  if info['name'] == ARGV[1] then
    local summary = redis.call('XPENDING', KEYS[1], ARGV[1])
    local unread = redis.call('XRANGE', KEYS[1], '(' .. info['last-delivered-id'], '+', 'COUNT', 1)
    return {summary[2] or false, unread[1] and unread[1][1] or false, summary[1], info['consumers']}
  end
end
local first = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', 1)
return {false, first[1] and first[1][1] or false, 0, 0}
"""


def alive_key(feed: str) -> str:
    """The sorted set of the consumers alive on a feed partition (score: until when, Redis time in
    ms); it shares the feed's hash tag, so the sweep is one Lua step on Redis Cluster too."""
    return feed.removesuffix(":feed") + ":projectors"


def _id_key(entry_id: bytes | str) -> tuple[int, int]:
    ms, _, seq = (entry_id.decode() if isinstance(entry_id, bytes) else entry_id).partition("-")
    return int(ms), int(seq or 0)


def _next_id(entry_id: bytes | str) -> str:
    """The smallest stream id after `entry_id`."""
    ms, seq = _id_key(entry_id)
    return f"{ms}-{seq + 1}"


class Feeds:
    """The projectors' consumer group on every feed partition (`keys()`: the partitions' feeds)."""

    def __init__(self, store: EventStore) -> None:
        self.store, self.redis = store, store.redis
        self._sweep = self.redis.register_script(_SWEEP)
        self._oldest = self.redis.register_script(_OLDEST)

    def keys(self) -> list[str]:
        return self.store.feed_keys()

    def read_together(self) -> list[list[str]]:
        """The partitions one read can span: all of them on one Redis, each alone on a cluster
        (where their hash tags put them in different slots)."""
        return [[feed] for feed in self.keys()] if isinstance(self.redis, RedisCluster) else [self.keys()]

    async def join(self, feed: str) -> None:
        """Make the group on the partition (and its feed) unless it is there."""
        try:
            await self.redis.xgroup_create(feed, GROUP, id="0", mkstream=True)
        except ResponseError as error:
            if "BUSYGROUP" not in str(error):
                raise

    async def leave(self, consumer: str) -> None:
        """Remove the consumer from the group where it holds nothing (deleting a consumer drops
        its pending entries, so one that still holds some stays for another to claim them), and
        from the consumers alive."""
        for feed in self.keys():
            held = await self.redis.xpending_range(feed, GROUP, "-", "+", 1, consumername=consumer)
            if not held:
                await self.redis.xgroup_delconsumer(feed, GROUP, consumer)
            await self.redis.zrem(alive_key(feed), consumer)  # not alive: peers remove it once it holds nothing

    async def read_new(self, feed: str, consumer: str, count: int, block_ms: int | None) -> list:
        """Up to `count` entries never delivered, waiting up to `block_ms` (None: not at all)."""
        reply = await self.redis.xreadgroup(GROUP, consumer, {feed: ">"}, count=count, block=block_ms)
        # RESP2's answer: [[feed, entries]] (redis-py's type also allows RESP3's dict)
        return cast("list[list[Any]]", reply)[0][1] if reply else []

    async def read_new_many(self, feeds: list[str], consumer: str, count: int, block_ms: int | None) -> list:
        """Like `read_new` on several partitions in one read (one Redis, not a cluster: the
        partitions' hash tags differ): [(feed, entries)] for those that had some."""
        if len(feeds) == 1:
            entries = await self.read_new(feeds[0], consumer, count, block_ms)
            return [(feeds[0], entries)] if entries else []
        reply = await self.redis.xreadgroup(GROUP, consumer, dict.fromkeys(feeds, ">"), count=count, block=block_ms)
        pairs = reply.items() if isinstance(reply, dict) else cast("list[list[Any]]", reply or [])
        return [(feed.decode() if isinstance(feed, bytes) else feed, entries) for feed, entries in pairs if entries]

    async def claim_idle(self, feed: str, consumer: str, idle_ms: int, count: int) -> list:
        """Up to `count` entries unacknowledged at other consumers for `idle_ms`, now the consumer's."""
        reply = await self.redis.xautoclaim(feed, GROUP, consumer, idle_ms, "0-0", count=count)
        return [(entry_id, fields) for entry_id, fields in reply[1] if entry_id is not None]

    async def claim_idle_many(self, feeds: list[str], consumer: str, idle_ms: int, count: int) -> list:
        """Like `claim_idle` on several partitions in one round trip (one Redis, not a cluster):
        [(feed, entries)] for those that had some."""
        if len(feeds) == 1:
            entries = await self.claim_idle(feeds[0], consumer, idle_ms, count)
            return [(feeds[0], entries)] if entries else []
        async with self.redis.pipeline(transaction=False) as pipe:
            for feed in feeds:
                pipe.xautoclaim(feed, GROUP, consumer, idle_ms, "0-0", count=count)
            replies = await pipe.execute()
        claimed = [(feed, [(i, f) for i, f in reply[1] if i is not None]) for feed, reply in zip(feeds, replies)]
        return [(feed, entries) for feed, entries in claimed if entries]

    async def renew(self, feed: str, consumer: str, ids: list[bytes]) -> int:
        """Reset the idle time of entries the consumer still works on (XCLAIM to itself with JUSTID,
        which leaves their delivery count alone); the count renewed."""
        # redis-py's parameter is a list of a union (invariant), not list[bytes]
        return len(await self.redis.xclaim(feed, GROUP, consumer, 0, cast("list[Any]", ids), justid=True))

    async def ack(self, feed: str, ids: list[bytes]) -> None:
        await self.redis.xack(feed, GROUP, *ids)

    async def trim(self, feed: str) -> int:
        """Drop the feed's entries that every consumer group has read and acknowledged; the count
        dropped. Nothing without a group."""
        groups = await self.redis.xinfo_groups(feed)
        if not groups:
            return 0
        keep_from = None
        for group in groups:
            pending = await self.redis.xpending(feed, group["name"])
            first = pending["min"] if pending["pending"] else _next_id(group["last-delivered-id"])
            keep_from = first if keep_from is None else min(keep_from, first, key=_id_key)
        return await self.redis.xtrim(feed, minid=keep_from)

    async def remove_dead(self, feed: str, consumer: str, dead_after_ms: int) -> list[str]:
        """Say on the partition that the consumer is alive for `dead_after_ms` more; remove from the
        group the consumers no longer alive that were given no entry for `dead_after_ms` and hold no
        pending entries (one step). The names removed."""
        names = await self._sweep(keys=[feed, alive_key(feed)], args=[GROUP, dead_after_ms, consumer])
        return [name.decode() for name in names]

    async def oldest(self) -> tuple[int, list]:
        """The Redis clock in ms, and for every partition: the ids of its oldest entry pending and
        of its oldest not delivered (None for none), its count pending and its count of consumers
        (one round trip)."""
        if isinstance(self.redis, RedisCluster):  # whose pipelines take neither TIME nor scripts: side by side
            (seconds, micros), *rows = await asyncio.gather(
                self.redis.time(), *(self._oldest(keys=[feed], args=[GROUP]) for feed in self.keys())
            )
        else:
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.time()
                for feed in self.keys():
                    await self._oldest(keys=[feed], args=[GROUP], client=pipe)
                (seconds, micros), *rows = await pipe.execute()
        return seconds * 1000 + micros // 1000, rows


def consumers_alive(client, feeds: list[str], host: str) -> bool:
    """Whether a consumer of `host` says it is alive on every feed partition (a synchronous client:
    `pantheon alive projector`)."""
    seconds, micros = client.time()
    now_ms = seconds * 1000 + micros // 1000
    for feed in feeds:
        names = client.zrangebyscore(alive_key(feed), now_ms, "+inf")
        if not any(name.decode().startswith(f"{host}-") for name in names):
            return False
    return True
