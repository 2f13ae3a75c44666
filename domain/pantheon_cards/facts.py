"""What everybody saw of the hands, kept in the state so that a seat's knowledge holds it (§22):
the hand trace, every card's way into and out of the hands since the deal.

Each card dealt or drawn (its id private to the seat, and a deck draw is never a god: §5.2), each
card taken from a discard pile (public), each card that left a hand (played, discarded, taken by
Mischief or a battle card: public), every worshiper count announced (§4.4, §12.5), every hand a
spy saw and every card it took (the spy's and the target's to see), and Creation's clearing. A
determinization replays it (bots/deal.py), so every hand it deals could have been dealt."""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

if TYPE_CHECKING:
    from .state import State

START, DEALT, DRAWN, FROM_DECK, TAKEN, LEFT, ANNOUNCED, SPIED, MOVED, CLEARED = range(10)  # kinds of hand steps
UNSEEN = ""  # a card the viewer did not see, in a knowledge's trace


class HandStep(msgspec.Struct, frozen=True, kw_only=True, array_like=True):
    """One step of the hand trace. DEALT, DRAWN (extra or Chaos: any card), FROM_DECK (not a god),
    TAKEN (from a discard pile), LEFT: `seat` and its card. ANNOUNCED: `counts`. SPIED: `seat`
    saw `target`'s hand, `cards`. MOVED: `seat` took `cards[0]` from `target`'s hand."""

    kind: int
    seat: int = -1
    cards: list[str] = []
    target: int = -1
    counts: list[int] = []


def note(state: State, step: HandStep) -> None:
    """Append a step (a state decoded from before the trace was kept has none: it keeps none)."""
    if state.hand_trace:
        state.hand_trace.append(step)


def hand_step(kind: int, seat: int, card: str | None) -> HandStep:
    """A step of one card (None: redacted, in a fold of the events as a viewer saw them)."""
    return HandStep(kind=kind, seat=seat, cards=[UNSEEN if card is None else card])
