"""The worked examples of rules §13, W1 to W6, step by step."""

from domain.pergamon import commands as cmd
from domain.pergamon import events as ev
from domain.pergamon.rules import components_of, ranking, storage_fee
from domain.pergamon.vocabulary import TOMB_RAIDER
from domain.rng import SeededRng

from .scenario import (
    A,
    B,
    C,
    Scripted,
    back_draws,
    exhibit,
    gallery,
    last_turn,
    loose,
    new_game,
    refused,
    run,
    tile_draws,
    turn_of,
    value_draws,
)


def _of(events, kind):
    return [e for e in events if isinstance(e, kind)]


def _created_with(players: int, tiles: list[int], backs: list[str], **options):
    """A new game whose round 1 draws these tiles and these backs."""
    probe = new_game(players, **options)
    answers = tile_draws(sorted(components_of(probe).tiles), tiles)
    fresh = new_game(players, **options)
    fresh.undrawn = list(components_of(probe).card_copies)
    answers += back_draws(fresh, backs)
    options.setdefault("first_seat", 0)
    state, events = run(
        None, cmd.PergamonCreateGame(options=cmd.PergamonOptions(players=players, **options)), Scripted(*answers)
    )
    return state, events


# --- W1 -----------------------------------------------------------------------------------------


def test_w1_the_finds_are_sorted_youngest_first_into_galleries_i_to_v():
    state, events = _created_with(3, [485, 131, 436, 244, 414], ["bag", "bag"])
    drawn = _of(events, ev.FindsDrawn)[0]
    assert drawn.tiles == [131, 244, 414, 436, 485] and drawn.unseen == 0
    assert state.galleries == [[131], [244], [414], [436], [485]]


def test_w1_with_gallery_iii_full_four_tiles_are_drawn_and_one_goes_to_the_box_unseen():
    state = last_turn(new_game(3), round=1)
    for g in (1, 2, 4, 5):
        gallery(state, g, [])
    gallery(state, 3, [103, 108, 112, 119])
    answers = tile_draws(state.unrevealed, [131, 244, 436, 485]) + back_draws(state, ["bag", "bag"])
    state, events = run(state, cmd.FinishExhibiting(seat=A), Scripted(*answers))
    drawn = _of(events, ev.FindsDrawn)[0]
    assert (drawn.tiles, drawn.unseen) == ([131, 244, 436, 485], 1)
    assert state.galleries == [[131], [244], [103, 108, 112, 119], [436], [485]]
    assert state.unseen_box == 1 and len(state.unrevealed) == 60 - 4 - 4  # the unseen tile is not drawn (R7)


def test_w1_variant_2_the_first_player_arranges_the_century_4_tiles():
    state, events = _created_with(3, [485, 131, 436, 244, 414], ["bag", "bag"], variant_sorting=True)
    assert _of(events, ev.FindsDrawn)[0].arranger == A and state.decision == "arrange_finds"
    assert refused(state, cmd.ArrangeFinds(seat=A, order=[244, 131, 414, 436, 485])).code == "bad_arrangement"
    after, events = run(state, cmd.ArrangeFinds(seat=A, order=[131, 244, 485, 414, 436]), Scripted(0, 0))
    assert after.galleries == [[131], [244], [485], [414], [436]]
    from domain.pergamon.choices import choices

    orders = set()
    stack = [()]
    while stack:
        path = stack.pop()
        for c in choices(state, A, path).choices:
            if c.more:
                stack.append((*path, c.key))
            else:
                orders.add(tuple(c.command.order))
    assert len(orders) == 6 and all(o[:2] == (131, 244) for o in orders)


# --- W2 -----------------------------------------------------------------------------------------


def _placed(state, spaces: dict[int, int], values: list[int]):
    events = []
    for seat in state.placement_order[:-1]:
        state, more = run(state, cmd.ChooseFundingSpace(seat=seat, space=spaces[seat]))
        events += more
    last = state.placement_order[-1]
    state, more = run(
        state, cmd.ChooseFundingSpace(seat=last, space=spaces[last]), Scripted(*value_draws(state, state.backs, values))
    )
    return state, events + more


