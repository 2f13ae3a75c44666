"""What one seat knows: the state with every secret pooled, and random states consistent with it."""

from __future__ import annotations

import hashlib

import msgspec

from domain.forks import Shuffles

from ..state import State, clone
from ..vocabulary import CARDS


class Knowledge(msgspec.Struct, kw_only=True):
    """A seat's knowledge. `state` is the real state with the secrets blanked (other seats' hands
    and half gods, the draw pile and the half-god stacks emptied; the gods stack sorted, since it
    is drawn from at random); the counts below say how many of each secret there are."""

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
            half += other.half_gods
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
    s.gods_stack, s.bonus_pool = sorted(s.gods_stack), sorted(s.bonus_pool)
    s.loot_bag = dict(sorted(s.loot_bag.items()))
    return knowledge


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
    """A full state consistent with the knowledge: the unseen cards dealt at random into the other
    hands (with their sizes) and the draw pile, the unseen half gods into the other seats and the
    two stacks (1-3 and 4-6), the gods stack shuffled."""
    s = clone(knowledge.state)
    me = knowledge.seat
    others = [i for i in range(len(s.seats)) if i != me]
    cards = [c for c, n in enumerate(knowledge.unseen_cards) for _ in range(n)]
    rnd.shuffle(cards)
    hands, pile = _deal(cards, [knowledge.hand_sizes[i] for i in others])
    for i, hand in zip(others, hands):
        s.seats[i].hand = _counts(hand)
    s.draw_pile = _counts(pile)
    low = [v for v in knowledge.unseen_half_gods if v <= 3]
    high = [v for v in knowledge.unseen_half_gods if v > 3]
    rnd.shuffle(low)
    rnd.shuffle(high)
    s.half_gods_low = sorted(low[: knowledge.low_stack])
    s.half_gods_high = sorted(high[: knowledge.high_stack])
    rest = low[knowledge.low_stack :] + high[knowledge.high_stack :]
    rnd.shuffle(rest)
    held, _ = _deal(rest, [knowledge.half_god_counts[i] for i in others])
    for i, values in zip(others, held):
        s.seats[i].half_gods = values
    rnd.shuffle(s.gods_stack)
    return s
