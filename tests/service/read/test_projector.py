"""The projector over a real Redis: version by version, redelivery, crashes, peers, new projection versions."""

import asyncio
import dataclasses
import random

import msgspec
import pytest

from domain.kernel import fold
from domain.pantheon import PANTHEON
from projections import fold_game
from projections.pantheon import ScoreProjection
from projections.registry import projections_for
from service.cli.commands import main, parser
from service.read.lag import projection_lag
from service.read.models import (
    GROUP,
    PROJECTIONS,
    ReadModelMissing,
    event_decoder,
    read_envelopes,
    read_model,
    read_model_json,
    rm_key,
    write_views,
)
from service.read.projector import Projector
from service.read.rebuild import rebuild, stale_projections
from service.store.codec import Envelope, seal
from service.store.connection import connect
from service.store.streams import EventStore
from service.write import GameService

from ..projector_helpers import (
    mark_current,
    new_games,
    pending,
    play,
    rebuilt_snapshot,
    snapshot,
    wait_caught_up,
)


async def projector(store, **options) -> Projector:
    p = Projector(store, **options)
    await p.setup()
    return p


def as_json(view) -> object:
    return msgspec.json.decode(msgspec.json.encode(view))


async def test_after_every_command_each_stored_read_model_equals_a_direct_fold_of_the_events(store, service):
    games = await new_games(service, 3)
    p, rnd = await projector(store), random.Random(3)
    for _ in range(30):
        await play(service, games, 1, rnd)
        await p.drain()
        for game in games:
            events = [event_decoder("pantheon").decode(e.payload) for e in await store.read(game)]
            state, folded = fold(PANTHEON, events), fold_game(projections_for("pantheon"), events)
            stored = {name: await read_model(store, game, name) for name in ("board", "score", "summary")}
            assert stored["board"] == (len(events), as_json(PANTHEON.public_view(state)))
            for seat in range(state.players):
                assert await read_model(store, game, "board", seat) == (
                    len(events),
                    as_json(PANTHEON.seat_view(state, seat)),
                )
            assert stored["score"] == (len(events), as_json(folded.view("score")))
            assert stored["summary"] == (len(events), as_json(folded.view("summary")))


async def test_redelivered_feed_entries_change_nothing_and_write_nothing(store, service):
    games = await new_games(service, 3)
    await play(service, games, 20, random.Random(4))
    warm = await projector(store)
    await warm.drain()
    before, writes = await snapshot(store, games), warm.stats.writes
    for feed in store.feed_keys():  # every entry is delivered again, to a warm and a cold projector
        await store.redis.xgroup_setid(feed, GROUP, "0")
    cold = await projector(store, batch=7)
    assert await cold.drain() > 60 and await warm.drain() == 0
    for feed in store.feed_keys():
        await store.redis.xgroup_setid(feed, GROUP, "0")
    assert await warm.drain() > 60
    assert (warm.stats.writes, cold.stats.writes) == (writes, 0)
    assert await snapshot(store, games) == before and await pending(store) == 0


async def test_an_older_version_never_overwrites_a_newer_read_model(store, service):
    [game] = await new_games(service, 1)
    await play(service, [game], 5, random.Random(5))
    events = [event_decoder("pantheon").decode(e.payload) for e in await store.read(game)]
    newer, older = (fold_game(projections_for("pantheon"), events[:n]) for n in (len(events), len(events) - 3))
    assert await write_views(store, game, newer) == 3
    assert await write_views(store, game, older) == 0
    assert await write_views(store, game, newer) == 0  # the same version again: nothing
    assert (await read_model(store, game, "score"))[0] == len(events)


class Crash(BaseException):
    """A process dying mid-batch: nothing after it runs, nothing is acked."""


async def test_a_projector_dying_mid_batch_is_taken_over_and_the_read_models_equal_a_fresh_rebuild(store, service):
    games = await new_games(service, 4)
    await play(service, games, 15, random.Random(6))
    await mark_current(store)  # no rebuild at start: the feed is the only way in
    dying = await projector(store, batch=5)
    projected, real = 0, dying._project

    async def project_then_die(*args):
        nonlocal projected
        if projected == 5:
            raise Crash
        projected += 1
        await real(*args)

    dying._project = project_then_die
    with pytest.raises(Crash):
        await dying.drain()
    assert await pending(store) > 0  # delivered to the dead consumer, never acked
    await play(service, games, 5, random.Random(7))
    heir = await projector(store, claim_idle_ms=0)
    await heir.drain()
    assert heir.stats.claimed > 0 and await pending(store) == 0
    assert await snapshot(store, games) == await rebuilt_snapshot(store, games)


async def test_two_projectors_sharing_the_group_produce_the_read_models_of_a_fresh_rebuild(store, service):
    games = await new_games(service, 4)
    await mark_current(store)
    stop = asyncio.Event()
    pair = [Projector(store, batch=3, block_ms=50) for _ in range(2)]
    running = [asyncio.create_task(p.run(stop)) for p in pair]
    await play(service, games, 25, random.Random(8), pause=0.001)
    await asyncio.sleep(0.3)
    stop.set()
    await asyncio.gather(*running)
    assert all(p.stats.entries > 0 for p in pair)
    assert [await store.redis.xinfo_consumers(feed, GROUP) for feed in store.feed_keys()] == [[]] * 4  # both left
    assert await snapshot(store, games) == await rebuilt_snapshot(store, games)


