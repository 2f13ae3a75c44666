"""One test per numbered ruling of the rules spec (§12), named after it."""

import dataclasses

import msgspec
import pytest

from domain.pergamon import PERGAMON, rules, views
from domain.pergamon import commands as cmd
from domain.pergamon import events as ev
from domain.pergamon import options as blocks
from domain.pergamon.choices import choices
from domain.pergamon.components import load_components
from domain.pergamon.rules import components_of, final_bonuses, ranking, storage_fee
from domain.pergamon.views import redact
from domain.rng import SeededRng

from .scenario import (
    A,
    B,
    C,
    Scripted,
    exhibit,
    gallery,
    last_turn,
    loose,
    new_game,
    refused,
    run,
    turn_of,
)
from .test_worked_examples import _created_with, _museum, _of, _placed


def legal_options(state, seat: int) -> dict:
    """The legal options as the API sends them (JSON-ready)."""
    return msgspec.to_builtins(blocks.legal_options(state, seat))


def public_view(state) -> dict:
    """The public view as the API sends it (JSON-ready)."""
    return msgspec.to_builtins(views.public_view(state))


def seat_view(state, seat: int) -> dict:
    """A seat's view as the API sends it (JSON-ready)."""
    return msgspec.to_builtins(views.seat_view(state, seat))


def _create(players=3, rng=None, **options):
    return run(
        None, cmd.PergamonCreateGame(options=cmd.PergamonOptions(players=players, **options)), rng or SeededRng(b"r")
    )


def _exhibiting(state, seat, tiles, coins=5, round=4, space=11):
    """Seat at step B with these loose tiles."""
    loose(state, seat, tiles)
    turn_of(state, seat, space=space, coins=coins, round=round)
    state.decision = "exhibit"
    return state


def test_r1_the_first_player_is_drawn_with_randbelow_n_and_recorded_or_chosen():
    state, events = _create(4, Scripted(2, *[0] * 7))
    assert events[0].first_player == 2 and state.first_player == 2 and state.placement_order == [2, 3, 0, 1]
    state, events = _create(4, first_seat=3)
    assert events[0].first_player == 3 and state.awaiting == 3
    with pytest.raises(Exception) as error:
        PERGAMON.decide(
            None, cmd.PergamonCreateGame(options=cmd.PergamonOptions(players=2, first_seat=2)), SeededRng(b"")
        )
    assert error.value.code == "bad_options"


def test_r2_every_seat_and_the_tomb_raider_start_with_0_coins():
    state, _ = _create(2)
    assert [s.coins for s in state.seats] == [0, 0] and state.purse == 0 and [s.vp for s in state.seats] == [0, 0]


def test_r3_coins_and_vp_are_unlimited():
    state, _ = _created_with(3, [103, 108, 112, 119, 124], ["chest", "chest"])
    for s in state.seats:
        s.coins = 45  # more than the 40 coins in the box
    state.seats[C].vp = 500
    state, _ = _placed(state, {A: 1, B: 2, C: 13}, [8, 8])
    assert [s.coins for s in state.seats] == [45, 46, 60] and state.seats[C].vp == 500


def test_r4_the_same_funding_track_for_2_3_and_4_players():
    tracks = []
    for players in (2, 3, 4):
        state = new_game(players)
        state.tomb_raider = 0
        tracks.append(legal_options(state, state.awaiting)["spaces"])
    assert tracks[0] == tracks[1] == tracks[2] and len(tracks[0]) == 13


def test_r5_museum_points_are_ceil_of_a_quarter_of_the_space():
    state = last_turn(new_game(2), round=7)
    exhibit(state, A, 1, [131, 140], 13)
    exhibit(state, B, 1, [590, 358], 4)
    state, events = run(state, cmd.FinishExhibiting(seat=A))
    assert _of(events, ev.MarkersScored)[0].points == [4, 1]


def test_r6_tiles_are_never_rotated_and_loose_tiles_are_an_unordered_set():
    state = _exhibiting(new_game(3), A, [590, 358])
    assert refused(state, cmd.Exhibit(seat=A, tiles=[358, 590])).code == "halves_do_not_match"
    assert state.seats[A].loose == [358, 590]


