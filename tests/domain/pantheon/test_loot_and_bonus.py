"""Loot tiles, activated at the end of the Movement or Buying that took them, and bonus tiles,
resolved at step 7 of epoch 1 (rules §7)."""

import pytest

from domain.pantheon import events as ev
from domain.pantheon.commands import (
    Buy,
    ChooseReserve,
    ImproveSacrifice,
    Move,
    Options,
    Pass,
    Place,
    PlaceColumn,
    PlacePiece,
)

from .helpers_flow import (
    drawn,
    first_action,
    play,
    run_tasks,
    stack_index,
    temple,
    usable_loot,
)
from .scenario import (
    BOARD,
    ScriptedRng,
    Task,
    after,
    given,
    then_error,
    turn_phase,
    when,
)

FOLLOW = [Task(kind="follow_up", seat=1), Task(kind="end_action", seat=0, n=0)]
TO_LOOT = [Place(piece="foot", hex=(8, 4)), Place(piece="foot", hex=(7, 4))]  # (7, 4) is a roma loot hex


def roma(loot_at_7_4: str, *extra, epoch: int = 1, others: str = "draw_2"):
    loot = {(8, 3): others, (7, 4): loot_at_7_4, (9, 6): others}
    return given(turn_phase(2, nation="roma", epoch=epoch, hands={0: ["movement"] * 2}, loot=loot), *extra)


def moved(*loot: str, hexes=((8, 4), (7, 4))) -> ev.Moved:
    return ev.Moved(
        seat=0,
        cards=1,
        big_foot=True,
        steps=3,
        loot=list(loot),
        placements=[ev.Placed(piece="foot", hex=h, cost=1) for h in hexes],
    )


def take(tile: str, *extra, rng=None, epoch: int = 1):
    state = roma(tile, *extra, epoch=epoch)
    return state, when(state, Move(seat=0, cards=1, placements=TO_LOOT), rng)


# --- loot: when -------------------------------------------------------------------------------


@pytest.mark.parametrize("first, second", [("draw_2", "money_card"), ("money_card", "draw_2")])
def test_loot_tiles_are_activated_after_the_movement_in_the_order_they_were_taken(first, second):
    state = given(turn_phase(2, hands={0: ["movement"]}, loot={(8, 3): first, (7, 4): second, (9, 6): "steps_1"}))
    hexes = ((8, 4), (8, 3), (7, 4))
    events = when(state, Move(seat=0, cards=1, placements=[Place(piece="foot", hex=h) for h in hexes]))
    effects = {
        "draw_2": [drawn(0, ["movement", "movement"], "loot")],
        "money_card": [ev.SpecialMoneyTaken(seat=0, value=2)],
    }
    assert events == [
        moved(first, second, hexes=hexes),
        ev.LootActivated(seat=0, tile=first),
        *effects[first],
        ev.LootActivated(seat=0, tile=second),
        *effects[second],
        ev.AgendaSet(tasks=FOLLOW),
    ]


def test_a_steps_tile_taken_during_a_movement_adds_no_step_to_that_movement():
    state = roma("steps_1")
    beyond = [Place(piece="foot", hex=(7, 3)), Place(piece="foot", hex=(8, 3))]
    then_error(state, Move(seat=0, cards=1, placements=[*TO_LOOT, *beyond]), "insufficient_steps")


def test_loot_taken_in_buying_is_activated_at_the_end_of_the_buying():
    state = given(
        turn_phase(2, hands={0: ["money", "money"]}, loot={(8, 3): "draw_2", (7, 4): "money_card", (9, 6): "draw_2"})
    )
    purchases = [PlacePiece(piece=p.piece, hex=p.hex) for p in TO_LOOT]
    assert when(state, Buy(seat=0, money={"money": 2}, purchases=purchases)) == [
        ev.Bought(seat=0, money=["money", "money"], budget=2, purchases=purchases, costs=[1, 1], loot=["money_card"]),
        ev.LootActivated(seat=0, tile="money_card"),
        ev.SpecialMoneyTaken(seat=0, value=2),
        first_action(1),
    ]


