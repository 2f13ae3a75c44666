"""New games: decide `create_game` with a fresh secret seed, store the first events with the game's
metadata in one step, and list the game in the lobby."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from domain.kernel import fold
from service.store.codec import Envelope, wrap_batch

from .folds import decode_event
from .meta import (
    SeatSpec,
    check_levels,
    check_seat_choices,
    first_facts,
    game_of,
    new_game_id,
    new_meta,
)
from .seats import invite_fields, new_invites, new_seat_tokens, seat_token_fields
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
    invites: dict[int, str] = field(default_factory=dict)  # seat -> invite code, for seats reserved


async def create(games: GameService, kind: str, options: dict, seats: list[SeatSpec], *,
                 idle_seconds: int | None = None, claim: list[int] = (), invite: list[int] = ()) -> Created:
    """A new game of `kind` with these options and seats (their number is the number of players).
    The human seats in `claim` are the creator's at once (their tokens are in the answer); those in
    `invite` are reserved for whoever holds their invite code (in the answer)."""
    spec = game_of(kind)
    check_levels(kind, seats)
    check_seat_choices(seats, claim, invite)
    command = spec.create_command({**options, "players": len(seats)})
    game, seed = new_game_id(), secrets.token_bytes(32)
    events = decide(spec.decider, None, command, seed, game, 0)
    meta, admin = new_meta(kind, seed, seats, **({"idle_seconds": idle_seconds} if idle_seconds else {}))
    envelopes = wrap_batch(game, 0, "", events, command, seat=None, recorded_at=meta["created_at"],
                           facts=first_facts(meta))
    return await start(games, game, envelopes, meta, admin, tokens=new_seat_tokens(list(claim)),
                       invites=new_invites(list(invite)))


async def start(games: GameService, game: str, envelopes: list[Envelope], meta: dict, admin: str, *,
                tokens: dict[int, str] | None = None, invites: dict[int, str] | None = None,
                listed: bool = True) -> Created:
    """Store a new game's first events and metadata (with the hashes of `tokens`, seats claimed at
    creation, and of `invites`, seats reserved) atomically, then list it in the lobby unless
    `listed` is false."""
    meta = {**meta, **seat_token_fields(tokens or {}), **invite_fields(invites or {})}
    decider = game_of(meta["kind"]).decider
    awaited = decider.awaited(fold(decider, (decode_event(decider, e) for e in envelopes)))
    appended = await games.store.append(game, 0, envelopes, meta=meta,
                                        awaiting=None if awaited is None else awaited.seat)
    if listed:  # the lobby index is not in the game's hash slot, so it is written after the append
        await games.store.redis.zadd(games.lobby_key, {game: meta["created_at"]})
    if awaited is not None:
        await games.awaiting(game, appended.version, awaited.seat)
    return Created(game=game, admin_token=admin, version=appended.version, commitment=meta["commitment"],
                   tokens=dict(tokens or {}), invites=dict(invites or {}))
