"""Dealing the cards a seat has not seen so that they agree with every public fact (facts.py):
hands that could have been dealt and drawn, given every card seen leaving them, every worshiper
count announced, no god drawn unseen from the deck (§5.2), and what the viewer spied.

Constructive: the hand trace is replayed with each unseen card a slot; a card seen leaving a hand
it was not known to be in is bound to one of that hand's slots that may hold it (a god only to a
slot dealt or drawn as any card; within an announced hand, a worshiper only while that hand's
count leaves room for one); at the end the unseen cards are dealt to the slots left, each
announced hand getting just the worshipers its count still asks for."""

from __future__ import annotations

from typing import TypeGuard

from domain.forks import Shuffles

from ..facts import ANNOUNCED, CLEARED, DEALT, DRAWN, FROM_DECK, LEFT, MOVED, SPIED, TAKEN, UNSEEN, HandStep
from .plan import GROUP, plan


class Unsolved(Exception):
    """The random choices met a dead end (the caller tries again)."""


class Slot:
    """A card that came into a hand unseen: where the trace holds it, whether it may be a god,
    the announced hand it belongs to."""

    __slots__ = ("at", "card", "god_ok", "group", "since")

    def __init__(self, at: tuple[int, int], god_ok: bool) -> None:
        self.at, self.god_ok, self.group, self.card = at, god_ok, -1, ""
        self.since = at[0]  # in its hand since this step


Item = str | Slot  # a card in a hand: known, or a slot


class _Hands:
    """The hand trace replayed (`kinds`: card id -> type)."""

    def __init__(
        self, players: int, trace: list[HandStep], kinds: dict[str, str], rnd: Shuffles, planned: dict[int, int]
    ) -> None:
        self.kinds, self.rnd = kinds, rnd
        self.loose = bool(planned)  # after a dead end: sometimes any slot
        self.plan = planned
        self.hands: list[list[Item]] = [[] for _ in range(players)]
        self.removed: list[list[Item]] = [[] for _ in range(players)]
        self.quotas: list[list[int]] = []  # per announced hand: worshipers, other cards still to come
        self.trace = trace
        self.filled: dict[int, list[str]] = {}  # the steps whose cards were filled in
        self.shown: list[tuple[int, list[Item]]] = []  # spied hands the viewer did not see: fill later
        self.left: list[list[tuple[Slot, int]]] = [[] for _ in range(players)]  # slots that left each hand, when
        self.now = 0

    def step(self, index: int, step: HandStep) -> None:
        kind, seat = step.kind, step.seat
        self.now = index
        if kind in (DEALT, DRAWN, FROM_DECK):
            card = step.cards[0]
            self.hands[seat].append(card if card != UNSEEN else Slot((index, 0), god_ok=kind != FROM_DECK))
        elif kind == TAKEN:
            self.hands[seat].append(step.cards[0])
        elif kind == LEFT:
            item = self.find(seat, step.cards[0])
            self.hands[seat].remove(item)
            if isinstance(item, Slot):
                self.left[seat].append((item, index))
        elif kind == ANNOUNCED:
            self.announce(step.counts)
        elif kind == SPIED:
            self.spied(index, step)
        elif kind == MOVED:
            self.moved(index, step)
        elif kind == CLEARED:
            for hand, removed in zip(self.hands, self.removed):
                removed += hand
                hand.clear()

    def find(self, seat: int, card: str) -> Item:
        """The item of the hand that is this card: the card itself, or a slot bound to it now."""
        hand = self.hands[seat]
        if card in hand:
            return card
        for item in hand:
            if isinstance(item, Slot) and item.card == card:
                return item
        if any(card in h for h in (*self.hands, *self.removed)):
            raise Unsolved  # known to be elsewhere
        fits = [item for item in hand if isinstance(item, Slot) and not item.card and self.fits(item, card)]
        planned = self.plan.get(self.now)
        if planned is not None:
            fits = [s for s in fits if s.at[0] == planned or planned == GROUP and s.group >= 0] or fits
        if not fits:
            return self.swap(seat, card)
        if planned is None and (not self.loose or self.rnd.randrange(3)):  # the most bound slots first
            best = min((s.group < 0, s.god_ok) for s in fits)
            fits = [s for s in fits if (s.group < 0, s.god_ok) == best]
        slot = fits[self.rnd.randrange(len(fits))]
        self.bind(slot, card)
        return slot

    def swap(self, seat: int, card: str) -> Slot:
        """A slot that left the hand earlier and may be this card, its card played instead from an
        open slot that was in the hand then and may be that card (the hand loses that one now)."""
        for k, (gone, when) in enumerate(self.left[seat]):
            played = gone.card
            self.unbind(gone)
            if self.fits(gone, card):
                self.bind(gone, card)
                for other in self.hands[seat]:
                    if isinstance(other, Slot) and not other.card and other.since < when and self.fits(other, played):
                        self.bind(other, played)
                        self.left[seat][k] = (other, when)
                        self.hands[seat][self.hands[seat].index(other)] = gone  # leaves below, as the card
                        for at, items in self.shown:  # a hand spied since: it held `gone`, not `other`
                            if at > when and other in items:
                                items[items.index(other)] = gone
                        return gone
                self.unbind(gone)
            self.bind(gone, played)
        raise Unsolved

    def fill(self, at: tuple[int, int], card: str) -> None:
        self.filled.setdefault(at[0], list(self.trace[at[0]].cards))[at[1]] = card

    def unbind(self, slot: Slot) -> None:
        if slot.group >= 0:
            self.quotas[slot.group][0 if self.kinds[slot.card] == "worshiper" else 1] += 1
        slot.card = ""

    def fits(self, slot: Slot, card: str) -> bool:
        kind = self.kinds[card]
        if kind == "god" and not slot.god_ok:
            return False
        return slot.group < 0 or self.quotas[slot.group][0 if kind == "worshiper" else 1] > 0

    def bind(self, slot: Slot, card: str) -> None:
        slot.card = card
        self.fill(slot.at, card)
        if slot.group >= 0:
            self.quotas[slot.group][0 if self.kinds[card] == "worshiper" else 1] -= 1

    def announce(self, counts: list[int]) -> None:
        for hand, count in zip(self.hands, counts):
            known = [self.kinds[item if isinstance(item, str) else item.card] for item in hand if not _open(item)]
            slots = [item for item in hand if _open(item)]
            worshipers = count - known.count("worshiper")
            if not 0 <= worshipers <= len(slots):
                raise Unsolved
            for slot in slots:
                slot.group = len(self.quotas)
            self.quotas.append([worshipers, len(slots) - worshipers])

    def spied(self, index: int, step: HandStep) -> None:
        if step.cards and step.cards[0] != UNSEEN or not self.hands[step.target]:
            for card in step.cards:
                self.find(step.target, card)  # the viewer saw the hand: each card is in it
        else:
            self.shown.append((index, list(self.hands[step.target])))

    def moved(self, index: int, step: HandStep) -> None:
        card, hand = step.cards[0], self.hands[step.target]
        if card != UNSEEN:
            item = self.find(step.target, card)
        elif hand:
            item = hand[self.rnd.randrange(len(hand))]
            self.shown.append((index, [item]))
        else:
            raise Unsolved
        hand.remove(item)
        self.hands[step.seat].append(item)
        if isinstance(item, Slot):
            item.since = index