def test_r7_tiles_go_to_the_non_full_galleries_in_ascending_order():
    state = last_turn(new_game(3), round=1)
    for g in (1, 3, 5):
        gallery(state, g, [])
    gallery(state, 2, [103, 108, 112, 119])
    gallery(state, 4, [124, 131, 140, 147])
    from .scenario import back_draws, tile_draws

    answers = tile_draws(state.unrevealed, [590, 205, 301]) + back_draws(state, ["bag", "bag"])
    state, events = run(state, cmd.FinishExhibiting(seat=A), Scripted(*answers))
    assert _of(events, ev.FindsLaidOut)[0] == ev.FindsLaidOut(tiles=[205, 301, 590], galleries=[1, 3, 5])
    assert _of(events, ev.FindsDrawn)[0].unseen == 2


def test_r8_placing_is_compulsory_there_is_no_pass():
    state = new_game(3)
    keys = [c.key for c in choices(state, state.awaiting).choices]
    assert keys == [f"space:{k}" for k in range(1, 14)]
    assert refused(state, cmd.SkipExcavation(seat=state.awaiting)).code == "wrong_decision"
    after, _ = run(state, cmd.ChooseFundingSpace(seat=A, space=13))  # 0 coins: no restriction
    assert after.figures[A] == 13


def test_r9_each_figure_but_the_left_most_receives_min_ask_remaining():
    comps = load_components()
    assert rules.payouts(comps, [(4, A), (8, B), (10, C)], 5) == [(A, 2), (B, 3), (C, 0)]
    assert rules.payouts(comps, [(2, A), (6, B), (11, C)], 11) == [(A, 1), (B, 3), (C, 7)]
    assert rules.payouts(comps, [(12, A), (13, B)], 3) == [(A, 3), (B, 0)]


def test_r10_the_tomb_raider_is_paid_like_a_figure_and_takes_the_rest_when_left_most():
    comps = load_components()
    assert rules.payouts(comps, [(2, A), (4, B), (9, -1)], 15) == [(A, 1), (B, 2), (-1, 12)]


def test_r11_excavation_conditions():
    state = new_game(3)
    gallery(state, 1, [131])
    gallery(state, 2, [])
    gallery(state, 3, [244])
    state = turn_of(state, A, space=8, coins=2)  # depth III
    assert refused(state, cmd.Excavate(seat=A, gallery=4)).code == "gallery_too_deep"
    assert refused(state, cmd.Excavate(seat=A, gallery=0)).code == "gallery_too_deep"
    assert refused(state, cmd.Excavate(seat=A, gallery=2)).code == "gallery_empty"
    assert refused(state, cmd.Excavate(seat=A, gallery=3)).code == "insufficient_coins"
    assert legal_options(state, A)["galleries"] == [1]
    _, events = run(state, cmd.SkipExcavation(seat=A))
    assert events[:2] == [ev.ExcavationSkipped(seat=A), ev.ExhibitingFinished(seat=A, automatic=True)]


def test_r12_a_seat_cannot_excavate_after_it_has_exhibited():
    state = _exhibiting(new_game(3), A, [590, 358, 453, 463])
    gallery(state, 1, [140])
    state, _ = run(state, cmd.Exhibit(seat=A, tiles=[590, 358]))
    assert (state.awaiting, state.decision) == (A, "exhibit")
    assert refused(state, cmd.Excavate(seat=A, gallery=1)).code == "wrong_decision"


def test_r13_an_object_is_dated_left_century_then_right_number_and_rows_may_mix_types():
    comps = load_components()
    assert rules.objects(comps, [590, 358, 453, 463]) == [("bracelet", 558, 5), ("vase", 353, 3), ("mask", 463, 4)]
    assert rules.base_value(comps, [590, 358, 453, 463]) == 12


