"""Rules as pure queries: steps, money, where pieces may go, what a sacrifice or purchase costs."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterable

from domain.kernel import DomainError

from .board import Board, load_board
from .commands import Hex, Place, PlacePiece, Purchase, Reserve, SacrificeTile
from .components import Components, GodsTile, load_components
from .state import SeatState, State
from .vocabulary import (
    BIG_FOOT_STEPS,
    CARD_INDEX,
    COLUMN,
    FOOT,
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
    prefix = god + "-"  # tile ids are '<god>-<n>'
    return sum(1 for tile in seat.gods if tile.startswith(prefix))


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
    gods = components_of(state).gods
    return sum(gods[tile].money for tile in seat.gods if god_of(tile) == "stonkus")


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


def chain_route(
    route: set[int], start: int, neighbors: tuple[tuple[int, ...], ...], is_own_column: Callable[[int], bool]
) -> list[int]:
    """Add `start` to the route, and every own column chained to it by adjacency; the hexes added."""
    route.add(start)
    added = [start]
    todo = [start]
    while todo:
        for n in neighbors[todo.pop()]:
            if n not in route and is_own_column(n):
                route.add(n)
                added.append(n)
                todo.append(n)
    return added


class Planner:
    """Checks placements one by one against a scratch copy of one seat's pieces and route."""

    def __init__(self, state: State, seat: int, *, jumps: int = 0) -> None:
        self.state = state
        self.board = board_of(state)
        self.seat = seat
        me = state.seats[seat]
        self.route = set(me.route)
        self.reserve = [me.feet, me.columns]
        self.added: dict[int, int] = {}  # hex -> piece placed by this plan
        self.jumps = jumps
        self.loot: list[str] = []
        self._others: set[int] | None = None
        self._frontier: set[int] | None = None  # every neighbour of the route, built on demand

    def copy(self) -> Planner:
        """An independent copy, to try further placements on without changing this one."""
        twin = object.__new__(Planner)
        twin.__dict__.update(self.__dict__)  # the state, board and the others' hexes are shared, never changed
        twin.route, twin.reserve, twin.added, twin.loot = (
            set(self.route),
            list(self.reserve),
            dict(self.added),
            list(self.loot),
        )
        if self._frontier is not None:
            twin._frontier = set(self._frontier)
        return twin

    @property
    def frontier(self) -> set[int]:
        if self._frontier is None:
            neighbors = self.board.neighbors
            self._frontier = {n for r in self.route for n in neighbors[r]}
        return self._frontier

    def _others_on(self, index: int) -> bool:
        """Whether another seat has a piece on this hex (other seats' pieces never move here)."""
        if self._others is None:
            seat = self.seat
            self._others = {i for i, codes in self.state.occupants.items() if any(c >> 1 != seat for c in codes)}
        return index in self._others

    def _count_on(self, index: int) -> int:
        return len(self.state.occupants.get(index, ())) + (index in self.added)

    def _own_on(self, index: int) -> int | None:
        if index in self.added:
            return self.added[index]
        for code in self.state.occupants.get(index, ()):
            if code >> 1 == self.seat:
                return code & 1
        return None

    def _can_jump_to(self, index: int) -> bool:
        for a in self.route:
            for over, target in self.board.jumps[a]:
                if target == index and self._others_on(over):
                    return True
        return False

    def check(self, piece: int, index: int, jump: bool = False) -> int:
        """The cost of placing this piece here next, or a domain error naming the rule."""
        h = self.board.hexes[index]
        if index == self.state.temple:
            raise DomainError("temple_hex", "No piece may be placed on the temple hex.")
        if self._own_on(index) is not None:
            raise DomainError("own_piece_on_hex", "You already have a piece on that hex.")
        if self._count_on(index) >= 2:
            raise DomainError("hex_full", "That hex already holds two pieces.")
        if self.reserve[piece] <= 0:
            name = "foot" if piece == FOOT else "column"
            raise DomainError("empty_reserve", f"You have no {name} left in your personal reserve.")
        if piece == FOOT and h.column:
            raise DomainError("column_site", "Feet may not stand on a column site.")
        if piece == COLUMN and not h.column:
            raise DomainError("not_a_column_site", "Columns may only stand on column sites.")
        if jump:
            self._check_jump(piece, index)
        elif piece == FOOT and not any(n in self.route for n in self.board.neighbors[index]):
            raise DomainError(
                "not_connected", "A foot must go next to your route (the temple or your connected pieces)."
            )
        elif piece == COLUMN and not any(
            n in self.route and self._own_on(n) == FOOT for n in self.board.neighbors[index]
        ):
            raise DomainError("column_needs_own_foot", "A column must go next to one of your own feet on your route.")
        return 2 if self.state.occupants.get(index) else 1  # no own piece is there: another seat's

    def _check_jump(self, piece: int, index: int) -> None:
        if piece != FOOT:
            raise DomainError("illegal_jump", "Only a foot can jump.")
        if self.jumps <= 0:
            raise DomainError("no_jump_left", "You have no Gaiviles jump left in this movement.")
        if not self._can_jump_to(index):
            raise DomainError(
                "illegal_jump",
                "A jump goes two hexes in a straight line from your route over a hex holding another player's piece.",
            )

    def apply(self, piece: int, index: int, jump: bool = False) -> None:
        """Record a checked placement in the scratch copy."""
        self.added[index] = piece
        self.reserve[piece] -= 1
        if jump:
            self.jumps -= 1
        joined = chain_route(self.route, index, self.board.neighbors, lambda n: self._own_on(n) == COLUMN)
        if self._frontier is not None:
            for r in joined:
                self._frontier.update(self.board.neighbors[r])
        loot = self.state.loot_board.get(index)
        if piece == FOOT and loot is not None:
            self.loot.append(loot)

    def targets(self, *, every_jump: bool = False) -> list[tuple[int, int, int, bool]]:
        """Every (piece, hex, cost, jump) that `check` would accept next (a fast equivalent); a
        hex next to the route is listed as a jump too only with `every_jump` (a jump there is
        legal but wastes a Gaiviles, RULINGS 7)."""
        occupants, hexes, neighbors = self.state.occupants, self.board.hexes, self.board.neighbors
        route, added, seat = self.route, self.added, self.seat
        feet_ok, columns_ok = self.reserve[FOOT] > 0, self.reserve[COLUMN] > 0
        candidates = self.frontier
        jump_targets: set[int] = set()
        if self.jumps > 0 and feet_ok:
            self._others_on(-1)  # builds the set of hexes holding another seat's piece
            others = self._others or set()
            for r in route:
                jump_targets.update(t for over, t in self.board.jumps[r] if over in others)
        found = []
        temple = self.state.temple
        for index in sorted(candidates | jump_targets if jump_targets else candidates):
            if index == temple or index in added:
                continue
            codes = occupants.get(index)
            if codes:
                if len(codes) >= 2 or codes[0] >> 1 == seat:
                    continue
                cost = 2
            else:
                cost = 1
            if hexes[index].column:
                if (
                    columns_ok
                    and index in candidates
                    and any(n in route and self._own_on(n) == FOOT for n in neighbors[index])
                ):
                    found.append((COLUMN, index, cost, False))
            elif feet_ok:
                found.append((FOOT, index, cost, index not in candidates))
                if every_jump and index in candidates and index in jump_targets:
                    found.append((FOOT, index, cost, True))
        return found


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
    requires = tile.requires[:1] if first_only else tile.requires
    supply = supply if supply is not None and not tile.cards_only else sacrifice_supply(seat, tile.cards_only)
    return all(have >= need for have, need in zip(supply, sorted(requires, reverse=True)))


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
    chain_route(route, temple, board_of(state).neighbors, own.__contains__)
    return route
