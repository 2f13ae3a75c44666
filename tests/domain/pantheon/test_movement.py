"""The Movement action and the follow-up moves (rules §4.1, §4.5): steps, placing pieces,
routes, loot, follow-ups. Jumps are in test_jumps.py."""

import pytest

from domain.pantheon import commands as cmd
from domain.pantheon import events as ev

from .helpers_actions import (
    PERSIA,
    action,
    agenda,
    cards_rng,
    column,
    drawn,
    end_action,
    follow_up,
    foot,
    move,
    moved,
    owns,
    persia,
    pieces,
    placed,
    steps_tile,
)
from .scenario import after, awaiting, given, then_error, when

# --- steps ------------------------------------------------------------------------------------


def test_the_rulebook_example_one_card_and_the_big_foot_give_three_steps():
    # Red plays 1 movement card: a foot next to the temple, a foot next to it, a column next
    # to the second foot.
    state = given(persia(hands={0: ["movement"]}))
    events = when(state, move(0, 1, foot(16, 5), foot(16, 6), column(16, 7)))
    assert events == [
        moved(0, 1, 3, placed("foot", (16, 5)), placed("foot", (16, 6)), placed("column", (16, 7))),
        agenda(follow_up(1), end_action(0)),
    ]
    later = after(state, events)
    assert later.seats[0].hand[0] == 0 and later.discard[0] == 1
    assert (later.seats[0].feet, later.seats[0].columns) == (4, 4)


def test_a_movement_with_zero_cards_has_the_big_foots_single_step():
    state = given(persia())
    assert when(state, move(0, 0, foot(16, 5))) == [
        moved(0, 0, 1, placed("foot", (16, 5))),
        agenda(follow_up(1), end_action(0)),
    ]
    then_error(state, move(0, 0, foot(16, 5), foot(16, 6)), "insufficient_steps")


def test_vinthrad_and_steps_tiles_add_their_steps_to_the_big_foot_and_the_cards():
    state = given(persia(hands={0: ["movement"]}), owns(0, "vinthrad-1"), steps_tile(0))
    places = [foot(16, 5), foot(16, 6), foot(15, 7), foot(15, 8), foot(14, 9)]
    assert when(state, move(0, 1, *places)) == [
        moved(0, 1, 5, *[placed("foot", p.hex) for p in places]),
        agenda(follow_up(1), end_action(0)),
    ]
    then_error(state, move(0, 0, *places[:4]), "insufficient_steps")


def test_unused_steps_are_lost_and_the_played_cards_are_discarded():
    state = given(persia(hands={0: ["movement", "movement", "movement"]}))
    events = when(state, move(0, 2, foot(16, 5)))
    assert events == [moved(0, 2, 5, placed("foot", (16, 5))), agenda(follow_up(1), end_action(0))]
    later = after(state, events)
    assert later.seats[0].hand[0] == 1 and later.discard[0] == 2


def test_a_movement_may_place_nothing():
    state = given(persia())
    assert when(state, move(0, 0)) == [moved(0, 0, 1), agenda(follow_up(1), end_action(0))]


def test_playing_movement_cards_you_do_not_hold_is_refused():
    state = given(persia(hands={0: ["movement", "money"]}))
    then_error(state, move(0, 2, foot(16, 5)), "cards_not_in_hand")
    then_error(state, move(0, -1), "cards_not_in_hand")


# --- where pieces may go ----------------------------------------------------------------------


def test_a_foot_must_go_next_to_the_temple_or_the_route():
    state = given(persia(hands={0: ["movement"]}))
    then_error(state, move(0, 0, foot(16, 6)), "not_connected")
    then_error(state, move(0, 1, foot(16, 5), foot(14, 4)), "not_connected")


def test_a_foot_may_stand_on_water_but_not_on_a_column_site():
    state = given(persia(hands={0: ["movement"]}))
    assert when(state, move(0, 1, foot(15, 5), foot(14, 5)))[0] == moved(
        0, 1, 3, placed("foot", (15, 5)), placed("foot", (14, 5))
    )
    then_error(state, move(0, 1, foot(16, 5), foot(15, 6)), "column_site")


def test_a_column_goes_only_on_a_column_site():
    state = given(persia(hands={0: ["movement"]}))
    then_error(state, move(0, 1, foot(16, 5), column(16, 6)), "not_a_column_site")