def test_w2_funding_payout_the_left_most_takes_all_that_remains():
    state, _ = _created_with(3, [103, 108, 112, 119, 124], ["chest", "bag"])
    state, events = _placed(state, {A: 2, B: 6, C: 11}, [7, 4])
    assert _of(events, ev.FundingRevealed)[0].values == [7, 4]
    assert _of(events, ev.FundsPaidOut)[0].payouts == [(A, 1), (B, 3), (C, 7)]
    assert state.action_order == [A, B, C] and [s.coins for s in state.seats] == [1, 3, 7]
    for seat in (A, B, C):
        if state.decision == "excavate":
            state, events = run(state, cmd.SkipExcavation(seat=seat))
        while state.awaiting == seat and state.decision == "exhibit":
            state, events = run(state, cmd.FinishExhibiting(seat=seat))
    ended = _of(events, ev.RoundEnded)[0]
    assert ended.next_first_player == C and state.placement_order == [C, A, B]


def test_w2_with_variant_1_the_next_placement_order_is_c_b_a():
    state, _ = _created_with(3, [103, 108, 112, 119, 124], ["chest", "bag"], variant_player_order=True)
    state, _ = _placed(state, {A: 2, B: 6, C: 11}, [7, 4])
    for seat in (A, B, C):
        if state.decision == "excavate":
            state, events = run(state, cmd.SkipExcavation(seat=seat))
    assert _of(events, ev.RoundEnded)[0].order_spaces == [C, B, A] and state.placement_order == [C, B, A]


def test_w2_short_funds_the_left_most_may_get_nothing():
    state, _ = _created_with(3, [103, 108, 112, 119, 124], ["bag", "bag"])
    state, events = _placed(state, {A: 4, B: 8, C: 10}, [2, 3])
    assert _of(events, ev.FundsPaidOut)[0].payouts == [(A, 2), (B, 3), (C, 0)]


# --- W3 -----------------------------------------------------------------------------------------


def _w3():
    state = new_game(3)
    loose(state, A, [590, 358, 453, 244, 108])
    gallery(state, 4, [463, 315, 307, 124])
    exhibit(state, B, 1, [131, 140], 9)
    exhibit(state, C, 1, [205, 103], 12)
    exhibit(state, B, 2, [210, 177], 16)
    return turn_of(state, A, space=11, coins=6, round=4, others={B: 12, C: 13})


def test_w3_excavating_gallery_iv_costs_4_and_takes_all_its_tiles():
    state, events = run(_w3(), cmd.Excavate(seat=A, gallery=4))
    assert events[0] == ev.Excavated(seat=A, gallery=4, cost=4, tiles=[463, 315, 307, 124])
    assert state.seats[A].coins == 2 and state.galleries[3] == []
    assert sorted(state.seats[A].loose) == sorted([590, 358, 453, 244, 108, 463, 315, 307, 124])


def _museum(state):
    return {k.space: (seat, k.numeral) for seat, s in enumerate(state.seats) for k in s.collections}


def test_w3_an_exhibition_worth_12_pushes_the_markers_on_9_and_12_down():
    state, _ = run(_w3(), cmd.Excavate(seat=A, gallery=4))
    state, events = run(state, cmd.Exhibit(seat=A, tiles=[590, 358, 453, 463], polish=0))
    assert events == [ev.Exhibited(seat=A, numeral=1, tiles=[590, 358, 453, 463], polish=0, value=12, space=12)]
    assert _museum(state) == {8: (B, 1), 11: (C, 1), 12: (A, 1), 16: (B, 2)}
    assert state.seats[A].vp == 1 and state.seats[A].coins == 2


def test_w3_the_same_exhibit_polished_with_2_goes_on_14():
    state, _ = run(_w3(), cmd.Excavate(seat=A, gallery=4))
    state, events = run(state, cmd.Exhibit(seat=A, tiles=[590, 358, 453, 463], polish=2))
    assert events[0].value == 14 and events[0].space == 14
    assert _museum(state) == {8: (B, 1), 11: (C, 1), 14: (A, 1), 16: (B, 2)}
    assert state.seats[A].coins == 0


