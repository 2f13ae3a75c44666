"""Malformed or illegal commands never crash the engine: a DomainError, and nothing changes."""

import random

import msgspec
import pytest

from domain.kernel import DomainError
from domain.pantheon import PANTHEON
from domain.pantheon.state import clone
from domain.rng import SeededRng
from service.cli.simulate import run

TYPES = [
    "create_game",
    "move",
    "buy",
    "gain_god",
    "draw_card",
    "pass",
    "use_traitera",
    "gallia_choice",
    "discard",
    "exchange",
    "improve_sacrifice",
    "spend",
    "choose_bonus",
    "place_column",
    "choose_reserve",
    "nonsense",
]
FIELDS = [
    "seat",
    "cards",
    "placements",
    "money",
    "purchases",
    "tile",
    "sacrifice",
    "slot",
    "choice",
    "give",
    "count",
    "kind",
    "hex",
    "piece",
    "options",
    "jump",
    "level",
    "extra",
]


def _value(rnd, depth=0):
    pool = [
        lambda: rnd.randint(-3, 9),
        lambda: rnd.choice(["foot", "column", "priest", "money", "movement", "surparit-1", "draw", "reveal", "x", ""]),
        lambda: None,
        lambda: rnd.random() < 0.5,
        lambda: [rnd.randint(-2, 20), rnd.randint(-2, 12)],
        lambda: 10**30,
        lambda: 1.5,
    ]
    if depth < 2:
        pool += [
            lambda: [_value(rnd, depth + 1) for _ in range(rnd.randint(0, 3))],
            lambda: {
                rnd.choice(FIELDS + ["priest", "money", "type"]): _value(rnd, depth + 1)
                for _ in range(rnd.randint(0, 3))
            },
            lambda: {
                "type": rnd.choice(["reserve", "place", "sacrifice_tile"]),
                "piece": "foot",
                "hex": _value(rnd, depth + 1),
                "kind": "dancer",
                "level": rnd.randint(-1, 5),
            },
            lambda: {
                "piece": rnd.choice(["foot", "column"]),
                "hex": [rnd.randint(0, 19), rnd.randint(0, 10)],
                "jump": rnd.random() < 0.2,
            },
        ]
    return rnd.choice(pool)()


def _garbage(rnd, seat):
    raw = {"type": rnd.choice(TYPES)}
    if rnd.random() < 0.9:
        raw["seat"] = seat if rnd.random() < 0.7 else _value(rnd)
    for name in rnd.sample(FIELDS, rnd.randint(0, 4)):
        raw[name] = _value(rnd)
    return raw


@pytest.mark.parametrize("seed", range(3))
def test_random_garbage_commands_get_a_domain_error_or_are_legal(seed):
    rnd = random.Random(seed)
    _, records = run(games=1, players="mixed", seed=f"garbage-{seed}")
    state, refused = None, 0
    for _, events in records[0].steps[:120]:
        for event in events:
            state = PANTHEON.evolve(state, event)
        seat = state.agenda[0].seat if state.agenda else 0
        for _ in range(15):
            raw = _garbage(rnd, seat)
            command = msgspec.convert(raw, PANTHEON.command_type) if rnd.random() < 0.3 and _convertible(raw) else raw
            before = clone(state)
            try:
                PANTHEON.decide(state, command, SeededRng(b"garbage"))
            except DomainError as error:
                assert error.code and error.message
                refused += 1
            assert state == before
    assert refused > 1000


def _convertible(raw):
    try:
        msgspec.convert(raw, PANTHEON.command_type)
        return True
    except msgspec.ValidationError:
        return False


def test_a_command_before_the_game_exists_is_refused():
    with pytest.raises(DomainError) as refused:
        PANTHEON.decide(None, {"type": "pass", "seat": 0}, SeededRng(b"x"))
    assert refused.value.code == "no_game"


def test_a_malformed_command_names_what_is_wrong():
    _, records = run(games=1, players="2", seed="malformed")
    with pytest.raises(DomainError) as refused:
        PANTHEON.decide(records[0].state, {"type": "move", "seat": "zero"}, SeededRng(b"x"))
    assert refused.value.code == "malformed_command"
    assert "seat" in refused.value.message