# --- loot: effects ----------------------------------------------------------------------------

RESERVE = "reserve_2_feet_or_2_columns"


@pytest.mark.parametrize("piece, feet, columns", [("foot", 2, 0), ("column", 0, 2)])
def test_a_reserve_loot_tile_gives_two_feet_or_two_columns_as_the_seat_chooses(piece, feet, columns):
    state, events = take(RESERVE)
    assert events == [
        moved(RESERVE),
        ev.LootActivated(seat=0, tile=RESERVE),
        ev.AgendaSet(tasks=[Task(kind="reserve_choice", seat=0, n=2), *FOLLOW]),
    ]
    state = after(state, events)
    assert when(state, ChooseReserve(seat=0, piece=piece)) == [
        ev.ReserveGained(seat=0, feet=feet, columns=columns),
        ev.AgendaSet(tasks=FOLLOW),
    ]


def test_a_reserve_loot_tile_gives_only_what_the_general_reserve_still_holds():
    state, events = take(RESERVE, ev.ReserveGained(seat=0, feet=0, columns=6))  # 1 column left there
    state = after(state, events)
    assert when(state, ChooseReserve(seat=0, piece="column"))[0] == ev.ReserveGained(seat=0, feet=0, columns=1)


@pytest.mark.parametrize("general, feet, columns", [((6, 0), 0, 2), ((0, 7), 2, 0), ((5, 7), 1, 0), ((6, 7), 0, 0)])
def test_a_reserve_loot_tile_asks_nothing_when_the_general_reserve_holds_only_one_kind(general, feet, columns):
    # the general reserve starts with 6 feet and 7 columns; `general` is what the seat took out
    _, events = take(RESERVE, ev.ReserveGained(seat=0, feet=general[0], columns=general[1]))
    gained = [ev.ReserveGained(seat=0, feet=feet, columns=columns)] if feet or columns else []
    assert events == [moved(RESERVE), ev.LootActivated(seat=0, tile=RESERVE), *gained, ev.AgendaSet(tasks=FOLLOW)]


def test_a_half_god_loot_tile_takes_the_highest_half_god_of_the_display():
    state, events = take("half_god", ev.HalfGodsDisplayed(values=[2, 5, 3]))
    assert events == [
        moved("half_god"),
        ev.LootActivated(seat=0, tile="half_god"),
        ev.HalfGodTaken(seat=0, source="display", value=5),
        ev.AgendaSet(tasks=FOLLOW),
    ]
    assert sorted(after(state, events).half_god_display) == [2, 3]


def test_a_half_god_loot_tile_takes_the_top_of_the_stack_when_the_display_is_empty():
    _, events = take("half_god", rng=ScriptedRng(10))  # the 1-3 group sorted: index 10 is a 3
    assert events[2] == ev.HalfGodTaken(seat=0, source="stack", value=3)


def test_a_gods_tile_loot_tile_takes_the_top_gods_tile_with_its_epoch_points_and_benefit():
    state = roma("gods_tile", epoch=2)
    events = when(state, Move(seat=0, cards=1, placements=TO_LOOT), ScriptedRng(stack_index(state, "taksator-2")))
    assert events == [
        moved("gods_tile"),
        ev.LootActivated(seat=0, tile="gods_tile"),
        ev.GodGained(seat=0, tile="taksator-2", source="loot", points=2),
        ev.SpecialMoneyTaken(seat=0, value=2),
        ev.AgendaSet(tasks=FOLLOW),
    ]


def test_a_plaesiris_from_a_loot_tile_takes_the_top_two_of_the_half_god_stack():
    state = roma("gods_tile", ev.HalfGodsDisplayed(values=[6]))
    events = when(
        state, Move(seat=0, cards=1, placements=TO_LOOT), ScriptedRng(stack_index(state, "plaesiris-2"), 10, 0)
    )
    assert events[2:5] == [
        ev.GodGained(seat=0, tile="plaesiris-2", source="loot", points=1),
        ev.HalfGodTaken(seat=0, source="stack", value=3),
        ev.HalfGodTaken(seat=0, source="stack", value=1),
    ]


