"""A game's event stream as Server-Sent Events: the events a listener missed, read from Redis, then
the new ones from the process's fan-out; each event is redacted and encoded once per viewer and
shared by every stream that sends it."""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import AsyncIterator, Sequence

import anyio

from domain.kernel import Decider
from service.store.codec import JSON, Envelope
from service.store.errors import RedisError
from service.store.fanout import Batch, Fanout
from service.store.streams import EventStore
from service.write.reads import public_envelope
from service.write.texts import Texts

from .quotas import StreamPlace

log = logging.getLogger("pantheon.api")
# After this long without an event a stream sends a comment, so that proxies keep it open, and
# renews its place (quotas.STREAM_LEASE_S is longer).
QUIET_S = 15
KEEP_ALIVE = b": keep-alive\r\n\r\n"


def redacted(events: list[dict], revealed: bool) -> list[dict]:
    """Hide the hash chain until the game's secrets are revealed: a hash covers the unredacted event,
    so with it anyone could recover a hidden card draw by trying the few possibilities."""
    return events if revealed else [{**e, "hash": None} for e in events]


class Frames:
    """The encoded frames (`id:` and `data:`) of recent events, by game, version, viewer and whether
    hashes show: a thousand spectators of a game cost one redaction and one encoding per event."""

    def __init__(self, size: int = 8192) -> None:
        self.size = size
        self.texts = Texts()  # each event's text for a viewer
        self._frames: OrderedDict[tuple, bytes] = OrderedDict()

    async def of(
        self,
        store: EventStore,
        decider: Decider,
        game: str,
        envelopes: Sequence[Envelope],
        viewer: int | None,
        revealed: bool,
    ) -> bytes:
        missing = any((game, e.version, viewer, revealed) not in self._frames for e in envelopes)
        texts = await self.texts.of(store, decider, game, envelopes, viewer) if missing else [""] * len(envelopes)
        return b"".join(self._one(decider, game, e, viewer, revealed, t) for e, t in zip(envelopes, texts, strict=True))

    def _one(
        self, decider: Decider, game: str, envelope: Envelope, viewer: int | None, revealed: bool, text: str
    ) -> bytes:
        key = (game, envelope.version, viewer, revealed)
        frame = self._frames.get(key)
        if frame is None:
            event = redacted([public_envelope(decider, envelope, viewer, text)], revealed)[0]
            frame = b"id: %d\r\ndata: %s\r\n\r\n" % (envelope.version, JSON.encode(event))
            self._frames[key] = frame
            if len(self._frames) > self.size:
                self._frames.popitem(last=False)
        return frame


async def feed(
    fanout: Fanout,
    frames: Frames,
    decider: Decider,
    game: str,
    viewer: int | None,
    first: tuple[int, Batch],
    place: StreamPlace,
) -> AsyncIterator[bytes]:
    """The events of `first` (a batch read after a version), then the new ones as they come; ends
    once the game is finished and all is sent. Holds the client's stream place while it runs."""
    try:
        async for chunk in _events_as_they_come(fanout, frames, decider, game, viewer, first, place):
            yield chunk
    finally:
        with anyio.CancelScope(shield=True):  # a client that leaves cancels the stream: give the place back
            await _quietly(place.release())


async def _events_as_they_come(
    fanout: Fanout,
    frames: Frames,
    decider: Decider,
    game: str,
    viewer: int | None,
    first: tuple[int, Batch],
    place: StreamPlace,
) -> AsyncIterator[bytes]:
    after, batch = first
    sent = ""  # the hash of event `after` as this stream sent it ('' before it has sent one)
    async with fanout.follow(game) as channel:
        resets = channel.resets
        if after > batch.version:  # resumed after a version the log does not have: a failover lost it
            yield reset_frame(0)
            return
        while True:
            if batch.envelopes:
                if sent and batch.envelopes[0].prev_hash != sent:  # the log no longer holds what was sent
                    yield reset_frame(channel.agreed if channel.resets and channel.agreed < after else 0)
                    return
                yield await frames.of(fanout.store, decider, game, batch.envelopes, viewer, batch.revealed)
                after, sent = batch.envelopes[-1].version, batch.envelopes[-1].hash
            if batch.finished and after >= batch.version:
                return
            waits = channel.version is not None or channel.seeding  # else: read to seed it
            if waits and not await channel.wait(after, QUIET_S, resets):
                await _quietly(place.renew())
                yield KEEP_ALIVE
            if channel.resets != resets:  # a failover lost events the channel had published
                resets = channel.resets
                if after > channel.agreed:
                    yield reset_frame(channel.agreed)
                    return
            try:
                batch = channel.since(after) or await fanout.catch_up(game, after, channel)
            except RedisError as error:  # ends the stream cleanly: the client resumes with Last-Event-ID
                log.warning("a stream of %s ends: Redis failed (%r)", game, error)
                return


def reset_frame(agreed: int) -> bytes:
    """The last frame of a stream that sent events a failover then lost (their versions may hold
    other events now): `event: reset`, and `id:` the newest version still as sent, so that a client
    that reconnects with Last-Event-ID gets the events that replaced the lost ones."""
    return b"event: reset\r\nid: %d\r\ndata: %s\r\n\r\n" % (agreed, JSON.encode({"version": agreed}))


async def _quietly(step) -> None:
    """A stream place's renewal or release: its lease runs out by itself if Redis is away now."""
    try:
        await step
    except RedisError as error:
        log.warning("stream place not renewed or released: %r", error)
