"""One test per ruling of rules §24 (R1-R44), each named after its ruling and asserting what the
ruling says. R30 and R40 (what others see) are in test_views.py."""

import pytest

from domain.kernel import DomainError
from domain.pantheon_cards import commands as cmd
from domain.pantheon_cards import events as ev
from domain.pantheon_cards.components import load_components
from domain.pantheon_cards.decide import decide
from domain.pantheon_cards.legal import plays, power_commands
from domain.pantheon_cards.rules import column_value, major_allowed, multiplier, power_in_effect, score, scores
from domain.rng import SeededRng

from .scenario import A, B, C, D, Scripted, Ts, Tw, W, col, column, die, given, god, of, run, unseen_index


def refused(state, command, *draws) -> str:
    with pytest.raises(DomainError) as error:
        decide(state, command, Scripted(*draws))
    assert error.value.message  # a sentence a person can read
    return error.value.code


def test_r1_every_god_has_two_powers_the_first_minor_the_second_major():
    comps = load_components()
    assert all(c.minor and c.major for c in comps.cards.values() if c.type == "god")
    state = given(col(A, 1, W(10, 1), temple=Tw(1), god=god("poseidon")), col(B, 1, W(10, 2), temple=Tw(2)))
    state, events = run(state, cmd.EmployPower(seat=A, god=god("poseidon"), slot="minor", temple=Tw(2)))
    assert of(events, ev.PowerEmployed)[0].power == "earthquakes" and column(state, "1:1").damaged
    fresh = given(col(A, 1, W(10, 1), temple=Tw(1), god=god("poseidon")), col(B, 1, W(10, 2), temple=Tw(2)))
    assert refused(fresh, cmd.EmployPower(seat=A, god=god("poseidon"), slot="major", target=B)) == "major_not_allowed"


def test_r2_alternatives_are_modes_and_fires_effect_follows_the_temple():
    powers = load_components().powers
    assert powers["beauty"].modes == ("move", "discard") and powers["death"].modes == ("downgrade", "attack")
    assert powers["weather"].modes == ("famine", "plenty") and powers["fire"].modes == ()
    base = [
        col(A, 1, W(10, 1), temple=Tw(1), god=god("ra")),
        col(B, 1, W(10, 2), temple=Tw(2)),
        col(B, 2, W(10, 3), temple=Ts(1)),
    ]
    state, _ = run(given(*base), cmd.EmployPower(seat=A, god=god("ra"), slot="minor", temple=Tw(2)))
    assert column(state, "1:1").temple is None  # wooden: discarded (the column lives on by its worshiper)
    state, _ = run(given(*base), cmd.EmployPower(seat=A, god=god("ra"), slot="minor", temple=Ts(1)))
    assert column(state, "1:2").temple == Ts(1) and column(state, "1:2").damaged  # stone: damaged


def test_r3_science_is_constant_never_employed_and_shields_against_famine():
    state = given(
        col(A, 1, W(10, 1), temple=Tw(1), god=god("hephaestus")),
        col(B, 1, W(100, 1), temple=Tw(2)),
        hands={B: ["civ.famine.1"]},
        active=B,
    )
    assert refused(state, cmd.EmployPower(seat=B, god=god("hephaestus"), slot="minor")) == "not_your_god"
    state2 = given(
        col(A, 1, W(10, 1), temple=Tw(1), god=god("hephaestus")),
        col(B, 1, W(100, 1), temple=Tw(2)),
        hands={B: ["civ.famine.1"]},
    )
    assert refused(state2, cmd.EmployPower(seat=A, god=god("hephaestus"), slot="minor")) == "constant_power"
    state, events = run(state, cmd.PlayCivilization(seat=B, card="civ.famine.1", target=A), *die(2, 5))
    assert of(events, ev.ChallengeRolled)[0].reason == "science" and column(state, "0:1").worshipers == [W(10, 1)]


def test_r4_a_constant_major_needs_2000_home_is_valued_without_itself_and_always_on_in_the_battle():
    state = given(col(A, 1, W(1000, 1), temple=Tw(1), god=god("frigg")))
    a1 = column(state, "0:1")
    assert multiplier(state, A) == 1 and column_value(state, a1) == 1000  # not 2,000 by Home itself
    state = given(col(A, 1, W(1000, 1), W(1000, 2), temple=Tw(1), god=god("frigg")))
    assert multiplier(state, A) == 2 and power_in_effect(state, column(state, "0:1"), "home")
    state = given(col(A, 1, W(10, 1), temple=Tw(1), god=god("frigg")), stage="battle", decision="battle_turn")
    assert multiplier(state, A) == 2 and major_allowed(state, column(state, "0:1"))


