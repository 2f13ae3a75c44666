"""How far behind the projections are, read from Redis alone: for each feed partition, the age of
the oldest feed entry the projectors have not finished. Feed ids are Redis times in milliseconds
(XADD `*`), so the age needs no clock but Redis's own (TIME)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from redis.asyncio import Redis, RedisCluster

from service.store.streams import EventStore

from .models import GROUP

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


@dataclass(frozen=True)
class FeedLag:
    partition: int
    seconds: float  # the age of the oldest entry not projected yet (pending or not delivered); 0 when none
    pending: int  # entries delivered to a projector and not acknowledged (a dead one's too)
    consumers: int  # consumers in the projectors' group (a dead one's until it is removed)


def _ms(entry_id: bytes) -> int:
    return int(entry_id.split(b"-", 1)[0])


async def projection_lag(redis: Redis, store: EventStore) -> list[FeedLag]:
    """The lag of every feed partition, in partition order (one round trip). An entry is done
    when its game's read models were written and it was acknowledged in the same step, so the
    age of the oldest one not done is how long the read models of some game have been behind its
    stream; an entry left by a dead projector counts until a peer has claimed and projected it,
    and so does a game that cannot be projected at all."""
    script = redis.register_script(_OLDEST)
    if isinstance(redis, RedisCluster):  # whose pipelines take neither TIME nor scripts: side by side
        (seconds, micros), *rows = await asyncio.gather(
            redis.time(), *(script(keys=[feed], args=[GROUP]) for feed in store.feed_keys()))
    else:
        async with redis.pipeline(transaction=False) as pipe:
            pipe.time()
            for feed in store.feed_keys():
                await script(keys=[feed], args=[GROUP], client=pipe)
            (seconds, micros), *rows = await pipe.execute()
    now_ms = seconds * 1000 + micros // 1000
    lags = []
    for partition, (oldest_pending, oldest_unread, pending, consumers) in enumerate(rows):
        oldest = min((_ms(i) for i in (oldest_pending, oldest_unread) if i), default=None)
        age = 0.0 if oldest is None else max(0, now_ms - oldest) / 1000
        lags.append(FeedLag(partition, age, int(pending), int(consumers)))
    return lags
