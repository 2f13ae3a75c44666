"""New games: decide `create_game` with a fresh secret seed, store the first events with the game's
metadata in one step, and list the game in the lobby; with an Idempotency-Key, at most once per key
(its id and secrets derived from the key: keyed.py)."""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field

import msgspec

from domain.clock import ClockChoice
from domain.kernel import SeatNamed, fold
from service.errors import Code, ServiceError
from service.store.codec import Envelope, wrap_batch, wrap_platform
from service.store.streams import ClockOff, VersionConflict

from .clocks import check_clock
from .folds import decode_event
from .keyed import (
    CREATED,
    FRESH,
    AlreadyCreated,
    Derived,
    Ids,
    Remembered,
    record_args,
    request_hash,
    reused,
)
from .meta import (
    SeatSpec,
    check_levels,
    check_seat_choices,
    first_facts,
    game_of,
    new_meta,
    token_hash,
)
from .names import check_names, names_of
from .seats import invite_fields, seat_token_fields
from .service import Games
from .submit import decide


@dataclass
class Created:
    game: str
    admin_token: str
    version: int
    commitment: str = ""
    tokens: dict[int, str] = field(default_factory=dict)  # seat -> token, for seats claimed at creation
    invites: dict[int, str] = field(default_factory=dict)  # seat -> invite code, for seats reserved
    names: dict[int, str] = field(default_factory=dict)  # seat -> display name, for seats named at creation


Admit = Callable[[], Awaitable[None]]


async def admit_any() -> None:
    """Admits every new game (the HTTP layer counts them against its limits instead)."""


async def create(
    games: Games,
    kind: str,
    options: dict,
    seats: list[SeatSpec],
    *,
    idle_seconds: int | None = None,
    clock: ClockChoice | None = None,
    claim: Sequence[int] = (),
    invite: Sequence[int] = (),
    names: Mapping[int, str] | None = None,
    idempotency_key: str | None = None,
    admit: Admit = admit_any,
) -> Created:
    """A new game of `kind` with these options and seats (their number is the number of players).
    `clock`: the turn clocks of its human seats (`domain.clock`; at least `games.clock_min_s`). The
    human seats in `claim` are the creator's at once (their tokens are in the answer); those in
    `invite` are reserved for whoever holds their invite code (in the answer); `names` names seats
    of `claim` (recorded after the game's first events: `seat_named`). `admit` is awaited just
    before a game is made (where the caller's limits count it).

    With an Idempotency-Key (at least 16 characters) the game is made once: a retry gets the same
    answer (see `once`)."""

    named = check_names(names or {})
    if set(named) - set(claim):
        raise ServiceError(
            Code.WRONG_SEAT_CLAIM,
            "Only a seat you take at creation (holder `creator`) can be named now; its player names it when claiming it.",
        )

    async def make(ids: Ids, request: str | None) -> Created:
        spec = game_of(kind)
        check_levels(kind, seats)
        check_seat_choices(seats, claim, invite)
        clocked = check_clock(clock, seats, games.clock_min_s)
        command = spec.create_command({**options, "players": len(seats)})
        game, seed = ids.game_id(), secrets.token_bytes(32)  # the seed is never derived: it stays random
        events = decide(spec.decider, None, command, seed, game, 0)
        extra = {"idle_seconds": idle_seconds} if idle_seconds else {}
        meta, admin = new_meta(kind, seed, seats, admin=ids.admin(), **extra, **clocked)
        for _ in range(2):  # stamped off the Redis clock once: the store has learnt it
            meta["created_at"] = games.store.now_ms()
            envelopes = wrap_batch(
                game, 0, "", events, command, seat=None, recorded_at=meta["created_at"], facts=first_facts(meta)
            )
            envelopes += named_envelopes(game, envelopes[-1], named, meta["created_at"])
            try:
                return await start(
                    games,
                    game,
                    envelopes,
                    meta,
                    admin,
                    tokens=ids.tokens(list(claim)),
                    invites=ids.invites(list(invite)),
                    request=request,
                    stamp=meta["created_at"],
                )
            except ClockOff:
                continue
        raise ServiceError(Code.STORE_UNAVAILABLE, "The server's clock is unsettled; try again.")

    if not idempotency_key:
        await admit()
        return await make(FRESH, None)
    ids = Derived.of(await games.secret.value(), "create", idempotency_key)
    request = request_hash(
        create=kind,
        options=options,
        seats=seats,
        idle_seconds=idle_seconds,
        claim=list(claim),
        invite=list(invite),
        **({"clock": msgspec.to_builtins(clock)} if clock else {}),
        **({"names": sorted(named.items())} if named else {}),
    )
    return await once(games, ids, request, admit, make)