def test_a_sacrifice_loot_tile_improves_one_tile_by_one_level_and_is_not_optional():
    state, events = take("sacrifice_1")
    assert events == [
        moved("sacrifice_1"),
        ev.LootActivated(seat=0, tile="sacrifice_1"),
        ev.AgendaSet(tasks=[Task(kind="sacrifice", seat=0, n=1), *FOLLOW]),
    ]
    state = after(state, events)
    then_error(state, Pass(seat=0), "not_optional")
    assert when(state, ImproveSacrifice(seat=0, kind="offering")) == [
        ev.SacrificeImproved(seat=0, kind="offering", level=1),
        ev.AgendaSet(tasks=FOLLOW),
    ]


def test_a_sacrifice_loot_tile_asks_nothing_when_all_four_tiles_are_at_level_4():
    full = [ev.SacrificeImproved(seat=0, kind=k, level=4) for k in ("priest", "dancer", "temple", "offering")]
    _, events = take("sacrifice_1", *full)
    assert events == [moved("sacrifice_1"), ev.LootActivated(seat=0, tile="sacrifice_1"), ev.AgendaSet(tasks=FOLLOW)]


def test_a_draw_loot_tile_draws_two_cards_from_the_draw_pile():
    _, events = take("draw_2")
    assert events == [
        moved("draw_2"),
        ev.LootActivated(seat=0, tile="draw_2"),
        drawn(0, ["movement", "movement"], "loot"),
        ev.AgendaSet(tasks=FOLLOW),
    ]


def test_a_money_loot_tile_gives_the_top_special_money_card():
    state, events = take("money_card")
    assert events == [
        moved("money_card"),
        ev.LootActivated(seat=0, tile="money_card"),
        ev.SpecialMoneyTaken(seat=0, value=2),
        ev.AgendaSet(tasks=FOLLOW),
    ]
    state = after(state, events)
    assert (state.seats[0].hand[6], state.special_money, state.loot_box) == (1, [2, 3, 3, 4, 4, 5], {"money_card": 1})


def test_a_steps_loot_tile_is_kept_and_adds_a_step_to_own_and_follow_up_moves_but_not_to_buying():
    state, events = take("steps_1")
    assert events == [moved("steps_1"), ev.LootActivated(seat=0, tile="steps_1"), ev.AgendaSet(tasks=FOLLOW)]
    state, _ = play(
        after(state, events), Pass(seat=1), Move(seat=1, cards=0, placements=[Place(piece="foot", hex=(9, 5))])
    )
    assert (state.seats[0].steps, state.seats[0].tiles, state.loot_box) == (1, ["steps_1"], {})
    events = when(state, Move(seat=0, cards=0, placements=[Place(piece="foot", hex=(9, 4))]))
    assert events[0] == ev.Moved(
        seat=0, cards=0, big_foot=False, steps=1, placements=[ev.Placed(piece="foot", hex=(9, 4), cost=1)]
    )
    state, _ = play(state, Pass(seat=0))  # seat 1's turn ends; seat 0's turn
    assert state.agenda[0] == Task(kind="action", seat=0)
    then_error(state, Buy(seat=0, money={}, purchases=[]), "no_money")
    assert (
        when(
            state, Move(seat=0, cards=0, placements=[Place(piece="foot", hex=(9, 4)), Place(piece="foot", hex=(10, 3))])
        )[0].steps
        == 2
    )


# --- bonus tiles ------------------------------------------------------------------------------


