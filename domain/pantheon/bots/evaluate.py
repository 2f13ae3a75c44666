"""A position's worth for one seat: points now plus what its material should still score."""

from __future__ import annotations

from ..rules import count_gods, money_of
from ..state import SeatState, State
from ..vocabulary import EPOCHS, SCORING_EPOCHS, column_points

WIN = 1000.0


def scorings_left(state: State) -> int:
    """Scorings still to come (epochs 3 and 6), counting the current epoch's."""
    return sum(1 for e in SCORING_EPOCHS if e >= max(state.epoch, 1))


def _next_tier_bonus(columns: int) -> float:
    """Columns just short of a scoring tier (4, 8, 12) are worth a little more."""
    for tier in (4, 8, 12):
        if columns < tier:
            return 0.5 * (column_points(tier) - column_points(columns)) / (tier - columns) - 0.5
    return 0.0


def seat_value(state: State, seat: SeatState) -> float:
    """Points, plus half gods, columns and Pietalte times the scorings left, plus material."""
    left = scorings_left(state)
    epochs_left = max(EPOCHS - state.epoch, 0)
    columns = len(seat.columns_on_board)
    material = (
        0.6 * sum(seat.hand)
        + 0.25 * money_of(seat.hand)
        + 1.2 * sum(seat.sacrifice)
        + 0.8 * max(seat.sacrifice)
        + (1.5 + 0.3 * epochs_left) * len(seat.gods)
        + 0.3 * (seat.feet + seat.columns)
        + 0.5 * seat.columns
        + 0.4 * len(seat.feet_on_board)
        + 0.6 * seat.steps
    )
    lasting = (
        sum(seat.half_gods)
        + column_points(columns)
        + _next_tier_bonus(columns)
        + count_gods(seat, "pietalte") * max(seat.sacrifice)
    ) * left
    return seat.score + lasting + material * (0.4 + 0.1 * epochs_left)


def evaluate(state: State, seat: int) -> float:
    """The seat's value minus the best other seat's; a won or lost game is worth +-WIN."""
    if state.finished:
        if seat in state.winners:
            return WIN / len(state.winners)
        return -WIN
    values = [seat_value(state, s) for s in state.seats]
    mine = values.pop(seat)
    return mine - max(values)
