"""Reading a game from its log: its state at any version (the cached fold for the latest), and
its events as a viewer may see them."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.kernel import Decider, fold, redact
from service.store.codec import Envelope

from .folds import decode_event
from .service import Games


async def state_at(games: Games, game: str, at: int | None = None) -> tuple[int, Any]:
    """(version, state): the latest, or after event `at` (replay)."""
    decider = await games.decider(game)
    if at is None:
        async with games.folds.lock(game):
            version, state, _ = await games.folds.current(game, decider)
        return version, state
    envelopes = await games.store.read(game, 0, at)
    return len(envelopes), fold(decider, [decode_event(decider, e) for e in envelopes])


async def events(games: Games, game: str, after: int, viewer: int | None, limit: int | None = None) -> list[dict]:
    """The events after version `after` (at most `limit`), each redacted for `viewer` (None: a spectator)."""
    decider = await games.decider(game)
    until = None if limit is None else after + limit
    return [public_envelope(decider, e, viewer) for e in await games.store.read(game, after, until)]


def public_envelope(decider: Decider, e: Envelope, viewer: int | None) -> dict:
    event = redact(decider, decode_event(decider, e), viewer)
    return {
        "version": e.version,
        "type": e.type,
        "recorded_at": e.recorded_at,
        "seat": e.seat,
        "command": e.command,
        "payload": msgspec.to_builtins(event),
        "hash": e.hash,
    }
