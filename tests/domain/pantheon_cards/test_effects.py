"""Effects the worked examples do not walk through: a Holy War and Spies played through Mischief
(the victim is the card's player, §15.4), a Truce (§14: everything back where it was), Migration's
two moves into new columns, Spies from a one-card hand (automatic, §23.1), Masons, Golden Age via
Mischief (it works for the seat it lies in front of), and Creation's first-seat challenge."""

from domain.pantheon_cards import commands as cmd
from domain.pantheon_cards import events as ev
from domain.pantheon_cards.rules import multiplier

from .scenario import A, B, C, Ts, Tw, W, col, column, die, given, god, of, run

LOKI = cmd.EmployPower(seat=A, god=god("loki"), slot="minor", target=B)


def _loki(hand, *extra, **kw):
    return given(
        col(A, 1, W(100, 1), temple=Tw(1), god=god("loki")), *extra, hands={B: hand, **kw.pop("hands", {})}, **kw
    )


def test_a_holy_war_through_mischief_has_the_victim_attack_and_the_active_seat_orders_the_losses():
    state = _loki(["civ.holy_war.2"], col(B, 1, W(500, 1), temple=Tw(2)), col(C, 1, W(10, 1), temple=Tw(3)))
    state, _ = run(state, LOKI, 0)
    assert state.decision == "mischief_play" and state.awaiting == B
    state, events = run(state, cmd.MischiefPlay(seat=B, target=C))
    [declared] = of(events, ev.WarDeclared)
    assert (declared.attacker, declared.defender) == (B, C)
    assert state.decision == "battle_card" and state.awaiting == C  # both sides' only columns committed at once
    state, _ = run(state, cmd.SkipBattleCard(seat=C))
    state, events = run(state, cmd.SkipBattleCard(seat=B), 0, 0)
    assert of(events, ev.WarEnded)[0].victor == B and state.awaiting == B
    state, _ = run(
        state, cmd.PlaceSurvivors(seat=B, placements=[cmd.Placement(worshiper=W(500, 1), destination="new:1")])
    )
    assert column(state, "1:1").worshipers == [] and column(state, "1:2").worshipers == [W(500, 1)]
    assert W(10, 1) in state.general and state.active == B  # A's turn ended (one card: no order asked)


def test_spies_through_mischief_the_victim_sees_and_takes_and_a_one_card_hand_is_taken_automatically():
    state = _loki(["civ.spies.1"], hands={C: [W(10, 2), god("zeus")]})
    state, _ = run(state, LOKI, 0)
    state, events = run(state, cmd.MischiefPlay(seat=B, target=C))
    spied = of(events, ev.HandSpied)[0]
    assert (spied.spy, spied.target, spied.hand) == (B, C, [god("zeus"), W(10, 2)])
    assert state.decision == "take_spied_card" and state.awaiting == B
    state, _ = run(state, cmd.TakeSpiedCard(seat=B, card=god("zeus")))
    # (A's turn then ended and B's began with a draw from the deck)
    assert god("zeus") in state.hands[B] and state.hands[C] == [W(10, 2)] and "civ.spies.1" in state.removed
    state = given(col(A, 1, W(10, 1), temple=Tw(1)), hands={A: ["civ.spies.1"], C: [W(10, 2)]})
    state, events = run(state, cmd.PlayCivilization(seat=A, card="civ.spies.1", target=C))
    assert of(events, ev.SpiedCardTaken)[0].card == W(10, 2) and W(10, 2) in state.hands[A]


def test_a_truce_ends_the_war_with_every_committed_card_back_in_its_old_order():
    state = given(
        col(A, 1, W(100, 1), W(10, 1), temple=Tw(1)),
        col(B, 1, W(500, 1), W(50, 1), god=god("zeus")),
        hands={A: ["civ.holy_war.1"], B: ["civ.truce.1"]},
    )
    state, _ = run(state, cmd.PlayCivilization(seat=A, card="civ.holy_war.1", target=B))
    assert column(state, "1:1").worshipers == [] and column(state, "1:1").god == god("zeus")
    state, events = run(state, cmd.PlayBattleCard(seat=B, card="civ.truce.1"))
    assert of(events, ev.WarEnded)[0].truce and not of(events, ev.WarCardsRevealed)
    assert column(state, "0:1").worshipers == [W(100, 1), W(10, 1)] and column(state, "1:1").worshipers == [
        W(500, 1),
        W(50, 1),
    ]
    assert column(state, "1:1").god == god("zeus") and state.pending_general == [] and "civ.truce.1" in state.removed


