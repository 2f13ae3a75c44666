"""The Buying action (rules §4.2): money cards and Stonkus, sacrifice tiles, pieces, placing by
money, loot taken while placing. Persia, temple (16, 4)."""

from domain.pantheon import commands as cmd
from domain.pantheon import events as ev

from .helpers_actions import (
    action,
    agenda,
    levels,
    owns,
    persia,
    pieces,
    special_money,
    steps_tile,
)
from .scenario import BOARD, after, given, then_error, when


def tile(kind: str, level: int) -> cmd.SacrificeTile:
    return cmd.SacrificeTile(kind=kind, level=level)


def reserve(piece: str, count: int = 1) -> cmd.Reserve:
    return cmd.Reserve(piece=piece, count=count)


def place(piece: str, q: int, r: int) -> cmd.PlacePiece:
    return cmd.PlacePiece(piece=piece, hex=(q, r))


def buy(seat: int, money: dict[str, int], *purchases) -> cmd.Buy:
    return cmd.Buy(seat=seat, money=money, purchases=list(purchases))


def bought(
    seat: int, money: list[str], budget: int, purchases: list, costs: list[int], loot: list[str] | None = None
) -> ev.Bought:
    return ev.Bought(seat=seat, money=money, budget=budget, purchases=purchases, costs=costs, loot=loot or [])


def test_the_rulebooks_purchase_example_spends_eight_money():
    # Green plays 8 money: a dancer tile level 1 and a priest tile level 2 (4), a foot and a
    # column from the general reserve (2), and places the column on a column site that already
    # holds Yellow's column (2).
    state = given(
        persia(hands={0: ["money"]}),
        special_money(0, 2, 2, 3),
        pieces(0, ("foot", (16, 5))),
        pieces(1, ("column", (15, 6))),
    )
    purchases = [tile("dancer", 1), tile("priest", 2), reserve("foot"), reserve("column"), place("column", 15, 6)]
    command = buy(0, {"money": 1, "money_2": 2, "money_3": 1}, *purchases)
    events = when(state, command)
    assert events == [
        bought(0, ["money", "money_2", "money_2", "money_3"], 8, purchases, [1, 3, 1, 1, 2]),
        agenda(*action(1)),
    ]
    later = after(state, events)
    me = later.seats[0]
    assert me.sacrifice == [2, 1, 0, 0]
    assert (me.feet, me.general_feet, me.columns, me.general_columns) == (6, 5, 5, 6)
    assert later.occupants[BOARD.index_of[(15, 6)]] == [1 * 2 + 1, 0 * 2 + 1]  # both columns


def test_played_money_cards_go_to_the_discard_pile_and_special_money_stays_in_the_game():
    state = given(persia(hands={0: ["money"]}), special_money(0, 2))
    events = when(state, buy(0, {"money": 1, "money_2": 1}, reserve("foot", 3)))
    later = after(state, events)
    assert later.seats[0].hand == [0] * 10
    assert later.discard == [0, 0, 0, 0, 0, 1, 1, 0, 0, 0]
    assert later.special_money == [2, 3, 3, 4, 4, 5]


def test_no_change_is_given_and_the_purchases_may_be_none_at_all():
    state = given(persia(hands={0: ["money", "money", "money"]}))
    assert when(state, buy(0, {"money": 3}, reserve("foot"))) == [
        bought(0, ["money"] * 3, 3, [reserve("foot")], [1]),
        agenda(*action(1)),
    ]
    assert when(state, buy(0, {"money": 1})) == [bought(0, ["money"], 1, [], []), agenda(*action(1))]


def test_purchases_costing_more_than_the_money_played_are_refused():
    state = given(persia(hands={0: ["money"] * 3}))
    then_error(state, buy(0, {"money": 2}, tile("dancer", 1), reserve("foot"), reserve("column")), "insufficient_money")
    then_error(state, buy(0, {"money": 3}, tile("temple", 3)), "insufficient_money")


