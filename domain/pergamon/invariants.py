"""Invariants that hold after every event (rules §14): components are conserved and the board is
sane. VP never decreasing needs two states: the random-games test checks it."""

from __future__ import annotations

from collections import Counter

from .rules import components_of, row_refusal
from .state import State
from .vocabulary import EVALUATION, EXCAVATION, FUNDING, OVER


def _tiles(state: State) -> list[str]:
    comps = components_of(state)
    places = (
        state.unrevealed
        + [t for g in state.galleries for t in g]
        + (state.finds or [])
        + [t for s in state.seats for t in s.loose]
        + [t for s in state.seats for k in s.collections for t in k.tiles]
        + state.box
    )
    problems = []
    counts = Counter(places)
    if sorted(counts) != sorted(comps.tiles) or set(counts.values()) != {1}:
        problems.append(
            f"the 60 tiles are not each in exactly one place ({len(places)} placed, "
            f"{sum(1 for n in counts.values() if n > 1)} twice)"
        )
    if state.round and state.finds is None and state.phase != "layout":
        expected = comps.constants["tiles_per_stack"] * (comps.rounds - state.round) + state.unseen_box
        if len(state.unrevealed) != expected:
            problems.append(
                f"{len(state.unrevealed)} unrevealed tiles after phase 1 of round {state.round}, not {expected}"
            )
    if any(len(g) > comps.gallery_capacity for g in state.galleries):
        problems.append("a gallery holds more than 4 tiles")
    return problems


def _cards(state: State) -> list[str]:
    comps = components_of(state)
    problems = []
    if any(n < 0 or n > c for n, c in zip(state.undrawn, comps.card_copies)):
        problems.append(f"undrawn card counts out of range: {state.undrawn}")
    revealed = Counter(state.past_values + state.values)
    if [state.undrawn[v] + revealed[v + 1] for v in range(8)] != list(comps.card_copies):
        problems.append("funding cards are not conserved")
    if state.phase in (EXCAVATION, EVALUATION, OVER, "round_end") or (state.phase == FUNDING and state.backs):
        drawn = len(state.past_values) + len(state.backs)
        if drawn != 2 * state.round:
            problems.append(f"{drawn} funding cards drawn after phase 2 of round {state.round}")
    return problems


def _museum(state: State) -> list[str]:
    comps = components_of(state)
    problems = []
    spaces = [k.space for s in state.seats for k in s.collections]
    if len(spaces) != len(set(spaces)):
        problems.append("two markers share a museum space")
    if any(not 1 <= sp <= comps.museum_spaces for sp in spaces):
        problems.append("a marker is off the museum")
    for i, s in enumerate(state.seats):
        numerals = [k.numeral for k in s.collections]
        if len(numerals) != len(set(numerals)) or not set(numerals) <= {1, 2, 3}:
            problems.append(f"seat {i}'s marker pairs are not 3 (free + in use)")
        for k in s.collections:
            if row_refusal(comps, k.tiles, k.tiles):
                problems.append(f"seat {i}'s collection {k.numeral} is not a valid row")
    return problems


def check_invariants(state: State | None) -> list[str]:
    """Every violated invariant, as sentences (empty when all hold)."""
    if state is None:
        return []
    problems = _tiles(state) + _cards(state) + _museum(state)
    if any(s.coins < 0 for s in state.seats) or state.purse < 0:
        problems.append("negative coins")
    if state.round > components_of(state).rounds:
        problems.append("more than 12 rounds")
    if state.decision is not None and not 0 <= state.awaiting < state.players:
        problems.append("a decision awaits no seat")
    return problems
