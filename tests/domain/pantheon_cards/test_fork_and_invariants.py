"""Forks of a running game re-deal only what the forker may not see (§22); the invariant checker
catches a broken state; the table drawing is a valid SVG document."""

import random
import xml.etree.ElementTree as ET

from domain.pantheon_cards import GAME
from domain.pantheon_cards import commands as cmd
from domain.pantheon_cards.decide import apply
from domain.pantheon_cards.fork import PantheonCardsForked
from domain.pantheon_cards.invariants import check_invariants
from domain.pantheon_cards.random_play import random_command
from domain.pantheon_cards.svg import render_board
from domain.rng import SeededRng

from .scenario import A, B, Tw, W, col, given, god


def _running(steps=60):
    rnd, rng = random.Random(5), SeededRng(b"fork")
    state, _ = apply(None, cmd.PantheonCardsCreateGame(options=cmd.PantheonCardsOptions(players=4)), rng)
    for _ in range(steps):
        state, _ = apply(state, random_command(state, state.awaiting, rnd), rng)
    return state


def test_a_fork_keeps_what_the_forker_knows_and_redeals_the_other_hands():
    state = _running()
    decider = GAME.decider
    fork = decider.fork_command(state, A)
    [event] = decider.decide(None, fork, SeededRng(b"child"))
    assert isinstance(event, PantheonCardsForked) and event.seat == A
    child = decider.evolve(None, event)
    assert check_invariants(child) == []
    assert child.hands[A] == state.hands[A] and child.columns == state.columns and child.general == state.general
    assert [len(h) for h in child.hands] == [len(h) for h in state.hands] and child.deck == state.deck
    others = {c for s in range(1, 4) for c in state.hands[s]}
    assert {c for s in range(1, 4) for c in child.hands[s]} != others  # re-dealt (almost surely different)
    assert decider.redact(event, B).state.hands[A] == []  # what B may see of the fork: not A's hand


def test_the_invariants_catch_a_card_in_two_places_a_god_in_the_general_pile_and_an_empty_column():
    state = given(col(A, 1, W(10, 1), temple=Tw(1), god=god("zeus")))
    assert check_invariants(state) == []
    twice = given(col(A, 1, W(10, 1), temple=Tw(1), god=god("zeus")))
    twice.hands[B].append(W(10, 1))
    assert any("partitioned" in p for p in check_invariants(twice))
    pile = given(col(A, 1, W(10, 1), temple=Tw(1)))
    pile.general.append(pile.unseen.pop(pile.unseen.index(god("zeus"))))
    pile.removed_count -= 1
    assert "a god is in the general pile" in check_invariants(pile)
    empty = given(col(A, 1, W(10, 1), temple=Tw(1), god=god("zeus")))
    empty.columns[A][0].temple = None
    empty.columns[A][0].worshipers = []
    empty.unseen = sorted([*empty.unseen, Tw(1), W(10, 1)])
    empty.removed_count += 2
    assert any("neither temple nor worshiper" in p for p in check_invariants(empty))


def test_the_table_is_a_valid_svg_with_a_place_for_every_seat():
    svg = render_board("house-1")
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    classes = [e.get("class", "") for e in root.iter()]
    assert sum(c.startswith("seat seat-") for c in classes) == 6 and "pile pile-gods" in classes
