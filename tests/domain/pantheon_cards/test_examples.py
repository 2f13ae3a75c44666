"""The six worked examples of rules §25, each as the engine plays it, draws scripted as the
example records them."""

import pytest

from domain.pantheon_cards import commands as cmd
from domain.pantheon_cards import events as ev
from domain.pantheon_cards.rules import column_value, multiplier, power_in_effect, scores, war_multiplier
from domain.pantheon_cards.state import BATTLE

from .scenario import A, B, C, D, Ts, Tw, W, col, column, die, given, god, of, run, unseen_index

# -- Example 1: attracting a god (§8) ------------------------------------------------------------


def _example1(a1=True, b2=True, d3=True, a1_stone=False, b1_god="isis", extra_b=False):
    cols = [
        col(B, 1, W(10, 1), temple=Tw(2), god=god(b1_god)),
        col(C, 1, W(1000, 1), W(1000, 2)),
    ]
    if a1:
        cols.append(col(A, 1, W(500, 1), W(100, 1), temple=Ts(3) if a1_stone else Tw(1)))
    if b2:
        cols.append(col(B, 2, W(500, 2), W(50, 1), W(50, 2), temple=Ts(1), damaged=True))
    if extra_b:
        cols.append(col(B, 3, W(500, 3), W(100, 2), temple=Ts(4)))
    if d3:
        cols.append(col(D, 3, temple=Ts(2)))
    return given(*cols, active=C, decision="draw_card", stage="draw", general=[W(10, 5)])


def _draw_poseidon(state, *draws):
    return run(state, cmd.DrawCard(seat=C, source="deck"), unseen_index(state, god("poseidon")), *draws)


def test_example_1_value_first_then_stone_a_damaged_stone_counts_as_stone():
    state, events = _draw_poseidon(_example1())
    assert of(events, ev.GodRevealed)[0].card == god("poseidon")
    assert column(state, "1:2").god == god("poseidon") and not of(events, ev.ChallengeRolled)
    assert state.hands[C] == []  # C's hand does not grow


def test_example_1a_freyrs_home_doubles_b2_which_wins_on_value():
    state = _example1(b1_god="freyr", a1_stone=True)
    assert multiplier(state, B) == 2 and column_value(state, column(state, "1:2")) == 1200
    state, events = _draw_poseidon(state)
    assert column(state, "1:2").god == god("poseidon") and not of(events, ev.ChallengeRolled)


def test_example_1b_equal_value_and_kind_a_and_b_challenge_and_reroll():
    state, events = _draw_poseidon(_example1(a1_stone=True), *die(4, 4, 2, 5))
    [challenge] = of(events, ev.ChallengeRolled)
    assert challenge.reason == "attraction" and challenge.winner == B
    assert [[r.roll for r in rnd] for rnd in challenge.rounds] == [[4, 4], [2, 5]]
    assert column(state, "1:2").god == god("poseidon")


def test_example_1c_two_kept_columns_of_one_seat_it_chooses():
    state, events = _draw_poseidon(_example1(a1=False, extra_b=True))
    assert state.decision == "choose_god_column" and state.awaiting == B
    assert of(events, ev.GodColumnsKept)[0].columns == ["1:2", "1:3"]
    state, _ = run(state, cmd.ChooseGodColumn(seat=B, column="1:3"))
    assert column(state, "1:3").god == god("poseidon")
    assert state.decision == "special_power" and state.awaiting == C  # C's empty hand: no play (R9)


def test_example_1d_and_1e_tier_2_before_tier_3_before_value():
    state, _ = _draw_poseidon(_example1(a1=False, b2=False))
    assert column(state, "3:3").god == god("poseidon")  # D3 although C1 holds 2,000
    state, _ = _draw_poseidon(_example1(a1=False, b2=False, d3=False))
    assert column(state, "2:1").god == god("poseidon")


def test_example_1f_no_godless_column_the_god_goes_to_pending_discards():
    state = given(
        col(B, 1, W(10, 1), temple=Tw(2), god=god("isis")),
        active=C,
        decision="draw_card",
        stage="draw",
        general=[W(10, 5)],
    )
    state, _ = _draw_poseidon(state)
    assert god("poseidon") in state.gods or god("poseidon") in state.pending_gods


# -- Example 2: doubling and the Major threshold (§7) ---------------------------------------------


def _example2(general=None, hand=None):
    return given(
        col(A, 1, W(1000, 1), W(500, 2), W(50, 1), temple=Tw(2), god=god("frigg")),
        col(A, 2, W(500, 5), W(500, 6), W(100, 2), temple=Ts(3), god=god("apollo")),
        hands={A: hand or ["civ.golden_age.1"]},
        general=general or [],
    )