def test_migration_two_moves_each_new_makes_its_own_column_and_emptied_columns_go():
    state = given(col(A, 1, W(100, 1), W(10, 1)), col(A, 2, W(50, 1), temple=Tw(1)), hands={A: ["civ.migration.1"]})
    moves = [cmd.Move(worshiper=W(100, 1), destination="new"), cmd.Move(worshiper=W(10, 1), destination="new")]
    state, _ = run(state, cmd.PlayCivilization(seat=A, card="civ.migration.1", moves=moves))
    assert column(state, "0:1") is None  # emptied, no temple: gone (§17)
    assert column(state, "0:3").worshipers == [W(100, 1)] and column(state, "0:4").worshipers == [W(10, 1)]
    state = given(col(A, 1, W(100, 1), W(10, 1)), col(A, 2, W(50, 1), temple=Tw(1)), hands={A: ["civ.migration.1"]})
    moves = [cmd.Move(worshiper=W(100, 1), destination="new"), cmd.Move(worshiper=W(10, 1), destination="0:3")]
    state, _ = run(state, cmd.PlayCivilization(seat=A, card="civ.migration.1", moves=moves))
    assert column(state, "0:3").worshipers == [W(100, 1), W(10, 1)]  # the second move may join the first's new column


def test_masons_repair_all_and_golden_age_through_mischief_works_for_the_seat_it_lies_before():
    state = given(
        col(A, 1, W(10, 1), temple=Tw(1), damaged=True),
        col(A, 2, W(10, 2), temple=Ts(1), damaged=True),
        hands={A: ["civ.masons.1"]},
    )
    state, events = run(state, cmd.PlayCivilization(seat=A, card="civ.masons.1"))
    assert of(events, ev.TempleRepaired)[0].temples == [Tw(1), Ts(1)] and not any(c.damaged for c in state.columns[A])
    state = _loki(["civ.golden_age.1"], col(C, 1, W(10, 3), temple=Tw(3)))
    state, _ = run(state, LOKI, 0)
    state, _ = run(state, cmd.MischiefPlay(seat=B, target=C))
    assert state.in_effect[C] == ["civ.golden_age.1"] and multiplier(state, C) == 2 and multiplier(state, B) == 1


def test_creation_then_the_first_seat_again_ties_challenge():
    cols = [col(A, 1, W(1000, 1), W(1000, 2), temple=Tw(1), god=god("ptah"))]
    state = given(*cols, deck=40, players=3)
    # deal 15 cards from the left of A (B, C, A, ...): every pick is the first unseen card by id, a
    # civilization card: no worshiper in any hand, a three-way tie for the first seat
    state, events = run(state, cmd.EmployPower(seat=A, god=god("ptah"), slot="major"), *[0] * 15, *die(3, 5, 1))
    assert of(events, ev.WorshipersAnnounced)[0].counts == [0, 0, 0]
    [tie] = of(events, ev.ChallengeRolled)
    assert tie.reason == "first_seat" and tie.winner == B and of(events, ev.TurnStarted)[-1].seat == B


def test_migration_through_mischief_meets_protection_a_won_challenge_keeps_the_column():
    state = _loki(
        ["civ.migration.1"], col(C, 1, W(500, 1), temple=Tw(3), god=god("zeus")), col(C, 2, W(10, 3), temple=Tw(4))
    )
    state, _ = run(state, LOKI, 0)
    moves = [cmd.Move(worshiper=W(500, 1), destination="2:2"), cmd.Move(worshiper=W(10, 3), destination="2:1")]
    state, events = run(state, cmd.MischiefPlay(seat=B, target=C, moves=moves), *die(1, 6))
    assert [c.reason for c in of(events, ev.ChallengeRolled)] == ["protection"]
    assert column(state, "2:1").worshipers == [W(500, 1), W(10, 3)] and column(state, "2:2").worshipers == []
