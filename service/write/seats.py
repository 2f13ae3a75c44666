"""Who plays a seat: a person who claimed it (with a token stored only as its hash), or the AI,
from the game's creation or handed over later (and taken back); a lost token replaced by an
invite code, in the game's log."""

from __future__ import annotations

import secrets

from domain.kernel import SeatReissued
from domain.words import seat_name
from service.errors import Code, ServiceError
from service.store.codec import wrap_platform

from .keyed import FRESH, claim_token, request_hash, reused
from .meta import SeatSpec, check_levels, now_ms, seat_in, token_hash
from .reads import state_at
from .service import Games
from .submit import ATTEMPTS


def seat_token_fields(tokens: dict[int, str]) -> dict[str, str | int]:
    """The metadata fields that record claimed seats: each seat's token hash, and the seat of each hash."""
    fields: dict[str, str | int] = {}
    for seat, token in tokens.items():
        fields[f"seat:{seat}"] = token_hash(token)
        fields[f"token:{token_hash(token)}"] = seat
    return fields


def invite_fields(invites: dict[int, str]) -> dict[str, str]:
    """The metadata fields that reserve seats for whoever holds their invite code (hashed)."""
    return {f"invite:{seat}": token_hash(code) for seat, code in invites.items()}


async def claim(
    games: Games,
    game: str,
    seat: int,
    invite: str | None = None,
    idempotency_key: str | None = None,
    name: str | None = None,
) -> str:
    """A new seat token for an unclaimed human seat (shown once, stored hashed); a seat reserved
    by an invite is claimed only with its code. With an Idempotency-Key (at least 16 characters)
    the token is derived from it, so a retry whose reply was lost gets the same token (for as long
    as the key is remembered); a claim with another key finds the seat taken. `name`: the name the
    claim gives the seat (names.claim_named names it), part of what a retry must repeat."""
    if idempotency_key:  # 400 for a short key before anything else
        token, request = (
            claim_token(await games.secret.value(), game, seat, idempotency_key),
            # the name is part of the request: the same key with another name is another request (422)
            request_hash(claim=seat, invite=invite, **({"name": name} if name is not None else {})),
        )
    else:
        token, request = secrets.token_urlsafe(24), ""
    meta = await games.meta(game)
    await games.refuse_archived(game)
    if seat_in(meta, seat).type != "human":
        raise ServiceError(
            Code.SEAT_NOT_HUMAN, f"{seat_name(seat)} is played by an AI: no person can claim it; join an open seat."
        )
    if "read_only" in meta:
        raise ServiceError(Code.READ_ONLY, "This game was imported as an archive; its seats cannot be claimed.")
    outcome = await games.store.records.claim_seat(
        game, seat, token_hash(token), token_hash(invite) if invite else "", request=request
    )
    if outcome == "gone":
        await games.refuse_archived(game)
    if outcome == "again":
        return token
    if outcome == "reused":
        raise reused()
    if outcome == "taken":
        raise ServiceError(
            Code.SEAT_TAKEN,
            f"{seat_name(seat)} has already been claimed. If it is yours and this browser lost its "
            "token, ask the game's creator to re-issue the seat and open the new invite link.",
        )
    if outcome == "invite":
        raise ServiceError(
            Code.WRONG_INVITE,
            f"{seat_name(seat)} is reserved: claim it with its invite code (the part of the invite link after #).",
        )
    return token


async def reissue(games: Games, game: str, seat: int) -> str:
    """A new one-time invite code for a claimed (or reserved) human seat, the admin's remedy for a
    lost token: the seat's token (or earlier code) stops working at once, and the game's log
    records the re-issue for every viewer to see. Never a token: the admin reads as a spectator,
    and only whoever claims the seat with the code holds it."""
    meta = await games.meta(game)
    if seat_in(meta, seat).type != "human":
        raise ServiceError(Code.SEAT_NOT_HUMAN, f"{seat_name(seat)} is played by an AI: it has no token to re-issue.")
    if "read_only" in meta:
        raise ServiceError(Code.READ_ONLY, "This game was imported as an archive; its seats cannot change.")
    await games.refuse_archived(game)
    decider, code = await games.decider(game), FRESH.invites([seat])[seat]
    for _ in range(ATTEMPTS):
        async with games.folds.lock(game):
            version, state, last_hash = await games.folds.current(game, decider)
            if decider.is_terminal(state):
                raise ServiceError(Code.GAME_OVER, "The game is over; its seats no longer change.")
            envelope = wrap_platform(game, version, last_hash, SeatReissued(seat=seat), recorded_at=now_ms())
            outcome = await games.store.records.reissue_seat(game, seat, token_hash(code), envelope)
            if outcome == "ok":
                games.folds.put(game, envelope.version, state, envelope.hash)
                break
            games.folds.forget(game)
        if outcome == "gone":
            await games.refuse_archived(game)
            await games.meta(game)  # 404 for a game that is no more
        if outcome == "unclaimed":
            raise ServiceError(Code.SEAT_NOT_CLAIMED, f"{seat_name(seat)} has not been claimed: claim it instead.")
    else:
        raise ServiceError(Code.VERSION_CONFLICT, "The game is too busy; try again.")
    if (awaited := decider.awaited(state)) is not None:  # an AI turn enqueued at the old version is stale now
        await games.awaiting(game, envelope.version, awaited.seat)
    return code


async def hand_to_ai(games: Games, game: str, seat: int, level: str) -> None:
    """The AI plays `seat` from now on; scheduled at once if the game awaits that seat."""
    seat_in(await games.meta(game), seat)
    check_levels(await games.kind(game), [SeatSpec(type="ai", level=level)])
    if not await games.store.records.set_meta(game, **{f"ai:{seat}": level}):
        await games.refuse_archived(game)
    await _reschedule(games, game, seat)


async def take_back(games: Games, game: str, seat: int) -> None:
    """A seat handed to the AI is a person's again; if the game awaits it, its idle clock
    starts afresh (so an idle hand-over does not take it straight back)."""
    if seat_in(await games.meta(game), seat).type == "ai":
        raise ServiceError(
            Code.NOT_HANDED_OVER, f"{seat_name(seat)} is an AI seat from the game's creation: no person takes it back."
        )
    dropped = await games.store.records.drop_meta(game, f"ai:{seat}")
    if dropped is None:
        await games.refuse_archived(game)
    if not dropped:
        raise ServiceError(Code.NOT_HANDED_OVER, f"{seat_name(seat)} was not handed to the AI: a person plays it.")
    await _reschedule(games, game, seat, restart_clock=True)


async def _reschedule(games: Games, game: str, seat: int, *, restart_clock: bool = False) -> None:
    """Tell the scheduler again if the game awaits `seat` (who plays it has just changed); with
    `restart_clock`, the seat's idle time counts from now."""
    version, state = await state_at(games, game)
    awaited = (await games.decider(game)).awaited(state)
    if awaited is not None and awaited.seat == seat:
        if restart_clock:
            await games.store.awaiting.restart_clock(game, version, seat)
        await games.awaiting(game, version, seat)
