"""Gaiviles jumps (rules §4.5, §5): a foot goes two hexes in a straight line from the route over
a hex holding another seat's piece, once per Gaiviles in a movement. Persia, temple (16, 4)."""

from domain.pantheon import commands as cmd
from domain.pantheon import events as ev

from .helpers_actions import (
    action,
    agenda,
    column,
    end_action,
    follow_up,
    foot,
    move,
    moved,
    owns,
    persia,
    pieces,
    placed,
)
from .scenario import given, then_error, when


def jump(q: int, r: int) -> cmd.Place:
    return foot(q, r, jump=True)


def test_a_gaiviles_lets_a_foot_jump_over_another_seats_piece():
    state = given(persia(), owns(0, "gaiviles-1"), pieces(1, ("foot", (16, 5))))
    assert when(state, move(0, 0, jump(16, 6))) == [
        moved(0, 0, 1, placed("foot", (16, 6), jump=True)),
        agenda(follow_up(1), end_action(0)),
    ]


def test_the_rulebooks_gaiviles_example_jumps_diagonally_away_from_the_temple_then_builds():
    # Yellow jumps over Green's foot, then places a column next to the foot that landed.
    state = given(persia(hands={0: ["movement"]}), owns(0, "gaiviles-1"), pieces(1, ("foot", (16, 5))))
    assert when(state, move(0, 1, jump(16, 6), column(16, 7))) == [
        moved(0, 1, 3, placed("foot", (16, 6), jump=True), placed("column", (16, 7))),
        agenda(follow_up(1), end_action(0)),
    ]


def test_a_jump_may_start_from_any_hex_of_the_route_and_go_over_a_column():
    # From seat 0's foot at (15, 5) over seat 1's column at (15, 6) to (15, 7).
    state = given(
        persia(), owns(0, "gaiviles-1"), pieces(0, ("foot", (15, 5))), pieces(1, ("foot", (16, 5)), ("column", (15, 6)))
    )
    assert when(state, move(0, 0, jump(15, 7)))[0] == moved(0, 0, 1, placed("foot", (15, 7), jump=True))


def test_a_jump_may_go_over_a_hex_holding_two_pieces():
    state = given(persia(3), owns(0, "gaiviles-1"), pieces(1, ("foot", (16, 5))), pieces(2, ("foot", (16, 5))))
    assert when(state, move(0, 0, jump(16, 6)))[0] == moved(0, 0, 1, placed("foot", (16, 6), jump=True))


def test_a_jump_over_a_hex_holding_an_own_and_another_seats_piece_is_allowed():
    state = given(persia(), owns(0, "gaiviles-1"), pieces(0, ("foot", (16, 5))), pieces(1, ("foot", (16, 5))))
    assert when(state, move(0, 0, jump(16, 6)))[0] == moved(0, 0, 1, placed("foot", (16, 6), jump=True))


def test_a_jump_onto_a_hex_with_another_seats_piece_costs_two_steps():
    state = given(persia(), owns(0, "gaiviles-1"), pieces(1, ("foot", (16, 5)), ("foot", (16, 6))))
    then_error(state, move(0, 0, jump(16, 6)), "insufficient_steps")
    state = given(
        persia(hands={0: ["movement"]}), owns(0, "gaiviles-1"), pieces(1, ("foot", (16, 5)), ("foot", (16, 6)))
    )
    assert when(state, move(0, 1, jump(16, 6)))[0] == moved(0, 1, 3, placed("foot", (16, 6), cost=2, jump=True))


def test_a_foot_that_jumps_onto_a_loot_hex_takes_the_tile():
    state = given(persia(), owns(0, "gaiviles-1"), pieces(1, ("foot", (17, 3))))
    assert when(state, move(0, 0, jump(18, 2))) == [
        moved(0, 0, 1, placed("foot", (18, 2), jump=True), loot=["draw_2"]),
        ev.LootActivated(seat=0, tile="draw_2"),
        ev.CardsDrawn(seat=0, count=2, cards=["movement", "movement"], reason="loot"),
        agenda(follow_up(1), end_action(0)),
    ]


