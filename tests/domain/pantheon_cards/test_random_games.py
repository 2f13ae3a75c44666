"""Random playouts (rules §23.3): a few hundred games of 3, 4, 5 and 6 players, every game
length, end without an error or an invariant violation after any event; decide never changes the
state it is given; no event names a card removed unseen at setup (§20); every game ends within the turn limit and the Battle's bound."""

import random

import msgspec
import pytest

from domain.pantheon_cards import commands as cmd
from domain.pantheon_cards.decide import decide
from domain.pantheon_cards.evolve import evolve
from domain.pantheon_cards.invariants import check_invariants
from domain.pantheon_cards.random_play import random_command
from domain.pantheon_cards.state import clone
from domain.rng import SeededRng

GAMES_PER_COUNT = 50


def play(players: int, index: int) -> tuple:
    """One random game, each command decided and its events evolved one by one, every invariant
    checked after each event (the at-rest ones hold once a command's events are complete)."""
    rnd, rng = random.Random(index), SeededRng(f"random-{players}-{index}".encode())
    length = ("standard", "short", "long")[index % 3]
    command = cmd.PantheonCardsCreateGame(options=cmd.PantheonCardsOptions(players=players, game_length=length))
    state, commands, named = None, 0, set()
    while True:
        before = None if state is None else clone(state)
        events = decide(state, command, rng)
        assert state is None or state == before, "decide changed the state it was given"
        for event in events:
            state = evolve(state, event)
            assert check_invariants(state) == [], (index, command, type(event).__name__, check_invariants(state))
            named |= set(msgspec.json.encode(event).decode().replace('"', " ").split())
        commands += 1
        if state.finished:
            return state, commands, named
        command = random_command(state, state.awaiting, rnd)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_random_games_end_without_errors_or_invariant_violations(players):
    winners, reasons = set(), set()
    for index in range(GAMES_PER_COUNT):
        state, _, named = play(players, index)
        assert state.finished and state.winners and state.turn <= 300 and state.battle_turns <= 20
        assert state.deck == 0 or state.turn == 300 or state.end_reason == "turn_limit"
        winners.update(state.winners)
        if state.deck == 0:  # §20: the cards removed at setup were never decided, so no event named one
            assert not named & set(state.unseen)
        reasons.add(state.end_reason)
    assert winners == set(range(players))  # every seat wins some games: no seat is favoured by a bug
    assert "deck_empty" in reasons and reasons & {"no_change", "no_power", "battle_of_pantheons"}
