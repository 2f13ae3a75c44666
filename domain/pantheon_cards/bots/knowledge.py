"""What a seat knows (rules §22), as a state a bot may play on: every other seat's hand emptied
and counted, the cards Creation removed from other hands emptied and counted, a sealed enemy war
commitment forgotten, and all those cards pooled with the unseen ones. `determinize` deals a full
state consistent with that knowledge with the bot's (or the fork's) own chance. Bots never get
more than this: hidden cards are never read.

The state keeps the hand trace (facts.py): the cards other seats were dealt or drew unseen are
blanked in it, and so are the hands spied and the cards taken by spies the seat was not party to.
`determinize` replays it, so what it deals agrees with everything the seat saw: the cards taken
from the piles in view, each announced worshiper count, no god drawn unseen from the deck, what
it spied (a state from before the trace was kept is dealt within the counts alone)."""

from __future__ import annotations

import hashlib

import msgspec

from domain.forks import Shuffles

from ..facts import DEALT, DRAWN, FROM_DECK, MOVED, SPIED, UNSEEN, HandStep
from ..legal import commit_options
from ..rules import comps
from ..state import State, clone
from .deal import Unsolved, deal_hands

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
    known.hand_trace = [_as_seen(step, seat) for step in known.hand_trace]
    return PantheonCardsKnowledge(
        seat=seat, state=known, hand_sizes=hand_sizes, removed_hand_sizes=removed_sizes, sealed=sealed
    )


def _as_seen(step: HandStep, seat: int | None) -> HandStep:
    """The step as `seat` saw it: another seat's unseen draws, and a spy's look and take it was
    not party to, blanked."""
    drawn_by_another = step.kind in (DEALT, DRAWN, FROM_DECK) and step.seat != seat
    spied_by_others = step.kind in (SPIED, MOVED) and seat not in (step.seat, step.target)
    if drawn_by_another or spied_by_others:
        return msgspec.structs.replace(step, cards=[UNSEEN] * len(step.cards))
    return step


def determinize(knowledge: PantheonCardsKnowledge, rnd: Shuffles) -> State:
    """A full state consistent with the knowledge and the facts it holds: the hidden hands (and
    those Creation removed) dealt from the pool as the hand trace allows, a sealed commitment
    guessed; the rest of the pool stays unseen."""
    state = clone(knowledge.state)
    try:
        _deal_by_trace(state, rnd)
    except Unsolved:
        _deal_by_counts(state, knowledge, rnd)
    war = state.war
    if knowledge.sealed and war is not None:
        options = commit_options(state, war.attacker)
        rnd.shuffle(options)
        war.committed[0] = sorted(options[: 1 + len(options) // 2])
    return state


def _deal_by_trace(state: State, rnd: Shuffles) -> None:
    if not state.hand_trace:
        raise Unsolved
    kinds = {card_id: c.type for card_id, c in comps(state).cards.items()}
    hands, removed, unseen, trace = deal_hands(state.players, state.hand_trace, state.unseen, kinds, rnd)
    state.hands, state.removed_hands, state.unseen, state.hand_trace = hands, removed, unseen, trace
    state.removed_count = len(unseen) - state.deck


def _deal_by_counts(state: State, knowledge: PantheonCardsKnowledge, rnd: Shuffles) -> None:
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


def view_hash(knowledge: PantheonCardsKnowledge) -> str:
    """A stable hash of a seat's knowledge (recorded with every AI command)."""
    return hashlib.sha256(_ENCODER.encode(knowledge)).hexdigest()
