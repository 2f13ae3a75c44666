"""The invariants of rules §23.3, checked after every event in random playouts."""

from __future__ import annotations

from collections import Counter

from .rules import card, comps
from .state import State


def _zones(s: State) -> list[str]:
    cards = list(s.unseen)
    cards += [c for hand in s.hands for c in hand]
    for cols in s.columns:
        for col in cols:
            cards += [x for x in (col.temple, col.god) if x is not None] + col.worshipers
    if s.war is not None:
        cards += [c for pile in (*s.war.decks, *s.war.survivors) for c in pile]
    cards += s.pending_general + s.pending_gods + s.general + s.gods
    cards += [c for civs in s.in_effect for c in civs] + s.removed + [c for h in s.removed_hands for c in h]
    if s.revealed is not None:
        cards.append(s.revealed)
    return cards


def check_invariants(s: State | None) -> list[str]:
    """Every violated invariant, as sentences (empty when all hold). It may be called after any
    event; the invariants that hold only once the state checks have run are checked at rest."""
    if s is None:
        return []
    problems = []
    # at rest: a command's events are complete (they end with the next decision or the game's
    # end); between them an effect may be half done (state checks run after it, R33)
    at_rest = s.finished or s.decision is not None
    counts = Counter(_zones(s))
    if set(counts) != set(comps(s).cards) or set(counts.values()) != {1}:
        twice = sorted(c for c, n in counts.items() if n > 1)
        missing = sorted(set(comps(s).cards) - set(counts))
        problems.append(f"the 108 cards are not partitioned among the zones (twice: {twice}, missing: {missing})")
    if len(s.unseen) != s.deck + s.removed_count or s.deck < 0:
        problems.append(f"{len(s.unseen)} unseen cards, deck count {s.deck}, {s.removed_count} removed")
    if any(card(s, g).type != "god" for g in s.gods + s.pending_gods):
        problems.append("a card that is not a god is in the god pile")
    if any(card(s, g).type == "god" for g in s.general + s.pending_general):
        problems.append("a god is in the general pile")
    ids = [col.id for cols in s.columns for col in cols]
    if len(ids) != len(set(ids)):
        problems.append("two columns share an id")
    for seat, cols in enumerate(s.columns):
        for col in cols:
            if col.id.split(":")[0] != str(seat):
                problems.append(f"column {col.id} is in front of seat {seat}")
            if col.temple is not None and card(s, col.temple).type != "temple":
                problems.append(f"column {col.id}'s temple is not a temple")
            if col.god is not None and card(s, col.god).type != "god":
                problems.append(f"column {col.id}'s god is not a god")
            if any(card(s, w).type != "worshiper" for w in col.worshipers):
                problems.append(f"column {col.id} holds a card that is not a worshiper as a worshiper")
            if at_rest and s.war is None and col.temple is None and not col.worshipers:
                kept = "its god" if col.god else "nothing"
                problems.append(f"column {col.id} holds {kept} but neither temple nor worshiper outside a war")
    if any(not card(s, c).stays for civs in s.in_effect for c in civs):
        problems.append("a card that does not stay is in effect")
    if s.turn > comps(s).constants["turn_limit"] or s.battle_turns > comps(s).constants["battle_turn_limit"]:
        problems.append("the game ran past its turn limit or the Battle's bound")
    if at_rest and not s.finished and not 0 <= s.awaiting < s.players:
        problems.append("a decision awaits no seat")
    return problems
