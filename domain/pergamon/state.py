"""The game state. A mutable working object for speed: `evolve` updates it in place and `decide`
works on a clone, so callers still see decide and replay as pure functions.

The state holds no secret (rules §10): unrevealed tiles are a set, undrawn cards are counts, and
chance is drawn only when it is revealed."""

from __future__ import annotations

import msgspec

from .commands import PergamonOptions

SETUP, ROUND_END = "setup", "round_end"  # phases between rounds (the others: vocabulary)


class Collection(msgspec.Struct, kw_only=True):
    """An exhibited row: its marker pair's numeral, its tiles left to right, its museum space and
    its value when exhibited (base value + polish; 0 when unknown)."""

    numeral: int
    tiles: list[int]
    space: int
    value: int = 0


class PergamonSeat(msgspec.Struct, kw_only=True):
    coins: int = 0
    vp: int = 0
    loose: list[int] = []  # sorted; an unordered set (R6)
    collections: list[Collection] = []  # sorted by numeral


class PergamonState(msgspec.Struct, kw_only=True):
    """Everything about one game of Pergamon."""

    options: PergamonOptions
    seats: list[PergamonSeat]
    first_player: int
    round: int = 0
    phase: str = SETUP
    unrevealed: list[int]  # tile ids not yet drawn, ascending (§11)
    unseen_box: int = 0  # tiles returned to the box unseen (R7)
    box: list[int] = []  # seen tiles out of the game, in the order they left
    galleries: list[list[int]]  # galleries I..V
    finds: list[int] | None = None  # this round's drawn finds until they are laid out
    undrawn: list[int]  # copies of values 1..8 not yet revealed (pending cards included)
    backs: list[str] = []  # this round's card backs
    values: list[int] = []  # this round's card values, once revealed
    past_values: list[int] = []  # the values of earlier rounds' cards (in the box)
    figures: dict[int, int] = {}  # seat -> funding space this round
    tomb_raider: int = 0  # its space this round (0: not on the track)
    purse: int = 0
    placement_order: list[int] = []
    action_order: list[int] = []  # figures, right-most first (phase 3)
    turn: int = -1  # index into action_order of the figure acting now
    decision: str | None = None  # the awaited decision, or None
    awaiting: int = -1  # the awaited seat
    order_spaces: list[int] = []  # variant 1: the seats on order spaces 1..N after the last round
    finished: bool = False
    places: list[int] = []
    winners: list[int] = []

    @property
    def players(self) -> int:
        return len(self.seats)


def clone(state: State) -> State:
    """A deep copy of the state (hand-written for speed: decide clones once per command)."""
    c: State = state.__copy__()  # type: ignore[attr-defined]  # a C-speed shallow copy (not in msgspec's stubs)
    c.seats = [_clone_seat(s) for s in state.seats]
    c.unrevealed, c.box = state.unrevealed[:], state.box[:]
    c.galleries = [g[:] for g in state.galleries]
    c.finds = None if state.finds is None else state.finds[:]
    c.undrawn, c.backs, c.values, c.past_values = (
        state.undrawn[:],
        state.backs[:],
        state.values[:],
        state.past_values[:],
    )
    c.figures = dict(state.figures)
    c.placement_order, c.action_order = state.placement_order[:], state.action_order[:]
    c.order_spaces, c.places, c.winners = state.order_spaces[:], state.places[:], state.winners[:]
    return c


def _clone_seat(seat: SeatState) -> SeatState:
    c: SeatState = seat.__copy__()  # type: ignore[attr-defined]  # as above
    c.loose = seat.loose[:]
    c.collections = [
        Collection(numeral=k.numeral, tiles=k.tiles[:], space=k.space, value=k.value) for k in seat.collections
    ]
    return c


# Short names inside the package; the class names carry the game's name for shared API documents.
State = PergamonState
SeatState = PergamonSeat
