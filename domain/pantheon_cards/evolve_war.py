"""evolve for war (§16) and the discards it leaves: declared, committed, decks formed, battle cards,
revealed, ended, survivors placed, columns removed, discards placed."""

from __future__ import annotations

from . import events as ev
from .card_moves import get_column, out_of_hand
from .rules import card, find_column, owner
from .state import State, War


def war_declared(s: State, e: ev.WarDeclared) -> None:
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


def committed(s: State, e: ev.WarCommitted) -> None:
    war = s.war
    assert war is not None
    side = 0 if e.seat == war.attacker else 1
    war.committed[side] = list(e.columns or [])
    war.stage = "commit_defender" if side == 0 else "reveal"


def decks_formed(s: State, e: ev.WarDecksFormed) -> None:
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


def battle_card(s: State, e: ev.BattleCardPlayed) -> None:
    war = s.war
    assert war is not None
    out_of_hand(s, e.seat, e.card)
    s.removed.append(e.card)
    side = 0 if e.seat == war.attacker else 1
    war.card[side] = card(s, e.card).multiplier or 1
    war.stage = "battle_card_attacker" if side == 1 else "battle"


def battle_skipped(s: State, e: ev.BattleCardSkipped) -> None:
    war = s.war
    assert war is not None
    war.stage = "battle_card_attacker" if e.seat == war.defender else "battle"


def revealed(s: State, e: ev.WarCardsRevealed) -> None:
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


def war_ended(s: State, e: ev.WarEnded) -> None:
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


def survivors(s: State, e: ev.SurvivorsPlaced) -> None:
    war = s.war
    assert war is not None
    side = 0 if e.seat == war.attacker else 1
    new: dict[str, str] = {}
    for p in e.placements:
        if p.destination.startswith("new"):
            if p.destination not in new:
                new[p.destination] = f"{e.seat}:{s.opened[e.seat] + 1}"
                get_column(s, new[p.destination])
            target = new[p.destination]
        else:
            target = p.destination
        get_column(s, target).worshipers.append(p.worshiper)
        war.decks[side] = [c for c in war.decks[side] if c != p.worshiper]
        war.survivors[side] = [c for c in war.survivors[side] if c != p.worshiper]
    s.war = None


def column_removed(s: State, e: ev.ColumnRemoved) -> None:
    seat = owner(e.column)
    s.columns[seat] = [c for c in s.columns[seat] if c.id != e.column]


def discards_placed(s: State, e: ev.DiscardsPlaced) -> None:
    s.general.extend(e.general)
    s.gods.extend(e.gods)
    s.pending_general, s.pending_gods = [], []
