"""Reading a game from its log: its state at any version (the cached fold for the latest), and
its events as a viewer may see them, each with its text (the event in words for that viewer,
built here from the redacted event and the state before it: never stored)."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.kernel import Decider, fold, redact
from service.store.codec import Envelope

from .folds import decode_event
from .service import Games


async def state_at(
    games: Games, game: str, at: int | None = None, *, head: tuple[int, str] | None = None
) -> tuple[int, Any]:
    """(version, state): the latest, or after event `at` (replay); `head`: the log's version and last
    hash as the caller just read them (a cached fold that ends there is not caught up: no round trip)."""
    decider = await games.decider(game)
    if at is None:
        async with games.folds.lock(game):
            version, state, _ = await games.folds.current(game, decider, head=head)
        return version, state
    envelopes = await games.store.read(game, 0, at)
    return len(envelopes), fold(decider, [decode_event(decider, e) for e in envelopes])


async def events(games: Games, game: str, after: int, viewer: int | None, limit: int | None = None) -> list[dict]:
    """The events after version `after` (at most `limit`), each redacted for `viewer` (None: a spectator)."""
    decider = await games.decider(game)
    until = None if limit is None else after + limit
    envelopes = await games.store.read(game, after, until)
    texts = await games.texts.of(games.store, decider, game, envelopes, viewer)
    return [public_envelope(decider, e, viewer, text) for e, text in zip(envelopes, texts, strict=True)]


def public_envelope(decider: Decider, e: Envelope, viewer: int | None, text: str) -> dict:
    """The envelope as `viewer` may see it, with its `text` (Texts.of)."""
    return {
        "version": e.version,
        "type": e.type,
        "recorded_at": e.recorded_at,
        "seat": e.seat,
        "command": e.command,
        "payload": msgspec.to_builtins(redact(decider, decode_event(decider, e), viewer)),
        "text": text,
        "hash": e.hash,
    }