def bonus_step(tiles, *extra, players=2):
    """Epoch 1 after step 6, each seat holding its random bonus tile."""
    options = Options(players=players, bonus_tiles="random")
    return given(
        ev.GameCreated(options=options),
        ev.StartingSeatChosen(seat=0),
        ev.BonusTilesDealt(tiles=list(tiles)),
        ev.NationRevealed(epoch=1, nation="roma"),
        ev.GodsRevealed(tiles=["surparit-1", "taksator-1", "gadicea-1"]),
        ev.LootPlaced(tiles=[(h, "draw_2") for h in usable_loot("roma", players)]),
        temple("roma"),
        *extra,
    )


def bonuses(players=2):
    return [Task(kind="bonus", seat=s) for s in range(players)] + [Task(kind="turn", seat=0)]


def test_the_column_bonus_places_a_column_from_the_general_reserve_on_any_column_site_ignoring_routes():
    state = bonus_step(["column", "steps_1"])
    events = run_tasks(state, *bonuses())
    assert events == [
        ev.BonusActivated(seat=0, tile="column"),
        ev.AgendaSet(tasks=[Task(kind="bonus_column", seat=0), *bonuses()[1:]]),
    ]
    state = after(state, events)
    assert when(state, PlaceColumn(seat=0, hex=(18, 0))) == [
        ev.ColumnPlaced(seat=0, hex=(18, 0)),
        ev.BonusActivated(seat=1, tile="steps_1"),
        first_action(0),
    ]
    me = after(state, [ev.ColumnPlaced(seat=0, hex=(18, 0))]).seats[0]
    assert (me.columns, me.general_columns, me.columns_on_board) == (5, 6, [BOARD.index_of[(18, 0)]])


@pytest.mark.parametrize("hex_", [(8, 4), (7, 2), (9, 3)])
def test_the_column_bonus_needs_a_column_site_with_room_for_the_seats_column(hex_):
    state = bonus_step(
        ["column", "steps_1", "half_god"],
        ev.ColumnPlaced(seat=1, hex=(7, 2)),
        ev.ColumnPlaced(seat=2, hex=(7, 2)),
        ev.ColumnPlaced(seat=0, hex=(9, 3)),
        players=3,
    )
    state = after(state, run_tasks(state, *bonuses(3)))
    then_error(state, PlaceColumn(seat=0, hex=hex_), "no_room")


def test_the_column_bonus_is_skipped_when_the_general_reserve_has_no_column():
    state = bonus_step(["column", "steps_1"], ev.ReserveGained(seat=0, feet=0, columns=7))
    assert run_tasks(state, *bonuses()) == [
        ev.BonusActivated(seat=0, tile="column"),
        ev.BonusActivated(seat=1, tile="steps_1"),
        first_action(0),
    ]


def test_a_bonus_column_joins_the_route_once_an_own_piece_reaches_it():
    beyond = [Place(piece="foot", hex=(9, 4)), Place(piece="foot", hex=(10, 2))]  # (10, 2) touches only (9, 3)
    state = given(turn_phase(2, hands={0: ["movement"]}))
    then_error(state, Move(seat=0, cards=1, placements=beyond), "not_connected")
    state = after(state, [ev.ColumnPlaced(seat=0, hex=(9, 3))])
    assert when(state, Move(seat=0, cards=1, placements=beyond))[0].placements == [
        ev.Placed(piece="foot", hex=(9, 4), cost=1),
        ev.Placed(piece="foot", hex=(10, 2), cost=1),
    ]


def test_the_half_god_bonus_takes_the_top_of_the_stack_even_with_a_display():
    state = bonus_step(["half_god", "steps_1"], ev.HalfGodsDisplayed(values=[6]))
    assert run_tasks(state, *bonuses(), rng=ScriptedRng(10)) == [
        ev.BonusActivated(seat=0, tile="half_god"),
        ev.HalfGodTaken(seat=0, source="stack", value=3),
        ev.BonusActivated(seat=1, tile="steps_1"),
        first_action(0),
    ]


