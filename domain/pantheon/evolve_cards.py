"""evolve for the cards (part of evolve.py): drawn, taken from the display, refilled, played,
reshuffled; each noted in the card trace (facts.py) as everybody saw it."""

from __future__ import annotations

from . import events as ev
from .facts import DRAW, PILE, PLAY, REFILL, TAKE, new_pile, note_cards
from .state import State
from .vocabulary import CARD_INDEX, EMPTY_SLOT


def add_cards(counts: list[int], cards: list[str], sign: int = 1) -> None:
    for card in cards:
        counts[CARD_INDEX[card]] += sign


def play(state: State, seat: int, cards: list[str]) -> None:
    """Cards from a hand to the discard, before everybody's eyes."""
    add_cards(state.seats[seat].hand, cards, -1)
    add_cards(state.discard, cards)
    note_cards(state, PLAY, seat, [CARD_INDEX[c] for c in cards])


def cards_drawn(state: State, e: ev.CardsDrawn) -> None:
    add_cards(state.draw_pile, e.cards, -1)
    add_cards(state.seats[e.seat].hand, e.cards)
    note_cards(state, DRAW, e.seat, [CARD_INDEX[c] for c in e.cards])


def display_refilled(state: State, e: ev.DisplayRefilled) -> None:
    state.draw_pile[CARD_INDEX[e.card]] -= 1
    state.display[e.slot] = CARD_INDEX[e.card]
    note_cards(state, REFILL, -1, [CARD_INDEX[e.card]])


def card_taken(state: State, e: ev.CardTaken) -> None:
    state.display[e.slot] = EMPTY_SLOT
    state.seats[e.seat].hand[CARD_INDEX[e.card]] += 1
    note_cards(state, TAKE, e.seat, [CARD_INDEX[e.card]])


def discard_reshuffled(state: State, e: ev.DiscardReshuffled) -> None:
    state.draw_pile = [a + b for a, b in zip(state.draw_pile, state.discard)]
    state.discard = [0] * len(CARD_INDEX)
    note_cards(state, PILE, -1, state.draw_pile[:])


def hands_reshuffled(state: State, e: ev.HandsReshuffled) -> None:
    for seat in state.seats:
        state.draw_pile = [a + b for a, b in zip(state.draw_pile, seat.hand)]
        seat.hand = [0] * len(CARD_INDEX)
    new_pile(state)