def test_r5_number_of_worshipers_means_value_with_the_multiplier():
    state = given(
        col(A, 1, W(1000, 1), temple=Tw(1), god=god("apollo")),
        col(B, 1, W(10, 1), temple=Tw(2)),
        in_effect={A: ["civ.golden_age.1"]},
    )
    assert column_value(state, column(state, "0:1")) == 2000 and major_allowed(state, column(state, "0:1"))
    state, events = run(state, cmd.EmployPower(seat=A, god=god("apollo"), slot="major", target=B), 0)
    assert of(events, ev.PowerEmployed)[0].power == "sun"


def test_r6_only_the_highest_multiplier_counts_song_only_in_war_and_war_multipliers_freeze():
    cols = [
        col(A, 1, W(1000, 1), W(1000, 2), temple=Tw(1), god=god("frigg")),  # Home (Major) on
        col(A, 2, W(10, 1), temple=Tw(2), god=god("apollo")),  # Song
        col(B, 1, W(1000, 3), temple=Tw(3)),
    ]
    state = given(*cols, in_effect={A: ["civ.golden_age.1"]}, hands={A: ["civ.holy_war.1"]})
    assert multiplier(state, A) == 2  # Golden Age ×2 and Home ×2 make ×2, not ×4
    state, events = run(state, cmd.PlayCivilization(seat=A, card="civ.holy_war.1", target=B))
    assert of(events, ev.WarDeclared)[0].multipliers == [2, 1]
    state, _ = run(state, cmd.CommitWarColumns(seat=A, columns=["0:1"]))  # Frigg's column empties: Home off
    state, _ = run(state, cmd.SkipBattleCard(seat=B))
    state, events = run(state, cmd.SkipBattleCard(seat=A), 0, 0)
    first = of(events, ev.WarCardsRevealed)[0]
    assert first.values == [2000, 1000]  # the frozen ×2 holds for the whole war


def test_r7_value_first_stone_only_breaks_ties():
    state = given(
        col(A, 1, W(500, 1), temple=Tw(1)),
        col(B, 1, W(100, 1), temple=Ts(1)),
        active=C,
        decision="draw_card",
        stage="draw",
        general=[W(10, 1)],
    )
    state, _ = run(state, cmd.DrawCard(seat=C, source="deck"), unseen_index(state, god("zeus")))
    assert column(state, "0:1").god == god("zeus")


def test_r8_a_temple_alone_makes_a_column_a_god_never_starts_one():
    state = given(hands={A: [Tw(1), god("zeus")]}, decision="play_card", stage="play")
    assert cmd.PlayCard(seat=A, card=god("zeus"), column="new") not in plays(state, A)
    assert refused(state, cmd.PlayCard(seat=A, card=god("zeus"), column="new")) == "illegal_play"
    state, _ = run(state, cmd.PlayCard(seat=A, card=Tw(1), column="new"))
    assert column(state, "0:1").temple == Tw(1) and column(state, "0:1").worshipers == []


def test_r9_step_2_is_compulsory_when_a_play_exists_and_skipped_only_without_one():
    state = given(hands={A: [W(10, 1)]}, decision="play_card", stage="play")
    assert refused(state, cmd.SkipPlay(seat=A)) == "must_play"
    state = given(
        hands={A: ["civ.famine.1"]},
        gods=[god("zeus")],
        general=[W(10, 5)],
        active=A,
        decision="draw_card",
        stage="draw",
    )
    state, events = run(state, cmd.DrawCard(seat=A, source="god_discard"))
    assert of(events, ev.PlaySkipped) and state.decision == "special_power"  # a god and no godless column


def test_r10_step_3_is_one_of_power_card_repair_or_nothing():
    state = given(
        col(A, 1, W(10, 1), temple=Tw(1), damaged=True, god=god("poseidon")),
        col(B, 1, W(10, 2), temple=Tw(2)),
        hands={B: [W(10, 3)]},
    )
    state, _ = run(state, cmd.RepairTemple(seat=A, temple=Tw(1)))
    assert not column(state, "0:1").damaged and state.active == B  # the repair was the whole step 3
    fresh = given(col(A, 1, W(10, 1), temple=Tw(1), god=god("poseidon")))
    assert refused(fresh, cmd.RepairTemple(seat=A, temple=Tw(1))) == "not_damaged"


def test_r11_the_empty_hand_extra_card_comes_before_step_1_gods_too():
    state = given(col(B, 1, W(10, 1), temple=Tw(1)), hands={A: [W(10, 2)]}, general=[W(10, 3)])
    state, events = run(state, cmd.EndTurn(seat=A), unseen_index(state, god("zeus")), tail=False)
    extra = of(events, ev.CardDrawn)[0]
    assert (extra.seat, extra.source, extra.card) == (B, "extra", god("zeus"))
    assert god("zeus") in state.hands[B] and state.decision == "draw_card" and not of(events, ev.GodRevealed)