def test_the_gods_tile_bonus_takes_the_top_gods_tile_with_points_and_benefit():
    state = bonus_step(["gods_tile", "steps_1"])
    stack = list(state.gods_stack)
    first = stack.index("surparit-2")
    stack.remove("surparit-2")
    assert run_tasks(state, *bonuses(), rng=ScriptedRng(first, stack.index("taksator-2"))) == [
        ev.BonusActivated(seat=0, tile="gods_tile"),
        ev.GodGained(seat=0, tile="surparit-2", source="bonus", points=1),
        ev.GodGained(seat=0, tile="taksator-2", source="surparit", points=1),
        ev.SpecialMoneyTaken(seat=0, value=2),
        ev.BonusActivated(seat=1, tile="steps_1"),
        first_action(0),
    ]


@pytest.mark.parametrize("kinds", [("priest", "priest"), ("priest", "dancer")])
def test_the_sacrifice_bonus_gives_two_steps_on_one_tile_or_split(kinds):
    state = bonus_step(["sacrifice_2", "steps_1"])
    events = run_tasks(state, *bonuses())
    assert events == [
        ev.BonusActivated(seat=0, tile="sacrifice_2"),
        ev.AgendaSet(tasks=[Task(kind="sacrifice", seat=0, n=2), *bonuses()[1:]]),
    ]
    state = after(state, events)
    then_error(state, Pass(seat=0), "not_optional")
    state, _ = play(state, ImproveSacrifice(seat=0, kind=kinds[0]))
    assert when(state, ImproveSacrifice(seat=0, kind=kinds[1])) == [
        ev.SacrificeImproved(seat=0, kind=kinds[1], level=2 if kinds[0] == kinds[1] else 1),
        ev.BonusActivated(seat=1, tile="steps_1"),
        first_action(0),
    ]


def test_the_second_sacrifice_step_is_skipped_when_no_tile_can_rise_any_more():
    levels = [
        ev.SacrificeImproved(seat=0, kind=k, level=lv)
        for k, lv in (("priest", 4), ("dancer", 4), ("temple", 4), ("offering", 3))
    ]
    state = after(
        bonus_step(["sacrifice_2", "steps_1"], *levels),
        [ev.AgendaSet(tasks=[Task(kind="sacrifice", seat=0, n=2), *bonuses()[1:]])],
    )
    assert when(state, ImproveSacrifice(seat=0, kind="offering")) == [
        ev.SacrificeImproved(seat=0, kind="offering", level=4),
        ev.BonusActivated(seat=1, tile="steps_1"),
        first_action(0),
    ]


def test_the_steps_bonus_adds_a_step_to_movements_but_not_to_buying():
    state = bonus_step(["steps_1", "column"], ev.ReserveGained(seat=1, feet=0, columns=7))
    events = run_tasks(state, *bonuses())
    assert events == [
        ev.BonusActivated(seat=0, tile="steps_1"),
        ev.BonusActivated(seat=1, tile="column"),
        first_action(0),
    ]
    state = after(state, events)
    assert state.seats[0].steps == 1
    then_error(state, Buy(seat=0, money={}, purchases=[]), "no_money")
    assert (
        when(
            state, Move(seat=0, cards=0, placements=[Place(piece="foot", hex=(9, 4)), Place(piece="foot", hex=(10, 3))])
        )[0].steps
        == 2
    )


@pytest.mark.parametrize("taken, feet, columns", [((0, 0), 2, 1), ((5, 7), 1, 0), ((6, 6), 0, 1)])
def test_the_reserve_bonus_gives_two_feet_and_one_column_as_far_as_the_general_reserve_holds(taken, feet, columns):
    state = bonus_step(
        ["reserve_2_feet_1_column", "steps_1"], ev.ReserveGained(seat=0, feet=taken[0], columns=taken[1])
    )
    assert run_tasks(state, *bonuses()) == [
        ev.BonusActivated(seat=0, tile="reserve_2_feet_1_column"),
        ev.ReserveGained(seat=0, feet=feet, columns=columns),
        ev.BonusActivated(seat=1, tile="steps_1"),
        first_action(0),
    ]