def test_jumping_over_an_empty_hex_is_refused():
    state = given(persia(), owns(0, "gaiviles-1"))
    then_error(state, move(0, 0, jump(16, 6)), "illegal_jump")


def test_jumping_over_only_your_own_pieces_is_refused():
    state = given(persia(), owns(0, "gaiviles-1"), pieces(0, ("foot", (16, 5))))
    then_error(state, move(0, 0, jump(16, 6)), "illegal_jump")


def test_jumping_over_two_hexes_is_refused_even_with_two_gaiviles():
    # The rulebook's left picture: Green may not jump over both of Yellow's pieces at once.
    state = given(persia(), owns(0, "gaiviles-1", "gaiviles-2"), pieces(1, ("foot", (15, 5)), ("foot", (14, 6))))
    then_error(state, move(0, 0, jump(13, 7)), "illegal_jump")


def test_two_gaiviles_give_two_jumps_in_one_movement():
    # The rulebook's right picture: Green jumps over one of Yellow's pieces, then over the other.
    state = given(
        persia(hands={0: ["movement"]}),
        owns(0, "gaiviles-1", "gaiviles-2"),
        pieces(1, ("foot", (15, 5)), ("foot", (13, 7))),
    )
    assert when(state, move(0, 1, jump(14, 6), jump(12, 8)))[0] == moved(
        0, 1, 3, placed("foot", (14, 6), jump=True), placed("foot", (12, 8), jump=True)
    )


def test_one_gaiviles_gives_only_one_jump_per_movement():
    state = given(
        persia(hands={0: ["movement"]}), owns(0, "gaiviles-1"), pieces(1, ("foot", (15, 5)), ("foot", (13, 7)))
    )
    then_error(state, move(0, 1, jump(14, 6), jump(12, 8)), "no_jump_left")


def test_without_a_gaiviles_there_is_no_jump():
    state = given(persia(), pieces(1, ("foot", (16, 5))))
    then_error(state, move(0, 0, jump(16, 6)), "no_jump_left")


def test_a_jump_uses_a_gaiviles_even_where_a_plain_placement_would_do():
    # (16, 6) touches seat 0's foot at (16, 5), so it needs no jump; jumping there still uses it.
    state = given(
        persia(hands={0: ["movement"]}),
        owns(0, "gaiviles-1"),
        pieces(0, ("foot", (16, 5))),
        pieces(1, ("foot", (16, 5)), ("foot", (15, 5))),
    )
    then_error(state, move(0, 1, jump(16, 6), jump(14, 6)), "no_jump_left")
    assert when(state, move(0, 1, foot(16, 6), jump(14, 6)))[0] == moved(
        0, 1, 3, placed("foot", (16, 6)), placed("foot", (14, 6), jump=True)
    )


def test_only_a_foot_can_jump():
    state = given(persia(), owns(0, "gaiviles-1"), pieces(1, ("foot", (16, 5)), ("foot", (16, 6))))
    jumping_column = cmd.Place(piece="column", hex=(16, 7), jump=True)
    then_error(state, move(0, 0, jumping_column), "illegal_jump")


def test_a_follow_up_move_may_jump_too():
    state = given(
        persia(hands={1: ["movement"]}),
        owns(1, "gaiviles-1"),
        pieces(0, ("foot", (16, 5))),
        moved(0, 0, 1),
        agenda(follow_up(1), end_action(0)),
    )
    assert when(state, move(1, 1, jump(16, 6))) == [
        moved(1, 1, 2, placed("foot", (16, 6), jump=True), big_foot=False),
        agenda(*action(1)),
    ]


def test_a_gaiviles_jump_is_available_again_in_the_next_movement():
    state = given(
        persia(),
        owns(0, "gaiviles-1"),
        pieces(1, ("foot", (16, 5)), ("foot", (15, 5))),
        moved(0, 0, 1, placed("foot", (16, 6), jump=True)),
    )
    assert when(state, move(0, 0, jump(14, 6)))[0] == moved(0, 0, 1, placed("foot", (14, 6), jump=True))