def test_r12_attraction_only_for_the_step_1_deck_draw_chaos_puts_gods_in_the_hand():
    state = given(col(A, 1, W(10, 1), temple=Tw(1), god=god("tiamat")), hands={B: [W(10, 2)]}, deck=30)
    pool = list(state.unseen)
    picks = [pool.index(god("zeus"))]
    pool.remove(god("zeus"))
    picks += [0, 0, 0, 0]
    state, _ = run(state, cmd.EmployPower(seat=A, god=god("tiamat"), slot="minor", target=B), *picks)
    assert god("zeus") in state.hands[B] and len(state.hands[B]) == 5


def test_r13_a_deck_search_takes_a_random_unseen_card_of_the_level_and_the_deck_count_drops():
    state = given(
        col(A, 1, W(10, 1), temple=Tw(1), god=god("frigg")), deck=5, general=[W(10, 9)], hands={B: [W(10, 8)]}
    )
    state, events = run(state, cmd.EmployPower(seat=A, god=god("frigg"), slot="minor", worshiper=W(10, 1)), 3)
    [swap] = of(events, ev.WorshiperReplaced)
    assert (
        swap.source == "unseen"
        and swap.replacement == sorted(c for c in given(deck=5).unseen if c.startswith("worshiper.50."))[3]
    )
    assert state.deck == 4 and swap.replacement not in state.unseen
    empty = given(col(A, 1, W(10, 1), temple=Tw(1), god=god("frigg")), deck=0)
    state, events = run(empty, cmd.EmployPower(seat=A, god=god("frigg"), slot="minor", worshiper=W(10, 1)))
    assert not of(events, ev.WorshiperReplaced) and column(state, "0:1").worshipers == [W(10, 1)]


def test_r14_the_pile_first_not_pending_cards_all_found_before_any_original_is_discarded():
    state = given(
        col(A, 1, W(10, 1), temple=Tw(1), god=god("zeus")),
        col(B, 1, W(500, 1), W(100, 1), temple=Tw(2)),
        hands={A: ["civ.plague.1"]},
        general=[W(100, 2), W(10, 2), W(100, 3)],
        deck=0,
    )
    state, events = run(state, cmd.PlayCivilization(seat=A, card="civ.plague.1", target=B, column="1:1"), 0)
    swaps = {e.card: e.replacement for e in of(events, ev.WorshiperReplaced)}
    assert swaps == {W(500, 1): W(100, 3)}  # the topmost 100; W100.1 could not replace W500.1 in the same effect
    assert of(events, ev.CardDiscarded)[0].card == W(100, 1)  # no 50 anywhere (deck 0): discarded
    assert of(events, ev.DiscardPileShuffled)[0].order == [W(100, 2), W(10, 2)]


def test_r15_a_1000_upgraded_is_unchanged_a_10_downgraded_is_discarded():
    state = given(col(A, 1, W(1000, 1), W(10, 1), temple=Tw(1), god=god("osiris")))
    state, events = run(state, cmd.EmployPower(seat=A, god=god("osiris"), slot="minor", worshiper=W(1000, 1)))
    assert column(state, "0:1").worshipers == [W(1000, 1), W(10, 1)] and not of(events, ev.WorshiperReplaced)
    state = given(col(A, 1, W(1000, 1), W(1000, 2), temple=Tw(1), god=god("osiris")), col(B, 1, W(10, 1), temple=Tw(2)))
    state, events = run(
        state, cmd.EmployPower(seat=A, god=god("osiris"), slot="major", mode="downgrade", worshiper=W(10, 1))
    )
    assert of(events, ev.CardDiscarded)[0].card == W(10, 1) and column(state, "1:1").worshipers == []


def test_r16_discards_wait_face_up_until_the_end_of_the_turn_and_the_active_seat_orders_them():
    state = given(col(A, 1, W(10, 1), temple=Tw(1), god=god("tiamat")), hands={B: [W(50, 1), Tw(2), god("zeus")]})
    state, events = run(state, cmd.EmployPower(seat=A, god=god("tiamat"), slot="minor", target=B), *[0] * 5)
    assert [e.card for e in of(events, ev.CardDiscarded)] == [W(50, 1), Tw(2), god("zeus")]
    assert state.decision == "order_discards" and state.awaiting == A and state.pending_general == [W(50, 1), Tw(2)]
    assert state.pending_gods == [god("zeus")] and state.general == []  # not drawable before the end of the turn
    assert refused(state, cmd.OrderDiscards(seat=A, general=[W(50, 1)])) == "illegal_order"
    state, _ = run(state, cmd.OrderDiscards(seat=A, general=[Tw(2), W(50, 1)]))
    assert state.general == [Tw(2), W(50, 1)] and state.gods == [god("zeus")]