def test_a_column_must_touch_one_of_your_own_feet_on_the_route():
    # The column site (15, 6) touches seat 1's foot at (16, 5); seat 0's foot at (17, 4) is on
    # seat 0's route but does not touch the site; its foot at (15, 5) does.
    state = given(persia(hands={0: ["movement"]}), pieces(1, ("foot", (16, 5))))
    then_error(state, move(0, 0, column(15, 6)), "column_needs_own_foot")
    then_error(state, move(0, 1, foot(17, 4), column(15, 6)), "column_needs_own_foot")
    assert when(state, move(0, 1, foot(15, 5), column(15, 6)))[0] == moved(
        0, 1, 3, placed("foot", (15, 5)), placed("column", (15, 6))
    )


def test_no_piece_may_go_on_the_temple_hex():
    state = given(persia(hands={0: ["movement"]}))
    then_error(state, move(0, 1, foot(16, 5), foot(*PERSIA)), "temple_hex")


def test_a_hex_holding_another_seats_piece_costs_one_extra_step():
    state = given(persia(hands={0: ["movement"]}), pieces(1, ("foot", (16, 5))))
    assert when(state, move(0, 1, foot(16, 5), foot(16, 6)))[0] == moved(
        0, 1, 3, placed("foot", (16, 5), cost=2), placed("foot", (16, 6))
    )
    then_error(state, move(0, 0, foot(16, 5)), "insufficient_steps")


def test_a_hex_never_holds_two_pieces_of_one_seat():
    state = given(persia(hands={0: ["movement"]}), pieces(0, ("foot", (16, 5))))
    then_error(state, move(0, 0, foot(16, 5)), "own_piece_on_hex")
    fresh = given(persia(hands={0: ["movement"]}))
    then_error(fresh, move(0, 1, foot(16, 5), foot(16, 5)), "own_piece_on_hex")


def test_a_hex_holds_at_most_two_pieces():
    state = given(persia(3, hands={0: ["movement"]}), pieces(1, ("foot", (16, 5))), pieces(2, ("foot", (16, 5))))
    then_error(state, move(0, 1, foot(16, 5)), "hex_full")


def test_pieces_come_from_the_personal_reserve():
    state = given(
        persia(hands={0: ["movement"] * 3}),
        pieces(0, ("foot", (15, 5)), ("foot", (14, 5)), ("foot", (13, 6)), ("foot", (17, 4)), ("foot", (17, 3))),
    )
    assert state.seats[0].feet == 1
    then_error(state, move(0, 2, foot(16, 5), foot(16, 6)), "empty_reserve")


def test_a_placement_on_a_hex_that_is_not_on_the_map_is_refused():
    state = given(persia())
    then_error(state, move(0, 0, foot(40, 40)), "unknown_hex")


# --- routes -----------------------------------------------------------------------------------


def test_another_seats_pieces_do_not_extend_your_route():
    state = given(persia(), pieces(1, ("foot", (16, 5))))
    then_error(state, move(0, 0, foot(16, 6)), "not_connected")


def test_an_old_column_joins_the_route_when_a_new_foot_touches_it():
    # The rulebook's example: Yellow (2 cards, 5 steps) places 2 feet from the temple to reach
    # his column of an earlier epoch, then 2 feet and 1 column behind that column.
    # Epoch 1 in Persia: Yellow builds the column at (15, 6). Epoch 2 is Aegyptus, temple (12, 9).
    state = given(
        persia(hands={0: ["movement", "movement"]}),
        pieces(0, ("foot", (16, 5)), ("column", (15, 6))),
        ev.EpochEnded(epoch=1, next_starting_seat=0),
        ev.NationRevealed(epoch=2, nation="aegyptus"),
        ev.GodsRevealed(tiles=["surparit-2", "taksator-2", "gadicea-2"]),
        ev.LootPlaced(tiles=[((14, 9), "draw_2"), ((10, 10), "draw_2"), ((13, 10), "draw_2")]),
        ev.TemplePlaced(hex=(12, 9)),
        agenda(*action(0)),
    )
    behind = [foot(16, 5), foot(16, 6), column(16, 7)]
    then_error(state, move(0, 2, *behind), "not_connected")
    events = when(state, move(0, 2, foot(13, 8), foot(14, 7), *behind))
    assert events == [
        moved(
            0,
            2,
            5,
            placed("foot", (13, 8)),
            placed("foot", (14, 7)),
            placed("foot", (16, 5)),
            placed("foot", (16, 6)),
            placed("column", (16, 7)),
        ),
        agenda(follow_up(1), end_action(0)),
    ]


# --- loot -------------------------------------------------------------------------------------