def test_example_2_start_home_off_no_sun_fertility_allowed():
    state = _example2()
    a1, a2 = column(state, "0:1"), column(state, "0:2")
    assert multiplier(state, A) == 1 and not power_in_effect(state, a1, "home")
    assert column_value(state, a2) == 1100
    with pytest.raises(Exception) as refused:
        run(state, cmd.EmployPower(seat=A, god=god("apollo"), slot="major", target=B))
    assert refused.value.code == "major_not_allowed"


def test_example_2_path_1_golden_age_multipliers_never_add_up():
    state, _ = run(_example2(), cmd.PlayCivilization(seat=A, card="civ.golden_age.1"))
    assert state.in_effect[A] == ["civ.golden_age.1"]
    a1, a2 = column(state, "0:1"), column(state, "0:2")
    assert power_in_effect(state, a1, "home") and multiplier(state, A) == 2  # not 4
    assert column_value(state, a1) == 3100 and column_value(state, a2) == 2200
    # in a war: Golden Age ×2, Home ×2, Song ×2 -> ×2; Iron Weapons would make it ×3 (max, W7)
    assert war_multiplier(state, A) == 2 and max(war_multiplier(state, A), 3) * 500 == 1500


def test_example_2_path_2_fertility_home_on_by_itself():
    state = _example2(general=[W(1000, 3)])
    state, events = run(state, cmd.EmployPower(seat=A, god=god("frigg"), slot="minor", worshiper=W(500, 2)))
    [swap] = of(events, ev.WorshiperReplaced)
    assert (swap.card, swap.replacement, swap.source) == (W(500, 2), W(1000, 3), "general_discard")
    assert of(events, ev.DiscardPileShuffled)
    a1, a2 = column(state, "0:1"), column(state, "0:2")
    assert a1.worshipers == [W(1000, 1), W(1000, 3), W(50, 1)]
    assert multiplier(state, A) == 2 and column_value(state, a1) == 4100 and column_value(state, a2) == 2200


# -- Example 3: famine against Science and Protection; replacements (§9, §13) ---------------------


def _example3(general=None):
    return given(
        col(A, 1, W(1000, 5), W(1000, 6), temple=Ts(4), god=god("ra")),
        col(B, 1, W(500, 2), W(100, 2), temple=Ts(1), god=god("zeus")),
        col(B, 2, W(10, 2), W(50, 2)),
        col(B, 3, W(1000, 2), temple=Tw(1), god=god("hephaestus")),
        general=general or [W(100, 1), Tw(3), W(10, 1), W(500, 1)],
        hands={B: [W(10, 3)]},
        deck=30,
    )


SUN = cmd.EmployPower(seat=A, god=god("ra"), slot="major", target=B)


def test_example_3_science_then_protection_then_replacements_shuffle_and_order():
    state, events = run(_example3(), SUN, *die(5, 3), *die(2, 6), 1, 0)
    science, protection = of(events, ev.ChallengeRolled)
    assert (science.reason, science.winner, protection.reason, protection.winner) == ("science", A, "protection", B)
    assert of(events, ev.DiscardPileShuffled)[0].order == [Tw(3), W(100, 1)]
    assert column(state, "1:1").worshipers == [W(500, 2), W(100, 2)]  # B1 left alone
    assert column(state, "1:2").worshipers == [W(10, 1)]
    assert column(state, "1:3").worshipers == [W(500, 1)]
    assert state.pending_general == [W(10, 2), W(50, 2), W(1000, 2)]
    assert state.deck == 30 and state.pending_gods == []
    assert state.decision == "order_discards" and state.awaiting == A
    state, _ = run(state, cmd.OrderDiscards(seat=A, general=[W(1000, 2), W(50, 2), W(10, 2)]))
    assert state.general == [Tw(3), W(100, 1), W(1000, 2), W(50, 2), W(10, 2)]
    assert state.active == B and state.decision == "draw_card"  # B will see W10.2 on top


def test_example_3_variation_b_wins_science_nothing_happens_and_no_protection_challenge():
    state, events = run(_example3(), SUN, *die(3, 5))
    assert [c.reason for c in of(events, ev.ChallengeRolled)] == ["science"]
    assert not of(events, ev.WorshiperReplaced) and not of(events, ev.CardDiscarded)


def test_example_3_variation_no_500_in_the_pile_comes_from_the_unseen_cards():
    base = _example3(general=[W(100, 1), Tw(3), W(10, 1)])
    state, events = run(base, SUN, *die(5, 3), *die(2, 6), unseen_index(base, W(500, 7), level=500), 0, 0)
    replaced = {e.card: (e.replacement, e.source) for e in of(events, ev.WorshiperReplaced)}
    assert replaced[W(1000, 2)] == (W(500, 7), "unseen") and state.deck == 29