def test_r17_a_roll_off_only_the_tied_highest_reroll_and_never_against_oneself():
    state = given(
        col(A, 1, W(1000, 1), W(1000, 2), temple=Tw(1), god=god("osiris")),
        col(A, 2, W(10, 1), temple=Tw(2), god=god("zeus")),
    )
    state, events = run(
        state, cmd.EmployPower(seat=A, god=god("osiris"), slot="major", mode="attack", target_god=god("zeus"))
    )
    assert not of(events, ev.ChallengeRolled) and god("zeus") in state.pending_gods + state.gods
    # first seat: three seats tie for fewest worshipers; only the highest rolls again
    from domain.pantheon_cards.flow import Context, challenge

    ctx = Context(given(), Scripted(*die(6, 6, 2), *die(3, 5)))
    assert challenge(ctx, [A, B, C], "first_seat") == B
    assert [[r.seat for r in rnd] for rnd in ctx.events[0].rounds] == [[A, B, C], [A, B]]


def test_r18_targets_another_excludes_the_user_and_named_targets_must_exist():
    state = given(col(A, 1, W(1000, 1), W(1000, 2), temple=Tw(1), god=god("ra")), col(B, 1, temple=Tw(2)))
    targets = {c.target for c in power_commands(state, A) if c.slot == "major"}
    assert targets == set()  # Sun: B has no worshiper card, and never the user itself
    assert refused(state, cmd.EmployPower(seat=A, god=god("ra"), slot="major", target=A)) == "illegal_parameters"


def test_r19_protection_one_challenge_per_column_against_reductions_never_upgrades():
    base = [
        col(A, 1, W(10, 1), temple=Tw(1), god=god("aphrodite")),
        col(B, 1, W(100, 1), temple=Tw(2), god=god("zeus")),
    ]
    state, events = run(
        given(*base), cmd.EmployPower(seat=A, god=god("aphrodite"), slot="minor", worshiper=W(100, 1)), 0
    )
    assert not of(events, ev.ChallengeRolled)  # an upgrade is no reduction
    state = given(
        col(A, 1, W(1000, 1), W(1000, 2), temple=Tw(1), god=god("aphrodite")),
        col(B, 1, W(100, 1), temple=Tw(2), god=god("zeus")),
    )
    state, events = run(
        state, cmd.EmployPower(seat=A, god=god("aphrodite"), slot="major", worshiper=W(100, 1)), *die(6, 1), *die(1, 6)
    )
    assert [c.reason for c in of(events, ev.ChallengeRolled)] == ["love", "protection"]
    assert column(state, "1:1").worshipers == [W(100, 1)]


def test_r20_science_one_challenge_before_protection_a_win_cancels_the_famine():
    cols = [
        col(A, 1, W(10, 1), temple=Tw(1)),
        col(B, 1, W(100, 1), temple=Tw(2), god=god("zeus")),
        col(B, 2, W(50, 1), temple=Tw(3), god=god("enki")),
    ]
    state, events = run(
        given(*cols, hands={A: ["civ.famine.1"]}),
        cmd.PlayCivilization(seat=A, card="civ.famine.1", target=B),
        *die(1, 2),
    )
    assert [c.reason for c in of(events, ev.ChallengeRolled)] == ["science"] and not of(events, ev.WorshiperReplaced)
    state, events = run(
        given(*cols, hands={A: ["civ.famine.1"]}),
        cmd.PlayCivilization(seat=A, card="civ.famine.1", target=B),
        *die(2, 1),
        *die(2, 1),
        0,
        0,
    )
    assert [c.reason for c in of(events, ev.ChallengeRolled)] == ["science", "protection"]


def test_r21_wisdom_the_war_is_off_and_the_card_spent():
    cols = [col(A, 1, W(10, 1), temple=Tw(1)), col(B, 1, W(100, 1), temple=Tw(2), god=god("odin"))]
    state, events = run(
        given(*cols, hands={A: ["civ.holy_war.1"]}),
        cmd.PlayCivilization(seat=A, card="civ.holy_war.1", target=B),
        *die(1, 2),
    )
    assert of(events, ev.ChallengeRolled)[0].reason == "wisdom" and not of(events, ev.WarDeclared)
    assert "civ.holy_war.1" in state.removed


