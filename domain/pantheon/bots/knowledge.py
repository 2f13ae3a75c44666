"""What one seat knows: the state with every secret pooled, and random states consistent with it."""

from __future__ import annotations

import hashlib

import msgspec

from domain.forks import Shuffles

from ..facts import DRAW, UNSEEN, CardStep
from ..state import SeatState, State, clone
from ..vocabulary import CARDS
from .deal import Unsolved, deal_cards, deal_half_gods


class Knowledge(msgspec.Struct, kw_only=True):
    """A seat's knowledge. `state` is the real state with the secrets blanked (other seats' hands
    and half gods, the draw pile and the half-god stacks emptied, the cards of other seats' draws
    in the card trace UNSEEN; the gods stack sorted, since it is drawn from at random); the counts
    below say how many of each secret there are. The public facts stay (facts.py): the card trace,
    how each half god was taken, the half-god sums each scoring published."""

    seat: int | None  # None: a spectator's knowledge (every hand unseen)
    state: State
    hand_sizes: list[int]  # per seat
    unseen_cards: list[int]  # the draw pile and the other hands together, per vocabulary.CARDS
    half_god_counts: list[int]  # per seat
    unseen_half_gods: list[int]  # sorted values: the other seats' and both stacks'
    low_stack: int  # how many half gods the 1-3 stack holds
    high_stack: int


_ENCODER = msgspec.msgpack.Encoder()


def seat_knowledge(state: State, seat: int | None) -> Knowledge:
    """Only what `seat` may see of `state` (two states differing in secrets alone give equal ones)."""
    s = clone(state)
    unseen = list(s.draw_pile)
    half: list[int] = s.half_gods_low + s.half_gods_high
    for i, other in enumerate(s.seats):
        if i != seat:
            unseen = [a + b for a, b in zip(unseen, other.hand)]
            half += _unseen_half_gods(other)
    knowledge = Knowledge(
        seat=seat,
        state=s,
        hand_sizes=[sum(x.hand) for x in s.seats],
        unseen_cards=unseen,
        half_god_counts=[len(x.half_gods) for x in s.seats],
        unseen_half_gods=sorted(half),
        low_stack=len(s.half_gods_low),
        high_stack=len(s.half_gods_high),
    )
    for i, other in enumerate(s.seats):
        if i != seat:
            other.hand, other.half_gods = [0] * len(CARDS), []
    s.draw_pile, s.half_gods_low, s.half_gods_high = [0] * len(CARDS), [], []
    s.card_trace = [_as_seen(step, seat) for step in s.card_trace]
    s.gods_stack, s.bonus_pool = sorted(s.gods_stack), sorted(s.bonus_pool)
    s.loot_bag = dict(sorted(s.loot_bag.items()))
    return knowledge


def _unseen_half_gods(seat: SeatState) -> list[int]:
    """The seat's half gods taken unseen (all, if taken before the facts were kept)."""
    if len(seat.half_gods_seen) != len(seat.half_gods):
        return seat.half_gods
    return [v for v, seen in zip(seat.half_gods, seat.half_gods_seen) if seen <= 0]


def _shown_half_gods(seat: SeatState, count: int) -> list[int]:
    """The values everybody saw a seat take (none if taken before the facts were kept)."""
    return [v for v in seat.half_gods_seen if v > 0] if len(seat.half_gods_seen) == count else []


def _as_seen(step: CardStep, seat: int | None) -> CardStep:
    if step.kind != DRAW or step.seat == seat:
        return step
    return CardStep(kind=DRAW, seat=step.seat, cards=[UNSEEN] * len(step.cards))


def view_hash(knowledge: Knowledge) -> str:
    """The SHA-256 of the knowledge's canonical msgpack (for decision provenance)."""
    canonical = msgspec.to_builtins(knowledge, str_keys=True, order="sorted")  # sets and dicts sorted
    return hashlib.sha256(_ENCODER.encode(canonical)).hexdigest()