def test_a_foot_on_a_loot_hex_takes_the_tile_and_it_is_activated_after_the_move():
    state = given(persia(hands={0: ["movement"]}))
    assert when(state, move(0, 1, foot(16, 5), foot(17, 5))) == [
        moved(0, 1, 3, placed("foot", (16, 5)), placed("foot", (17, 5)), loot=["draw_2"]),
        ev.LootActivated(seat=0, tile="draw_2"),
        drawn(0, "loot", "movement", "movement"),
        agenda(follow_up(1), end_action(0)),
    ]


def test_loot_tiles_are_activated_in_the_order_they_were_taken():
    state = given(persia(hands={0: ["movement"]}, loot={(17, 5): "money_card", (18, 3): "half_god", (18, 2): "draw_2"}))
    assert when(state, move(0, 1, foot(17, 4), foot(18, 3), foot(17, 5))) == [
        moved(
            0,
            1,
            3,
            placed("foot", (17, 4)),
            placed("foot", (18, 3)),
            placed("foot", (17, 5)),
            loot=["half_god", "money_card"],
        ),
        ev.LootActivated(seat=0, tile="half_god"),
        ev.HalfGodTaken(seat=0, source="stack", value=1),
        ev.LootActivated(seat=0, tile="money_card"),
        ev.SpecialMoneyTaken(seat=0, value=2),
        agenda(follow_up(1), end_action(0)),
    ]


# --- follow-ups -------------------------------------------------------------------------------


def test_the_other_seats_follow_up_in_clockwise_order_starting_left_of_the_mover():
    state = given(persia(4, seat=2))
    assert when(state, move(2, 0)) == [
        moved(2, 0, 1),
        agenda(follow_up(3), follow_up(0), follow_up(1), end_action(2)),
    ]


def test_a_follow_up_move_has_no_big_foot():
    state = given(persia(hands={1: ["movement"]}), moved(0, 0, 1), agenda(follow_up(1), end_action(0)))
    assert awaiting(state) == (1, "follow_up")
    assert when(state, move(1, 1, foot(16, 5), foot(16, 6))) == [
        moved(1, 1, 2, placed("foot", (16, 5)), placed("foot", (16, 6)), big_foot=False),
        agenda(*action(1)),
    ]
    then_error(state, move(1, 1, foot(16, 5), foot(16, 6), foot(15, 7)), "insufficient_steps")


def test_a_follow_up_counts_vinthrad_and_steps_tiles_even_without_cards():
    state = given(persia(), owns(1, "vinthrad-1"), steps_tile(1), moved(0, 0, 1), agenda(follow_up(1), end_action(0)))
    assert when(state, move(1, 0, foot(16, 5), foot(16, 6))) == [
        moved(1, 0, 2, placed("foot", (16, 5)), placed("foot", (16, 6)), big_foot=False),
        agenda(*action(1)),
    ]


def test_a_follow_up_move_without_any_step_is_refused():
    state = given(persia(), moved(0, 0, 1), agenda(follow_up(1), end_action(0)))
    then_error(state, move(1, 0), "no_steps")


def test_declining_a_follow_up_draws_one_card_from_the_draw_pile():
    state = given(persia(hands={1: ["movement"]}), moved(0, 0, 1), agenda(follow_up(1), end_action(0)))
    assert when(state, cmd.Pass(seat=1), cards_rng(state, "priest")) == [
        ev.FollowUpDeclined(seat=1),
        drawn(1, "follow_up_declined", "priest"),
        agenda(*action(1)),
    ]


def test_a_follow_up_that_places_nothing_still_counts_as_a_move_and_draws_no_card():
    state = given(persia(hands={1: ["movement"]}), moved(0, 0, 1), agenda(follow_up(1), end_action(0)))
    events = when(state, move(1, 1))
    assert events == [moved(1, 1, 2, big_foot=False), agenda(*action(1))]
    assert after(state, events).seats[1].hand == [0] * 10


def test_a_follow_up_seats_loot_is_activated_before_the_next_follow_up():
    state = given(persia(3, hands={1: ["movement"]}), moved(0, 0, 1), agenda(follow_up(1), follow_up(2), end_action(0)))
    assert when(state, move(1, 1, foot(16, 5), foot(17, 5))) == [
        moved(1, 1, 2, placed("foot", (16, 5)), placed("foot", (17, 5)), big_foot=False, loot=["draw_2"]),
        ev.LootActivated(seat=1, tile="draw_2"),
        drawn(1, "loot", "movement", "movement"),
        agenda(follow_up(2), end_action(0)),
    ]


def test_only_the_awaited_seat_may_follow_up():
    state = given(persia(3), moved(0, 0, 1), agenda(follow_up(1), follow_up(2), end_action(0)))
    then_error(state, cmd.Pass(seat=2), "not_your_turn")
    then_error(state, cmd.Buy(seat=1, money={"money": 1}), "wrong_command")


