"""Invariants that hold after every event: components are conserved and the board is sane."""

from __future__ import annotations

from .components import Components, load_components
from .state import State
from .vocabulary import CARDS, COLUMN, EMPTY_SLOT, FOOT, special_money_card


def _cards(state: State, comps: Components) -> list[str]:
    total = [a + b for a, b in zip(state.draw_pile, state.discard)]
    for seat in state.seats:
        total = [a + b for a, b in zip(total, seat.hand)]
    for card in state.display:
        if card != EMPTY_SLOT:
            total[card] += 1
    for value in state.special_money:
        total[CARDS.index(special_money_card(value))] += 1
    expected = list(comps.action_cards)
    for value in comps.special_money:
        expected[CARDS.index(special_money_card(value))] += 1
    if any(n < 0 for n in total) or total != expected:
        return [f"cards not conserved: {total} != {expected}"]
    negative = [i for i, s in enumerate(state.seats) if min(s.hand) < 0]
    return [f"negative hand for seat {i}" for i in negative]


def _tiles(state: State, comps: Components) -> list[str]:
    problems = []
    gods = state.gods_stack + state.gods_board + state.gods_box + [t for s in state.seats for t in s.gods]
    gods += [state.gallia_tile] if state.gallia_tile else []
    if sorted(gods) != sorted(comps.gods):
        problems.append(f"gods tiles not conserved ({len(gods)} of {len(comps.gods)})")
    half = (
        state.half_gods_low
        + state.half_gods_high
        + state.half_god_display
        + state.half_gods_box
        + [v for s in state.seats for v in s.half_gods]
    )
    if sorted(half) != sorted(comps.half_gods):
        problems.append(f"half gods not conserved ({len(half)} of {len(comps.half_gods)})")
    loot = sum(state.loot_bag.values()) + len(state.loot_board) + sum(state.loot_box.values())
    loot += sum(len(s.tiles) for s in state.seats)
    loot += sum(len(s.loot) for s in state.seats)  # taken, not yet activated
    if loot != sum(comps.loot_counts.values()):
        problems.append(f"loot tiles not conserved ({loot})")
    return problems


def _pieces(state: State, comps: Components) -> list[str]:
    problems = []
    for i, s in enumerate(state.seats):
        if s.feet + s.general_feet + len(s.feet_on_board) != comps.feet_per_colour:
            problems.append(f"seat {i} feet not conserved")
        if s.columns + s.general_columns + len(s.columns_on_board) != comps.columns_per_colour:
            problems.append(f"seat {i} columns not conserved")
        if min(s.feet, s.columns, s.general_feet, s.general_columns) < 0:
            problems.append(f"seat {i} has a negative reserve")
        for piece, hexes in ((FOOT, s.feet_on_board), (COLUMN, s.columns_on_board)):
            for index in hexes:
                if i * 2 + piece not in state.occupants.get(index, ()):
                    problems.append(f"seat {i} piece on hex {index} missing from the board")
    for index, codes in state.occupants.items():
        if len(codes) > 2 or len({c >> 1 for c in codes}) != len(codes):
            problems.append(f"hex {index} holds {codes}")
        if index == state.temple:
            problems.append("a piece stands on the temple hex")
    return problems


def check_invariants(state: State | None) -> list[str]:
    """Every violated invariant, as sentences (empty when all hold)."""
    if state is None:
        return []
    comps = load_components(state.options.edition)
    problems = _cards(state, comps) + _tiles(state, comps) + _pieces(state, comps)
    if any(s.score < 0 for s in state.seats):
        problems.append("a negative score")
    if any(not 0 <= lv <= 4 for s in state.seats for lv in s.sacrifice):
        problems.append("a sacrifice level outside 0..4")
    return problems