def test_w3_refused_exhibits():
    state, _ = run(_w3(), cmd.Excavate(seat=A, gallery=4))
    row = [590, 358, 453, 463]
    assert refused(state, cmd.Exhibit(seat=A, tiles=[590, 453, 358, 463])).code == "halves_do_not_match"
    assert refused(state, cmd.Exhibit(seat=A, tiles=row, polish=4)).code == "polish_over_limit"
    assert refused(state, cmd.Exhibit(seat=A, tiles=row, polish=3)).code == "insufficient_coins"


def test_w3_storage_of_5_tiles_costs_1_coin():
    state, _ = run(_w3(), cmd.Excavate(seat=A, gallery=4))
    state, _ = run(state, cmd.Exhibit(seat=A, tiles=[590, 358, 453, 463]))
    state, _ = run(state, cmd.FinishExhibiting(seat=A))
    assert state.decision == "store" and state.seats[A].loose == [108, 124, 244, 307, 315]
    kept, events = run(state, cmd.Store(seat=A))
    assert events[0] == ev.Stored(seat=A, discard=[], fee=1) and kept.seats[A].coins == 1
    lighter, events = run(state, cmd.Store(seat=A, discard=[244, 108]))
    assert events[0].fee == 0 and lighter.seats[A].loose == [124, 307, 315]


def test_w3_after_polishing_2_a_must_discard_at_least_2_tiles():
    state, _ = run(_w3(), cmd.Excavate(seat=A, gallery=4))
    state, _ = run(state, cmd.Exhibit(seat=A, tiles=[590, 358, 453, 463], polish=2))
    state, _ = run(state, cmd.FinishExhibiting(seat=A))
    assert refused(state, cmd.Store(seat=A, discard=[244])).code == "insufficient_coins"
    after, events = run(state, cmd.Store(seat=A, discard=[244, 108]))
    assert events[0] == ev.Stored(seat=A, discard=[108, 244], fee=0) and after.box[-2:] == [108, 244]


def test_w3_the_storage_fee_table():
    comps = components_of(new_game(2))
    assert [storage_fee(comps, n) for n in range(13)] == [0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3]


# --- W4 -----------------------------------------------------------------------------------------


def test_w4_evaluation_after_round_5():
    state = last_turn(new_game(2), round=5)
    exhibit(state, A, 1, [590, 358, 453, 463], 12)
    exhibit(state, A, 2, [307, 124], 3)
    exhibit(state, B, 1, [485, 436, 140], 8)
    exhibit(state, B, 2, [205, 103], 2)
    state, events = run(state, cmd.FinishExhibiting(seat=A), SeededRng(b"w4"))
    assert _of(events, ev.MarkersScored)[0].points == [4, 3]
    award = _of(events, ev.AwardGiven)[0]
    assert (award.object_type, award.date, award.winners) == ("vase", 436, [B])
    assert _of(events, ev.MarkersDropped)[0] == ev.MarkersDropped(round=5, drop=3, removed=[(B, 2), (A, 2)])
    assert [s.vp for s in state.seats] == [4, 5]
    assert _museum(state) == {5: (B, 1), 9: (A, 1)}
    assert {307, 124, 205, 103} <= set(state.box)
    names = [type(e).__name__ for e in events]
    assert (
        names.index("MarkersScored")
        < names.index("AwardGiven")
        < names.index("MarkersDropped")
        < names.index("RoundEnded")
    )


# --- W5 -----------------------------------------------------------------------------------------


def _w5(backs=("bag", "chest"), purse=0, galleries=((131,), (244, 260), (307, 315))):
    state, _ = _created_with(2, [103, 108, 112, 119, 124], list(backs))
    for g in range(1, 6):
        gallery(state, g, list(galleries[g - 1]) if g <= len(galleries) else [])
    state.purse = purse
    return state