def test_the_rulebooks_follow_up_example():
    # Red (seat 0) moves with 1 card; Green (seat 1) follows with 1 card and 2 feet; Yellow
    # (seat 2) plays 3 cards: 2 feet, a column on Red's column hex for 2 steps, a foot on the
    # loot tile, and abandons the sixth step; then the loot is activated.
    state = given(persia(3, hands={0: ["movement"], 1: ["movement"], 2: ["movement"] * 3}))
    red = when(state, move(0, 1, foot(15, 5), foot(14, 6), column(15, 6)))
    assert red == [
        moved(0, 1, 3, placed("foot", (15, 5)), placed("foot", (14, 6)), placed("column", (15, 6))),
        agenda(follow_up(1), follow_up(2), end_action(0)),
    ]
    state = after(state, red)
    green = when(state, move(1, 1, foot(17, 4), foot(17, 3)))
    assert green == [
        moved(1, 1, 2, placed("foot", (17, 4)), placed("foot", (17, 3)), big_foot=False),
        agenda(follow_up(2), end_action(0)),
    ]
    state = after(state, green)
    yellow = when(state, move(2, 3, foot(16, 5), foot(16, 6), column(15, 6), foot(17, 5)))
    assert yellow == [
        moved(
            2,
            3,
            6,
            placed("foot", (16, 5)),
            placed("foot", (16, 6)),
            placed("column", (15, 6), cost=2),
            placed("foot", (17, 5)),
            big_foot=False,
            loot=["draw_2"],
        ),
        ev.LootActivated(seat=2, tile="draw_2"),
        drawn(2, "loot", "movement", "movement"),
        agenda(*action(1)),
    ]


def test_the_rulebooks_example_of_branching_routes_and_a_declined_follow_up():
    # Green (seat 0, 2 cards, 5 steps) adds a column to his 2 feet of an earlier move, then 2 feet
    # and a column on the other side of the temple: 4 steps. Yellow (seat 1, 3 cards) places
    # 2 feet and a column there for 5 steps because of Green's foot and column. Red (seat 2)
    # draws a card instead of moving.
    state = given(
        persia(3, hands={0: ["movement"] * 2, 1: ["movement"] * 3, 2: ["movement"]}),
        pieces(0, ("foot", (16, 5)), ("foot", (16, 6))),
    )
    green = when(state, move(0, 2, column(16, 7), foot(15, 4), foot(14, 4), column(13, 5)))
    assert green == [
        moved(
            0,
            2,
            5,
            placed("column", (16, 7)),
            placed("foot", (15, 4)),
            placed("foot", (14, 4)),
            placed("column", (13, 5)),
        ),
        agenda(follow_up(1), follow_up(2), end_action(0)),
    ]
    state = after(state, green)
    yellow = when(state, move(1, 3, foot(15, 4), foot(14, 5), column(13, 5)))
    assert yellow == [
        moved(
            1,
            3,
            6,
            placed("foot", (15, 4), cost=2),
            placed("foot", (14, 5)),
            placed("column", (13, 5), cost=2),
            big_foot=False,
        ),
        agenda(follow_up(2), end_action(0)),
    ]
    state = after(state, yellow)
    red = when(state, cmd.Pass(seat=2))
    assert red == [ev.FollowUpDeclined(seat=2), drawn(2, "follow_up_declined", "movement"), agenda(*action(1))]


# --- malformed commands -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        {"type": "move", "seat": 0, "cards": "1"},
        {"type": "move", "seat": 0, "cards": 1.0},
        {"type": "move", "seat": 0, "placements": [{"piece": "statue", "hex": [16, 5]}]},
        {"type": "move", "seat": 0, "placements": [{"piece": "foot", "hex": [16, 5, 0]}]},
        {"type": "move", "seat": 0, "placements": [{"piece": "foot", "hex": "16,5"}]},
        {"type": "move", "seat": 0, "placements": [{"piece": "foot", "hex": [16, 5], "jump": "yes"}]},
        {"type": "move", "seat": 0, "placements": [{"piece": "foot", "hex": [16, 5], "steps": 1}]},
        {"type": "move", "seat": 0, "placements": {"piece": "foot", "hex": [16, 5]}},
        {"type": "move", "seat": 0, "cards": 2**70},
        {"type": "move"},
        cmd.Move(seat=0, placements=[cmd.Place(piece="foot", hex=(float("nan"), 5))]),
    ],
)
def test_a_malformed_move_is_refused_with_a_stable_code(command):
    then_error(given(persia(hands={0: ["movement"]})), command, "malformed_command")
