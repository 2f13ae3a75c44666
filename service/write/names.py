"""Players' display names: a seat's holder names it (the name checked by domain.names against the
names the game's seats hold), recorded as a platform event (`seat_named`) in the game's log and as
the metadata field `name:<seat>` in the same atomic step, at the version the name was checked at
(so two seats taking one name at once cannot both get it)."""

from __future__ import annotations

from collections.abc import Mapping

from domain.kernel import DomainError, SeatNamed
from domain.names import check_name
from domain.words import seat_name
from service.errors import Code, ServiceError
from service.store.codec import wrap_platform

from .meta import now_ms, seat_in, token_hash
from .seats import claim
from .service import Games
from .submit import ATTEMPTS

MOST_NAMES = 20  # names a seat may take after it is claimed (each is an event in the log: a bound on its growth)


def names_of(meta: Mapping[str, bytes]) -> dict[int, str]:
    """The seats' names in a game's metadata (`name:<seat>`)."""
    return {int(k[5:]): v.decode() for k, v in meta.items() if k.startswith("name:")}


def check_names(names: Mapping[int, str]) -> dict[int, str]:
    """Names given to several seats at once (at a game's creation), each checked against the others."""
    checked: dict[int, str] = {}
    for seat, name in sorted(names.items()):
        checked[seat] = check_name(name, checked, seat)
    return checked


async def name_seat(games: Games, game: str, seat: int, name: str, holder: str) -> str:
    """Give `seat`, held by the token whose hash is `holder`, the name `name` (as checked: NFC,
    trimmed); the same name again records nothing. 422 with the name's rule (`name_taken`, …),
    `game_over` once the game has ended; 403 `wrong_token` if the token no longer holds the seat."""
    meta = await games.meta(game)
    seat_in(meta, seat)
    if "read_only" in meta:
        raise ServiceError(Code.READ_ONLY, "This game was imported as an archive; its seats cannot change.")
    await games.refuse_archived(game)
    decider = await games.decider(game)
    for _ in range(ATTEMPTS):
        async with games.folds.lock(game):
            version, state, last_hash = await games.folds.current(game, decider)
            if decider.is_terminal(state):
                raise ServiceError(Code.GAME_OVER, "The game is over; its seats' names no longer change.")
            names = names_of(await games.meta(game))  # read at `version` or later: the append checks which
            checked = check_name(name, names, seat)
            if names.get(seat) == checked:
                return checked
            event = SeatNamed(seat=seat, name=checked)
            envelope = wrap_platform(game, version, last_hash, event, recorded_at=now_ms())
            outcome = await games.store.records.name_seat(game, seat, checked, holder, envelope, most=MOST_NAMES)
            if outcome == "ok":
                games.folds.put(game, envelope.version, state, envelope.hash)
                break
            games.folds.forget(game)
        if outcome == "gone":
            await games.refuse_archived(game)
            await games.meta(game)  # 404 for a game that is no more
        if outcome == "too_many":
            raise DomainError(
                "name_changes_exhausted", f"{seat_name(seat)} has been named {MOST_NAMES} times; it keeps its name now."
            )
        if outcome == "not_yours":
            raise ServiceError(Code.WRONG_TOKEN, f"This token no longer holds {seat_name(seat)}: it cannot name it.")
    else:
        raise ServiceError(Code.VERSION_CONFLICT, "The game is too busy; try again.")
    if (awaited := decider.awaited(state)) is not None:  # an AI turn enqueued at the old version is stale now
        await games.awaiting(game, envelope.version, awaited.seat)
    return checked


async def claim_named(
    games: Games, game: str, seat: int, name: str, invite: str | None = None, idempotency_key: str | None = None
) -> tuple[str, str | None]:
    """Claim `seat` (seats.claim) and name it: the token, and the name as recorded. A name the game
    refuses is refused before the seat is taken (nothing changes); one that another seat took in the
    instant between (or a game that ended then) leaves the seat claimed and unnamed (None), so that
    the token is never lost: the player names the seat afterwards."""
    check_name(name, names_of(await games.meta(game)), seat)
    token = await claim(games, game, seat, invite, idempotency_key, name=name)
    try:
        return token, await name_seat(games, game, seat, name, token_hash(token))
    except (DomainError, ServiceError):
        return token, None
