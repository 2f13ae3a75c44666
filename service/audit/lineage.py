"""Forks and imports: new games that start from events recorded elsewhere.

A fork copies a game's first N events into a new game that records where they came from and gets
a seed of its own, so it reveals nothing of the parent's hidden future. An import recreates an
exported game, after the audit has passed, as a read-only archive."""

from __future__ import annotations

import secrets

import msgspec

from service.store.codec import JSON, Envelope, seal
from service.write import Created, GameService, SeatSpec, ServiceError, check_levels
from service.write.meta import first_facts, game_of, new_game_id, new_meta

from .checks import audit
from .export import Header


def _rechain(game: str, envelopes: list[Envelope], facts: dict[str, str]) -> list[Envelope]:
    """The same events under another game id, with a fresh hash chain; version 1 carries `facts`."""
    out, prev = [], ""
    for e in envelopes:
        moved = msgspec.structs.replace(e, game=game, prev_hash=prev or "0" * 64, hash="",
                                        facts=facts if e.version == 1 else e.facts)
        moved = seal(moved)
        out.append(moved)
        prev = moved.hash
    return out


async def fork(service: GameService, parent: str, at: int, seats: list[SeatSpec]) -> Created:
    """A new game whose first `at` events are the parent's, with a new seed and its own seats."""
    meta = await service.meta(parent)
    players = len(msgspec.json.decode(meta["seats"]))
    if len(seats) != players:
        raise ServiceError(422, "wrong_seat_count", f"The game has {players} seats; give {players}.")
    check_levels(meta["kind"].decode(), seats)
    version, _ = await service.store.head(parent)
    if not 1 <= at <= version:
        raise ServiceError(422, "unknown_version", f"Fork at a version from 1 to {version}.")
    copied = await service.store.read(parent, 0, at + 1)
    if len(copied) > at and copied[at].cause is None:
        raise ServiceError(422, "fork_inside_command", f"Version {at} is in the middle of one command's events; "
                                                       "fork where a command's events end.")
    prefix = copied[:at]
    lineage = {"parent": parent, "at": at, "prefix_hash": prefix[-1].hash}
    child, seed = new_game_id(), secrets.token_bytes(32)
    child_meta, admin = new_meta(meta["kind"].decode(), seed, seats, lineage=JSON.encode(lineage))
    facts = first_facts(child_meta, forked_from=parent, at=str(at), prefix_hash=lineage["prefix_hash"])
    return await service.start(child, _rechain(child, prefix, facts), child_meta, admin)


async def import_game(service: GameService, header: Header, envelopes: list[Envelope]) -> str:
    """Recreate an exported game under its own id, read-only, if its audit passes."""
    report = audit(header, envelopes, game_of(header.kind).decider)
    if any(check.ok is False for check in report.checks):
        raise ServiceError(422, "audit_failed", f"The file fails its audit (first failure at event {report.first_failure}).")
    if await service.store.exists(header.game):
        raise ServiceError(409, "game_exists", f"Game {header.game} already exists here.")
    meta = dict(kind=header.kind, commitment=header.commitment, seats=JSON.encode(header.seats),
                created_at=envelopes[0].recorded_at if envelopes else 0, engine=header.engine, read_only=1)
    if header.seed:
        meta.update(seed=header.seed, finished=1)
    if header.lineage:
        meta["lineage"] = JSON.encode(header.lineage)
    await service.store.append(header.game, 0, envelopes, meta=meta)
    await service.store.redis.zadd(service.lobby_key, {header.game: meta["created_at"]})
    return header.game