def test_r14_every_marker_at_or_below_the_target_moves_down_and_one_pushed_off_space_1_frees_its_pair():
    state = _exhibiting(new_game(3), A, [590, 358])
    exhibit(state, A, 1, [131, 140], 1)
    exhibit(state, A, 2, [205, 103], 3)
    exhibit(state, A, 3, [210, 177], 20)
    exhibit(state, B, 1, [244, 404], 4)
    exhibit(state, B, 2, [229, 283], 9)
    state, events = run(state, cmd.Exhibit(seat=A, tiles=[590, 358], break_up=3))
    assert events[0].pushed_off == [(A, 1)] and events[0].broken_up == 3 and events[0].numeral == 1
    assert _museum(state) == {2: (A, 2), 3: (B, 1), 5: (A, 1), 9: (B, 2)}
    assert {131, 140, 210, 177} <= set(state.box)


def test_r15_polish_limits():
    state = _exhibiting(new_game(3), A, [590, 358, 453, 463], coins=20)
    assert refused(state, cmd.Exhibit(seat=A, tiles=[590, 358], polish=4)).code == "polish_over_limit"
    assert refused(state, cmd.Exhibit(seat=A, tiles=[590, 358], polish=-1)).code == "bad_polish"
    state.round = 12
    after, _ = run(state, cmd.Exhibit(seat=A, tiles=[590, 358, 453, 463], polish=12))
    assert after.seats[A].collections[0].space == 24 and after.seats[A].coins == 8
    assert refused(state, cmd.Exhibit(seat=A, tiles=[590, 358, 453, 463], polish=13)).code == "polish_beyond_24"
    assert rules.max_polish(state, A, 12) == 12 and rules.max_polish(state, A, 24) == 0


def test_r16_a_new_collection_takes_the_lowest_numbered_free_pair():
    state = _exhibiting(new_game(3), A, [590, 358, 453, 463])
    exhibit(state, A, 1, [131, 140], 10)
    state, events = run(state, cmd.Exhibit(seat=A, tiles=[590, 358]))
    assert events[0].numeral == 2
    state.seats[A].collections = [k for k in state.seats[A].collections if k.numeral != 1]
    state, events = run(state, cmd.Exhibit(seat=A, tiles=[453, 463]))
    assert events[0].numeral == 1


def test_r17_a_seat_breaks_up_its_own_collection_only_with_all_three_pairs_in_use():
    state = _exhibiting(new_game(3), A, [590, 358])
    exhibit(state, A, 1, [131, 140], 10)
    exhibit(state, A, 2, [205, 103], 11)
    assert refused(state, cmd.Exhibit(seat=A, tiles=[590, 358], break_up=1)).code == "break_up_not_allowed"
    exhibit(state, A, 3, [210, 177], 12)
    assert refused(state, cmd.Exhibit(seat=A, tiles=[590, 358])).code == "break_up_required"
    assert refused(state, cmd.Exhibit(seat=A, tiles=[590, 358], break_up=4)).code == "no_such_collection"
    after, events = run(state, cmd.Exhibit(seat=A, tiles=[590, 358], break_up=2))
    assert events[0].numeral == 2 and after.box[-2:] == [205, 103]
    assert _museum(after) == {10: (A, 1), 5: (A, 2), 12: (A, 3)}


def test_r18_storage_fee_per_started_group_of_3_and_round_12_storage_applies():
    comps = load_components()
    assert [storage_fee(comps, n) for n in (3, 4, 5, 6, 7, 10)] == [0, 1, 1, 1, 2, 3]
    state = _exhibiting(new_game(3), A, [103, 108, 112, 119, 124], round=12, coins=1)
    state, events = run(state, cmd.FinishExhibiting(seat=A))
    assert state.decision == "store"
    state, events = run(state, cmd.Store(seat=A))
    assert events[0].fee == 1 and state.seats[A].coins == 0


def _same_date_components(monkeypatch):
    """House data has no equal dates; a copy where 404 shares 463's number does (R19, R20)."""
    comps = load_components()
    tiles = dict(comps.tiles)
    tiles[404] = dataclasses.replace(tiles[404], number=63)
    fake = dataclasses.replace(comps, tiles=tiles)
    monkeypatch.setattr(rules, "components_of", lambda state: fake)
    return fake


