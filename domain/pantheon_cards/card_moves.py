"""Where a card goes when an event moves it: the primitives evolve.py and evolve_war.py share (no
validation: history is trusted)."""

from __future__ import annotations

from .facts import LEFT, hand_step, note
from .rules import find_column, locate, owner
from .state import Column, State


def get_column(s: State, column_id: str) -> Column:
    """The column with this id, created (empty) if it is a new one (§6.4)."""
    col = find_column(s, column_id)
    if col is None:
        seat, n = owner(column_id), int(column_id.split(":")[1])
        col = Column(id=column_id)
        s.columns[seat].append(col)
        s.opened[seat] = max(s.opened[seat], n)
    return col


def take(s: State, card_id: str) -> None:
    """Remove a card from wherever it is (hand, column, war, revealed, unseen, piles)."""
    if s.revealed == card_id:
        s.revealed, s.mischief_victim = None, -1
        return
    for seat, hand in enumerate(s.hands):
        if card_id in hand:
            hand.remove(card_id)
            note(s, hand_step(LEFT, seat, card_id))
            return
    found = locate(s, card_id)
    if found is not None:
        col = found[1]
        if col.god == card_id:
            col.god = None
        elif col.temple == card_id:
            col.temple, col.damaged = None, False
        else:
            col.worshipers.remove(card_id)
        return
    if s.war is not None:
        for pile in (*s.war.decks, *s.war.survivors):
            if card_id in pile:
                pile.remove(card_id)
                return
    for pile in (s.general, s.gods):
        if card_id in pile:
            pile.remove(card_id)
            return
    if card_id in s.unseen:
        s.unseen.remove(card_id)
        s.deck -= 1


def out_of_hand(s: State, seat: int, card_id: str) -> None:
    """A card leaves `seat`'s hand, before everybody's eyes."""
    leave_hand(s, seat, card_id)
    note(s, hand_step(LEFT, seat, card_id))


def leave_hand(s: State, seat: int, card_id: str) -> None:
    """In a fold of the events as a viewer sees them (redacted, §22) a card that reached the hand
    unseen by the viewer is still among its unseen cards (the deck count already lost it): taken
    from there, so that a viewer's fold keeps the public state."""
    if card_id in s.hands[seat] or card_id not in s.unseen:
        s.hands[seat].remove(card_id)
    else:
        s.unseen.remove(card_id)


def from_unseen(s: State, card_id: str | None) -> None:
    if card_id is not None:
        s.unseen.remove(card_id)
    s.deck -= 1