def test_r22_literature_stops_others_damage_not_ones_own_stone_play_nor_creation():
    cols = [col(A, 1, W(10, 1), temple=Tw(1), god=god("poseidon")), col(B, 1, W(10, 2), temple=Tw(2), god=god("ptah"))]
    state = given(*cols)
    assert (
        refused(state, cmd.EmployPower(seat=A, god=god("poseidon"), slot="minor", temple=Tw(2))) == "illegal_parameters"
    )
    state = given(*cols, active=B, hands={B: [Ts(1)]}, decision="play_card", stage="play")
    state, _ = run(state, cmd.PlayCard(seat=B, card=Ts(1), column="1:1"))
    assert column(state, "1:1").temple == Ts(1) and Tw(2) in state.pending_general


def test_r23_mischief_the_victim_plays_on_another_seat_battle_cards_are_discarded_the_user_may_pick_itself():
    state = given(col(A, 1, W(10, 1), temple=Tw(1), god=god("loki")), hands={A: [W(10, 2)], B: ["civ.truce.1"]})
    assert cmd.EmployPower(seat=A, god=god("loki"), slot="minor", target=A) in power_commands(state, A)
    state, events = run(state, cmd.EmployPower(seat=A, god=god("loki"), slot="minor", target=A), 0)
    assert state.decision == "mischief_play" and state.awaiting == A
    assert refused(state, cmd.MischiefPlay(seat=A, target=A, column="new")) == "illegal_target"
    state, _ = run(state, cmd.MischiefPlay(seat=A, target=B, column="new"))
    assert column(state, "1:1").worshipers == [W(10, 2)]
    state = given(col(A, 1, W(10, 1), temple=Tw(1), god=god("loki")), hands={B: ["civ.truce.1"]})
    state, events = run(state, cmd.EmployPower(seat=A, god=god("loki"), slot="minor", target=B), 0)
    assert of(events, ev.CardDiscarded)[0].card == "civ.truce.1"


def test_r24_chaos_any_seat_the_user_too_the_hand_discarded_then_five_drawn():
    state = given(
        col(A, 1, W(10, 1), temple=Tw(1), god=god("tiamat")), hands={A: [W(50, 1), "civ.famine.1"], B: [W(10, 9)]}
    )
    state, events = run(state, cmd.EmployPower(seat=A, god=god("tiamat"), slot="minor", target=A), 0, 0, 0, 0, 0)
    assert {e.card for e in of(events, ev.CardDiscarded)} == {W(50, 1), "civ.famine.1"}
    assert len(state.hands[A]) == 5 and state.deck == 25 and "civ.famine.1" in state.pending_general  # unused (R41)


def test_r25_creation_clears_all_but_the_unseen_redeals_from_the_left_then_the_first_seat_again():
    cols = [col(A, 1, W(1000, 1), W(1000, 2), temple=Tw(1), god=god("ptah")), col(B, 1, W(10, 1), temple=Tw(2))]
    state = given(*cols, hands={A: [W(10, 2)], B: [god("zeus")]}, general=[W(10, 3)], deck=25, players=3)
    unseen_before = len(state.unseen)
    state, events = run(state, cmd.EmployPower(seat=A, god=god("ptah"), slot="major"), *[0] * 15, *die(1, 2))
    dealt = of(events, ev.CardDealt)
    assert [d.seat for d in dealt[:3]] == [B, C, A] and len(dealt) == 15
    # 15 dealt; the new first seat then draws from the deck, its only source (RULINGS H2)
    assert state.columns == [[], [], []] and state.general == [] and state.deck == 9
    assert len(state.unseen) == unseen_before - 16 and god("zeus") in state.removed_hands[B]
    assert of(events, ev.WorshipersAnnounced) and state.decision in ("draw_card", "play_card", "special_power")
    short = given(*cols, deck=20, players=6)
    state, events = run(short, cmd.EmployPower(seat=A, god=god("ptah"), slot="major"), *[0] * 20)
    assert state.deck == 0 and state.finished and state.draw  # all scores 0: a draw among all seats (D1)


def test_r26_beauty_moves_any_god_to_a_godless_column_and_its_owner_changes():
    state = given(
        col(A, 1, W(1000, 1), W(1000, 2), temple=Tw(1), god=god("freyja")),
        col(A, 2, W(10, 2)),
        col(B, 1, W(10, 3), temple=Tw(2), god=god("zeus")),
    )
    state, _ = run(
        state,
        cmd.EmployPower(seat=A, god=god("freyja"), slot="major", mode="move", target_god=god("zeus"), column="0:2"),
    )
    assert column(state, "0:2").god == god("zeus") and column(state, "1:1").god is None and score(state, A) == 2


