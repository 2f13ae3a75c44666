"""Legal options: for the awaited seat, what it may do now, in a form a client or bot can use.

Whole movement sequences are too many to list, so movement and placing give building blocks:
`next_placements` lists where a piece could go next, given the placements so far and the
steps or money left, and what each costs. The blocks are typed (the API sends them as they are):
a decision's blocks set only the fields of that decision."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec
from msgspec import Struct

from domain.contract import UNSET, Maybe

from .commands import Place
from .events import Task
from .flow import bonus_column_sites
from .planner import Planner
from .rules import (
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
from .views import Counts, HexList
from .vocabulary import (
    CARD_INDEX,
    CARDS,
    CARTAGO_MONEY,
    DRAW_ACTION_CARDS,
    EMPTY_SLOT,
    MAX_LEVEL,
    MONEY_CARDS,
    SACRIFICES,
    Piece,
)


class PantheonTarget(Struct, frozen=True, kw_only=True):
    """Where a piece could go next and what it costs (steps or money)."""

    piece: Piece
    hex: HexList
    cost: int
    jump: bool


class PantheonMoveBlock(Struct, frozen=True, kw_only=True):
    max_cards: int
    steps_without_cards: int
    steps_per_card: int
    jumps: int
    first_targets: list[PantheonTarget]


class PantheonTileOffer(Struct, frozen=True, kw_only=True):
    kind: str
    level: int
    cost: int


class PantheonReserveOffer(Struct, frozen=True, kw_only=True):
    foot: int
    column: int


class PantheonBuyBlock(Struct, frozen=True, kw_only=True):
    money_cards: Counts
    stonkus: int
    budget: int
    sacrifice_tiles: list[PantheonTileOffer]
    reserve: PantheonReserveOffer
    place_targets: Maybe[list[PantheonTarget]] = UNSET


class PantheonGodOffer(Struct, frozen=True, kw_only=True):
    tile: str
    payments: list[Counts]


class PantheonDrawBlock(Struct, frozen=True, kw_only=True):
    left: int
    display: list[int]
    pile: bool


class PantheonBlocks(Struct, frozen=True, kw_only=True):
    """The awaited decision's building blocks (only the keys of that decision are sent)."""

    awaited: bool
    decision: str | None
    move: Maybe[PantheonMoveBlock] = UNSET
    buy: Maybe[PantheonBuyBlock] = UNSET
    gain_god: Maybe[list[PantheonGodOffer]] = UNSET
    draw: Maybe[PantheonDrawBlock] = UNSET
    use_traitera: Maybe[bool] = UNSET
    choices: Maybe[list[str]] = UNSET
    tile: Maybe[str] = UNSET
    payments: Maybe[list[Counts]] = UNSET
    foot: Maybe[int] = UNSET
    column: Maybe[int] = UNSET
    budget: Maybe[int] = UNSET
    sacrifice_tiles: Maybe[list[PantheonTileOffer]] = UNSET
    reserve: Maybe[PantheonReserveOffer] = UNSET
    place_targets: Maybe[list[PantheonTarget]] = UNSET
    kinds: Maybe[list[str]] = UNSET
    steps: Maybe[int] = UNSET
    optional: Maybe[bool] = UNSET
    tiles: Maybe[list[str]] = UNSET
    hexes: Maybe[list[HexList]] = UNSET
    pieces: Maybe[list[str]] = UNSET
    count: Maybe[int] = UNSET
    hand: Maybe[Counts] = UNSET
    left: Maybe[int] = UNSET
    display: Maybe[list[int]] = UNSET
    pile: Maybe[bool] = UNSET
    pass_: Maybe[bool] = msgspec.field(default=UNSET, name="pass")


def _targets(state: State, planner: Planner, left: int) -> list[PantheonTarget]:
    board = board_of(state)
    return [
        PantheonTarget(piece="column" if piece else "foot", hex=list(coords_of(board, index)), cost=cost, jump=jump)
        for piece, index, cost, jump in planner.targets()
        if cost <= left
    ]


def next_placements(state: State, seat: int, placements: list[Place], budget: int, *, movement: bool) -> dict[str, Any]:
    """Where a piece could go next after `placements`, with `budget` steps or money in all."""
    jumps = count_gods(state.seats[seat], "gaiviles") if movement else 0
    planner, costs = plan_placements(state, seat, placements, budget, jumps=jumps)
    left = budget - sum(costs)
    return {"left": left, "targets": _targets(state, planner, left)}


def _move_options(state: State, seat: int, big_foot: bool) -> PantheonMoveBlock:
    me = state.seats[seat]
    base = movement_steps(me, 0, big_foot)
    return PantheonMoveBlock(
        max_cards=me.hand[CARD_INDEX["movement"]],
        steps_without_cards=base,
        steps_per_card=2,
        jumps=count_gods(me, "gaiviles"),
        first_targets=_targets(state, Planner(state, seat, jumps=count_gods(me, "gaiviles")), 10**6),
    )


def _sacrifice_purchases(state: State, seat: int, budget: int) -> list[PantheonTileOffer]:
    prices = (0, *components_of(state).sacrifice_prices)  # Components.price of each level, 0 for none
    levels = state.seats[seat].sacrifice
    found = []
    for i, kind in enumerate(SACRIFICES):
        for level in range(levels[i] + 1, MAX_LEVEL + 1):
            cost = prices[level] - prices[levels[i]]
            if cost <= budget:
                found.append(PantheonTileOffer(kind=kind, level=level, cost=cost))
    return found