def _open(item: Item) -> TypeGuard[Slot]:
    return isinstance(item, Slot) and not item.card


def _deal_slots(
    slots: list[Slot], pool: list[str], kinds: dict[str, str], quotas: list[list[int]], rnd: Shuffles
) -> list[str]:
    """The pool dealt to the open slots (announced hands first, then the slots that may not hold
    a god); what is left."""
    rnd.shuffle(pool)
    rnd.shuffle(slots)
    by_kind: dict[str, list[str]] = {"worshiper": [], "god": [], "other": []}
    for card in pool:
        by_kind[kinds[card] if kinds[card] in ("worshiper", "god") else "other"].append(card)
    order = sorted(slots, key=lambda slot: (slot.group < 0, slot.god_ok))
    for slot in order:
        if slot.group >= 0:
            wanted = ["worshiper"] if quotas[slot.group][0] > 0 else ["god", "other"] if slot.god_ok else ["other"]
        else:
            wanted = ["worshiper", "god", "other"] if slot.god_ok else ["worshiper", "other"]
        piles = [by_kind[k] for k in wanted if by_kind[k]]
        if not piles:
            raise Unsolved
        sizes = [len(p) for p in piles]
        r = rnd.randrange(sum(sizes))
        k = 0
        while r >= sizes[k]:
            r -= sizes[k]
            k += 1
        card = piles[k].pop()
        slot.card = card
        if slot.group >= 0:
            quotas[slot.group][0 if kinds[card] == "worshiper" else 1] -= 1
    return by_kind["worshiper"] + by_kind["god"] + by_kind["other"]


def deal_hands(
    players: int, trace: list[HandStep], pool: list[str], kinds: dict[str, str], rnd: Shuffles, tries: int = 20
) -> tuple[list[list[str]], list[list[str]], list[str], list[HandStep]]:
    """Every hand, every hand Creation removed, the unseen cards left (from `pool`, the cards the
    viewer has not seen where they are) and the trace filled in."""
    planned: dict[int, int] = {}  # after a first dead end, a matching planned for the whole trace
    for attempt in range(tries):
        if attempt == 1:
            planned = plan(trace, players, kinds, rnd)
        replay = _Hands(players, trace, kinds, rnd, planned)
        try:
            for index, step in enumerate(trace):
                replay.step(index, step)
            return _finish(replay, trace, pool, kinds, rnd)
        except Unsolved:
            continue
    raise Unsolved


def _finish(
    replay: _Hands, trace: list[HandStep], pool: list[str], kinds: dict[str, str], rnd: Shuffles
) -> tuple[list[list[str]], list[list[str]], list[str], list[HandStep]]:
    held = {
        item for hands in (replay.hands, replay.removed) for hand in hands for item in hand if isinstance(item, str)
    }
    bound = {
        item.card
        for hands in (replay.hands, replay.removed)
        for hand in hands
        for item in hand
        if isinstance(item, Slot)
    }
    slots = [item for hands in (replay.hands, replay.removed) for hand in hands for item in hand if _open(item)]
    rest = _deal_slots(slots, [c for c in pool if c not in held and c not in bound], kinds, replay.quotas, rnd)
    if any(q != [0, 0] for q in replay.quotas):
        raise Unsolved
    for slot in slots:
        replay.fill(slot.at, slot.card)
    for index, items in replay.shown:
        replay.filled[index] = sorted(item if isinstance(item, str) else item.card for item in items)

    def cards(hand: list[Item]) -> list[str]:
        return [item if isinstance(item, str) else item.card for item in hand]

    changed = replay.filled
    filled = [
        HandStep(kind=s.kind, seat=s.seat, cards=changed[i], target=s.target, counts=s.counts) if i in changed else s
        for i, s in enumerate(trace)
    ]
    return [cards(h) for h in replay.hands], [cards(h) for h in replay.removed], sorted(rest), filled
