"""Replay, fork, audit, import and refused commands on a real Redis."""

import random

import msgspec
import pytest

from domain.pantheon import PANTHEON
from domain.pantheon.bots.knowledge import seat_knowledge
from domain.pantheon.random_play import random_command
from service.audit.archive import load_export
from service.audit.checks import audit
from service.audit.lineage import fork, import_game
from service.http.problems import status_of
from service.store.codec import PACK, seal
from service.store.streams import EventStore
from service.write import GameService, SeatSpec, ServiceError


async def play(service, game, commands, rnd):
    """Play `commands` random commands (or to the end); the versions where a command's events end."""
    ends = []
    for _ in range(commands):
        version, state = await service.state_at(game)
        if state.finished:
            break
        seat = state.agenda[0].seat
        done = await service.submit(game, seat, msgspec.to_builtins(random_command(state, seat, rnd)))
        ends.append(done.version)
    return ends


async def test_a_fork_of_an_ended_game_shows_exactly_the_parents_views_at_its_version_and_records_its_lineage(service):
    parent = (await service.create("pantheon", {}, [SeatSpec()] * 3)).game
    ends = await play(service, parent, 3000, random.Random(1))
    at = ends[25]
    child = await fork(service, parent, at, [SeatSpec(), SeatSpec(type="ai", level="random"), SeatSpec()])
    (pv, parent_state), (cv, child_state) = await service.state_at(parent, at), await service.state_at(child.game)
    assert pv == cv == at
    assert PANTHEON.public_view(child_state) == PANTHEON.public_view(parent_state)
    assert all(PANTHEON.seat_view(child_state, s) == PANTHEON.seat_view(parent_state, s) for s in range(3))
    lineage = msgspec.json.decode((await service.meta(child.game))["lineage"])
    assert lineage == {
        "parent": parent,
        "at": at,
        "prefix_hash": (await service.store.read(parent, at - 1, at))[0].hash,
    }
    assert child.commitment != (await service.meta(parent))["commitment"].decode()
    assert child.tokens == {} and await service.lobby(10) and child.game in await service.lobby(10)


async def test_a_fork_of_an_ended_game_at_its_last_version_has_ended_too_reveals_its_seed_and_is_listed_as_ended(
    service,
):
    parent = (await service.create("pantheon", {}, [SeatSpec()] * 2)).game
    ends = await play(service, parent, 3000, random.Random(2))
    child = (await fork(service, parent, ends[-1], [SeatSpec()] * 2)).game
    assert (await service.state_at(child))[1].finished
    assert "finished" in await service.meta(child) and await service.store.records.revealed(child)
    assert child in await service.lobby(10, ended=True) and child not in await service.lobby(10)
    assert (await service.store.awaiting.awaited(child)) is None


async def test_a_running_game_is_forked_only_by_a_seat_or_its_admin_and_dealt_afresh_from_their_knowledge(service):
    parent = (await service.create("pantheon", {}, [SeatSpec()] * 3)).game
    at = (await play(service, parent, 60, random.Random(3)))[-1]
    with pytest.raises(ServiceError) as refused:
        await fork(service, parent, at, [SeatSpec()] * 3)
    assert (status_of(refused.value), refused.value.code) == (401, "missing_token")

    child = await fork(service, parent, at, [SeatSpec(), SeatSpec(), SeatSpec(type="ai", level="random")], seat=1)

    _, real = await service.state_at(parent, at)
    version, dealt = await service.state_at(child.game)
    assert version == 1 and sorted(child.tokens) == [0, 1]  # every human seat's token goes to the forker
    assert PANTHEON.public_view(dealt) == PANTHEON.public_view(real)
    assert PANTHEON.seat_view(dealt, 1) == PANTHEON.seat_view(real, 1)  # the forker's own cards as they are
    assert msgspec.to_builtins(seat_knowledge(dealt, 1), order="sorted") == msgspec.to_builtins(
        seat_knowledge(real, 1), order="sorted"
    )
    lineage = msgspec.json.decode((await service.meta(child.game))["lineage"])
    assert lineage["parent"] == parent and lineage["at"] == at and lineage["redealt"] is True
    assert child.game not in await service.lobby(50)
    for s in (0, 1):
        assert await service.seat_of(child.game, child.tokens[s]) == s
    by_admin = await fork(service, parent, at, [SeatSpec()] * 3, admin=True)
    _, spectators = await service.state_at(by_admin.game)
    assert msgspec.to_builtins(seat_knowledge(spectators, None), order="sorted") == msgspec.to_builtins(
        seat_knowledge(real, None), order="sorted"
    )


