"""`clone` (decide's working copy, the bots' worlds) is a deep copy: equal to its original and
sharing no mutable container with it, at every kind of state a random game passes through (a war
in progress included)."""

import msgspec

from domain.pantheon_cards import GAME
from domain.pantheon_cards.state import clone
from service.cli.simulate import run


def _containers(value, path="state"):
    if isinstance(value, (list, dict)):
        yield path, value
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, item in items:
            yield from _containers(item, f"{path}[{key}]")
    elif isinstance(value, msgspec.Struct) and not value.__struct_config__.frozen:
        yield path, value
        for name in value.__struct_fields__:
            yield from _containers(getattr(value, name), f"{path}.{name}")


def _states():
    _, records = run(games=2, players="mixed", seed="clone", check=False, kind="pantheon_cards")
    for record in records:
        state = None
        for _, events in record.steps:
            for event in events:
                state = GAME.decider.evolve(state, event)
            yield state


def test_a_clone_equals_its_original_and_shares_no_mutable_container_with_it():
    wars = 0
    for state in _states():
        copy = clone(state)
        assert copy == state
        original = {id(c): path for path, c in _containers(state)}
        shared = [original[id(c)] for _, c in _containers(copy) if id(c) in original]
        assert shared == []
        wars += state.war is not None
    assert wars > 0  # wars were cloned too