def _deal(pool: list[int], sizes: list[int]) -> tuple[list[list[int]], list[int]]:
    """Split a shuffled pool into hands of these sizes; the hands and what is left."""
    hands, at = [], 0
    for n in sizes:
        hands.append(pool[at : at + n])
        at += n
    return hands, pool[at:]


def _counts(cards: list[int]) -> list[int]:
    counts = [0] * len(CARDS)
    for c in cards:
        counts[c] += 1
    return counts


def determinize(knowledge: Knowledge, rnd: Shuffles) -> State:
    """A full state consistent with the knowledge and every public fact it holds: the unseen
    cards dealt into the other hands and the draw pile as the card trace allows, the unseen half
    gods into the other seats (as each was taken, and making each published sum) and the two
    stacks (1-3 and 4-6), the gods stack shuffled. A state from before the facts were kept (a fork
    recorded earlier) is dealt at random within the counts alone."""
    s = clone(knowledge.state)
    me = knowledge.seat
    others = [i for i in range(len(s.seats)) if i != me]
    legacy = not s.card_trace  # recorded before the facts were kept: dealt (and drawn) as then
    try:
        _deal_cards(s, knowledge, rnd)
    except Unsolved:
        _deal_cards_by_counts(s, knowledge, others, rnd)
    try:
        if legacy:
            raise Unsolved
        _deal_half_gods(s, knowledge, others, rnd)
    except Unsolved:
        _deal_half_gods_by_counts(s, knowledge, others, rnd)
    rnd.shuffle(s.gods_stack)
    return s


def _deal_cards(s: State, knowledge: Knowledge, rnd: Shuffles) -> None:
    if not s.card_trace:
        raise Unsolved
    hands, pile, trace = deal_cards(len(s.seats), s.card_trace, rnd)
    for seat, hand in zip(s.seats, hands):
        seat.hand = hand
    s.draw_pile, s.card_trace = pile, trace


def _deal_half_gods(s: State, knowledge: Knowledge, others: list[int], rnd: Shuffles) -> None:
    if any(len(s.seats[i].half_gods_seen) != knowledge.half_god_counts[i] for i in others):
        raise Unsolved  # taken before the facts were kept
    seen = {i: s.seats[i].half_gods_seen for i in others}
    sums = {i: s.seats[i].half_god_sums for i in others}
    unseen = [v for v in knowledge.unseen_half_gods]
    held, low, high = deal_half_gods(seen, sums, unseen, rnd)
    if (len(low), len(high)) != (knowledge.low_stack, knowledge.high_stack):
        raise Unsolved
    for i, values in held.items():
        s.seats[i].half_gods = values
    s.half_gods_low, s.half_gods_high = low, high


def _deal_cards_by_counts(s: State, knowledge: Knowledge, others: list[int], rnd: Shuffles) -> None:
    cards = [c for c, n in enumerate(knowledge.unseen_cards) for _ in range(n)]
    rnd.shuffle(cards)
    hands, pile = _deal(cards, [knowledge.hand_sizes[i] for i in others])
    for i, hand in zip(others, hands):
        s.seats[i].hand = _counts(hand)
    s.draw_pile = _counts(pile)


def _deal_half_gods_by_counts(s: State, knowledge: Knowledge, others: list[int], rnd: Shuffles) -> None:
    low = [v for v in knowledge.unseen_half_gods if v <= 3]
    high = [v for v in knowledge.unseen_half_gods if v > 3]
    rnd.shuffle(low)
    rnd.shuffle(high)
    s.half_gods_low = sorted(low[: knowledge.low_stack])
    s.half_gods_high = sorted(high[: knowledge.high_stack])
    rest = low[knowledge.low_stack :] + high[knowledge.high_stack :]
    rnd.shuffle(rest)
    shown = {i: _shown_half_gods(s.seats[i], knowledge.half_god_counts[i]) for i in others}
    held, _ = _deal(rest, [knowledge.half_god_counts[i] - len(shown[i]) for i in others])
    for i, values in zip(others, held):
        s.seats[i].half_gods = shown[i] + values