async def test_forks_of_forks_stay_sealed_until_every_game_they_were_dealt_from_has_ended_then_audit_clean(service):
    root = (await service.create("pantheon", {}, [SeatSpec()] * 2)).game
    at = (await play(service, root, 20, random.Random(5)))[-1]
    first = (await fork(service, root, at, [SeatSpec()] * 2, seat=0)).game
    at2 = (await play(service, first, 15, random.Random(6)))[-1]
    second = (await fork(service, first, at2, [SeatSpec()] * 2, seat=1)).game
    await play(service, second, 3000, random.Random(7))
    await play(service, first, 3000, random.Random(8))
    assert (await service.state_at(second))[1].finished and (await service.state_at(first))[1].finished
    for game in (first, second):  # both ended, but the root runs: sealed
        header, envelopes = await load_export(service.store, game)
        assert header.seed is None and not await service.store.records.revealed(game)
        report = audit(header, envelopes, PANTHEON)
        assert [c.ok for c in report.checks if c.name in ("hash_chain", "replay")] == [True, True]
        assert report.first_failure is None
    assert msgspec.json.decode((await service.meta(second))["lineage"])["parent"] == first

    await play(service, root, 3000, random.Random(9))
    for game in (root, first, second):
        header, envelopes = await load_export(service.store, game)
        assert header.seed and audit(header, envelopes, PANTHEON).ok, game


async def test_a_tampered_deal_fails_the_audit_of_the_fork_at_its_first_event(service):
    root = (await service.create("pantheon", {}, [SeatSpec()] * 2)).game
    at = (await play(service, root, 25, random.Random(11)))[-1]
    child = (await fork(service, root, at, [SeatSpec()] * 2, seat=0)).game
    await play(service, child, 3000, random.Random(12))
    await play(service, root, 3000, random.Random(13))
    header, envelopes = await load_export(service.store, child)
    first = envelopes[0]
    dealt = msgspec.msgpack.decode(first.payload)
    dealt["state"]["seats"][1]["hand"], dealt["state"]["draw_pile"] = (
        dealt["state"]["draw_pile"],
        dealt["state"]["seats"][1]["hand"],
    )
    forged = seal(msgspec.structs.replace(first, payload=msgspec.Raw(msgspec.msgpack.encode(dealt)), hash=""))
    report = audit(header, rechained([forged, *envelopes[1:]]), PANTHEON)
    assert not report.ok and report.first_failure == 1


def rechained(envelopes):
    """The envelopes with the hash chain recomputed (as a forger would)."""
    out, prev = [], "0" * 64
    for e in envelopes:
        e = seal(msgspec.structs.replace(e, prev_hash=prev, hash=""))
        out.append(e)
        prev = e.hash
    return out


async def test_a_fork_inside_one_commands_events_is_refused(service):
    parent = (await service.create("pantheon", {}, [SeatSpec()] * 2)).game
    with pytest.raises(ServiceError) as refused:
        await fork(service, parent, 2, [SeatSpec()] * 2)  # setup's events 1..18 all come from create_game
    assert refused.value.code == "fork_inside_command"


async def test_a_finished_game_audits_clean_and_any_changed_stored_byte_names_its_event(service):
    game = (await service.create("pantheon", {}, [SeatSpec()] * 2)).game
    await play(service, game, 2000, random.Random(8))
    header, envelopes = await load_export(service.store, game)
    assert header.seed and audit(header, envelopes, PANTHEON).ok
    rnd = random.Random(9)
    for _ in range(25):
        victim = rnd.randrange(len(envelopes))
        raw = bytearray(PACK.encode(envelopes[victim]))
        position = rnd.randrange(len(raw))
        raw[position] ^= 1 << rnd.randrange(8)
        try:
            tampered = msgspec.msgpack.decode(bytes(raw), type=type(envelopes[victim]))
        except Exception:  # noqa: BLE001 - the envelope no longer decodes at all: the store refuses it
            continue
        if tampered == envelopes[victim]:
            continue
        report = audit(header, [*envelopes[:victim], tampered, *envelopes[victim + 1 :]], PANTHEON)
        assert not report.ok and report.first_failure == victim + 1


async def test_refused_commands_are_recorded_and_change_nothing(service):
    game = (await service.create("pantheon", {}, [SeatSpec()] * 2)).game
    version, state = await service.state_at(game)
    other = 1 - state.agenda[0].seat
    with pytest.raises(ServiceError):
        await service.submit(game, other, {"type": "pass", "seat": other})
    assert (await service.state_at(game))[0] == version
    [refused] = await service.rejected(game)
    assert (refused["seat"], refused["code"], refused["version"]) == (other, "not_your_turn", version)
    assert refused["command"] == {"type": "pass", "seat": other}


async def test_an_exported_finished_game_imports_as_a_read_only_archive_that_audits_clean(service, redis_url, prefix):
    game = (await service.create("pantheon", {}, [SeatSpec()] * 2)).game
    await play(service, game, 2000, random.Random(10))
    header, envelopes = await load_export(service.store, game)
    elsewhere = GameService(EventStore(service.store.redis, prefix=prefix + "-copy", partitions=4))
    try:
        assert await import_game(elsewhere, header, envelopes) == game
        copy_header, copy_envelopes = await load_export(elsewhere.store, game)
        assert audit(copy_header, copy_envelopes, PANTHEON).ok
        with pytest.raises(ServiceError) as refused:
            await elsewhere.submit(game, 0, {"type": "pass", "seat": 0})
        assert refused.value.code == "read_only"
        with pytest.raises(ServiceError) as again:
            await import_game(elsewhere, header, envelopes)
        assert again.value.code == "game_exists"
    finally:
        keys = [k async for k in service.store.redis.scan_iter(match=f"*{prefix}-copy*")]
        if keys:
            await service.store.redis.delete(*keys)
