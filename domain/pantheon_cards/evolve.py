"""evolve: apply one event to the state. It trusts history: no validation, no randomness. It
updates the state in place and returns it (decide works on a copy).

Every event but `decision_awaited` ends the wait for a decision: a command's events end with the
next awaited decision, if any."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from . import events as ev
from .card_moves import from_unseen, get_column, leave_hand, out_of_hand, take
from .components import load_components
from .evolve_war import (
    battle_card,
    battle_skipped,
    column_removed,
    committed,
    decks_formed,
    discards_placed,
    revealed,
    survivors,
    war_declared,
    war_ended,
)
from .facts import (
    ANNOUNCED,
    CLEARED,
    DEALT,
    DRAWN,
    FROM_DECK,
    MOVED,
    SPIED,
    START,
    TAKEN,
    HandStep,
    hand_step,
    note,
)
from .rules import card, locate
from .state import BATTLE, DRAW, OVER, State


def _created(_: State | None, e: ev.PantheonCardsGameCreated) -> State:
    comps = load_components(e.options.edition)
    n = e.options.players
    return State(
        options=e.options,
        removed_count=e.removed,
        deck=e.deck,
        unseen=sorted(comps.cards),
        hands=[[] for _ in range(n)],
        columns=[[] for _ in range(n)],
        opened=[0] * n,
        in_effect=[[] for _ in range(n)],
        removed_hands=[[] for _ in range(n)],
        hand_trace=[HandStep(kind=START)],
    )


def _dealt(s: State, e: ev.CardDealt) -> None:
    from_unseen(s, e.card)
    if e.card is not None:
        s.hands[e.seat].append(e.card)
    note(s, hand_step(DEALT, e.seat, e.card))


def _announced(s: State, e: ev.WorshipersAnnounced) -> None:
    s.announced = list(e.counts)
    note(s, HandStep(kind=ANNOUNCED, counts=list(e.counts)))


def _turn_started(s: State, e: ev.TurnStarted) -> None:
    s.turn, s.active, s.stage = e.turn, e.seat, DRAW


def _step(s: State, e: ev.StepBegun) -> None:
    s.stage = e.step


def _drawn(s: State, e: ev.CardDrawn) -> None:
    if e.source == "general_discard":
        s.general.pop()
    elif e.source == "god_discard":
        s.gods.pop()
    else:
        from_unseen(s, e.card)
    if e.card is not None:
        s.hands[e.seat].append(e.card)
    kind = {"general_discard": TAKEN, "god_discard": TAKEN, "deck": FROM_DECK}.get(e.source, DRAWN)
    note(s, hand_step(kind, e.seat, e.card))


def _god_revealed(s: State, e: ev.GodRevealed) -> None:
    from_unseen(s, e.card)
    s.revealed = e.card


def _kept(s: State, e: ev.GodColumnsKept) -> None:
    s.attraction = list(e.columns)


def _placed(s: State, e: ev.CardPlaced) -> None:
    take(s, e.card)
    col = get_column(s, e.column)
    c = card(s, e.card)
    if c.type == "worshiper":
        col.worshipers.append(e.card)
    elif c.type == "temple":
        if col.temple is not None:
            s.pending_general.append(col.temple)
        col.temple, col.damaged = e.card, False
    else:
        col.god = e.card
    s.attraction = []


def _civ(s: State, e: ev.CivilizationPlayed) -> None:
    take(s, e.card)
    if card(s, e.card).stays:
        s.in_effect[e.beneficiary].append(e.card)
    else:
        s.removed.append(e.card)


def _repaired(s: State, e: ev.TempleRepaired) -> None:
    for temple in e.temples:
        found = locate(s, temple)
        if found is not None:
            found[1].damaged = False


def _damaged(s: State, e: ev.TempleDamaged) -> None:
    found = locate(s, e.temple)
    if found is not None:
        found[1].damaged = True


def _discarded(s: State, e: ev.CardDiscarded) -> None:
    take(s, e.card)
    (s.pending_gods if card(s, e.card).type == "god" else s.pending_general).append(e.card)


def _replaced(s: State, e: ev.WorshiperReplaced) -> None:
    if e.source == "general_discard":
        s.general.remove(e.replacement)
    else:
        from_unseen(s, e.replacement)
    found = locate(s, e.card)
    if found is not None:
        col = found[1]
        col.worshipers[col.worshipers.index(e.card)] = e.replacement
    s.pending_general.append(e.card)


def _shuffled(s: State, e: ev.DiscardPileShuffled) -> None:
    s.general = list(e.order)


def _god_moved(s: State, e: ev.GodMoved) -> None:
    take(s, e.god)
    get_column(s, e.column).god = e.god


def _worshiper_moved(s: State, e: ev.WorshiperMoved) -> None:
    take(s, e.card)
    get_column(s, e.column).worshipers.append(e.card)


def _mischief(s: State, e: ev.MischiefCardTaken) -> None:
    out_of_hand(s, e.victim, e.card)
    s.revealed, s.mischief_victim = e.card, e.victim


def _spied(s: State, e: ev.HandSpied) -> None:
    s.spy, s.spied = e.spy, e.target
    note(s, HandStep(kind=SPIED, seat=e.spy, target=e.target, cards=list(e.hand or [])))


def _spied_taken(s: State, e: ev.SpiedCardTaken) -> None:
    if e.card is not None:
        leave_hand(s, e.target, e.card)
        s.hands[e.spy].append(e.card)
        note(s, HandStep(kind=MOVED, seat=e.spy, target=e.target, cards=[e.card]))
    s.spy = s.spied = -1


def _creation(s: State, e: ev.CreationCleared) -> None:
    for cols in s.columns:
        for col in cols:
            s.removed.extend(x for x in (col.temple, col.god) if x is not None)
            s.removed.extend(col.worshipers)
    for civs in s.in_effect:
        s.removed.extend(civs)
    s.removed.extend(s.general + s.gods + s.pending_general + s.pending_gods)
    for seat, hand in enumerate(s.hands):
        s.removed_hands[seat].extend(hand)
    s.hands = [[] for _ in s.hands]
    note(s, HandStep(kind=CLEARED))
    s.columns = [[] for _ in s.columns]
    s.in_effect = [[] for _ in s.in_effect]
    s.general, s.gods, s.pending_general, s.pending_gods = [], [], [], []
    s.stage = "creation"


def _battle_turn_started(s: State, e: ev.BattleTurnStarted) -> None:
    s.active = e.seat


def _scored(s: State, e: ev.GameScored) -> None:
    s.scores = list(e.scores)
    if len(e.tied) > 1:
        s.stage, s.tied = BATTLE, list(e.tied)


def _battle_turn(s: State, e: ev.BattleTurnEnded) -> None:
    s.scores = list(e.scores)
    s.battle_turns += 1
    s.quiet_turns = 0 if e.changed else s.quiet_turns + 1
    s.tied = list(e.tied)


def _over(s: State, e: ev.GameOver) -> None:
    s.finished, s.stage, s.winners, s.draw, s.end_reason = True, OVER, list(e.winners), e.draw, e.reason


def _awaited(s: State, e: ev.DecisionAwaited) -> None:
    s.decision, s.awaiting = e.decision, e.seat


def _nothing(s: State, e: Any) -> None:
    pass


_HANDLERS: dict[type, Callable[[State, Any], None]] = {
    ev.CardDealt: _dealt,
    ev.WorshipersAnnounced: _announced,
    ev.ChallengeRolled: _nothing,
    ev.TurnStarted: _turn_started,
    ev.StepBegun: _step,
    ev.CardDrawn: _drawn,
    ev.GodRevealed: _god_revealed,
    ev.GodColumnsKept: _kept,
    ev.CardPlaced: _placed,
    ev.PlaySkipped: _nothing,
    ev.PowerEmployed: _nothing,
    ev.CivilizationPlayed: _civ,
    ev.TempleRepaired: _repaired,
    ev.TempleDamaged: _damaged,
    ev.CardDiscarded: _discarded,
    ev.WorshiperReplaced: _replaced,
    ev.DiscardPileShuffled: _shuffled,
    ev.GodMoved: _god_moved,
    ev.WorshiperMoved: _worshiper_moved,
    ev.MischiefCardTaken: _mischief,
    ev.HandSpied: _spied,
    ev.SpiedCardTaken: _spied_taken,
    ev.WarDeclared: war_declared,
    ev.WarCommitted: committed,
    ev.WarDecksFormed: decks_formed,
    ev.BattleCardPlayed: battle_card,
    ev.BattleCardSkipped: battle_skipped,
    ev.WarCardsRevealed: revealed,
    ev.WarEnded: war_ended,
    ev.SurvivorsPlaced: survivors,
    ev.ColumnRemoved: column_removed,
    ev.DiscardsPlaced: discards_placed,
    ev.CreationCleared: _creation,
    ev.GameScored: _scored,
    ev.BattleTurnStarted: _battle_turn_started,
    ev.BattleTurnEnded: _battle_turn,
    ev.GameOver: _over,
    ev.DecisionAwaited: _awaited,
}


def evolve(state: State | None, event: ev.Event) -> State:
    """The state after `event` (the same object, updated in place, except for `game_created`)."""
    if isinstance(event, ev.PantheonCardsGameCreated):
        return _created(state, event)
    assert state is not None, "a game starts with game_created"
    if not isinstance(event, ev.DecisionAwaited):
        state.decision, state.awaiting = None, -1
    _HANDLERS[type(event)](state, event)
    return state


def evolve_all(state: State | None, events: Iterable[ev.Event]) -> State:
    for event in events:
        state = evolve(state, event)
    assert state is not None
    return state