def named_envelopes(game: str, last: Envelope, names: Mapping[int, str], recorded_at: int) -> list[Envelope]:
    """The `seat_named` envelopes of a new game's first names, chained after its envelope `last`."""
    out: list[Envelope] = []
    for seat, name in sorted(names.items()):
        before = out[-1] if out else last
        out.append(
            wrap_platform(game, before.version, before.hash, SeatNamed(seat=seat, name=name), recorded_at=recorded_at)
        )
    return out


async def once(
    games: Games, ids: Derived, request: str, admit: Admit, make: Callable[[Ids, str | None], Awaitable[Created]]
) -> Created:
    """The game of a keyed request (made by `make`), made at most once per key: its id and secrets
    are derived from the key, so a retry, or a copy sent at once to another process, aims at the
    same game id, and the append at version 0 lets only one be stored; the others get its answer.
    A retry is not admitted again (the game is not counted twice), and lists the game if a crash
    right after the append left it out of the lobby (not once it is archived). The same key with
    another request: 422. Once the key's record has expired (PANTHEON_IDEMPOTENCY_TTL_S), the key is
    a new request: a new game (also when the key's game has moved to the archive)."""
    game = ids.game_id()
    if (record := await games.store.records.prior_outcome(game, CREATED)) is not None:
        return await _again(games, ids, request, record)
    await admit()
    if await games.store.archived(game) is not None:  # the append would recreate it in Redis, over the archive
        return await make(FRESH, None)
    try:
        return await make(ids, request)
    except AlreadyCreated as meanwhile:  # the append found the key's record: stored meanwhile
        return await _again(games, ids, request, meanwhile.record)
    except VersionConflict:  # the key's game exists without its record: the key has expired
        return await make(FRESH, None)


async def _again(games: Games, ids: Derived, request: str, record: bytes) -> Created:
    """The answer of a game made for a key, derived again and checked against the stored hashes."""
    prior = Remembered.decode(record)
    if prior.request != request:
        raise reused()
    game, admin = ids.game_id(), ids.admin()
    meta = await games.meta(game)
    if meta["admin"].decode() != token_hash(admin):  # not this key's game (the secret has changed)
        raise reused()
    if prior.listed and "finished" not in meta and await games.store.archived(game) is None:
        # a crash between the append and the listing: list it now (an archived game left the lobby for good)
        await games.store.lobby.list_if_absent(game, int(meta["created_at"]))
    return Created(
        game=game,
        admin_token=admin,
        version=prior.version,
        commitment=meta["commitment"].decode(),
        tokens=ids.tokens(prior.tokens),
        invites=ids.invites(prior.invites),
        names=names_of(meta),
    )


async def start(
    games: Games,
    game: str,
    envelopes: list[Envelope],
    meta: dict,
    admin: str,
    *,
    tokens: dict[int, str] | None = None,
    invites: dict[int, str] | None = None,
    listed: bool = True,
    request: str | None = None,
    stamp: int | None = None,
) -> Created:
    """Store a new game's first events and metadata (with the hashes of `tokens`, seats claimed at
    creation, and of `invites`, seats reserved) atomically, then list it in the lobby unless
    `listed` is false. With the `request` hash of a keyed request, its key's record is stored in
    the same step; AlreadyCreated if another request of that key stored the game first. `stamp`:
    the time the envelopes record, checked against the Redis clock (ClockOff)."""
    meta = {**meta, **seat_token_fields(tokens or {}), **invite_fields(invites or {})}
    decider = game_of(meta["kind"]).decider
    events = [decode_event(decider, e) for e in envelopes]
    state = fold(decider, events)
    names = {e.seat: e.name for e in events if isinstance(e, SeatNamed)}
    meta.update({f"name:{seat}": name for seat, name in names.items()})  # the log's names, as a lookup
    awaited = decider.awaited(state)
    if decider.is_terminal(state):  # a fork of an ended game at its last version: ended from the start
        meta["finished"] = 1
    # Idempotency-Key (see `once`): the key's record goes with the append
    keyed = {} if request is None else record_args(request, len(envelopes), tokens, invites, listed)
    appended = await games.store.append(
        game, 0, envelopes, meta=meta, awaiting=None if awaited is None else awaited.seat, stamp=stamp, **keyed
    )
    if appended.duplicate:
        raise AlreadyCreated(appended.outcome)
    if listed:  # the lobby index is not in the game's hash slot, so it is written after the append
        await games.store.lobby.list(game, meta["created_at"], ended="finished" in meta)
    if awaited is not None:
        await games.awaiting(game, appended.version, awaited.seat)
    return Created(
        game=game,
        admin_token=admin,
        version=appended.version,
        commitment=meta["commitment"],
        tokens=dict(tokens or {}),
        invites=dict(invites or {}),
        names=names,
    )
