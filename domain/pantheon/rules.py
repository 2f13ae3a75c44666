"""Rules as pure queries: steps, money, where pieces may go, what a sacrifice or purchase costs."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable

from domain.kernel import DomainError

from .board import Board, load_board
from .commands import Hex, Place, PlacePiece, Purchase, Reserve, SacrificeTile
from .components import Components, GodsTile, load_components
from .planner import Planner as Planner  # re-exported: callers imported it from here before planner.py
from .planner import chain_route
from .state import SeatState, State
from .vocabulary import (
    BIG_FOOT_STEPS,
    CARD_INDEX,
    MAX_LEVEL,
    MOVEMENT_STEPS_PER_CARD,
    PIECE_CODE,
    SACRIFICE_INDEX,
    SACRIFICES,
    Sacrifice,
    god_of,
)


def board_of(state: State) -> Board:
    return load_board(state.options.edition)


def components_of(state: State) -> Components:
    return load_components(state.options.edition)


def count_gods(seat: SeatState, god: str) -> int:
    """How many tiles of this god the seat owns."""
    if not seat.gods:
        return 0
    return _god_counts(tuple(seat.gods)).get(god, 0)


@functools.lru_cache(maxsize=4096)
def _god_counts(tiles: tuple[str, ...]) -> dict[str, int]:
    """How many tiles of each god these are (cached: asked several times per command in playouts,
    of hands of gods that seldom change; callers never change the dict)."""
    counts: dict[str, int] = {}
    for tile in tiles:
        god = god_of(tile)
        counts[god] = counts.get(god, 0) + 1
    return counts


def hex_index(board: Board, coords: Hex) -> int:
    """The index of a hex given as (q, r), or a domain error."""
    index = board.index_of.get((coords[0], coords[1]))
    if index is None:
        raise DomainError("unknown_hex", f"There is no hex at {list(coords)} on this map.")
    return index


def coords_of(board: Board, index: int) -> Hex:
    h = board.hexes[index]
    return (h.q, h.r)


def movement_steps(seat: SeatState, cards: int, big_foot: bool) -> int:
    """Steps of a movement: big foot, 2 per card, 1 per Vinthrad and the Steps tiles."""
    base = BIG_FOOT_STEPS if big_foot else 0
    return base + MOVEMENT_STEPS_PER_CARD * cards + count_gods(seat, "vinthrad") + seat.steps


def stonkus_money(state: State, seat: SeatState) -> int:
    if not seat.gods:
        return 0
    gods, money = components_of(state).gods, 0
    for tile in seat.gods:
        if tile.startswith("stonkus-"):  # tile ids are '<god>-<n>'
            money += gods[tile].money
    return money


def cards_from(spec: dict[str, int], allowed: Iterable[str], what: str) -> list[int]:
    """Counts per card type for a {card: count} mapping, checked against `allowed`."""
    counts = [0] * len(CARD_INDEX)
    allowed = set(allowed)
    for card, n in spec.items():
        if card not in allowed:
            raise DomainError("wrong_card", f"{card!r} is not a {what} card.")
        if not isinstance(n, int) or n < 0:
            raise DomainError("bad_count", "Card counts must be whole numbers of 0 or more.")
        counts[CARD_INDEX[card]] += n
    return counts


def require_in_hand(seat: SeatState, counts: list[int]) -> None:
    for i, n in enumerate(counts):
        if n > seat.hand[i]:
            raise DomainError("cards_not_in_hand", "You do not hold the cards you want to play.")


def plan_placements(
    state: State, seat: int, placements: Iterable[Place], budget: int, *, jumps: int
) -> tuple[Planner, list[int]]:
    """Check a whole sequence of placements; the planner and the cost of each."""
    board = board_of(state)
    planner = Planner(state, seat, jumps=jumps)
    costs: list[int] = []
    for p in placements:
        piece, index = PIECE_CODE[p.piece], hex_index(board, p.hex)
        cost = planner.check(piece, index, p.jump)
        if sum(costs) + cost > budget:
            raise DomainError("insufficient_steps", f"Those placements need more than the {budget} steps you have.")
        planner.apply(piece, index, p.jump)
        costs.append(cost)
    return planner, costs


def sacrifice_options(seat: SeatState) -> list[Sacrifice]:
    """Kinds a sacrifice step could improve: a new level-1 tile or one level up."""
    return [kind for i, kind in enumerate(SACRIFICES) if seat.sacrifice[i] < MAX_LEVEL]


def sacrifice_supply(seat: SeatState, cards_only: bool = False) -> list[int]:
    """Sacrifices of each kind the seat could make (tile level plus cards), largest first."""
    hand = seat.hand
    if cards_only:
        return sorted((hand[1], hand[2], hand[3], hand[4]), reverse=True)
    levels = seat.sacrifice
    return sorted((levels[0] + hand[1], levels[1] + hand[2], levels[2] + hand[3], levels[3] + hand[4]), reverse=True)


def can_pay(seat: SeatState, tile: GodsTile, first_only: bool = False, supply: list[int] | None = None) -> bool:
    """Whether the seat can pay for this tile: the largest needs meet the largest supplies."""
    supply = supply if supply is not None and not tile.cards_only else sacrifice_supply(seat, tile.cards_only)
    if first_only:
        return supply[0] >= tile.requires[0]
    for have, need in zip(supply, tile.needs):  # noqa: SIM110 - a loop, not all(genexpr): called per tile per action
        if have < need:
            return False
    return True


def _least_payments(seat: SeatState, tile: GodsTile, first_only: bool) -> frozenset[tuple[int, ...]]:
    """Cards per kind (SACRIFICES order) of every least payment the hand can make."""
    requires = tile.requires[:1] if first_only else tile.requires
    levels = (0, 0, 0, 0) if tile.cards_only else tuple(seat.sacrifice)
    return _payments(requires, levels, tuple(seat.hand[1:5]))  # hand[1..4]: the sacrifice cards


@functools.lru_cache(maxsize=4096)
def _payments(requires: tuple[int, ...], levels: tuple[int, ...], cards: tuple[int, ...]) -> frozenset[tuple[int, ...]]:
    found = set()
    for kinds in itertools.permutations(range(4), len(requires)):
        pay = [0, 0, 0, 0]
        for k, need in zip(kinds, requires):
            missing = need - levels[k]
            if missing > 0:
                if cards[k] < missing:
                    break
                pay[k] = missing
        else:
            found.add(tuple(pay))
    return frozenset(found)


def payment_options(seat: SeatState, tile: GodsTile, first_only: bool = False) -> list[dict[str, int]]:
    """Every least payment in sacrifice cards for this tile, tiles counted, that the hand can make."""
    return [
        {SACRIFICES[k]: n for k, n in enumerate(pay) if n} for pay in sorted(_least_payments(seat, tile, first_only))
    ]


def is_least_payment(seat: SeatState, tile: GodsTile, pay: dict[str, int], first_only: bool = False) -> bool:
    """Whether `pay` (cards by kind) is one of the least payments for this tile."""
    wanted = tuple(pay.get(kind, 0) for kind in SACRIFICES)
    return len(pay) == sum(1 for n in wanted if n) and wanted in _least_payments(seat, tile, first_only)


def check_payment(seat: SeatState, tile: GodsTile, sacrifice: dict[str, int], first_only: bool = False) -> None:
    """A domain error unless `sacrifice` is one of the least payments for this tile."""
    pay = {k: n for k, n in sacrifice.items() if n}
    if any(k not in SACRIFICE_INDEX for k in pay):
        raise DomainError("wrong_card", "Only sacrifice cards (priest, dancer, temple, offering) pay for gods.")
    if not is_least_payment(seat, tile, pay, first_only):
        need = "-".join(str(n) for n in (tile.requires[:1] if first_only else tile.requires))
        extra = " with cards only" if tile.cards_only else ""
        raise DomainError(
            "sacrifice_not_met",
            f"{tile.id} needs {need} sacrifices of different kinds{extra}; that payment is not an exact one you can make.",
        )


def money_of(counts: list[int]) -> int:
    """The money in these card counts (1-money cards and special money cards)."""
    return counts[5] + 2 * counts[6] + 3 * counts[7] + 4 * counts[8] + 5 * counts[9]


def price_purchases(
    state: State, seat: int, purchases: list[Purchase], budget: int, *, placing: bool
) -> tuple[list[int], Planner]:
    """Check purchases in order against the budget; their costs and the placement planner."""
    comps = components_of(state)
    me = state.seats[seat]
    levels = list(me.sacrifice)
    general = [me.general_feet, me.general_columns]
    planner = Planner(state, seat)
    costs: list[int] = []
    for p in purchases:
        if isinstance(p, SacrificeTile):
            cost = _sacrifice_cost(comps, levels, p)
        elif isinstance(p, Reserve):
            cost = _reserve_cost(general, planner, p)
        elif isinstance(p, PlacePiece):
            if not placing:
                raise DomainError(
                    "no_placing", "Cartago's money cannot place pieces: the temple is not on the board yet."
                )
            piece, index = PIECE_CODE[p.piece], hex_index(planner.board, p.hex)
            cost = planner.check(piece, index)
            planner.apply(piece, index)
        if sum(costs) + cost > budget:
            raise DomainError("insufficient_money", f"Those purchases cost more than the {budget} money you have.")
        costs.append(cost)
    return costs, planner


def _sacrifice_cost(comps: Components, levels: list[int], p: SacrificeTile) -> int:
    i = SACRIFICE_INDEX[p.kind]
    if not 1 <= p.level <= MAX_LEVEL:
        raise DomainError("bad_level", "Sacrifice tiles have levels 1 to 4.")
    if p.level <= levels[i]:
        raise DomainError(
            "not_an_upgrade", f"You already have a {p.kind} tile at level {levels[i]}; you can only buy a higher level."
        )
    cost = comps.price(p.level) - comps.price(levels[i])
    levels[i] = p.level
    return cost


def _reserve_cost(general: list[int], planner: Planner, p: Reserve) -> int:
    piece = PIECE_CODE[p.piece]
    if p.count < 1:
        raise DomainError("bad_count", "Buy at least one piece.")
    if general[piece] < p.count:
        raise DomainError(
            "general_reserve_empty", f"The general reserve has only {general[piece]} of your {p.piece}s left."
        )
    general[piece] -= p.count
    planner.reserve[piece] += p.count
    return p.count


def route_at_epoch_start(state: State, seat: int, temple: int) -> set[int]:
    """The temple hex plus the seat's columns chained to it."""
    route: set[int] = set()
    own = set(state.seats[seat].columns_on_board)
    chain_route(route, temple, board_of(state).neighbors, own)
    return route