def test_r19_awards_only_exhibited_objects_none_scores_nothing_and_ties_share(monkeypatch):
    state = new_game(3)
    loose(state, C, [453, 463])
    assert rules.award(state, "mask") == (None, [])
    exhibit(state, A, 1, [453, 463], 5)  # mask 463
    assert rules.award(state, "mask") == (463, [A])
    _same_date_components(monkeypatch)
    exhibit(state, B, 1, [428, 404], 6)  # mask dated 4|63 with the patched number
    assert rules.award(state, "mask") == (463, [A, B])


def test_r20_final_bonus_competition_ranking_and_fewer_objects_fewer_bonuses(monkeypatch):
    state = new_game(3)
    exhibit(state, A, 1, [453, 463], 5)
    assert final_bonuses(state, (3, 2, 1)) == [(A, 463, 3)]
    _same_date_components(monkeypatch)
    exhibit(state, B, 1, [428, 404], 6)
    exhibit(state, C, 1, [205, 103], 7)
    assert final_bonuses(state, (3, 2, 1)) == [(A, 463, 3), (B, 463, 3), (C, 203, 1)]


def test_r21_ties_on_vp_rank_by_the_oldest_exhibited_object_then_share():
    state = new_game(4)
    exhibit(state, A, 1, [205, 103], 5)
    exhibit(state, B, 1, [590, 358], 6)
    for s in state.seats:
        s.vp = 10
    state.seats[3].vp = 12
    assert ranking(state) == [3, 2, 4, 1]
    state.seats[B].collections = []
    assert ranking(state) == [2, 3, 3, 1]


def test_r22_the_tomb_raider_takes_the_next_shallower_gallery_or_does_nothing():
    state = new_game(2)
    for g in range(1, 6):
        gallery(state, g, [])
    gallery(state, 1, [131])
    state.tomb_raider, state.purse = 9, 3
    assert rules.tomb_raider_target(state) == 1
    state.purse = 0
    assert rules.tomb_raider_target(state) is None


def test_r23_two_players_the_next_first_player_ignores_the_tomb_raider():
    state = last_turn(new_game(2), round=1, seat=A)
    state.figures = {A: 2, B: 4}
    state.tomb_raider = 13
    state, events = run(state, cmd.FinishExhibiting(seat=A))
    assert _of(events, ev.RoundEnded)[0].next_first_player == B


def test_r24_variant_1_places_by_order_space_refused_with_2_players_and_round_1_clockwise():
    with pytest.raises(Exception) as error:
        PERGAMON.decide(
            None,
            cmd.PergamonCreateGame(options=cmd.PergamonOptions(players=2, variant_player_order=True)),
            SeededRng(b""),
        )
    assert error.value.code == "option_not_available"
    state = new_game(4, first_seat=1, variant_player_order=True)
    assert state.placement_order == [1, 2, 3, 0]
    state = last_turn(state, round=1, seat=A)
    state.figures = {A: 3, B: 9, C: 1, 3: 6}
    state, events = run(state, cmd.FinishExhibiting(seat=A))
    assert _of(events, ev.RoundEnded)[0].order_spaces == [B, 3, A, C] and state.placement_order == [B, 3, A, C]


def test_r25_variant_2_orders_only_within_a_century_and_fills_non_full_galleries():
    state = last_turn(new_game(2, variant_sorting=True), round=1)
    for g in (1, 3, 4, 5):
        gallery(state, g, [])
    gallery(state, 2, [103, 108, 112, 119])
    from .scenario import back_draws, tile_draws

    state, events = run(
        state, cmd.FinishExhibiting(seat=A), Scripted(*tile_draws(state.unrevealed, [414, 205, 436, 485]))
    )
    assert _of(events, ev.FindsDrawn)[0].arranger == state.first_player
    seat = state.awaiting
    assert refused(state, cmd.ArrangeFinds(seat=seat, order=[414, 205, 436, 485])).code == "bad_arrangement"
    assert refused(state, cmd.ArrangeFinds(seat=seat, order=[205, 414, 436])).code == "bad_arrangement"
    after, events = run(
        state, cmd.ArrangeFinds(seat=seat, order=[205, 485, 414, 436]), Scripted(*back_draws(state, ["bag", "bag"]))
    )
    assert _of(events, ev.FindsLaidOut)[0] == ev.FindsLaidOut(tiles=[205, 485, 414, 436], galleries=[1, 3, 4, 5])


