"""Each game's state folded in memory, per process: caught up with the stream on demand, changed
only while holding the game's lock, so one process decides one command of a game at a time."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Any

import msgspec

from domain.kernel import Decider, evolve, logged_event_type
from service.store.codec import Envelope
from service.store.streams import EventStore

_DECODERS: dict[int, msgspec.msgpack.Decoder] = {}


def decode_event(decider: Decider, e: Envelope) -> Any:
    """The event of an envelope, the game's or the platform's (one decoder per game, built once)."""
    key = id(decider.event_type)
    if key not in _DECODERS:
        _DECODERS[key] = msgspec.msgpack.Decoder(logged_event_type(decider))
    return _DECODERS[key].decode(e.payload)


class Folds:
    """Up to `size` games' (version, state, last hash), least recently used dropped first.

    A cached state is caught up only while the log still holds its last event (by hash): after a
    failover lost an event it had folded, it is folded again from the log. A command decided on
    a cached state without reading (`refresh=False`) is chained to its last hash, which the append
    checks against the log's (a conflict, then decided again on the log)."""

    def __init__(self, store: EventStore, size: int = 256) -> None:
        self.store, self.size = store, size
        self._cache: OrderedDict[str, tuple[int, Any, str]] = OrderedDict()
        self._locks: dict[str, asyncio.Lock] = {}

    def lock(self, game: str) -> asyncio.Lock:
        """One lock per game in this process: the cached state is changed only while holding it."""
        return self._locks.setdefault(game, asyncio.Lock())

    async def current(
        self, game: str, decider: Decider, *, refresh: bool = True, head: tuple[int, str] | None = None
    ) -> tuple[int, Any, str]:
        """The latest state (hold the game's lock): the cached fold caught up with the stream
        (without `refresh`, a cached fold as it is; with `head`, the log's version and last hash as
        the caller just read them, a cached fold that ends there is taken as it is).

        Callers use the state at once, without awaiting anything, or copy what they need."""
        cached = self._cache.pop(game, None)
        version, state, last_hash = cached or (0, None, "")
        if cached is not None and head == (version, last_hash):
            refresh = False  # nothing to catch up: no round trip
        if refresh or cached is None:
            envelopes = await self.store.read(game, max(version - 1, 0))
            if version:  # the log must still end the cached state with its last event (a failover may lose it)
                if envelopes and envelopes[0].version == version and envelopes[0].hash == last_hash:
                    envelopes = envelopes[1:]
                else:
                    version, state, last_hash = 0, None, ""
                    envelopes = await self.store.read(game)
            for e in envelopes:
                state = evolve(decider, state, decode_event(decider, e))
                version, last_hash = e.version, e.hash
        self.put(game, version, state, last_hash)
        return version, state, last_hash

    def put(self, game: str, version: int, state: Any, last_hash: str) -> None:
        """Remember the game's state at `version` (after its events were stored)."""
        self._cache.pop(game, None)
        self._cache[game] = (version, state, last_hash)
        while len(self._cache) > self.size:
            evicted, _ = self._cache.popitem(last=False)
            if evicted in self._locks and not self._locks[evicted].locked():
                del self._locks[evicted]

    def forget(self, game: str) -> None:
        """Drop the game's cached state: the next read folds from the stream."""
        self._cache.pop(game, None)
