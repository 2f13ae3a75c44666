"""Replay, fork, audit, import and refused commands on a real Redis."""

import random

import msgspec
import pytest

from domain.pantheon import PANTHEON
from domain.pantheon.random_play import random_command
from service.audit.archive import load_export
from service.audit.checks import audit
from service.audit.lineage import fork, import_game
from service.store.codec import PACK
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


async def test_a_fork_shows_exactly_the_parents_views_at_its_version_and_records_its_lineage(service):
    parent = (await service.create("pantheon", {}, [SeatSpec()] * 3)).game
    ends = await play(service, parent, 40, random.Random(1))
    at = ends[25]
    child = await fork(service, parent, at, [SeatSpec(), SeatSpec(type="ai", level="random"), SeatSpec()])
    (pv, parent_state), (cv, child_state) = await service.state_at(parent, at), await service.state_at(child.game)
    assert pv == cv == at
    assert PANTHEON.public_view(child_state) == PANTHEON.public_view(parent_state)
    assert all(PANTHEON.seat_view(child_state, s) == PANTHEON.seat_view(parent_state, s) for s in range(3))
    lineage = msgspec.json.decode((await service.meta(child.game))["lineage"])
    assert lineage == {"parent": parent, "at": at, "prefix_hash": (await service.store.read(parent, at - 1, at))[0].hash}
    assert child.commitment != (await service.meta(parent))["commitment"].decode()


async def test_two_forks_given_the_same_commands_draw_other_outcomes_than_the_parent(service):
    parent = (await service.create("pantheon", {}, [SeatSpec()] * 2)).game
    rnd = random.Random(2)
    await play(service, parent, 30, rnd)
    while (await service.state_at(parent))[1].agenda[0].kind != "action":
        await play(service, parent, 1, rnd)
    at = (await service.state_at(parent))[0]
    forks = [(await fork(service, parent, at, [SeatSpec()] * 2)).game for _ in range(2)]
    drawn = {}
    for game in [parent, *forks]:
        drawn[game], draws = [], 0
        while draws < 6:  # the very same commands in all three games: draw from the pile
            _, state = await service.state_at(game)
            seat, kind = state.agenda[0].seat, state.agenda[0].kind
            assert kind in ("action", "draw", "extra_action")
            # a seat holding Traitera is offered an extra action after its draw: it declines
            command = {"type": "pass", "seat": seat} if kind == "extra_action" else \
                {"type": "draw_card", "seat": seat, "slot": None}
            draws += command["type"] == "draw_card"
            done = await service.submit(game, seat, command)
            events = [msgspec.msgpack.decode(e.payload) for e in await service.store.read(game, done.first - 1)]
            drawn[game] += [e["cards"] for e in events if e["type"] == "cards_drawn"]
    assert all(len(cards) == 6 for cards in drawn.values())  # each draw_card drew, and nothing else did
    assert drawn[forks[0]] != drawn[parent] and drawn[forks[1]] != drawn[parent] and drawn[forks[0]] != drawn[forks[1]]


async def test_forks_of_forks_work_and_audit_with_their_copied_prefix(service):
    root = (await service.create("pantheon", {}, [SeatSpec()] * 2)).game
    at = (await play(service, root, 20, random.Random(5)))[-1]
    first = (await fork(service, root, at, [SeatSpec()] * 2)).game
    at2 = (await play(service, first, 15, random.Random(6)))[-1]
    second = (await fork(service, first, at2, [SeatSpec()] * 2)).game
    await play(service, second, 10, random.Random(7))
    for game in (root, first, second):
        header, envelopes = await load_export(service.store, game)
        report = audit(header, envelopes, PANTHEON)
        assert [c.ok for c in report.checks if c.name in ("hash_chain", "replay")] == [True, True]
        assert report.ok is False and report.first_failure is None  # seed still secret: checks skipped, none failed
    assert msgspec.json.decode((await service.meta(second))["lineage"])["parent"] == first


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
        report = audit(header, [*envelopes[:victim], tampered, *envelopes[victim + 1:]], PANTHEON)
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
