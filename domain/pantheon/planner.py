"""Where pieces may go: a scratch copy of one seat's pieces and route that checks placements one
at a time and lists every placement it would accept next.

It runs several times per command in playouts (the random player's placements, then `decide`
checking them), so its loops are written out by hand rather than as generator expressions and
callbacks: the same rules, fewer Python calls (docs/engine.md, "Speed")."""

from __future__ import annotations

import functools
import operator
from collections.abc import Container

from domain.kernel import DomainError

from .board import load_board
from .state import State
from .vocabulary import COLUMN, FOOT


def chain_route(
    route: set[int], start: int, neighbors: tuple[tuple[int, ...], ...], own_columns: Container[int]
) -> list[int]:
    """Add `start` to the route, and every own column (a hex of `own_columns`) chained to it by
    adjacency; the hexes added."""
    route.add(start)
    added = [start]
    todo = [start]
    while todo:
        for n in neighbors[todo.pop()]:
            if n not in route and n in own_columns:
                route.add(n)
                added.append(n)
                todo.append(n)
    return added


_by_hex = operator.itemgetter(1)  # a target's hex


@functools.cache
def _column_sites(edition: str) -> frozenset[int]:
    return frozenset(load_board(edition).column_sites)


class Planner:
    """Checks placements one by one against a scratch copy of one seat's pieces and route.

    A seat never has two pieces on one hex, so a hex holds an own piece either in the state
    (its code seat * 2 + piece among the occupants) or in `added`, never both."""

    __slots__ = (
        "state",
        "board",
        "seat",
        "route",
        "reserve",
        "added",
        "columns",
        "jumps",
        "loot",
        "_others",
        "_frontier",
    )

    def __init__(self, state: State, seat: int, *, jumps: int = 0) -> None:
        self.state = state
        self.board = load_board(state.options.edition)
        self.seat = seat
        me = state.seats[seat]
        self.route = set(me.route)
        self.reserve = [me.feet, me.columns]
        self.added: dict[int, int] = {}  # hex -> piece placed by this plan
        self.columns = set(me.columns_on_board)  # the seat's columns, with those of this plan
        self.jumps = jumps
        self.loot: list[str] = []
        self._others: set[int] | None = None  # hexes holding another seat's piece, built on demand
        self._frontier: set[int] | None = None  # every neighbour of the route, built on demand

    def copy(self) -> Planner:
        """An independent copy, to try further placements on without changing this one."""
        twin = object.__new__(Planner)
        twin.state, twin.board, twin.seat, twin.jumps = self.state, self.board, self.seat, self.jumps
        twin._others = self._others  # shared, never changed: other seats' pieces do not move here
        twin.route, twin.reserve, twin.added, twin.loot = (
            set(self.route),
            self.reserve[:],
            dict(self.added),
            self.loot[:],
        )
        twin.columns = set(self.columns)
        twin._frontier = None if self._frontier is None else set(self._frontier)
        return twin

    @property
    def frontier(self) -> set[int]:
        if self._frontier is None:
            neighbors = self.board.neighbors
            frontier: set[int] = set()
            for r in self.route:
                frontier.update(neighbors[r])
            self._frontier = frontier
        return self._frontier

    def _others_set(self) -> set[int]:
        if self._others is None:
            seat, others = self.seat, set()
            for index, codes in self.state.occupants.items():
                for code in codes:
                    if code >> 1 != seat:
                        others.add(index)
                        break
            self._others = others
        return self._others

    def _others_on(self, index: int) -> bool:
        """Whether another seat has a piece on this hex (other seats' pieces never move here)."""
        return index in self._others_set()

    def _own_on(self, index: int) -> int | None:
        piece = self.added.get(index)
        if piece is not None:
            return piece
        seat = self.seat
        for code in self.state.occupants.get(index, ()):
            if code >> 1 == seat:
                return code & 1
        return None

    def _own_foot_next_on_route(self, index: int) -> bool:
        """Whether a hex next to `index` on the route holds one of the seat's own feet."""
        route, added, occupants = self.route, self.added, self.state.occupants
        own_foot = self.seat * 2 + FOOT
        for n in self.board.neighbors[index]:
            if n in route:
                piece = added.get(n)
                if piece == FOOT or (piece is None and own_foot in occupants.get(n, ())):
                    return True
        return False

    def _can_jump_to(self, index: int) -> bool:
        others, jumps = self._others_set(), self.board.jumps
        for a in self.route:
            for over, target in jumps[a]:
                if target == index and over in others:
                    return True
        return False

    def check(self, piece: int, index: int, jump: bool = False) -> int:
        """The cost of placing this piece here next, or a domain error naming the rule."""
        column_site = index in _column_sites(self.board.edition)
        codes = self.state.occupants.get(index, ())
        if index == self.state.temple:
            raise DomainError("temple_hex", "No piece may be placed on the temple hex.")
        if self._own_on(index) is not None:
            raise DomainError("own_piece_on_hex", "You already have a piece on that hex.")
        if len(codes) >= 2:  # no own piece is there (above), so none was added by this plan
            raise DomainError("hex_full", "That hex already holds two pieces.")
        if self.reserve[piece] <= 0:
            name = "foot" if piece == FOOT else "column"
            raise DomainError("empty_reserve", f"You have no {name} left in your personal reserve.")
        if piece == FOOT and column_site:
            raise DomainError("column_site", "Feet may not stand on a column site.")
        if piece == COLUMN and not column_site:
            raise DomainError("not_a_column_site", "Columns may only stand on column sites.")
        if jump:
            self._check_jump(piece, index)
        elif piece == FOOT and self.route.isdisjoint(self.board.neighbors[index]):
            raise DomainError(
                "not_connected", "A foot must go next to your route (the temple or your connected pieces)."
            )
        elif piece == COLUMN and not self._own_foot_next_on_route(index):
            raise DomainError("column_needs_own_foot", "A column must go next to one of your own feet on your route.")
        return 2 if codes else 1  # no own piece is there: another seat's

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
        if piece == COLUMN:
            self.columns.add(index)
        neighbors = self.board.neighbors
        if piece == FOOT and not self.columns:  # no own column could be chained to it
            self.route.add(index)
            joined: list[int] = [index]
        else:
            joined = chain_route(self.route, index, neighbors, self.columns)
        if self._frontier is not None:
            for r in joined:
                self._frontier.update(neighbors[r])
        if piece == FOOT:
            loot = self.state.loot_board.get(index)
            if loot is not None:
                self.loot.append(loot)

    def _jump_targets(self) -> set[int]:
        others, jumps, targets = self._others_set(), self.board.jumps, set()
        for r in self.route:
            for over, target in jumps[r]:
                if over in others:
                    targets.add(target)
        return targets

    def targets(self, *, every_jump: bool = False) -> list[tuple[int, int, int, bool]]:
        """Every (piece, hex, cost, jump) that `check` would accept next (a fast equivalent); a
        hex next to the route is listed as a jump too only with `every_jump` (a jump there is
        legal but wastes a Gaiviles, RULINGS 7)."""
        occupants, seat = self.state.occupants, self.seat
        columns = _column_sites(self.board.edition)
        feet_ok, columns_ok = self.reserve[FOOT] > 0, self.reserve[COLUMN] > 0
        candidates = self.frontier
        jump_targets = self._jump_targets() if self.jumps > 0 and feet_ok else None
        # set operations (in C) do most of the work: out go the hexes of this plan, the temple and
        # the hexes with two pieces or one of the seat's own; a piece elsewhere costs 2 steps
        hexes = (candidates | jump_targets if jump_targets else candidates) - self.added.keys()
        hexes.discard(self.state.temple)
        occupied = hexes.intersection(occupants)
        for index in occupied:
            codes = occupants[index]
            if len(codes) >= 2 or codes[0] >> 1 == seat:
                hexes.discard(index)
        found: list[tuple[int, int, int, bool]] = []
        if feet_ok:
            feet = hexes - columns
            found += [(FOOT, i, 2 if i in occupied else 1, i not in candidates) for i in feet]
            if every_jump and jump_targets:
                jumps = feet & candidates & jump_targets
                found += [(FOOT, i, 2 if i in occupied else 1, True) for i in jumps]
        if columns_ok:
            for i in hexes & columns & candidates:
                if self._own_foot_next_on_route(i):
                    found.append((COLUMN, i, 2 if i in occupied else 1, False))
        found.sort(key=_by_hex)  # by hex; stable: a hex's plain placement before its jump
        return found