async def test_a_new_projection_version_rebuilds_its_read_models_when_a_projector_starts(store, service):
    games = await new_games(service, 2)
    await play(service, games, 5, random.Random(9))
    await (await projector(store)).drain()

    class ScoreV2(ScoreProjection):
        def view(self, model, seat=None):
            return {**msgspec.to_builtins(super().view(model, seat)), "new_field": True}

    board, _, summary = PROJECTIONS["pantheon"]
    newer = ScoreProjection().version + 1
    catalog = {"pantheon": (board, ScoreV2(version=newer), summary)}
    assert await stale_projections(store, catalog) == ["score"]
    assert await (await projector(store, catalog=catalog)).setup() == []  # the first setup rebuilt it
    for game in games:
        assert (await read_model(store, game, "score", catalog=catalog))[1]["new_field"] is True
        (pv,) = await store.redis.hmget(rm_key(store, game, "board"), "pv")
        assert pv == b"1"
    # code still at the older version ignores the newer models and folds from the stream instead
    version, view = await read_model(store, games[0], "score")
    assert "new_field" not in view and version == (await store.head(games[0]))[0]


async def test_a_read_model_behind_the_version_asked_for_is_folded_from_the_stream(store, service):
    [game] = await new_games(service, 1)
    await (await projector(store)).drain()
    projected = (await store.head(game))[0]
    await play(service, [game], 10, random.Random(10))
    head = (await store.head(game))[0]
    assert (await read_model(store, game, "summary"))[0] == projected
    version, view = await read_model(store, game, "summary", min_version=head)
    events = [event_decoder("pantheon").decode(e.payload) for e in await store.read(game)]
    assert (version, view) == (head, as_json(fold_game(projections_for("pantheon"), events).view("summary")))


async def test_an_unknown_game_projection_or_seat_is_reported_as_missing(store, service):
    [game] = await new_games(service, 1)
    for args in (("nope", "board", None), (game, "nope", None), (game, "board", 7)):
        with pytest.raises(ReadModelMissing):
            await read_model_json(store, *args)


async def poison(store, game: str) -> None:
    """Append an event no projection can fold to the game."""
    version, last = await store.head(game)
    event = seal(
        Envelope(
            game=game,
            version=version + 1,
            type="moved",
            schema=1,
            prev_hash=last,
            payload=msgspec.Raw(msgspec.msgpack.encode({"type": "no_such_event"})),
            recorded_at=0,
        )
    )
    await store.append(game, version, [event])


async def test_a_game_that_cannot_be_projected_stays_pending_and_the_others_go_on(store, service):
    good, bad = await new_games(service, 2)
    await poison(store, bad)
    await play(service, [good], 3, random.Random(11))
    await mark_current(store)
    p = await projector(store)
    await p.drain()
    assert p.stats.failures == 1 and await pending(store) == 2  # the bad game's creation and poison
    assert (await read_model(store, good, "board"))[0] == (await store.head(good))[0]
    assert (await rebuild(store))["failed"] == [bad]


async def test_a_rebuild_restores_deleted_and_corrupted_read_models(store, service):
    games = await new_games(service, 3)
    await play(service, games, 10, random.Random(12))
    await (await projector(store)).drain()
    good = await snapshot(store, games)
    await store.redis.hset(rm_key(store, games[0], "board"), "public", b"{}")
    await store.redis.delete(rm_key(store, games[1], "score"))
    totals = await rebuild(store)
    assert await snapshot(store, games) == good
    assert totals["games"] == 3 and totals["events"] == sum([(await store.head(g))[0] for g in games])


async def test_reading_a_stream_as_one_msgpack_array_gives_what_the_store_reads(store, service):
    [game] = await new_games(service, 1)
    await play(service, [game], 10, random.Random(13))
    head = (await store.head(game))[0]
    for after, until in ((0, None), (5, 9), (head, None), (0, 1), (head - 1, head)):
        assert await read_envelopes(store, game, after, until) == await store.read(game, after, until)
    assert await read_envelopes(store, "no-such-game") == []


async def test_the_feed_keeps_only_what_a_group_has_not_read_and_acknowledged(store, service):
    games = await new_games(service, 3)
    await play(service, games, 5, random.Random(21))
    first = await projector(store)
    await first.drain()
    feeds = store.feed_keys()
    assert sum([await store.redis.xlen(f) for f in feeds]) > 0  # before: every append is still there

    assert sum([await first.trim(f) for f in feeds]) > 0
    assert [await store.redis.xlen(f) for f in feeds] == [0] * len(feeds)

    # an entry read by a consumer that dies before acking it stays, for another to claim
    await play(service, games[:1], 1, random.Random(22))
    [feed] = [f for f in feeds if await store.redis.xlen(f)]
    await store.redis.xreadgroup(GROUP, "doomed", {feed: ">"}, count=10)
    await play(service, games[:1], 1, random.Random(23))
    await first.trim(feed)
    assert await store.redis.xlen(feed) == 2  # the pending one and the one nobody has read
    heir = await projector(store, claim_idle_ms=0)
    await heir.drain()
    assert (await pending(store)) == 0
    assert await snapshot(store, games) == await rebuilt_snapshot(store, games)