def test_w5_the_tomb_raider_on_space_7_is_paid_3_and_loots_gallery_iii():
    state = _w5()
    assert state.tomb_raider == 7 and state.placement_order == [A, B]
    state, events = _placed(state, {A: 3, B: 10}, [3, 6])
    assert _of(events, ev.FundsPaidOut)[0].payouts == [(A, 1), (TOMB_RAIDER, 3), (B, 5)]
    state, events = run(state, cmd.Excavate(seat=A, gallery=1))
    assert _of(events, ev.TombRaiderExcavated)[0] == ev.TombRaiderExcavated(gallery=3, cost=3, tiles=[307, 315])
    assert state.purse == 0 and {307, 315} <= set(state.box) and state.awaiting == B
    state, events = run(state, cmd.SkipExcavation(seat=B))
    while not _of(events, ev.RoundEnded):
        state, events = run(state, cmd.FinishExhibiting(seat=B))
    assert _of(events, ev.RoundEnded)[0].next_first_player == B and state.placement_order == [B, A]
    assert [type(e).__name__ for e in events][-3:] == ["FindsLaidOut", "FundingBacksDrawn", "TombRaiderPlaced"]


def test_w5_with_gallery_iii_empty_the_tomb_raider_loots_ii_and_keeps_1_coin():
    state = _w5(galleries=((131,), (244, 260), ()))
    state, _ = _placed(state, {A: 3, B: 10}, [3, 6])
    state, events = run(state, cmd.Excavate(seat=A, gallery=1))
    assert _of(events, ev.TombRaiderExcavated)[0].gallery == 2 and state.purse == 1


def test_w5_the_tomb_raider_left_most_takes_the_remaining_0_and_targets_gallery_i_with_a_purse_of_1():
    state = _w5(backs=("bag", "bag"), purse=1)
    assert state.tomb_raider == 5
    state, events = _placed(state, {A: 2, B: 4}, [1, 2])
    assert _of(events, ev.FundsPaidOut)[0].payouts == [(A, 1), (B, 2), (TOMB_RAIDER, 0)]
    state, _ = run(state, cmd.SkipExcavation(seat=A))
    state, events = run(state, cmd.SkipExcavation(seat=B))
    assert _of(events, ev.TombRaiderExcavated)[0] == ev.TombRaiderExcavated(gallery=1, cost=1, tiles=[131])
    assert state.purse == 0


# --- W6 -----------------------------------------------------------------------------------------


def _w6():
    state = last_turn(new_game(3), round=12)
    exhibit(state, A, 1, [590, 358, 453, 463], 12)
    exhibit(state, B, 1, [485, 436, 140], 8)
    exhibit(state, C, 1, [205, 103], 2)
    for seat, vp in zip((A, B, C), (30, 37, 35)):
        state.seats[seat].vp = vp
    return state


def test_w6_round_12_final_scoring_and_tie_break():
    state, events = run(_w6(), cmd.FinishExhibiting(seat=A))
    assert _of(events, ev.MarkersScored)[0].points == [3, 2, 1]
    assert _of(events, ev.AwardGiven)[0].winners == [A] and _of(events, ev.AwardGiven)[0].date == 558
    assert not _of(events, ev.MarkersDropped)
    assert _of(events, ev.FinalBonusGiven)[0].bonuses == [
        ev.Bonus(seat=A, date=558, vp=3),
        ev.Bonus(seat=A, date=463, vp=2),
        ev.Bonus(seat=B, date=440, vp=1),
    ]
    assert _of(events, ev.PergamonGameEnded)[0] == ev.PergamonGameEnded(
        scores=[40, 40, 36], places=[1, 2, 3], winners=[A]
    )
    assert state.finished and state.winners == [A]


def test_w6_a_tie_on_40_ranks_by_the_oldest_exhibited_object_and_no_object_ranks_last():
    state, _ = run(_w6(), cmd.FinishExhibiting(seat=A))
    state.seats[C].vp = 40
    assert ranking(state) == [1, 2, 3]
    state.seats[C].collections = []
    assert ranking(state) == [1, 2, 3]
