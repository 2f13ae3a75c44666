"""evolve: apply one event to the state. It trusts history: no validation, no randomness. It
updates the state in place and returns it (decide works on a copy).

Every event but `decision_awaited` ends the wait for a decision: a command's events end with the
next awaited decision, if any."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from . import events as ev
from .components import load_components
from .facts import (
    ANNOUNCED,
    CLEARED,
    DEALT,
    DRAWN,
    FROM_DECK,
    LEFT,
    MOVED,
    SPIED,
    START,
    TAKEN,
    HandStep,
    hand_step,
    note,
)
from .rules import card, find_column, locate, owner
from .state import BATTLE, DRAW, OVER, Column, State, War


def _column(s: State, column_id: str) -> Column:
    """The column with this id, created (empty) if it is a new one (§6.4)."""
    col = find_column(s, column_id)
    if col is None:
        seat, n = owner(column_id), int(column_id.split(":")[1])
        col = Column(id=column_id)
        s.columns[seat].append(col)
        s.opened[seat] = max(s.opened[seat], n)
    return col


def _take(s: State, card_id: str) -> None:
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


def _out_of_hand(s: State, seat: int, card_id: str) -> None:
    """A card leaves `seat`'s hand, before everybody's eyes."""
    _leave_hand(s, seat, card_id)
    note(s, hand_step(LEFT, seat, card_id))


def _leave_hand(s: State, seat: int, card_id: str) -> None:
    """In a fold of the events as a viewer sees them (redacted, §22) a card that reached the hand
    unseen by the viewer is still among its unseen cards (the deck count already lost it): taken
    from there, so that a viewer's fold keeps the public state."""
    if card_id in s.hands[seat] or card_id not in s.unseen:
        s.hands[seat].remove(card_id)
    else:
        s.unseen.remove(card_id)


def _from_unseen(s: State, card_id: str | None) -> None:
    if card_id is not None:
        s.unseen.remove(card_id)
    s.deck -= 1


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
    _from_unseen(s, e.card)
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
        _from_unseen(s, e.card)
    if e.card is not None:
        s.hands[e.seat].append(e.card)
    kind = {"general_discard": TAKEN, "god_discard": TAKEN, "deck": FROM_DECK}.get(e.source, DRAWN)
    note(s, hand_step(kind, e.seat, e.card))


def _god_revealed(s: State, e: ev.GodRevealed) -> None:
    _from_unseen(s, e.card)
    s.revealed = e.card


def _kept(s: State, e: ev.GodColumnsKept) -> None:
    s.attraction = list(e.columns)


def _placed(s: State, e: ev.CardPlaced) -> None:
    _take(s, e.card)
    col = _column(s, e.column)
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
    _take(s, e.card)
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
    _take(s, e.card)
    (s.pending_gods if card(s, e.card).type == "god" else s.pending_general).append(e.card)


def _replaced(s: State, e: ev.WorshiperReplaced) -> None:
    if e.source == "general_discard":
        s.general.remove(e.replacement)
    else:
        _from_unseen(s, e.replacement)
    found = locate(s, e.card)
    if found is not None:
        col = found[1]
        col.worshipers[col.worshipers.index(e.card)] = e.replacement
    s.pending_general.append(e.card)


def _shuffled(s: State, e: ev.DiscardPileShuffled) -> None:
    s.general = list(e.order)


def _god_moved(s: State, e: ev.GodMoved) -> None:
    _take(s, e.god)
    _column(s, e.column).god = e.god


def _worshiper_moved(s: State, e: ev.WorshiperMoved) -> None:
    _take(s, e.card)
    _column(s, e.column).worshipers.append(e.card)


def _mischief(s: State, e: ev.MischiefCardTaken) -> None:
    _out_of_hand(s, e.victim, e.card)
    s.revealed, s.mischief_victim = e.card, e.victim


def _spied(s: State, e: ev.HandSpied) -> None:
    s.spy, s.spied = e.spy, e.target
    note(s, HandStep(kind=SPIED, seat=e.spy, target=e.target, cards=list(e.hand or [])))


def _spied_taken(s: State, e: ev.SpiedCardTaken) -> None:
    if e.card is not None:
        _leave_hand(s, e.target, e.card)
        s.hands[e.spy].append(e.card)
        note(s, HandStep(kind=MOVED, seat=e.spy, target=e.target, cards=[e.card]))
    s.spy = s.spied = -1


