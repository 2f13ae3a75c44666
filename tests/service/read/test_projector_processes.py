"""`pantheon projector` and `pantheon projections rebuild` as real processes."""

import asyncio
import json
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from service.read.models import GROUP, PROJECTIONS, rm_key, stored_versions
from service.store.streams import EventStore
from service.write import GameService

from ..projector_helpers import (
    caught_up,
    consumers,
    held,
    held_games,
    kill_holding,
    mark_current,
    new_games,
    pending,
    play,
    rebuilt_snapshot,
    snapshot,
    stop,
    wait_caught_up,
    wait_reading,
)

pytestmark = pytest.mark.alone

ROOT = Path(__file__).resolve().parents[3]


async def kill_mid_batch(store: EventStore, start_projector, attempts: int = 5, timeout: float = 10.0) -> None:
    """Start a projector and SIGKILL it while it holds delivered, unacknowledged feed entries
    (again, should it have acked them between the look and the kill)."""
    for _ in range(attempts):
        process, deadline = start_projector("--batch", "4"), time.monotonic() + timeout
        while await pending(store) == 0:
            assert time.monotonic() < deadline and process.poll() is None, "the projector never held a batch"
            await asyncio.sleep(0)
        process.kill()
        process.wait()
        if await pending(store) > 0:
            return
    raise AssertionError("no kill caught the projector mid-batch")


async def test_a_projector_killed_mid_batch_and_restarted_ends_with_the_read_models_of_a_fresh_rebuild(
    store, start_projector
):
    service = GameService(store)
    games = await new_games(service, 6)
    await play(service, games, 25, random.Random(21))  # a backlog of feed entries
    await mark_current(store)
    await kill_mid_batch(store, start_projector)  # its batch stays pending: delivered, never acknowledged
    await play(service, games, 5, random.Random(22))
    restarted = start_projector("--claim-idle-ms", "100")
    await wait_caught_up(store, games)
    assert stop(restarted)["claimed"] > 0
    assert await snapshot(store, games) == await rebuilt_snapshot(store, games)


async def test_a_peer_projects_the_entries_of_a_projector_killed_before_acking_them_within_two_seconds(
    store, start_projector
):
    """Two projectors with the default settings; one is killed (SIGKILL) holding a feed entry it
    read and never acknowledged, the only entry of a quiet game: nothing but a claim by the
    survivor brings that game's read models to its head, and that must happen within 2 s of the
    crash (it took 10 s when entries were claimed after 10 s idle)."""
    service = GameService(store)
    await mark_current(store)
    survivor, victim = start_projector("--consumer", "survivor"), start_projector("--consumer", "victim")
    games = []

    async def one_more_game():
        games.extend(await new_games(service, 1))

    await wait_reading(store, {"survivor", "victim"}, one_more_game)
    crashed = await kill_holding(store, victim, "victim", one_more_game)
    stalled = await held_games(store, "victim")
    assert stalled
    for game in stalled:  # stale: the victim's write and ack never happened, and nothing moves any more
        assert await stored_versions(store, game, PROJECTIONS["pantheon"]) < (await store.head(game))[0]
    deadline = crashed + 20.0
    while not await caught_up(store, games):
        assert time.monotonic() < deadline, "the stalled games were never projected"
        await asyncio.sleep(0.01)
    recovered = time.monotonic() - crashed
    assert recovered < 2.0, f"the stalled games were projected {recovered:.2f} s after the crash"
    assert stop(survivor)["claimed"] >= 1
    assert await snapshot(store, games) == await rebuilt_snapshot(store, games)


async def test_a_dead_consumer_leaves_the_group_once_a_peer_claimed_its_entries_and_live_idle_ones_stay(
    store, start_projector
):
    """Dead consumers are removed from the group, but only once they hold nothing: the live
    projectors claim entries idle for 4 s and remove consumers dead for 1 s that hold none. A
    victim killed holding entries stays on their partition until they are claimed (removing it
    would drop them: the quiet games would never be projected), and leaves the other partitions
    within about a second. The two live projectors get no entry after the kill, so the idle time
    Redis shows for them grows like a dead one's (Redis 6.2 and 7.0 count it from a consumer's
    last entry); they are never removed (each could remove the other)."""
    service = GameService(store)
    await mark_current(store)
    options = ("--claim-idle-ms", "4000", "--dead-after-ms", "1000")
    live = [start_projector("--consumer", f"live-{i}", *options) for i in range(2)]
    victim = start_projector("--consumer", "victim", *options)
    games = []

    async def one_more_game():
        games.extend(await new_games(service, 1))

    await wait_reading(store, {"live-0", "live-1", "victim"}, one_more_game, every_partition=True)
    crashed = await kill_holding(store, victim, "victim", one_more_game)
    holding = await held(store, "victim")
    gone_where_idle = gone_everywhere = None
    while gone_everywhere is None or time.monotonic() < gone_everywhere + 2.0:  # and 2 s more for the live ones
        now = time.monotonic()
        assert now < crashed + 20.0, "the dead consumer was never removed"
        listed = await consumers(store)
        assert all({"live-0", "live-1"} <= set(names) for names in listed.values()), f"a live one went: {listed}"
        if now < crashed + 3.0:  # its entries are not claimable yet: it keeps them, and its place
            assert all(listed[feed].get("victim") == len(ids) for feed, ids in holding.items()), listed
        if gone_where_idle is None and all("victim" not in listed[feed] for feed in listed if feed not in holding):
            gone_where_idle = now
        if gone_everywhere is None and all("victim" not in names for names in listed.values()):
            gone_everywhere = now
        await asyncio.sleep(0.1)
    assert gone_where_idle - crashed < 2.5, f"it stayed {gone_where_idle - crashed:.1f} s where it held nothing"
    assert 3.0 < gone_everywhere - crashed < 8.0
    assert await caught_up(store, games)  # its entries were claimed and projected, not dropped with it
    assert sum(stop(p)["removed"] for p in live) == len(store.feed_keys())  # the victim, once on each: no live one ever


async def test_two_projector_processes_share_the_work_and_produce_the_read_models_of_one(store, start_projector):
    service = GameService(store)
    games = await new_games(service, 6)
    await mark_current(store)
    pair = [start_projector("--batch", "2") for _ in range(2)]
    await asyncio.sleep(1.0)  # both have joined the group
    await play(service, games, 30, random.Random(23), pause=0.002)
    await wait_caught_up(store, games)
    assert all(stop(p)["entries"] > 0 for p in pair)
    together = await snapshot(store, games)
    one = start_projector()  # the same feed again from the start, for one projector alone
    for feed in store.feed_keys():
        await store.redis.xgroup_setid(feed, GROUP, "0")
    await store.redis.delete(*(rm_key(store, game, name) for game, name in together))
    await wait_caught_up(store, games)
    stop(one)
    assert await snapshot(store, games) == together == await rebuilt_snapshot(store, games)


async def test_the_rebuild_command_shows_progress_and_ends_with_a_json_line_of_totals(store, env):
    service = GameService(store)
    games = await new_games(service, 3)
    await play(service, games, 10, random.Random(24))
    heads = [(await store.head(g))[0] for g in games]
    done = subprocess.run(
        [sys.executable, "-m", "service.cli", "projections", "rebuild"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 0, done.stderr
    totals = json.loads(done.stdout.strip().splitlines()[-1])
    assert (totals["games"], totals["events"]) == (3, sum(heads)) and totals["events_per_s"] > 0
    assert "[" + "#" * 30 + "] 3/3 games" in done.stderr
    assert await snapshot(store, games) == await rebuilt_snapshot(store, games)