def buy_options(state: State, seat: int, money: Counts, stonkus: int, budget: int, placing: bool) -> PantheonBuyBlock:
    """What `budget` money (these money cards and Stonkus') could buy: sacrifice tiles, reserve
    pieces and (if placing) hexes."""
    me = state.seats[seat]
    return PantheonBuyBlock(
        money_cards=money,
        stonkus=stonkus,
        budget=budget,
        sacrifice_tiles=_sacrifice_purchases(state, seat, budget),
        reserve=PantheonReserveOffer(foot=min(budget, me.general_feet), column=min(budget, me.general_columns)),
        place_targets=_targets(state, Planner(state, seat), budget) if placing else UNSET,
    )


def money_cards(state: State, seat: int) -> Counts:
    """The seat's money cards in hand, by name."""
    hand = state.seats[seat].hand
    return {card: hand[CARD_INDEX[card]] for card in MONEY_CARDS if hand[CARD_INDEX[card]]}


def _gods_options(state: State, seat: int) -> list[PantheonGodOffer]:
    me = state.seats[seat]
    gods = components_of(state).gods
    found = []
    for tile in state.gods_board:
        payments = payment_options(me, gods[tile])
        if payments:
            found.append(PantheonGodOffer(tile=tile, payments=payments))
    return found


def _display(state: State) -> list[int]:
    return [i for i, c in enumerate(state.display) if c != EMPTY_SLOT]


def _draw_options(state: State, left: int) -> PantheonDrawBlock:
    return PantheonDrawBlock(left=left, display=_display(state), pile=True)


def _action(state: State, seat: int, task: Task) -> PantheonBlocks:
    me = state.seats[seat]
    stonkus = stonkus_money(state, me)
    budget = money_of(me.hand) + stonkus
    return PantheonBlocks(
        awaited=True,
        decision=task.kind,
        move=_move_options(state, seat, True),
        buy=buy_options(state, seat, money_cards(state, seat), stonkus, budget, True) if budget else None,
        gain_god=_gods_options(state, seat),
        draw=_draw_options(state, DRAW_ACTION_CARDS + count_gods(me, "gadicea")),
    )


def legal_options(state: State, seat: int) -> PantheonBlocks:
    """What `seat` may do now: the awaited decision and its options (empty if not awaited)."""
    if state.finished or not state.agenda or state.agenda[0].seat != seat:
        return PantheonBlocks(awaited=False, decision=None)
    task = state.agenda[0]
    return _BY_DECISION[task.kind](state, seat, task)


def _follow_up(state: State, seat: int, task: Task) -> PantheonBlocks:
    me = state.seats[seat]
    can_move = me.hand[CARD_INDEX["movement"]] > 0 or movement_steps(me, 0, False) > 0
    move = _move_options(state, seat, False) if can_move else None
    return PantheonBlocks(awaited=True, decision=task.kind, move=move, pass_=True)


def _gallia(state: State, seat: int, task: Task) -> PantheonBlocks:
    reveal = bool(state.gods_stack or state.gods_box)
    return PantheonBlocks(awaited=True, decision=task.kind, choices=["draw", "reveal"] if reveal else ["draw"])


def _gallia_gain(state: State, seat: int, task: Task) -> PantheonBlocks:
    payments = payment_options(state.seats[seat], components_of(state).gods[task.item], True)
    return PantheonBlocks(awaited=True, decision=task.kind, tile=task.item, payments=payments, pass_=True)


def _exchange(state: State, seat: int, task: Task) -> PantheonBlocks:
    me = state.seats[seat]
    foot, column = min(me.feet, me.general_columns), min(me.columns, me.general_feet)
    return PantheonBlocks(awaited=True, decision=task.kind, foot=foot, column=column, pass_=True)


def _cartago(state: State, seat: int, task: Task) -> PantheonBlocks:
    offer = buy_options(state, seat, {}, 0, CARTAGO_MONEY, False)
    return PantheonBlocks(
        awaited=True,
        decision=task.kind,
        budget=offer.budget,
        sacrifice_tiles=offer.sacrifice_tiles,
        reserve=offer.reserve,
        pass_=True,
    )


def _sacrifice(state: State, seat: int, task: Task) -> PantheonBlocks:
    kinds: list[str] = [*sacrifice_options(state.seats[seat])]
    return PantheonBlocks(awaited=True, decision=task.kind, kinds=kinds, steps=task.n, optional=task.item == "optional")


def _bonus_column(state: State, seat: int, task: Task) -> PantheonBlocks:
    hexes = [list(coords_of(board_of(state), i)) for i in bonus_column_sites(state, seat)]
    return PantheonBlocks(awaited=True, decision=task.kind, hexes=hexes)


def _draw(state: State, seat: int, task: Task) -> PantheonBlocks:
    return PantheonBlocks(awaited=True, decision=task.kind, left=task.n, display=_display(state), pile=True)


def _discard(state: State, seat: int, task: Task) -> PantheonBlocks:
    hand = {c: n for c, n in zip(CARDS, state.seats[seat].hand) if n}
    return PantheonBlocks(awaited=True, decision=task.kind, count=task.n, hand=hand)


_BY_DECISION: dict[str, Callable[[State, int, Task], PantheonBlocks]] = {
    "action": _action,
    "follow_up": _follow_up,
    "draw": _draw,
    "extra_action": lambda s, seat, t: PantheonBlocks(awaited=True, decision=t.kind, use_traitera=True, pass_=True),
    "gallia": _gallia,
    "gallia_gain": _gallia_gain,
    "discard": _discard,
    "exchange": _exchange,
    "sacrifice": _sacrifice,
    "cartago": _cartago,
    "choose_bonus": lambda s, seat, t: PantheonBlocks(awaited=True, decision=t.kind, tiles=list(s.bonus_pool)),
    "bonus_column": _bonus_column,
    "reserve_choice": lambda s, seat, t: PantheonBlocks(
        awaited=True, decision=t.kind, pieces=["foot", "column"], count=t.n
    ),
}
