"""Forks and imports: new games that start from events recorded elsewhere.

A fork of an ended game copies its first N events into a new game that records where they came
from and gets a seed of its own. A fork of a running game is dealt afresh from what its forker
knows at N (the game's `fork_command`, decided with the fork's seed, so the audit checks the
deal), so it shows nothing the forker has not seen. An import recreates an exported game, after
the audit has passed, as a read-only archive."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

import msgspec

from domain.kernel import PLATFORM_TYPES, SeatNamed
from service.errors import Code, Refused, ServiceError
from service.store.codec import JSON, Envelope, seal, wrap_batch
from service.write import Created, GameService, SeatSpec, check_levels
from service.write.create import Admit, admit_any, once
from service.write.keyed import FRESH, Derived, Ids, request_hash
from service.write.meta import check_seat_choices, first_facts, game_of, new_meta
from service.write.submit import decide

from .checks import audit
from .export import Header


def _rechain(game: str, envelopes: list[Envelope], facts: dict[str, str]) -> list[Envelope]:
    """The same events under another game id, with a fresh hash chain; version 1 carries `facts`."""
    out, prev = [], ""
    for e in envelopes:
        moved = msgspec.structs.replace(
            e, game=game, prev_hash=prev or "0" * 64, hash="", facts=facts if e.version == 1 else e.facts
        )
        moved = seal(moved)
        out.append(moved)
        prev = moved.hash
    return out


async def fork(
    service: GameService,
    parent: str,
    at: int,
    seats: list[SeatSpec],
    *,
    seat: int | None = None,
    admin: bool = False,
    claim: Sequence[int] = (),
    invite: Sequence[int] = (),
    idempotency_key: str | None = None,
    admit: Admit = admit_any,
) -> Created:
    """A new game that starts where the parent was at version `at`, with a new seed and its own seats.

    A parent whose secrets are revealed (it has ended) is copied exactly, for anyone. Any other
    parent may be forked only by one of its seats (`seat`) or its admin, and the fork is dealt
    afresh from what that caller knows: it is unlisted, all its seats are the caller's, and it
    stays sealed until the parent has ended. `claim` and `invite` work as when creating a game (in
    a fork of a running game every human seat is the caller's); so do `admit` and an
    Idempotency-Key (a retry by the same caller gets the same fork; another caller's request under
    the key is another request: 422)."""

    async def make(ids: Ids, request: str | None) -> Created:
        return await _fork(service, ids, request, parent, at, seats, seat, admin, claim, invite)

    if not idempotency_key:
        await admit()
        return await make(FRESH, None)
    ids = Derived.of(await service.secret.value(), f"fork|{parent}", idempotency_key)
    request = request_hash(
        fork=parent,
        at=at,
        seats=seats,
        claim=list(claim),
        invite=list(invite),
        caller="admin" if admin and seat is None else seat,
    )
    return await once(service, ids, request, admit, make)


async def _fork(
    service: GameService,
    ids: Ids,
    request: str | None,
    parent: str,
    at: int,
    seats: list[SeatSpec],
    seat: int | None,
    admin: bool,
    claim: Sequence[int],
    invite: Sequence[int],
) -> Created:
    meta = await service.meta(parent)
    kind = meta["kind"].decode()
    players = len(msgspec.json.decode(meta["seats"]))
    if len(seats) != players:
        raise ServiceError(Code.WRONG_SEAT_COUNT, f"The game has {players} seats; give {players}.")
    check_levels(kind, seats)
    check_seat_choices(seats, claim, invite)
    prefix = await _prefix(service, parent, at)
    lineage: dict[str, Any] = {"parent": parent, "at": at, "prefix_hash": prefix[-1].hash}
    sealed_by = msgspec.json.decode(meta.get("sealed_by", b"[]"))
    if await service.store.records.revealed(parent):
        child_meta, admin_token, child, _ = _new_child(ids, kind, seats, lineage, sealed_by)
        facts = first_facts(child_meta, forked_from=parent, at=str(at), prefix_hash=lineage["prefix_hash"])
        return await service.start(
            child,
            _rechain(child, prefix, facts),
            child_meta,
            admin_token,
            tokens=ids.tokens(list(claim)),
            invites=ids.invites(list(invite)),
            request=request,
        )
    if seat is None and not admin:
        raise ServiceError(
            Code.MISSING_TOKEN,
            "A running game may be forked only by one of its seats or its "
            "admin: send that token as Authorization: Bearer <token>.",
        )
    return await _redealt_fork(service, ids, request, parent, kind, at, seats, lineage, [parent, *sealed_by], seat)


async def _prefix(service: GameService, parent: str, at: int) -> list[Envelope]:
    """The parent's envelopes 1..at; `at` must be where one command's events end (a platform
    event, caused by no command, is a step of its own)."""
    version, _ = await service.store.head(parent)
    if not 1 <= at <= version:
        raise Refused(Code.UNKNOWN_VERSION, f"Fork at a version from 1 to {version}.")
    copied = await service.store.read(parent, 0, at + 1)
    if len(copied) > at and copied[at].cause is None and copied[at].type not in PLATFORM_TYPES:
        raise ServiceError(
            Code.FORK_INSIDE_COMMAND,
            f"Version {at} is in the middle of one command's events; fork where a command's events end.",
        )
    return copied[:at]


def _new_child(
    ids: Ids, kind: str, seats: list[SeatSpec], lineage: dict, sealed_by: list[str]
) -> tuple[dict, str, str, bytes]:
    """A child game's metadata, admin token, id and secret seed (random: never derived)."""
    child, seed = ids.game_id(), secrets.token_bytes(32)
    extra = {"sealed_by": JSON.encode(sealed_by)} if sealed_by else {}
    child_meta, admin_token = new_meta(kind, seed, seats, admin=ids.admin(), lineage=JSON.encode(lineage), **extra)
    return child_meta, admin_token, child, seed


async def _redealt_fork(
    service: GameService,
    ids: Ids,
    request: str | None,
    parent: str,
    kind: str,
    at: int,
    seats: list[SeatSpec],
    lineage: dict,
    sealed_by: list[str],
    viewer: int | None,
) -> Created:
    """A fork of a running game, dealt afresh from what `viewer` (None: the admin, who sees what a
    spectator sees) knows at `at`: the game's `fork_command` decided with the fork's own seed."""
    decider = game_of(kind).decider
    if decider.fork_command is None:
        raise ServiceError(
            Code.FORK_NOT_SUPPORTED, f"A running {kind} game cannot be forked; fork it once it has ended."
        )
    _, state = await service.state_at(parent, at)
    lineage = {**lineage, "redealt": True}
    child_meta, admin_token, child, seed = _new_child(ids, kind, seats, lineage, sealed_by)
    command = decider.fork_command(state, viewer)
    events = decide(decider, None, command, seed, child, 0)
    facts = first_facts(child_meta, forked_from=parent, at=str(at), redealt="1")
    envelopes = wrap_batch(child, 0, "", events, command, seat=None, recorded_at=child_meta["created_at"], facts=facts)
    tokens = ids.tokens([i for i, spec in enumerate(seats) if spec.type == "human"])
    return await service.start(child, envelopes, child_meta, admin_token, tokens=tokens, listed=False, request=request)


def names_in(envelopes: list[Envelope]) -> dict[int, str]:
    """The seats' last names in a log (its `seat_named` events)."""
    named = (msgspec.msgpack.decode(e.payload, type=SeatNamed) for e in envelopes if e.type == "seat_named")
    return {event.seat: event.name for event in named}


async def import_game(service: GameService, header: Header, envelopes: list[Envelope]) -> str:
    """Recreate an exported game under its own id, read-only, if its audit passes."""
    report = audit(header, envelopes, game_of(header.kind).decider)
    if any(check.ok is False for check in report.checks):
        raise ServiceError(
            Code.AUDIT_FAILED, f"The file fails its audit (first failure at event {report.first_failure})."
        )
    if await service.store.records.exists(header.game):
        raise ServiceError(Code.GAME_EXISTS, f"Game {header.game} already exists here.")
    meta: dict[str, Any] = dict(
        kind=header.kind,
        commitment=header.commitment,
        seats=JSON.encode(header.seats),
        created_at=envelopes[0].recorded_at if envelopes else 0,
        engine=header.engine,
        read_only=1,
    )
    if header.seed:
        meta.update(seed=header.seed, finished=1)
    if header.lineage:
        meta["lineage"] = JSON.encode(header.lineage)
    meta.update({f"name:{seat}": name for seat, name in names_in(envelopes).items()})  # the log's, as a lookup
    await service.store.append(header.game, 0, envelopes, meta=meta)
    await service.store.lobby.list(header.game, meta["created_at"], ended=bool(header.seed))
    return header.game
