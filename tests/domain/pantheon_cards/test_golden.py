"""Golden games of Pantheon, the card game (tests/golden/pantheon_cards/, one per number of
players, 3 to 6), made and checked by the platform's golden-game harness (tests/golden/golden.py)
with the game registered for the test only: the game is not in domain.games until the server
side serves it (issue 25 §2). Once it is, tests/golden/test_golden.py checks the same files.

Regenerate on purpose: .venv/bin/python -m tests.domain.pantheon_cards.test_golden"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import pytest

from domain import games
from domain.kernel import fold
from domain.pantheon_cards import GAME
from domain.rng import game_rng
from tests.golden.golden import HERE, dump, load, play, players_of, recipe

KIND = GAME.kind
NAMES = [f"{KIND}/{KIND}-{players}p.jsonl" for players in GAME.players]


@contextlib.contextmanager
def registered() -> Iterator[None]:
    """The game in the registry for the duration (the harness finds games there)."""
    had = KIND in games.GAMES
    games.GAMES[KIND] = GAME
    try:
        yield
    finally:
        if not had:
            del games.GAMES[KIND]


@pytest.mark.parametrize("name", NAMES)
def test_replaying_a_golden_game_gives_its_recorded_outcome_and_deciding_again_its_events(name):
    with registered():
        header, lines = load(name)
        decider = GAME.decider
        state = fold(decider, [e for _, events in lines for e in events])
        assert decider.is_terminal(state)
        outcome = decider.outcome(state)
        assert {f: getattr(outcome, f) for f in recipe(KIND).outcome} == {f: header[f] for f in recipe(KIND).outcome}
        seed, state, version = bytes.fromhex(header["seed"]), None, 0
        for command, recorded in lines:
            events = decider.decide(state, command, game_rng(seed, header["game"], version))
            version += len(events)
            assert events == recorded
            state = fold(decider, events, state)


@pytest.mark.parametrize("name", NAMES)
def test_the_engine_still_plays_the_golden_game_byte_for_byte(name):
    with registered():
        assert dump(play(KIND, players_of(name))) == (HERE / name).read_bytes(), (
            "the engine's outcome changed; if on purpose, run .venv/bin/python -m tests.domain.pantheon_cards.test_golden"
        )


def main() -> None:
    with registered():
        for name in NAMES:
            record = play(KIND, players_of(name))
            assert not record.errors and not record.violations, record.errors + record.violations
            path = HERE / name
            path.parent.mkdir(exist_ok=True)
            path.write_bytes(dump(record))
            print(f"wrote {path} ({len(record.steps)} commands, {len(record.events)} events)")


if __name__ == "__main__":
    main()
