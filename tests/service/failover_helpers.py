"""A failover's divergence, made deterministically: the tail of a game's log lost (as a promoted
replica that never received unacknowledged appends leaves it), then other events appended at the
same versions through the normal write path; and the read models compared with a fresh fold."""

from __future__ import annotations

import random

import msgspec

from domain.pantheon.random_play import random_command
from projections.registry import projections_for
from service.read.models import _JSON, fold_from_store, rm_key
from service.store.codec import Envelope
from service.store.streams import EventStore
from service.write import GameService


async def lose_tail(store: EventStore, game: str, commands: int) -> list[Envelope]:
    """Make the game's log what a failover that lost its last `commands` appends leaves (an append
    is lost whole): their events and feed entries gone, the version and last hash back; the
    envelopes lost."""
    envelopes = await store.read(game)
    firsts = [e.version for e in envelopes if e.cause is not None]  # each append's first event
    keep = firsts[-commands] - 1
    assert keep >= 1
    k = store.keys(game)
    lost = await store.read(game, keep)
    kept_hash = (await store.read(game, keep - 1, keep))[0].hash
    await store.redis.xdel(k.events, *[f"{e.version}-1" for e in lost])
    await store.redis.execute_command("XSETID", k.events, f"{keep}-1")  # the replica's stream never went further
    for entry_id, fields in await store.redis.xrange(k.feed):
        if fields.get(b"game") == game.encode() and int(fields[b"to"]) > keep:
            await store.redis.xdel(k.feed, entry_id)
    await store.redis.hset(k.meta, mapping={"version": keep, "hash": kept_hash})
    await store.redis.hdel(k.meta, "finished")
    return lost


async def append_other(service: GameService, game: str, lost: list[Envelope], count: int, seed: int = 99) -> int:
    """Append `count` commands' events at the versions the lost events held, through the normal
    write path of a process that never saw the lost ones; the first command differs from the lost
    one where another is legal, so the events (not only their hashes) differ. The new version."""
    service.folds.forget(game)
    lost_cause = msgspec.msgpack.decode(lost[0].cause) if lost and lost[0].cause else None
    rnd = random.Random(seed)
    version = 0
    for n in range(count):
        _, state = await service.state_at(game)
        seat = state.agenda[0].seat
        for _ in range(200):  # (when the lost one was the only legal command, it again: other hashes)
            command = msgspec.to_builtins(random_command(state, seat, rnd))
            if n > 0 or {**command, "seat": seat} != lost_cause:
                break
        version = (await service.submit(game, seat, command)).version
    return version


async def stored_models(store: EventStore, game: str) -> dict[str, dict[bytes, bytes]]:
    """Every stored read model of a pantheon game, without the hash field: {name: {field: value}}."""
    out = {}
    for p in projections_for("pantheon"):
        stored = await store.redis.hgetall(rm_key(store, game, p.name))
        stored.pop(b"h", None)
        out[p.name] = stored
    return out


async def folded_models(store: EventStore, game: str) -> dict[str, dict[bytes, bytes]]:
    """The read models a fresh fold of the game's log gives, as they would be stored."""
    projections = projections_for("pantheon")
    fold = await fold_from_store(store, game, projections, "pantheon")
    views = fold.views()
    return {
        p.name: {
            b"pv": str(p.version).encode(),
            b"v": str(fold.version).encode(),
            **{f.encode(): _JSON.encode(view) for f, view in views[p.name].items()},
        }
        for p in projections
    }
