"""What a seat knows (rules §22), as a state a bot may play on: every other seat's hand emptied
and counted, the cards Creation removed from other hands emptied and counted, a sealed enemy war
commitment forgotten, and all those cards pooled with the unseen ones. `determinize` deals a full
state consistent with that knowledge with the bot's (or the fork's) own chance. Bots never get
more than this: hidden cards are never read.

The seat knows some cards in other hands (taken from a pile in view, a spied hand); the knowledge
forgets them (a bot then knows a little less than it could, never more)."""

from __future__ import annotations

import hashlib

import msgspec

from domain.forks import Shuffles

from ..legal import commit_options
from ..state import State, clone

_ENCODER = msgspec.msgpack.Encoder()


class PantheonCardsKnowledge(msgspec.Struct, kw_only=True):
    """A seat's knowledge (None: a spectator's): the state with hidden cards pooled in `unseen`,
    and how many hidden cards each seat holds in hand and lost to Creation."""

    seat: int | None
    state: State
    hand_sizes: list[int]
    removed_hand_sizes: list[int]
    sealed: bool = False  # an enemy war commitment was forgotten


def seat_knowledge(state: State, seat: int | None) -> PantheonCardsKnowledge:
    """What `seat` may know of `state`, as a copy (the original is never shared)."""
    known = clone(state)
    hand_sizes = [0 if s == seat else len(h) for s, h in enumerate(state.hands)]
    removed_sizes = [0 if s == seat else len(h) for s, h in enumerate(state.removed_hands)]
    pool = list(known.unseen)
    for s in range(known.players):
        if s != seat:
            pool += known.hands[s] + known.removed_hands[s]
            known.hands[s], known.removed_hands[s] = [], []
    if state.spy == seat and seat is not None and state.spied >= 0:  # a spy still choosing sees that hand
        known.hands[state.spied] = list(state.hands[state.spied])
        hand_sizes[state.spied] = 0
        pool = [c for c in pool if c not in state.hands[state.spied]]
    sealed = False
    war = known.war
    if war is not None and war.stage == "commit_defender" and seat != war.attacker:
        war.committed[0], sealed = [], True
    known.unseen = sorted(pool)
    known.removed_count = len(pool) - known.deck
    return PantheonCardsKnowledge(
        seat=seat, state=known, hand_sizes=hand_sizes, removed_hand_sizes=removed_sizes, sealed=sealed
    )


def determinize(knowledge: PantheonCardsKnowledge, rnd: Shuffles) -> State:
    """A full state consistent with the knowledge: the hidden hands dealt from the pool at random
    (and a sealed commitment guessed); the rest of the pool stays unseen."""
    state = clone(knowledge.state)
    pool = list(state.unseen)
    rnd.shuffle(pool)
    for s, n in enumerate(knowledge.hand_sizes):
        state.hands[s] += pool[:n]
        del pool[:n]
    for s, n in enumerate(knowledge.removed_hand_sizes):
        state.removed_hands[s] += pool[:n]
        del pool[:n]
    state.unseen = sorted(pool)
    state.removed_count = len(pool) - state.deck
    war = state.war
    if knowledge.sealed and war is not None:
        options = commit_options(state, war.attacker)
        rnd.shuffle(options)
        war.committed[0] = sorted(options[: 1 + len(options) // 2])
    return state


def view_hash(knowledge: PantheonCardsKnowledge) -> str:
    """A stable hash of a seat's knowledge (recorded with every AI command)."""
    return hashlib.sha256(_ENCODER.encode(knowledge)).hexdigest()