def test_r27_love_any_card_outside_the_gods_column_ones_own_without_a_challenge():
    cols = [
        col(A, 1, W(10, 1), temple=Tw(1), god=god("freyja")),
        col(A, 2, W(500, 1)),
        col(B, 1, W(100, 1), temple=Tw(2)),
    ]
    state, events = run(given(*cols), cmd.EmployPower(seat=A, god=god("freyja"), slot="minor", worshiper=W(500, 1)))
    assert not of(events, ev.ChallengeRolled) and column(state, "0:1").worshipers == [W(10, 1), W(500, 1)]
    assert (
        refused(given(*cols), cmd.EmployPower(seat=A, god=god("freyja"), slot="minor", worshiper=W(10, 1)))
        == "illegal_parameters"
    )
    state, events = run(
        given(*cols), cmd.EmployPower(seat=A, god=god("freyja"), slot="minor", worshiper=W(100, 1)), *die(5, 2)
    )
    assert of(events, ev.ChallengeRolled)[0].reason == "love" and column(state, "0:1").worshipers[-1] == W(100, 1)


def test_r28_death_any_god_the_users_own_without_a_challenge_others_with_one():
    cols = [
        col(A, 1, W(1000, 1), W(1000, 2), temple=Tw(1), god=god("osiris")),
        col(B, 1, W(10, 1), temple=Tw(2), god=god("zeus")),
    ]
    state, events = run(
        given(*cols),
        cmd.EmployPower(seat=A, god=god("osiris"), slot="major", mode="attack", target_god=god("zeus")),
        *die(2, 3),
    )
    assert of(events, ev.ChallengeRolled)[0].reason == "death" and column(state, "1:1").god == god("zeus")
    state, events = run(
        given(*cols), cmd.EmployPower(seat=A, god=god("osiris"), slot="major", mode="attack", target_god=god("osiris"))
    )
    assert not of(events, ev.ChallengeRolled) and column(state, "0:1").god is None


def test_r29_a_war_needs_an_attacking_worshiper():
    state = given(
        col(A, 1, temple=Tw(1), god=god("sekhmet")), col(B, 1, W(10, 1), temple=Tw(2)), hands={A: ["civ.holy_war.1"]}
    )
    assert not [c for c in power_commands(state, A) if c.slot == "minor"]
    assert refused(state, cmd.PlayCivilization(seat=A, card="civ.holy_war.1", target=B)) == "illegal_parameters"


def _war(a_cols, d_cols, hands=None):
    state = given(*a_cols, *d_cols, hands={A: ["civ.holy_war.1"], **(hands or {})})
    state, _ = run(state, cmd.PlayCivilization(seat=A, card="civ.holy_war.1", target=B))
    return state


def test_r31_fought_to_elimination_survivors_return_both_empty_no_victor():
    state = _war([col(A, 1, W(100, 1), W(10, 1), temple=Tw(1))], [col(B, 1, W(50, 1), temple=Tw(2))])
    state, _ = run(state, cmd.SkipBattleCard(seat=B))
    state, events = run(state, cmd.SkipBattleCard(seat=A), 1, 0)  # A's deck by id: [W10.1, W100.1]
    assert [e.cards for e in of(events, ev.WarCardsRevealed)] == [[W(100, 1), W(50, 1)]]
    assert of(events, ev.WarEnded)[0].victor == A and state.decision == "place_survivors"
    state = _war([col(A, 1, W(100, 1), temple=Tw(1))], [col(B, 1, W(100, 2), temple=Tw(2))])
    state, _ = run(state, cmd.SkipBattleCard(seat=B))
    state, events = run(state, cmd.SkipBattleCard(seat=A), 0, 0)
    assert of(events, ev.WarEnded)[0].victor is None and state.war is None


def test_r32_battle_cards_defender_first_at_most_one_each_none_outside_a_war():
    state = _war(
        [col(A, 1, W(100, 1), temple=Tw(1))],
        [col(B, 1, W(100, 2), temple=Tw(2))],
        hands={A: ["civ.holy_war.1", "civ.iron_weapons.1"], B: ["civ.bronze_weapons.1", "civ.truce.1"]},
    )
    assert state.awaiting == B and state.decision == "battle_card"
    state, _ = run(state, cmd.PlayBattleCard(seat=B, card="civ.bronze_weapons.1"))
    assert state.awaiting == A  # B has had its one card
    state, events = run(state, cmd.PlayBattleCard(seat=A, card="civ.iron_weapons.1"), 0, 0)
    assert of(events, ev.WarCardsRevealed)[0].values == [300, 200]
    fresh = given(hands={A: ["civ.bronze_weapons.2"]})
    assert refused(fresh, cmd.PlayCivilization(seat=A, card="civ.bronze_weapons.2")) == "not_an_action_card"