async def test_a_game_that_cannot_be_projected_is_retried_after_a_growing_pause_not_at_every_claim(store, service):
    [bad] = await new_games(service, 1)
    await poison(store, bad)
    await mark_current(store)
    p, stop = Projector(store, claim_idle_ms=100, block_ms=50), asyncio.Event()
    running = asyncio.create_task(p.run(stop))
    await asyncio.sleep(2.0)  # its entries are claimable every 0.1 s: 20 retries without a pause
    stop.set()
    await running
    assert p.stats.failures == 2  # at once, and again after a second (the next after two more)
    assert await pending(store) == 2


@pytest.mark.alone  # its window is a fraction of a second: beside other tests it closes unseen
async def test_a_projector_slow_on_a_long_batch_renews_its_claim_so_that_a_peer_takes_none_of_it(redis_url, prefix):
    redis = connect(redis_url)
    try:
        one = EventStore(redis, prefix=prefix, partitions=1)  # one feed: every game in one batch
        games = await new_games(GameService(one), 8)
        await mark_current(one)
        slow, peer = await projector(one, claim_idle_ms=400), await projector(one, claim_idle_ms=400)
        real = slow._project

        async def slowly(*args):
            await asyncio.sleep(0.1)  # long work on each game: the batch takes twice the claim idle time
            await real(*args)

        slow._project = slowly
        working = asyncio.create_task(slow.drain())
        while await pending(one) == 0:
            await asyncio.sleep(0.001)
        while not working.done():  # the peer tries to claim entries idle for 0.4 s all along
            await peer.step(one.feed_keys()[0], claim=True)
            await asyncio.sleep(0.02)
        await working
        assert (peer.stats.claimed, peer.stats.entries) == (0, 0)
        assert slow.stats.entries == 8 and slow.stats.renewed > 0
        assert await snapshot(one, games) == await rebuilt_snapshot(one, games)
    finally:
        await redis.aclose()


async def test_the_lag_of_a_partition_is_the_age_of_its_oldest_entry_not_yet_projected(store, service):
    assert [(lag.seconds, lag.pending) for lag in await projection_lag(store)] == [(0.0, 0)] * 4
    [game] = await new_games(service, 1)
    partition, feed, rnd = store.partition(game), store.keys(game).feed, random.Random(31)
    await asyncio.sleep(0.3)
    lag = (await projection_lag(store))[partition]
    assert (lag.partition, lag.pending, lag.consumers) == (partition, 0, 0) and 0.3 <= lag.seconds < 5  # no group yet

    await (await projector(store)).drain()
    assert [(lag.seconds, lag.pending) for lag in await projection_lag(store)] == [(0.0, 0)] * 4

    await play(service, [game], 1, rnd)
    await store.redis.xreadgroup(GROUP, "doomed", {feed: ">"}, count=10)  # delivered, never acknowledged
    await asyncio.sleep(0.3)
    await play(service, [game], 1, rnd)  # and a younger entry nobody has read
    lag = (await projection_lag(store))[partition]
    assert (lag.pending, lag.consumers) == (1, 2) and 0.3 <= lag.seconds < 5

    await (await projector(store, claim_idle_ms=0)).drain()
    assert [(lag.seconds, lag.pending) for lag in await projection_lag(store)] == [(0.0, 0)] * 4


def test_the_projector_command_defaults_are_the_projectors_and_its_options_are_checked(monkeypatch):
    args, defaults = parser().parse_args(["projector"]), {f.name: f.default for f in dataclasses.fields(Projector)}
    for option in ("batch", "block_ms", "claim_idle_ms", "dead_after_ms", "gather_ms"):
        assert getattr(args, option) == defaults[option], option
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:1/0")  # never reached
    with pytest.raises(SystemExit, match="dead_after_ms=500"):  # a live consumer reads every 250 ms by default
        main(["projector", "--dead-after-ms", "500"])


async def test_the_statistics_count_the_work_of_every_partition(store, service):
    games = await new_games(service, 8)  # one feed entry each, over the 4 partitions
    await mark_current(store)
    p, stop = Projector(store, block_ms=50, trim_every_s=0.1), asyncio.Event()
    running = asyncio.create_task(p.run(stop))  # the partitions are consumed side by side
    await wait_caught_up(store, games)
    await asyncio.sleep(0.3)  # a trim on every partition
    stop.set()
    await running
    assert (p.stats.entries, p.stats.writes, p.stats.trimmed) == (8, 8 * 3, 8)  # 3 read models a game