def test_an_upgrade_costs_the_price_difference_so_one_to_three_costs_five():
    state = given(persia(hands={0: ["money"] * 5}), levels(0, temple=1))
    upgrade = tile("temple", 3)
    assert when(state, buy(0, {"money": 5}, upgrade)) == [
        bought(0, ["money"] * 5, 5, [upgrade], [5]),
        agenda(*action(1)),
    ]
    then_error(state, buy(0, {"money": 4}, upgrade), "insufficient_money")


def test_a_new_sacrifice_tile_may_be_bought_at_any_level_and_raised_again_in_the_same_buying():
    state = given(persia(hands={0: ["money"] * 10}))
    purchases = [tile("offering", 2), tile("offering", 4)]
    assert when(state, buy(0, {"money": 10}, *purchases)) == [
        bought(0, ["money"] * 10, 10, purchases, [3, 7]),
        agenda(*action(1)),
    ]


def test_a_sacrifice_tile_cannot_be_bought_at_or_below_the_level_owned_nor_beyond_level_four():
    state = given(persia(hands={0: ["money"] * 5}), levels(0, priest=2))
    then_error(state, buy(0, {"money": 5}, tile("priest", 2)), "not_an_upgrade")
    then_error(state, buy(0, {"money": 5}, tile("priest", 1)), "not_an_upgrade")
    then_error(state, buy(0, {"money": 5}, tile("dancer", 5)), "bad_level")
    then_error(state, buy(0, {"money": 5}, tile("dancer", 0)), "bad_level")


def test_stonkus_pays_for_a_buying_without_any_money_card():
    state = given(persia(), owns(0, "stonkus-1"))
    assert when(state, buy(0, {}, reserve("column"))) == [
        bought(0, [], 1, [reserve("column")], [1]),
        agenda(*action(1)),
    ]


def test_stonkus_adds_its_money_value_to_the_cards_played():
    state = given(persia(hands={0: ["money"]}), owns(0, "stonkus-1", "stonkus-3"))
    assert when(state, buy(0, {"money": 1}, tile("dancer", 2), reserve("foot"))) == [
        bought(0, ["money"], 4, [tile("dancer", 2), reserve("foot")], [3, 1]),
        agenda(*action(1)),
    ]


def test_buying_without_money_cards_or_a_stonkus_is_refused():
    state = given(persia(hands={0: ["money"]}))
    then_error(state, buy(0, {}), "no_money")
    then_error(state, buy(0, {"money": 0}, reserve("foot")), "no_money")


def test_only_money_cards_you_hold_may_be_played():
    state = given(persia(hands={0: ["money", "movement"]}))
    then_error(state, buy(0, {"movement": 1}), "wrong_card")
    then_error(state, buy(0, {"money": 2}), "cards_not_in_hand")
    then_error(state, buy(0, {"money_2": 1}), "cards_not_in_hand")
    then_error(state, buy(0, {"money": -1}), "bad_count")


def test_pieces_come_from_the_general_reserve_at_one_money_each_while_it_has_them():
    state = given(persia(hands={0: ["money"] * 7}))
    assert state.seats[0].general_feet == 6
    assert when(state, buy(0, {"money": 7}, reserve("foot", 6), reserve("column")))[0] == bought(
        0, ["money"] * 7, 7, [reserve("foot", 6), reserve("column")], [6, 1]
    )
    then_error(state, buy(0, {"money": 7}, reserve("foot", 7)), "general_reserve_empty")
    then_error(state, buy(0, {"money": 7}, reserve("foot", 4), reserve("foot", 3)), "general_reserve_empty")
    then_error(state, buy(0, {"money": 7}, reserve("foot", 0)), "bad_count")


def test_a_piece_just_bought_may_be_placed_in_the_same_buying():
    state = given(
        persia(hands={0: ["money"] * 2}),
        pieces(0, *[("foot", hex) for hex in [(15, 5), (14, 5), (14, 6), (17, 4), (17, 3), (16, 3)]]),
    )
    assert state.seats[0].feet == 0
    then_error(state, buy(0, {"money": 2}, place("foot", 16, 5)), "empty_reserve")
    purchases = [reserve("foot"), place("foot", 16, 5)]
    assert when(state, buy(0, {"money": 2}, *purchases))[0] == bought(0, ["money"] * 2, 2, purchases, [1, 1])


