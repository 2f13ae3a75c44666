"""New games: decide `create_game` with a fresh secret seed, store the first events with the game's
metadata in one step, and list the game in the lobby."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from service.store.codec import Envelope, wrap_batch

from .meta import SeatSpec, check_levels, first_facts, game_of, new_game_id, new_meta
from .seats import seat_token_fields
from .submit import decide

if TYPE_CHECKING:
    from .service import GameService


@dataclass
class Created:
    game: str
    admin_token: str
    version: int
    commitment: str = ""
    tokens: dict[int, str] = field(default_factory=dict)  # seat -> token, for seats claimed at creation


async def create(games: GameService, kind: str, options: dict, seats: list[SeatSpec], *,
                 idle_seconds: int | None = None) -> Created:
    """A new game of `kind` with these options and seats (their number is the number of players)."""
    spec = game_of(kind)
    check_levels(kind, seats)
    command = spec.create_command({**options, "players": len(seats)})
    game, seed = new_game_id(), secrets.token_bytes(32)
    events = decide(spec.decider, None, command, seed, game, 0)
    meta, admin = new_meta(kind, seed, seats, **({"idle_seconds": idle_seconds} if idle_seconds else {}))
    envelopes = wrap_batch(game, 0, "", events, command, seat=None, recorded_at=meta["created_at"],
                           facts=first_facts(meta))
    return await start(games, game, envelopes, meta, admin)


async def start(games: GameService, game: str, envelopes: list[Envelope], meta: dict, admin: str, *,
                tokens: dict[int, str] | None = None, listed: bool = True) -> Created:
    """Store a new game's first events and metadata (with the hashes of `tokens`, seats claimed at
    creation) atomically, then list it in the lobby unless `listed` is false."""
    meta = {**meta, **seat_token_fields(tokens or {})}
    appended = await games.store.append(game, 0, envelopes, meta=meta)
    if listed:  # the lobby index is not in the game's hash slot, so it is written after the append
        await games.store.redis.zadd(games.lobby_key, {game: meta["created_at"]})
    if games.on_awaiting is not None:
        _, state = await games.state_at(game)
        awaited = game_of(meta["kind"]).decider.awaited(state)
        if awaited is not None:
            games.awaiting(game, appended.version, awaited.seat)
    return Created(game=game, admin_token=admin, version=appended.version, commitment=meta["commitment"],
                   tokens=dict(tokens or {}))
