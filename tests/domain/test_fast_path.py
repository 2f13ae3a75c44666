"""The in-place `apply` (playouts, search, `simulate --no-check`) plays exactly the games of the
checked path, in every registered game: seeded random games played both ways side by side give the
same events for every command and the same state after it, while the checked path runs the pure
`decide`, evolves each event on its own and checks every invariant after each."""

import random

import pytest

from domain import games as registry
from domain.kernel import fold
from domain.rng import game_rng
from service.cli.simulate import game_options, game_seed, simulated_game_id

GAMES = 6  # per kind, the player counts in turn


def _play_both_ways(kind: str, index: int) -> int:
    """One random game played by `decide` + `evolve` and by `apply` in step; its command count."""
    spec = registry.get(kind)
    decider = spec.decider
    rnd = random.Random(f"fast-path:{index}")
    options = game_options("mixed", index, rnd, kind)
    seed = game_seed("fast-path", index, kind)
    game = simulated_game_id(seed)
    command = spec.create_command(options)
    checked = fast = None
    version, log = 0, []
    while True:
        events = decider.decide(checked, command, game_rng(seed, game, version))
        for event in events:
            checked = decider.evolve(checked, event)
            assert spec.invariants(checked) == [], (kind, index, len(log), event)
        assert decider.apply is not None
        fast, fast_events = decider.apply(fast, command, game_rng(seed, game, version))
        assert fast_events == events, (kind, index, len(log), command)
        assert fast == checked, (kind, index, len(log), command)
        log += events
        version += len(events)
        if decider.is_terminal(checked):
            break
        awaited = decider.awaited(checked)
        assert awaited is not None
        command = spec.random_command(checked, awaited.seat, rnd)
    assert fold(decider, log) == fast
    return version


@pytest.mark.parametrize("kind", registry.kinds())
def test_apply_in_place_plays_every_command_exactly_as_decide_and_evolve(kind):
    events = [_play_both_ways(kind, index) for index in range(GAMES)]
    assert all(n > 100 for n in events)  # whole games, not a first command
