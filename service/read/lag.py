"""How far behind the projections are, read from Redis alone: for each feed partition, the age of
the oldest feed entry the projectors have not finished. Feed ids are Redis times in milliseconds
(XADD `*`), so the age needs no clock but Redis's own (TIME)."""

from __future__ import annotations

from dataclasses import dataclass

from service.store.streams import EventStore


@dataclass(frozen=True)
class FeedLag:
    partition: int
    seconds: float  # the age of the oldest entry not projected yet (pending or not delivered); 0 when none
    pending: int  # entries delivered to a projector and not acknowledged (a dead one's too)
    consumers: int  # consumers in the projectors' group (a dead one's until it is removed)


def _ms(entry_id: bytes) -> int:
    return int(entry_id.split(b"-", 1)[0])


async def projection_lag(store: EventStore) -> list[FeedLag]:
    """The lag of every feed partition, in partition order (one round trip). An entry is done
    when its game's read models were written and it was acknowledged in the same step, so the
    age of the oldest one not done is how long the read models of some game have been behind its
    stream; an entry left by a dead projector counts until a peer has claimed and projected it,
    and so does a game that cannot be projected at all."""
    now_ms, rows = await store.feeds.oldest()
    lags = []
    for partition, (oldest_pending, oldest_unread, pending, consumers) in enumerate(rows):
        oldest = min((_ms(i) for i in (oldest_pending, oldest_unread) if i), default=None)
        age = 0.0 if oldest is None else max(0, now_ms - oldest) / 1000
        lags.append(FeedLag(partition, age, int(pending), int(consumers)))
    return lags