def _war_declared(s: State, e: ev.WarDeclared) -> None:
    s.war = War(
        attacker=e.attacker,
        defender=e.defender,
        stage="undefended" if e.undefended else "commit_attacker",
        frozen=list(e.multipliers),
        card=[1, 1],
        committed=[[], []],
        origins={},
        decks=[[], []],
        survivors=[[], []],
    )


def _committed(s: State, e: ev.WarCommitted) -> None:
    war = s.war
    assert war is not None
    side = 0 if e.seat == war.attacker else 1
    war.committed[side] = list(e.columns or [])
    war.stage = "commit_defender" if side == 0 else "reveal"


def _decks_formed(s: State, e: ev.WarDecksFormed) -> None:
    war = s.war
    assert war is not None
    war.committed = [list(c) for c in e.columns]
    for side in (0, 1):
        for column_id in e.columns[side]:
            col = find_column(s, column_id)
            assert col is not None
            war.origins[column_id] = col.worshipers
            col.worshipers = []
        war.decks[side] = sorted(e.decks[side])
    war.stage = "battle_card_defender"


def _battle_card(s: State, e: ev.BattleCardPlayed) -> None:
    war = s.war
    assert war is not None
    _out_of_hand(s, e.seat, e.card)
    s.removed.append(e.card)
    side = 0 if e.seat == war.attacker else 1
    war.card[side] = card(s, e.card).multiplier or 1
    war.stage = "battle_card_attacker" if side == 1 else "battle"


def _battle_skipped(s: State, e: ev.BattleCardSkipped) -> None:
    war = s.war
    assert war is not None
    war.stage = "battle_card_attacker" if e.seat == war.defender else "battle"


def _revealed(s: State, e: ev.WarCardsRevealed) -> None:
    war = s.war
    assert war is not None
    for side in (0, 1):
        if not war.decks[side]:
            war.decks[side], war.survivors[side] = sorted(war.survivors[side]), []
        war.decks[side].remove(e.cards[side])
    a, d = e.values
    for side, value, other in ((0, a, d), (1, d, a)):
        if value > other:
            war.survivors[side].append(e.cards[side])
        else:
            s.pending_general.append(e.cards[side])


def _war_ended(s: State, e: ev.WarEnded) -> None:
    war = s.war
    assert war is not None
    if e.truce:
        for column_id, cards in war.origins.items():
            col = find_column(s, column_id)
            if col is not None:
                col.worshipers = list(cards)
        s.war = None
    elif e.victor is None:
        s.war = None
    else:
        war.victor, war.stage = e.victor, "place_survivors"


def _survivors(s: State, e: ev.SurvivorsPlaced) -> None:
    war = s.war
    assert war is not None
    side = 0 if e.seat == war.attacker else 1
    new: dict[str, str] = {}
    for p in e.placements:
        if p.destination.startswith("new"):
            if p.destination not in new:
                new[p.destination] = f"{e.seat}:{s.opened[e.seat] + 1}"
                _column(s, new[p.destination])
            target = new[p.destination]
        else:
            target = p.destination
        _column(s, target).worshipers.append(p.worshiper)
        war.decks[side] = [c for c in war.decks[side] if c != p.worshiper]
        war.survivors[side] = [c for c in war.survivors[side] if c != p.worshiper]
    s.war = None


def _column_removed(s: State, e: ev.ColumnRemoved) -> None:
    seat = owner(e.column)
    s.columns[seat] = [c for c in s.columns[seat] if c.id != e.column]


def _discards_placed(s: State, e: ev.DiscardsPlaced) -> None:
    s.general.extend(e.general)
    s.gods.extend(e.gods)
    s.pending_general, s.pending_gods = [], []


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
    ev.WarDeclared: _war_declared,
    ev.WarCommitted: _committed,
    ev.WarDecksFormed: _decks_formed,
    ev.BattleCardPlayed: _battle_card,
    ev.BattleCardSkipped: _battle_skipped,
    ev.WarCardsRevealed: _revealed,
    ev.WarEnded: _war_ended,
    ev.SurvivorsPlaced: _survivors,
    ev.ColumnRemoved: _column_removed,
    ev.DiscardsPlaced: _discards_placed,
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