def test_placing_by_money_follows_the_placement_rules_and_costs_two_on_an_occupied_hex():
    state = given(persia(hands={0: ["money"] * 3}), pieces(1, ("foot", (16, 5))))
    then_error(state, buy(0, {"money": 3}, place("foot", 16, 4)), "temple_hex")
    then_error(state, buy(0, {"money": 3}, place("foot", 15, 6)), "column_site")
    then_error(state, buy(0, {"money": 3}, place("column", 15, 6)), "column_needs_own_foot")
    then_error(state, buy(0, {"money": 3}, place("foot", 14, 4)), "not_connected")
    purchases = [place("foot", 16, 5), place("column", 15, 6)]
    assert when(state, buy(0, {"money": 3}, *purchases))[0] == bought(0, ["money"] * 3, 3, purchases, [2, 1])


def test_placing_by_money_gets_no_vinthrad_steps_tile_or_gaiviles_jump():
    state = given(
        persia(hands={0: ["money"]}), owns(0, "vinthrad-1", "gaiviles-1"), steps_tile(0), pieces(1, ("foot", (16, 5)))
    )
    then_error(state, buy(0, {"money": 1}, place("foot", 17, 4), place("foot", 17, 3)), "insufficient_money")
    then_error(state, buy(0, {"money": 1}, place("foot", 16, 6)), "not_connected")


def test_a_placement_by_money_cannot_ask_for_a_jump():
    state = given(persia(hands={0: ["money"]}), owns(0, "gaiviles-1"), pieces(1, ("foot", (16, 5))))
    command = {
        "type": "buy",
        "seat": 0,
        "money": {"money": 1},
        "purchases": [{"type": "place", "piece": "foot", "hex": [16, 6], "jump": True}],
    }
    then_error(state, command, "malformed_command")


def test_buying_has_no_follow_up_moves_by_the_other_seats():
    state = given(persia(3, seat=1, hands={1: ["money"]}))
    assert when(state, buy(1, {"money": 1}, place("foot", 16, 5))) == [
        bought(1, ["money"], 1, [place("foot", 16, 5)], [1]),
        agenda(*action(2)),
    ]


def test_loot_taken_while_placing_is_activated_at_the_end_in_the_order_taken():
    state = given(
        persia(hands={0: ["money"] * 4}, loot={(17, 5): "money_card", (18, 3): "half_god", (18, 2): "draw_2"})
    )
    purchases = [place("foot", 17, 4), place("foot", 18, 3), place("foot", 17, 5), reserve("column")]
    assert when(state, buy(0, {"money": 4}, *purchases)) == [
        bought(0, ["money"] * 4, 4, purchases, [1, 1, 1, 1], loot=["half_god", "money_card"]),
        ev.LootActivated(seat=0, tile="half_god"),
        ev.HalfGodTaken(seat=0, source="stack", value=1),
        ev.LootActivated(seat=0, tile="money_card"),
        ev.SpecialMoneyTaken(seat=0, value=2),
        agenda(*action(1)),
    ]


def test_malformed_buying_commands_are_refused_with_a_stable_code():
    state = given(persia(hands={0: ["money"]}))
    for command in [
        {"type": "buy", "seat": 0, "money": {"money": "1"}},
        {"type": "buy", "seat": 0, "money": {"money": 1}, "purchases": [{"type": "statue"}]},
        {"type": "buy", "seat": 0, "money": {"money": 1}, "purchases": [{"type": "reserve", "piece": "temple"}]},
        {
            "type": "buy",
            "seat": 0,
            "money": {"money": 1},
            "purchases": [{"type": "place", "piece": "foot", "hex": [16]}],
        },
        {"type": "buy", "seat": "0", "money": {"money": 1}},
        buy(0, {"money": 1}, cmd.SacrificeTile(kind="dancer", level=1.5)),
    ]:
        then_error(state, command, "malformed_command")
