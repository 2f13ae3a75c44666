"""Views: what everybody may see (public), what one seat may see (seat view), a finished game's
outcome, and events redacted for a viewer. Hands, half-god values and undrawn items never leak.
The views are typed (the API sends them as they are: they are its schema)."""

from __future__ import annotations

from typing import Annotated

import msgspec
from msgspec import Meta, Struct

from domain.contract import UNSET, Maybe

from . import events as ev
from .rules import board_of, coords_of
from .state import State
from .vocabulary import CARDS, EMPTY_SLOT, SACRIFICES, Piece

HexList = Annotated[list[int], Meta(min_length=2, max_length=2, description="An axial hex [q, r].")]
Counts = dict[str, int]


class PantheonAwaiting(Struct, frozen=True, kw_only=True):
    seat: int
    decision: str


class PantheonLoot(Struct, frozen=True, kw_only=True):
    hex: HexList
    tile: str


class PantheonPieceOnBoard(Struct, frozen=True, kw_only=True):
    hex: HexList
    seat: int
    piece: Piece


class PantheonSeatPublic(Struct, frozen=True, kw_only=True):
    """What everybody sees of a seat."""

    seat: int
    score: int
    hand_size: int
    feet: int
    columns: int
    general_feet: int
    general_columns: int
    sacrifice: Counts  # level by sacrifice kind (kinds at level 0 left out)
    gods: list[str]
    half_gods: int
    steps: int
    tiles: list[str]
    bonus: str | None
    bonus_used: bool
    columns_on_board: int


class PantheonYou(Struct, frozen=True, kw_only=True):
    """The caller's own seat: its hand (cards by name) and half-god values."""

    seat: int
    hand: Counts
    half_gods: list[int]


class PantheonView(Struct, frozen=True, kw_only=True):
    """The board as a spectator sees it; with a seat token also `you`. `half_god_values` once finished."""

    edition: str
    players: int
    epoch: int
    nation: str | None
    nations_played: list[str]
    starting_seat: int
    temple: HexList | None
    display: list[str | None]
    draw_pile: int
    discard: Counts
    special_money: list[int]
    gods_board: list[str]
    gods_stack: int
    gods_box: int
    gallia_tile: str | None
    half_god_display: list[int]
    half_god_stack: int
    loot: list[PantheonLoot]
    loot_bag: int
    bonus_pool: list[str]
    pieces: list[PantheonPieceOnBoard]
    seats: list[PantheonSeatPublic]
    awaiting: PantheonAwaiting | None
    finished: bool
    winners: list[int]
    half_god_values: Maybe[list[list[int]]] = UNSET
    you: Maybe[PantheonYou] = UNSET


class PantheonOutcome(Struct, frozen=True, kw_only=True):
    """A finished game: the winners (seats), each seat's score and number of half gods."""

    winners: list[int]
    scores: list[int]
    half_gods: list[int]


def _counts(counts: list[int]) -> dict[str, int]:
    return {card: n for card, n in zip(CARDS, counts) if n}


def _seat_public(state: State, i: int) -> PantheonSeatPublic:
    seat = state.seats[i]
    return PantheonSeatPublic(
        seat=i,
        score=seat.score,
        hand_size=sum(seat.hand),
        feet=seat.feet,
        columns=seat.columns,
        general_feet=seat.general_feet,
        general_columns=seat.general_columns,
        sacrifice={k: lv for k, lv in zip(SACRIFICES, seat.sacrifice) if lv},
        gods=list(seat.gods),
        half_gods=len(seat.half_gods),
        steps=seat.steps,
        tiles=list(seat.tiles),
        bonus=seat.bonus or None,
        bonus_used=seat.bonus_used,
        columns_on_board=len(seat.columns_on_board),
    )


def _pieces(state: State) -> list[PantheonPieceOnBoard]:
    board = board_of(state)
    return [
        PantheonPieceOnBoard(hex=list(coords_of(board, index)), seat=code >> 1, piece="column" if code & 1 else "foot")
        for index in sorted(state.occupants)
        for code in state.occupants[index]
    ]


def awaiting(state: State) -> PantheonAwaiting | None:
    if state.finished or not state.agenda:
        return None
    task = state.agenda[0]
    return PantheonAwaiting(seat=task.seat, decision=task.kind)


def _view(state: State, you: Maybe[PantheonYou] = UNSET) -> PantheonView:
    board = board_of(state)
    return PantheonView(
        edition=state.options.edition,
        players=state.players,
        epoch=state.epoch,
        nation=state.nation or None,
        nations_played=list(state.nations_played),
        starting_seat=state.starting_seat,
        temple=list(coords_of(board, state.temple)) if state.temple >= 0 else None,
        display=[None if c == EMPTY_SLOT else CARDS[c] for c in state.display],
        draw_pile=sum(state.draw_pile),
        discard=_counts(state.discard),
        special_money=list(state.special_money),
        gods_board=list(state.gods_board),
        gods_stack=len(state.gods_stack),
        gods_box=len(state.gods_box),
        gallia_tile=state.gallia_tile or None,
        half_god_display=sorted(state.half_god_display, reverse=True),
        half_god_stack=len(state.half_gods_low) + len(state.half_gods_high),
        loot=[PantheonLoot(hex=list(coords_of(board, i)), tile=t) for i, t in sorted(state.loot_board.items())],
        loot_bag=sum(state.loot_bag.values()),
        bonus_pool=list(state.bonus_pool) if state.options.bonus_tiles == "draft" else [],
        pieces=_pieces(state),
        seats=[_seat_public(state, i) for i in range(state.players)],
        awaiting=awaiting(state),
        finished=state.finished,
        winners=list(state.winners),
        half_god_values=[sorted(seat.half_gods) for seat in state.seats] if state.finished else UNSET,
        you=you,
    )


def public_view(state: State) -> PantheonView:
    """Everything every spectator may see."""
    return _view(state)


def seat_view(state: State, seat: int) -> PantheonView:
    """The public view plus this seat's own hand and half-god values."""
    me = state.seats[seat]
    return _view(state, PantheonYou(seat=seat, hand=_counts(me.hand), half_gods=sorted(me.half_gods)))


def outcome(state: State | None) -> PantheonOutcome | None:
    """The winners, every seat's score and number of half gods, once the game is over."""
    if state is None or not state.finished:
        return None
    return PantheonOutcome(
        winners=list(state.winners),
        scores=[seat.score for seat in state.seats],
        half_gods=[len(seat.half_gods) for seat in state.seats],
    )


def redact(event: ev.Event, viewer: int | None) -> ev.Event:
    """The event as `viewer` (a seat, or None for a spectator) may see it."""
    if isinstance(event, ev.CardsDrawn) and event.seat != viewer:
        return msgspec.structs.replace(event, cards=[])
    if isinstance(event, ev.HalfGodTaken) and event.source == "stack" and event.seat != viewer:
        return msgspec.structs.replace(event, value=0)
    if isinstance(event, ev.HandsReshuffled):
        hands = [h if i == viewer else [] for i, h in enumerate(event.hands)]
        return msgspec.structs.replace(event, hands=hands)
    return event