def test_r33_state_checks_wait_until_the_war_ends_for_committed_columns():
    state = _war([col(A, 1, W(100, 1), god=god("zeus"))], [col(B, 1, W(10, 2), temple=Tw(2))])
    assert column(state, "0:1").god == god("zeus")  # left without worshipers, exempt during the war
    state, _ = run(state, cmd.SkipBattleCard(seat=B))
    state, _ = run(state, cmd.SkipBattleCard(seat=A), 0, 0)
    state, _ = run(
        state, cmd.PlaceSurvivors(seat=A, placements=[cmd.Placement(worshiper=W(100, 1), destination="0:1")])
    )
    assert column(state, "0:1").god == god("zeus") and column(state, "0:1").worshipers == [W(100, 1)]


def test_r34_undefended_the_attacker_may_damage_a_temple_or_decline():
    state = _war([col(A, 1, W(100, 1), temple=Tw(1))], [col(B, 1, temple=Tw(2))])
    assert state.decision == "damage_undefended_temple" and state.awaiting == A
    state, _ = run(state, cmd.DamageUndefendedTemple(seat=A, temple=Tw(2)))
    assert column(state, "1:1").damaged
    state = given(
        col(A, 1, W(100, 1), temple=Tw(1)), col(B, 1, temple=Tw(2), god=god("ptah")), hands={A: ["civ.holy_war.1"]}
    )
    state, events = run(state, cmd.PlayCivilization(seat=A, card="civ.holy_war.1", target=B))
    assert of(events, ev.WarEnded) and state.decision != "damage_undefended_temple"  # Literature: nothing to damage


def test_r35_protection_and_science_do_not_touch_war_losses():
    state = _war(
        [col(A, 1, W(500, 1), temple=Tw(1))],
        [col(B, 1, W(100, 2), temple=Tw(2), god=god("zeus")), col(B, 2, W(10, 9), temple=Tw(3), god=god("enki"))],
    )
    state, _ = run(state, cmd.CommitWarColumns(seat=B, columns=["1:1"]))
    state, _ = run(state, cmd.SkipBattleCard(seat=B))
    state, events = run(state, cmd.SkipBattleCard(seat=A), 0, 0)
    assert not of(events, ev.ChallengeRolled) and W(100, 2) in state.pending_general


def test_r36_the_game_ends_at_the_end_of_the_turn_the_deck_ran_out_whoever_took_it_and_after_300_turns():
    state = given(
        col(A, 1, W(10, 1), temple=Tw(1), god=god("tiamat")),
        col(B, 1, W(10, 2), temple=Tw(2), god=god("zeus")),
        hands={B: [W(10, 3)]},
        deck=2,
    )
    state, events = run(state, cmd.EmployPower(seat=A, god=god("tiamat"), slot="minor", target=B), 0, 0)
    # the Chaos victim took the last card; A's turn ended the game (A and B tie: the Battle)
    assert state.deck == 0 and of(events, ev.GameScored) and not of(events, ev.TurnStarted)
    state = given(col(A, 1, W(10, 1), temple=Tw(1), god=god("zeus")), hands={B: [W(10, 3)]}, turn=300)
    state, events = run(state, cmd.EndTurn(seat=A))
    assert state.finished and state.end_reason == "turn_limit" and state.winners == [A]


def test_r37_a_single_god_counts_double():
    state = given(
        col(A, 1, W(10, 1), temple=Tw(1), god=god("inanna")),
        col(B, 1, W(10, 2), temple=Tw(2), god=god("zeus")),
        col(B, 2, W(10, 3), temple=Tw(3), god=god("ra")),
    )
    assert scores(state)[:2] == [2, 2]


def test_r38_one_power_per_battle_turn_every_seat_rescored_an_untied_seat_can_win():
    cols = [
        col(A, 1, temple=Tw(1), god=god("zeus")),
        col(A, 2, temple=Tw(2), god=god("ra")),
        col(A, 3, temple=Tw(3), god=god("freyja")),
        col(B, 1, temple=Tw(4), god=god("isis")),
        col(B, 2, temple=Tw(5), god=god("enki")),
        col(B, 3, temple=Tw(6), god=god("set")),
        col(C, 1, temple=Tw(7), god=god("thor")),
        col(C, 2, temple=Tw(8)),
    ]
    state = given(*cols, deck=0, active=D)
    state, events = run(state, cmd.EndTurn(seat=D))
    assert of(events, ev.GameScored)[0].tied == [A, B] and state.awaiting == A
    move = cmd.EmployPower(seat=A, god=god("freyja"), slot="major", mode="move", target_god=god("freyja"), column="2:2")
    state, _ = run(state, move)
    assert scores(state) == [2, 3, 4, 0] and state.winners == [C]


