"""A process's cached game states after a failover lost events they had folded: the next appends
reuse those versions with other events, and nothing is decided or shown on the lost state."""

import random

import msgspec

from domain.kernel import fold
from domain.pantheon import PANTHEON
from domain.pantheon.random_play import random_command
from service.store.codec import GENESIS_HASH
from service.write import GameService
from service.write.folds import decode_event

from ..failover_helpers import append_other, lose_tail
from ..projector_helpers import new_games, play


async def log_state(store, game):
    envelopes = await store.read(game)
    return len(envelopes), fold(PANTHEON, [decode_event(PANTHEON, e) for e in envelopes])


async def assert_chained(store, game):
    envelopes = await store.read(game)
    assert [e.prev_hash for e in envelopes] == [GENESIS_HASH] + [e.hash for e in envelopes[:-1]]


async def test_a_cached_state_that_folded_a_lost_event_is_not_read_again(store, service):
    [game] = await new_games(service, 1)
    await play(service, [game], 10, random.Random(2))
    await service.state_at(game)  # cached here
    lost = await lose_tail(store, game, 2)
    await append_other(GameService(store), game, lost, 1)  # another process
    assert await service.state_at(game) == await log_state(store, game)


async def test_a_command_is_not_decided_on_a_cached_state_that_holds_a_lost_event(store, service):
    for seed in range(20):  # until the other command makes as many events as the lost one
        [game] = await new_games(service, 1)
        await play(service, [game], 10, random.Random(seed))
        cached, _ = await service.state_at(game)
        lost = await lose_tail(store, game, 1)
        if await append_other(GameService(store), game, lost, 1) == cached:
            break
    else:
        raise AssertionError("no game came back to the cached version")
    _, state = await log_state(store, game)
    seat = state.agenda[0].seat
    await service.submit(
        game, seat, msgspec.to_builtins(random_command(state, seat, random.Random(7))), expected_version=cached
    )  # the client saw the version, not the lost event
    await assert_chained(store, game)
    assert await service.state_at(game) == await log_state(store, game)