# -- Example 4: a war, every reveal given (§16) ----------------------------------------------------


def _example4():
    return given(
        col(A, 1, W(500, 7), W(100, 4), W(50, 5), temple=Ts(4), god=god("apollo")),
        col(A, 2, W(1000, 5), temple=Tw(4)),
        col(D, 1, W(500, 3), W(500, 4), temple=Tw(5), god=god("odin")),
        col(D, 2, W(100, 5), W(10, 3), god=god("loki")),
        hands={A: ["civ.holy_war.1"], D: ["civ.bronze_weapons.1"]},
    )


def _example4_to_battle():
    state, events = run(_example4(), cmd.PlayCivilization(seat=A, card="civ.holy_war.1", target=D), *die(6, 1))
    assert "civ.holy_war.1" in state.removed
    assert of(events, ev.ChallengeRolled)[0].reason == "wisdom"
    assert of(events, ev.WarDeclared)[0].multipliers == [2, 1]  # W3: Song for A, none for D
    state, events = run(state, cmd.CommitWarColumns(seat=A, columns=["0:1"]))
    assert state.decision == "commit_war_columns" and state.awaiting == D
    state, events = run(state, cmd.CommitWarColumns(seat=D, columns=["3:1", "3:2"]))
    [formed] = of(events, ev.WarDecksFormed)
    assert formed.columns == [["0:1"], ["3:1", "3:2"]]
    assert column(state, "3:2").god == god("loki") and column(state, "3:2").worshipers == []  # exempt (R33)
    state, _ = run(state, cmd.PlayBattleCard(seat=D, card="civ.bronze_weapons.1"))
    assert "civ.bronze_weapons.1" in state.removed and state.decision == "battle_card" and state.awaiting == A
    # decks by id: A [W100.4, W50.5, W500.7], D [W10.3, W100.5, W500.3, W500.4]
    return run(state, cmd.SkipBattleCard(seat=A), 0, 0, 0, 1, 0, 1, 0, 0)


def test_example_4_the_war_reveal_by_reveal():
    state, events = _example4_to_battle()
    reveals = [(e.cards, e.values) for e in of(events, ev.WarCardsRevealed)]
    assert reveals == [
        ([W(100, 4), W(10, 3)], [200, 20]),
        ([W(50, 5), W(500, 3)], [100, 1000]),
        ([W(500, 7), W(500, 4)], [1000, 1000]),
        ([W(100, 4), W(100, 5)], [200, 200]),
    ]
    assert of(events, ev.WarEnded)[0].victor == D
    assert state.decision == "place_survivors" and state.awaiting == D
    state, _ = run(
        state, cmd.PlaceSurvivors(seat=D, placements=[cmd.Placement(worshiper=W(500, 3), destination="3:2")])
    )
    assert column(state, "3:2").worshipers == [W(500, 3)] and column(state, "3:2").god == god("loki")
    a1 = column(state, "0:1")
    assert a1.god == god("apollo") and a1.temple == Ts(4) and a1.worshipers == []
    assert column(state, "3:1").god == god("odin") and column(state, "3:1").worshipers == []
    assert state.pending_general == [W(10, 3), W(50, 5), W(500, 7), W(500, 4), W(100, 4), W(100, 5)]
    assert state.decision == "order_discards" and state.awaiting == A


def test_example_4_placed_elsewhere_loki_goes_to_the_god_pile():
    state, _ = _example4_to_battle()
    state, _ = run(
        state, cmd.PlaceSurvivors(seat=D, placements=[cmd.Placement(worshiper=W(500, 3), destination="3:1")])
    )
    assert column(state, "3:2") is None and god("loki") in state.pending_gods


# -- Example 5: Mischief (§15) ----------------------------------------------------------------------


def _example5(hand):
    return given(
        col(A, 1, W(100, 6), temple=Tw(6), god=god("loki")),
        col(A, 2, W(10, 4)),
        col(C, 1, W(500, 1), temple=Tw(1)),
        col(D, 1, temple=Ts(1)),
        hands={B: hand},
        deck=12,
    )


MISCHIEF = cmd.EmployPower(seat=A, god=god("loki"), slot="minor", target=B)


