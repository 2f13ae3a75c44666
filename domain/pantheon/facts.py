"""What everybody saw of the hidden things, kept in the state so that a seat's knowledge holds it:
the cards' way through the hands (the card trace) and how each half god was taken.

The card trace runs from the last time every card lay in the draw pile (the game's start, or the
hands reshuffled, rules §9): each new draw pile (its cards are public: the whole deck, then each
reshuffled discard), each draw (its cards private to the drawing seat), each card taken into a
hand from the display or the special money, each card played from a hand, each display refill.
A determinization replays it (bots/deal.py), so every hand it deals could have been drawn.

A seat's half gods are noted as everybody saw them taken: the value if from the display, else
which group of the stack it was drawn from (the 1-3 group is drawn first, §9); and each scoring
publishes the sum of the half gods held then (§8)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

if TYPE_CHECKING:
    from .state import State

PILE, DRAW, TAKE, PLAY, REFILL = range(5)  # the kinds of card steps
UNSEEN = -1  # a card drawn by another seat, in a knowledge's trace
LOW, HIGH = 0, -1  # a half god drawn unseen from the 1-3 group, from the 4-6 group


class CardStep(msgspec.Struct, frozen=True, kw_only=True, array_like=True):
    """One step of the card trace. `cards`: for PILE the new draw pile's counts per
    vocabulary.CARDS, else card indices (UNSEEN where the viewer did not see the card)."""

    kind: int
    seat: int = -1
    cards: list[int]


def note_cards(state: State, kind: int, seat: int, cards: list[int]) -> None:
    """Append a step to the card trace (a state decoded from before the trace began has none:
    it starts at the next hands reshuffle)."""
    if state.card_trace:
        state.card_trace.append(CardStep(kind=kind, seat=seat, cards=cards))


def new_pile(state: State) -> None:
    """Every card not in the display is in the draw pile again: the trace starts afresh."""
    state.card_trace = [CardStep(kind=PILE, cards=state.draw_pile[:])]


def half_god_seen(state: State, source: str, value: int) -> int:
    """How everybody sees a half god taken (before it is taken): its value from the display,
    else the stack group it comes from."""
    if source == "display":
        return value
    return LOW if state.half_gods_low else HIGH
