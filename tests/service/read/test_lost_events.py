"""Read models after a failover lost events they had already projected: the next appends reuse
those versions with other events, and every read model must become the fold of the log again."""

import random

from service.read.models import FORCE, read_model_json, rm_key, view_at
from service.read.projector import Projector
from service.read.rebuild import rebuild
from service.write import GameService

from ..failover_helpers import append_other, folded_models, lose_tail, stored_models
from ..projector_helpers import mark_current, new_games, play


async def projected(store, service, commands: int = 8, seed: int = 1):
    """A game played and projected by a warm projector: (game, projector)."""
    [game] = await new_games(service, 1)
    await play(service, [game], commands, random.Random(seed))
    await mark_current(store)
    p = Projector(store)
    await p.setup()
    await p.drain()
    assert await stored_models(store, game) == await folded_models(store, game)
    return game, p


async def test_a_lost_event_replaced_at_its_version_is_not_kept_by_a_warm_projector(store, service):
    game, p = await projected(store, service)
    lost = await lose_tail(store, game, 1)
    await append_other(GameService(store), game, lost, 3)
    await p.drain()
    assert await stored_models(store, game) == await folded_models(store, game)
    assert p.stats.diverged == 1


async def test_read_models_ahead_of_the_log_go_back_to_it(store, service):
    game, p = await projected(store, service)
    ahead = int(await store.redis.hget(rm_key(store, game, "board"), "v"))
    lost = await lose_tail(store, game, 3)
    head = await append_other(GameService(store), game, lost, 1)
    assert head < ahead
    await p.drain()
    models = await stored_models(store, game)
    assert int(models["board"][b"v"]) == head
    assert models == await folded_models(store, game)


async def replaced_at_the_same_version(store, service, check=None) -> str:
    """A projected game whose last append was lost and replaced by another command that made as
    many events, so the log's head is the read models' version again, with another event that
    some model shows otherwise (another command can draw the same picture); `check` runs on the
    game between the loss and the new append."""
    for seed in range(20):
        game, _ = await projected(store, service, seed=seed)
        stored = int(await store.redis.hget(rm_key(store, game, "board"), "v"))
        lost = await lose_tail(store, game, 1)
        if check:
            await check(game)
        if await append_other(GameService(store), game, lost, 1) != stored:
            continue
        # no projector has run since; the other event must show in a model, or nothing was lost
        if await stored_models(store, game) != await folded_models(store, game):
            return game
    raise AssertionError("no game came back to the read model's version")


async def test_a_cold_projector_does_not_skip_an_entry_whose_version_its_models_hold_with_a_lost_event(store, service):
    game = await replaced_at_the_same_version(store, service)
    assert await stored_models(store, game) != await folded_models(store, game)
    cold = Projector(store)
    await cold.setup()
    await cold.drain()
    assert await stored_models(store, game) == await folded_models(store, game)


async def test_a_read_model_ahead_of_the_log_or_on_another_event_at_its_head_is_not_served(store, service):
    async def ahead(game):
        assert await read_model_json(store, game, "board") == await view_at(store, game, "board")

    game = await replaced_at_the_same_version(store, service, ahead)
    assert await read_model_json(store, game, "board") == await view_at(store, game, "board")


async def test_a_rebuild_brings_read_models_ahead_of_the_log_back_to_it(store, service):
    game, _ = await projected(store, service)
    lost = await lose_tail(store, game, 3)
    await append_other(GameService(store), game, lost, 1)
    await rebuild(store, mode=FORCE)
    assert await stored_models(store, game) == await folded_models(store, game)


async def test_a_model_a_peer_wrote_on_a_lost_event_is_replaced_by_a_projector_whose_fold_is_sound(store, service):
    for seed in range(20):  # until the other command makes as many events as the lost one
        [game] = await new_games(service, 1)
        await play(service, [game], 8, random.Random(seed))
        await mark_current(store)
        sound = Projector(store)
        await sound.setup()
        await sound.drain()  # its fold ends before the last command
        await play(service, [game], 1, random.Random(seed + 100))
        peer = Projector(store)
        await peer.drain()  # projects the last command, which the failover then loses
        stored = int(await store.redis.hget(rm_key(store, game, "board"), "v"))
        lost = await lose_tail(store, game, 1)
        if await append_other(GameService(store), game, lost, 1) == stored:
            break
    else:
        raise AssertionError("no game came back to the read model's version")
    await sound.drain()
    assert await stored_models(store, game) == await folded_models(store, game)
