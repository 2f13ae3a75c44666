"""Legal options: for the awaited seat, what it may do now, in a form a client or bot can use.

Whole movement sequences are too many to list, so movement and placing give building blocks:
`next_placements` lists where a piece could go next, given the placements so far and the
steps or money left, and what each costs."""

from __future__ import annotations

from .commands import Place
from .flow import bonus_column_sites
from .rules import (
    Planner,
    board_of,
    components_of,
    coords_of,
    count_gods,
    money_of,
    movement_steps,
    payment_options,
    plan_placements,
    sacrifice_options,
    stonkus_money,
)
from .state import State
from .vocabulary import (
    CARD_INDEX,
    CARDS,
    CARTAGO_MONEY,
    DRAW_ACTION_CARDS,
    EMPTY_SLOT,
    MAX_LEVEL,
    MONEY_CARDS,
    SACRIFICES,
)


def _target_dicts(state: State, planner: Planner, left: int) -> list[dict]:
    board = board_of(state)
    return [
        {"piece": "column" if piece else "foot", "hex": list(coords_of(board, index)), "cost": cost, "jump": jump}
        for piece, index, cost, jump in planner.targets() if cost <= left
    ]


def next_placements(state: State, seat: int, placements: list[Place], budget: int, *, movement: bool) -> dict:
    """Where a piece could go next after `placements`, with `budget` steps or money in all."""
    jumps = count_gods(state.seats[seat], "gaiviles") if movement else 0
    planner, costs = plan_placements(state, seat, placements, budget, jumps=jumps)
    left = budget - sum(costs)
    return {"left": left, "targets": _target_dicts(state, planner, left)}


def _move_options(state: State, seat: int, big_foot: bool) -> dict:
    me = state.seats[seat]
    base = movement_steps(me, 0, big_foot)
    return {
        "max_cards": me.hand[CARD_INDEX["movement"]], "steps_without_cards": base,
        "steps_per_card": 2, "jumps": count_gods(me, "gaiviles"),
        "first_targets": _target_dicts(state, Planner(state, seat, jumps=count_gods(me, "gaiviles")), 10**6),
    }


def _sacrifice_purchases(state: State, seat: int, budget: int) -> list[dict]:
    comps = components_of(state)
    levels = state.seats[seat].sacrifice
    found = []
    for i, kind in enumerate(SACRIFICES):
        for level in range(levels[i] + 1, MAX_LEVEL + 1):
            cost = comps.price(level) - comps.price(levels[i])
            if cost <= budget:
                found.append({"kind": kind, "level": level, "cost": cost})
    return found


def buy_options(state: State, seat: int, budget: int, placing: bool) -> dict:
    """What `budget` money could buy: sacrifice tiles, reserve pieces and (if placing) hexes."""
    me = state.seats[seat]
    options = {
        "budget": budget,
        "sacrifice_tiles": _sacrifice_purchases(state, seat, budget),
        "reserve": {"foot": min(budget, me.general_feet), "column": min(budget, me.general_columns)},
    }
    if placing:
        options["place_targets"] = _target_dicts(state, Planner(state, seat), budget)
    return options


def _gods_options(state: State, seat: int) -> list[dict]:
    me = state.seats[seat]
    gods = components_of(state).gods
    found = []
    for tile in state.gods_board:
        payments = payment_options(me, gods[tile])
        if payments:
            found.append({"tile": tile, "payments": payments})
    return found


def _draw_options(state: State, left: int) -> dict:
    return {"left": left, "display": [i for i, c in enumerate(state.display) if c != EMPTY_SLOT],
            "pile": True}


def _action(state: State, seat: int) -> dict:
    me = state.seats[seat]
    money = {card: me.hand[CARD_INDEX[card]] for card in MONEY_CARDS if me.hand[CARD_INDEX[card]]}
    budget = money_of(me.hand) + stonkus_money(state, me)
    return {
        "move": _move_options(state, seat, True),
        "buy": {"money_cards": money, "stonkus": stonkus_money(state, me),
                **buy_options(state, seat, budget, True)} if budget else None,
        "gain_god": _gods_options(state, seat),
        "draw": _draw_options(state, DRAW_ACTION_CARDS + count_gods(me, "gadicea")),
    }


def legal_options(state: State, seat: int) -> dict:
    """What `seat` may do now: the awaited decision and its options (empty if not awaited)."""
    if state.finished or not state.agenda or state.agenda[0].seat != seat:
        return {"awaited": False, "decision": None}
    task = state.agenda[0]
    return {"awaited": True, "decision": task.kind, **_BY_DECISION[task.kind](state, seat, task)}


def _follow_up(state, seat, task):
    me = state.seats[seat]
    can_move = me.hand[CARD_INDEX["movement"]] > 0 or movement_steps(me, 0, False) > 0
    return {"move": _move_options(state, seat, False) if can_move else None, "pass": True}


def _gallia(state, seat, task):
    reveal = bool(state.gods_stack or state.gods_box)
    return {"choices": ["draw", "reveal"] if reveal else ["draw"]}


def _gallia_gain(state, seat, task):
    tile = components_of(state).gods[task.item]
    return {"tile": task.item, "payments": payment_options(state.seats[seat], tile, True), "pass": True}


def _exchange(state, seat, task):
    me = state.seats[seat]
    return {"foot": min(me.feet, me.general_columns), "column": min(me.columns, me.general_feet), "pass": True}


_BY_DECISION = {
    "action": lambda s, seat, t: _action(s, seat),
    "follow_up": _follow_up,
    "draw": lambda s, seat, t: _draw_options(s, t.n),
    "extra_action": lambda s, seat, t: {"use_traitera": True, "pass": True},
    "gallia": _gallia,
    "gallia_gain": _gallia_gain,
    "discard": lambda s, seat, t: {"count": t.n, "hand": {c: n for c, n in zip(CARDS, s.seats[seat].hand) if n}},
    "exchange": _exchange,
    "sacrifice": lambda s, seat, t: {"kinds": sacrifice_options(s.seats[seat]), "steps": t.n, "optional": t.item == "optional"},
    "cartago": lambda s, seat, t: {**buy_options(s, seat, CARTAGO_MONEY, False), "pass": True},
    "choose_bonus": lambda s, seat, t: {"tiles": list(s.bonus_pool)},
    "bonus_column": lambda s, seat, t: {"hexes": [list(coords_of(board_of(s), i)) for i in bonus_column_sites(s, seat)]},
    "reserve_choice": lambda s, seat, t: {"pieces": ["foot", "column"], "count": t.n},
}