def test_r39_three_to_six_players_no_two_player_mode():
    for players in (2, 7):
        with pytest.raises(DomainError) as error:
            decide(
                None, cmd.PantheonCardsCreateGame(options=cmd.PantheonCardsOptions(players=players)), SeededRng(b"x")
            )
        assert error.value.code == "invalid_players"
    for players in (3, 6):
        events = decide(
            None, cmd.PantheonCardsCreateGame(options=cmd.PantheonCardsOptions(players=players)), SeededRng(b"x")
        )
        assert len(of(events, ev.CardDealt)) == 5 * players


def test_r41_an_unused_civilization_card_goes_to_the_general_pile_a_used_one_leaves_golden_age_stays():
    state = given(
        col(A, 1, W(10, 1), temple=Tw(1), god=god("tiamat")), hands={A: ["civ.golden_age.1"], B: ["civ.plague.1"]}
    )
    state, _ = run(state, cmd.PlayCivilization(seat=A, card="civ.golden_age.1"))
    assert state.in_effect[A] == ["civ.golden_age.1"]
    state = given(col(A, 1, W(10, 1), temple=Tw(1), god=god("tiamat")), hands={B: ["civ.plague.1"]})
    state, _ = run(state, cmd.EmployPower(seat=A, god=god("tiamat"), slot="minor", target=B), 0, 0, 0, 0, 0)
    assert "civ.plague.1" in state.general and "civ.plague.1" not in state.removed


def test_r42_the_card_set_is_house_data_with_provenance_on_every_row():
    from domain.pantheon_cards.components import raw_data

    raw = raw_data("house-1")
    assert all(
        r["provenance"] in ("rulebook", "house") for part in ("cards", "powers", "pantheons") for r in raw[part][part]
    )


def test_r43_the_engine_declares_the_worshiper_counts_from_the_actual_hands():
    events = decide(None, cmd.PantheonCardsCreateGame(options=cmd.PantheonCardsOptions(players=4)), SeededRng(b"r43"))
    comps = load_components()
    hands = [[e.card for e in of(events, ev.CardDealt) if e.seat == s] for s in range(4)]
    counts = [sum(comps.cards[c].type == "worshiper" for c in h) for h in hands]
    assert of(events, ev.WorshipersAnnounced)[0].counts == counts
    first = of(events, ev.TurnStarted)[0].seat
    assert counts[first] == min(counts)


def test_r44_only_stone_replaces_wooden_damaged_or_not_and_enters_undamaged():
    cols = [col(A, 1, W(10, 1), temple=Tw(1), damaged=True), col(A, 2, W(10, 2), temple=Ts(1))]
    state = given(*cols, hands={A: [Ts(2), Tw(3)]}, decision="play_card", stage="play")
    assert refused(state, cmd.PlayCard(seat=A, card=Tw(3), column="0:1")) == "illegal_play"
    assert refused(state, cmd.PlayCard(seat=A, card=Ts(2), column="0:2")) == "illegal_play"
    state, events = run(state, cmd.PlayCard(seat=A, card=Ts(2), column="0:1"))
    assert column(state, "0:1").temple == Ts(2) and not column(state, "0:1").damaged
    assert of(events, ev.CardPlaced)[0].replaced == Tw(1) and state.pending_general == [Tw(1)]


def test_r38_after_the_turn_limit_the_battle_draws_nothing_even_with_cards_in_the_deck():
    cols = [
        col(A, 1, W(1000, 1), W(1000, 2), temple=Tw(1), god=god("tiamat")),
        col(B, 1, W(100, 1), temple=Tw(2), god=god("zeus")),
        col(C, 1, W(10, 1), temple=Tw(3)),
    ]
    state = given(*cols, hands={B: [W(10, 5)]}, deck=20, turn=300, active=C)
    state, events = run(state, cmd.EndTurn(seat=C))
    assert of(events, ev.GameScored)[0].tied == [A, B] and state.awaiting == A and state.deck == 20
    state, events = run(state, cmd.EmployPower(seat=A, god=god("tiamat"), slot="minor", target=B))
    assert not of(events, ev.CardDrawn) and state.hands[B] == [] and state.deck == 20  # Chaos draws nothing
    state = given(*cols, deck=20, turn=300, active=C)
    state, _ = run(state, cmd.EndTurn(seat=C))
    sea = cmd.EmployPower(seat=A, god=god("tiamat"), slot="major", target=B)
    # Zeus's Protection: A wins the challenge; a flood: W100.1 needs a 50, the pile has none, no deck search
    state, events = run(state, sea, *die(6, 1))
    assert not of(events, ev.WorshiperReplaced) and of(events, ev.CardDiscarded)[0].card == W(100, 1)