def test_r26_with_secret_vp_a_seat_sees_only_its_own_vp_until_the_end():
    state = last_turn(new_game(3, vp_visibility="secret"), round=5)
    exhibit(state, A, 1, [590, 229], 12)
    exhibit(state, B, 1, [358, 453], 6)
    state, events = run(state, cmd.FinishExhibiting(seat=A))
    view = seat_view(state, B)
    assert [s["vp"] for s in view["seats"]] == [None, None, None] and view["you"]["vp"] == state.seats[B].vp
    scored = redact(_of(events, ev.MarkersScored)[0], B)
    assert scored.points == [None, 2, None]
    assert redact(_of(events, ev.AwardGiven)[0], A).vp is None and redact(_of(events, ev.AwardGiven)[0], B).vp == 2
    assert redact(_of(events, ev.MarkersScored)[0], None).points == [None, None, None]
    open_state = last_turn(new_game(3), round=5)
    assert [s["vp"] for s in public_view(open_state)["seats"]] == [0, 0, 0]


def test_r27_coins_loose_tiles_and_the_purse_are_public():
    state = new_game(2)
    loose(state, A, [590, 358])
    state.seats[A].coins, state.purse = 7, 4
    view = public_view(state)
    assert view["seats"][A]["coins"] == 7 and view["seats"][A]["loose"] == [358, 590]
    assert view["tomb_raider"]["purse"] == 4


def test_r28_automatic_steps_are_recorded_as_events():
    state = new_game(3)
    for g in range(1, 6):
        gallery(state, g, [])
    state = turn_of(state, A, space=1, coins=0, others={B: 2, C: 3})
    state.decision = "exhibit"
    state, events = run(state, cmd.FinishExhibiting(seat=A))
    assert ev.ExcavationSkipped(seat=B, automatic=True) in events
    assert ev.ExhibitingFinished(seat=B, automatic=True) in events
    assert ev.Stored(seat=B, automatic=True) in events


def test_r29_marker_points_then_the_award_then_the_drop_a_dropped_marker_has_scored():
    state = last_turn(new_game(2), round=9)
    exhibit(state, A, 1, [453, 463], 2)
    state, events = run(state, cmd.FinishExhibiting(seat=A))
    names = [type(e).__name__ for e in events]
    assert names.index("MarkersScored") < names.index("AwardGiven") < names.index("MarkersDropped")
    assert state.seats[A].vp == 1 + 2 and state.seats[A].collections == []


def test_r30_unlimited_polish_applies_to_every_turn_of_round_12():
    state = _exhibiting(new_game(3), B, [590, 358], coins=10, round=12)
    assert legal_options(state, B)["polish_limit"] is None
    after, _ = run(state, cmd.Exhibit(seat=B, tiles=[590, 358], polish=9))
    assert after.seats[B].collections[0].space == 14


def test_r31_a_larger_date_is_older():
    state = new_game(3)
    exhibit(state, A, 1, [358, 453], 3)  # vase 353
    exhibit(state, B, 1, [485, 436], 4)  # vase 436
    assert rules.award(state, "vase") == (436, [B])
    assert components_of(state).tiles[485].id > components_of(state).tiles[414].id


def test_r7_with_every_gallery_full_nothing_is_drawn_and_the_stack_goes_to_the_box_unseen():
    state = last_turn(new_game(3), round=2)
    tiles = iter(sorted(state.unrevealed))
    for g in range(1, 6):
        gallery(state, g, [next(tiles) for _ in range(4)])
    from .scenario import back_draws

    state, events = run(state, cmd.FinishExhibiting(seat=A), Scripted(*back_draws(state, ["bag", "chest"])))
    assert _of(events, ev.FindsDrawn)[0] == ev.FindsDrawn(round=3, tiles=[], unseen=5)
    assert _of(events, ev.FindsLaidOut)[0] == ev.FindsLaidOut(tiles=[], galleries=[])
    assert state.unseen_box == 5
