"""Rematch: one new game per ended game, with the same kind, options and seats (AI seats at the
same levels), a new seed (so the first seat is drawn afresh), the ended game's admin, and each
human seat reserved for whoever held it.

One game, ever, however many seats press at once, in however many processes: the new game's id is
derived from the server secret and the ended game's id, and its first append (at version 0) is
atomic in Redis, so only one is stored and every other caller finds it. Each human seat of the new
game is reserved by the hash of the token that held it (an invite whose code is the old token),
so only that token's holder can claim it; the caller's own seat is claimed in the same request,
with a token derived from the old one, so pressing again answers the same token."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

import msgspec

from service.errors import Code, ServiceError
from service.store.codec import wrap_batch
from service.store.streams import VersionConflict

from .create import Admit, admit_any, named_envelopes, start
from .keyed import Derived, claim_token
from .meta import first_facts, game_of, new_meta, seats_of, token_hash
from .names import names_of
from .reads import state_at
from .service import Games
from .submit import decide


@dataclass(frozen=True)
class Rematched:
    game: str  # the new game
    kind: str
    seat: int  # the caller's seat in it (the same as in the ended game)
    token: str  # the caller's token for that seat
    made: bool  # whether this call made the new game (False: another call had)


def rematch_id(secret: bytes, ended: str) -> Derived:
    """Where the rematch of `ended` gets its id: the same in every process, for every caller."""
    return Derived.of(secret, "rematch", ended)


async def rematch(games: Games, ended: str, seat: int, token: str, admit: Admit = admit_any) -> Rematched:
    """The rematch of the ended game `ended` for the holder of `seat` (whose token is `token`):
    made by the first call, found by every later one; the caller's seat in it claimed for them."""
    meta = await games.meta(ended)
    if "read_only" in meta:
        raise ServiceError(Code.READ_ONLY, "This game was imported as an archive; it has no rematch here.")
    _, state = await state_at(games, ended)
    kind = meta["kind"].decode()
    if not game_of(kind).decider.is_terminal(state):
        raise ServiceError(
            Code.GAME_IN_PROGRESS, "This game is still being played: ask for a rematch once it has ended."
        )
    secret = await games.secret.value()
    new = rematch_id(secret, ended).game_id()
    made = False
    if not await games.store.records.exists(new):
        await admit()
        try:
            await _make(games, new, ended, meta, msgspec.to_builtins(state.options))
            made = True
        except VersionConflict:  # another call (maybe in another process) stored it first
            pass
    mine = claim_token(secret, new, seat, f"rematch|{token_hash(token)}")
    await _claim(games, new, seat, mine, token)
    return Rematched(game=new, kind=kind, seat=seat, token=mine, made=made)


async def _make(games: Games, new: str, ended: str, meta: dict[str, bytes], options: dict[str, Any]) -> None:
    """Store the new game: the ended game's kind, options, seats and admin; a new seed."""
    kind, seats = meta["kind"].decode(), seats_of(meta)
    spec = game_of(kind)
    command = spec.create_command({**options, "players": len(seats)})
    seed = secrets.token_bytes(32)  # never derived: the first seat is drawn afresh
    events = decide(spec.decider, None, command, seed, new, 0)
    idle: dict[str, Any] = {"idle_seconds": int(meta["idle_seconds"])} if "idle_seconds" in meta else {}
    idle |= {"clock": meta["clock"].decode()} if "clock" in meta else {}  # the same turn clocks
    fields, _ = new_meta(kind, seed, seats, rematch_of=ended, **idle)
    fields["admin"] = meta["admin"].decode()  # whoever held the ended game's admin token holds this one's
    for seat, held in _reserved(meta).items():
        fields[f"invite:{seat}"] = held
    envelopes = wrap_batch(
        new, 0, "", events, command, seat=None, recorded_at=fields["created_at"], facts=first_facts(fields)
    )
    names = {seat: name for seat, name in names_of(meta).items() if seat in _reserved(meta)}  # the people stay
    envelopes += named_envelopes(new, envelopes[-1], names, fields["created_at"])
    await start(games, new, envelopes, fields, "")


def _reserved(meta: dict[str, bytes]) -> dict[int, str]:
    """Each human seat's reservation in the rematch: the hash of the token that held it (claimed
    with that token as its invite code), or the seat's unused invite, if it had one."""
    out = {}
    for seat, spec in enumerate(seats_of(meta)):
        held = meta.get(f"seat:{seat}") or meta.get(f"invite:{seat}")
        if held is not None and spec.type == "human":
            out[seat] = held.decode()
    return out


async def _claim(games: Games, new: str, seat: int, mine: str, old_token: str) -> None:
    """Claim `seat` of the rematch with the token `mine`, by the old token as its invite code; a
    seat this token already holds is fine (a second press)."""
    (held,) = await games.store.records.fields(new, f"seat:{seat}")
    if held is not None and held.decode() == token_hash(mine):
        return
    outcome = await games.store.records.claim_seat(new, seat, token_hash(mine), token_hash(old_token))
    if outcome == "gone":
        raise ServiceError(
            Code.GAME_OVER,
            f"The rematch of this game ({new}) has already ended and been archived; you had no seat in it.",
        )
    if outcome in ("taken", "invite"):
        raise ServiceError(
            Code.SEAT_TAKEN,
            f"Your seat in the rematch ({new}) has already been claimed: with your old token through the seat's "
            "claim (use the token that claim gave), or by whoever the admin gave the seat to.",
        )