def test_example_5_the_victim_must_play_famine_on_another_seat():
    state, events = run(_example5(["civ.famine.1", W(50, 6), Ts(5)]), MISCHIEF, 0)
    assert of(events, ev.MischiefCardTaken)[0].card == "civ.famine.1"
    assert state.decision == "mischief_play" and state.awaiting == B
    with pytest.raises(Exception) as refused:
        run(state, cmd.MischiefPlay(seat=B, target=D))  # D has no worshiper card
    assert refused.value.code == "illegal_parameters"
    pick = unseen_index(state, W(50, 9), level=50)
    state, events = run(state, cmd.MischiefPlay(seat=B, target=A), pick)
    assert column(state, "0:1").worshipers == [W(50, 9)] and column(state, "0:1").god == god("loki")
    assert column(state, "0:2") is None and state.deck == 11
    assert state.pending_general == [W(100, 6), W(10, 4)] and "civ.famine.1" in state.removed


def test_example_5_variations_bronze_is_discarded_tiamat_and_w50_go_to_another_seat():
    state, events = run(_example5(["civ.bronze_weapons.2", W(50, 6)]), MISCHIEF, 0)
    assert of(events, ev.CardDiscarded)[0].card == "civ.bronze_weapons.2"
    assert state.general[-1] == "civ.bronze_weapons.2" and state.active == B  # the turn ended; B's begins
    state, _ = run(_example5([god("tiamat")]), MISCHIEF, 0)
    from domain.pantheon_cards.legal import mischief_plays

    plays = mischief_plays(state, B, god("tiamat"))
    assert {(p.target, p.column) for p in plays} == {(A, "0:2"), (C, "2:1"), (D, "3:1")}  # godless, A2 too
    state, _ = run(_example5([W(50, 6)]), MISCHIEF, 0)
    plays = mischief_plays(state, B, W(50, 6))
    assert {p.target for p in plays} == {A, C, D} and (D, "new") in {(p.target, p.column) for p in plays}


# -- Example 6: end of game, pantheon doubling, Battle of Pantheons (§19) ---------------------------


def _example6():
    cols = [
        col(A, 1, temple=Tw(1), god=god("freyja")),
        col(A, 2, temple=Tw(2), god=god("odin")),
        col(A, 3, temple=Ts(1)),
        col(B, 1, temple=Tw(3), god=god("ra")),
        col(B, 2, temple=Tw(4), god=god("athena")),
        col(B, 3, temple=Tw(5), god=god("tiamat")),
        col(B, 4, temple=Tw(6), god=god("isis")),
        col(C, 1, temple=Tw(7), god=god("inanna")),
        col(D, 1, temple=Tw(8), god=god("thor")),
        col(D, 2, temple=Tw(9), god=god("ptah")),
        col(D, 3, temple=Tw(10), god=god("apollo")),
        col(D, 4, W(10, 3), W(10, 4)),
    ]
    state = given(
        *cols,
        deck=1,
        active=C,
        decision="draw_card",
        stage="draw",
        hands={C: [W(10, 1), "civ.plague.1"]},
        general=[W(100, 1)],
    )
    state, _ = run(state, cmd.DrawCard(seat=C, source="deck"), unseen_index(state, W(10, 2)), tail=False)
    assert state.deck == 0 and state.decision == "play_card"
    state, _ = run(state, cmd.PlayCard(seat=C, card=W(10, 1), column="2:1"), tail=False)
    state, events = run(state, cmd.PlayCivilization(seat=C, card="civ.plague.1", target=D, column="3:4"), tail=False)
    return state, events


def test_example_6_the_game_ends_pantheons_double_and_the_battle_is_won():
    state, events = _example6()
    assert not any(isinstance(e, ev.DecisionAwaited) and e.decision == "order_discards" for e in events)
    assert of(events, ev.DiscardsPlaced)[0].general == [W(10, 3), W(10, 4)]  # two cards, no order asked
    [scored] = of(events, ev.GameScored)
    assert scored.scores == [4, 4, 2, 3] and scored.tied == [A, B] and state.stage == BATTLE
    assert state.decision == "battle_turn" and state.awaiting == A  # after C: D is not tied, then A
    state, events = run(
        state, cmd.EmployPower(seat=A, god=god("freyja"), slot="major", mode="discard", target_god=god("athena"))
    )
    assert scores(state) == [4, 3, 2, 3] and state.finished and state.winners == [A] and not state.draw


def test_example_6_variation_beauty_moves_athena_three_tie_and_three_passes_draw():
    state, _ = _example6()
    move = cmd.EmployPower(seat=A, god=god("freyja"), slot="major", mode="move", target_god=god("athena"), column="0:3")
    state, _ = run(state, move)
    assert scores(state) == [3, 3, 2, 3] and state.tied == [A, B, D]
    for seat in (B, D, A):
        assert state.decision == "battle_turn" and state.awaiting == seat
        state, _ = run(state, cmd.PassBattleTurn(seat=seat))
    assert state.finished and state.draw and state.winners == [A, B, D] and state.end_reason == "no_change"
