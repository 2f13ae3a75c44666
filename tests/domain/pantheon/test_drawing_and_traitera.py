"""The Drawing action (rules §4.4) and Traitera's extra actions (§5)."""

import pytest

from domain.pantheon import commands as cmd
from domain.pantheon import events as ev

from .helpers_actions import (
    action,
    agenda,
    cards_rng,
    display,
    drawn,
    end_action,
    owns,
    persia,
)
from .scenario import Task, after, awaiting, given, then_error, turn_phase, when


def draw(seat: int, slot: int | None = None) -> cmd.DrawCard:
    return cmd.DrawCard(seat=seat, slot=slot)


def picks_left(seat: int, n: int) -> Task:
    return Task(kind="draw", seat=seat, n=n)


def extra_action(seat: int, n: int) -> Task:
    return Task(kind="extra_action", seat=seat, n=n)


# --- drawing ----------------------------------------------------------------------------------


def test_the_drawing_action_takes_three_cards_one_pick_at_a_time():
    state = given(persia(), display("priest", "money", "temple", "offering"))
    first = when(state, draw(0))
    assert first == [drawn(0, "draw_action", "movement"), agenda(picks_left(0, 2), end_action(0))]
    state = after(state, first)
    second = when(state, draw(0))
    assert second == [drawn(0, "draw_action", "movement"), agenda(picks_left(0, 1), end_action(0))]
    state = after(state, second)
    assert when(state, draw(0)) == [drawn(0, "draw_action", "movement"), agenda(*action(1))]


def test_a_card_taken_from_the_display_is_replaced_at_once_and_the_new_card_may_be_picked_next():
    state = given(persia(), display("priest", "money", "temple", "offering"))
    first = when(state, draw(0, 1), cards_rng(state, "dancer"))
    assert first == [
        ev.CardTaken(seat=0, slot=1, card="money"),
        ev.DisplayRefilled(slot=1, card="dancer"),
        agenda(picks_left(0, 2), end_action(0)),
    ]
    state = after(state, first)
    second = when(state, draw(0, 1), cards_rng(state, "money"))
    assert second == [
        ev.CardTaken(seat=0, slot=1, card="dancer"),
        ev.DisplayRefilled(slot=1, card="money"),
        agenda(picks_left(0, 1), end_action(0)),
    ]
    state = after(state, second)
    third = when(state, draw(0, 3), cards_rng(state, "movement"))
    assert third == [
        ev.CardTaken(seat=0, slot=3, card="offering"),
        ev.DisplayRefilled(slot=3, card="movement"),
        agenda(*action(1)),
    ]
    later = after(state, third)
    assert later.seats[0].hand[1:6] == [0, 1, 0, 1, 1]  # dancer, offering, money
    assert later.display == [1, 5, 3, 0]  # priest, money, temple, movement


def test_each_gadicea_adds_one_pick():
    state = given(persia(), owns(0, "gadicea-2", "gadicea-3"))
    assert when(state, draw(0)) == [drawn(0, "draw_action", "movement"), agenda(picks_left(0, 4), end_action(0))]


def test_an_empty_display_slot_cannot_be_picked():
    state = given(persia(), display("priest", "money", "temple"))
    for slot in (3, 4, -1):
        then_error(state, draw(0, slot), "empty_slot")


def test_while_drawing_only_the_next_pick_is_accepted():
    state = given(persia(hands={0: ["money"]}), agenda(picks_left(0, 2), end_action(0)))
    then_error(state, cmd.Pass(seat=0), "wrong_command")
    then_error(state, cmd.Buy(seat=0, money={"money": 1}), "wrong_command")
    then_error(state, draw(1), "not_your_turn")


@pytest.mark.parametrize("slot", ["1", 1.0, float("nan"), float("inf"), [1], True, 2**70])
def test_a_pick_naming_a_slot_that_is_no_whole_number_is_malformed(slot):
    state = given(persia(), display("priest", "money", "temple", "offering"))
    then_error(state, cmd.DrawCard(seat=0, slot=slot), "malformed_command")


# --- Traitera ---------------------------------------------------------------------------------


def test_a_traitera_held_since_the_start_of_the_turn_is_offered_after_the_action():
    state = given(persia(hands={0: ["money"]}, traitera=1), owns(0, "traitera-1"))
    purchase = cmd.Reserve(piece="foot")
    assert when(state, cmd.Buy(seat=0, money={"money": 1}, purchases=[purchase])) == [
        ev.Bought(seat=0, money=["money"], budget=1, purchases=[purchase], costs=[1]),
        agenda(extra_action(0, 1)),
    ]


def test_spending_a_traitera_gives_one_more_action_of_any_kind_and_boxes_the_tile():
    state = given(persia(traitera=1), owns(0, "traitera-1"), agenda(extra_action(0, 1)))
    events = when(state, cmd.UseTraitera(seat=0))
    assert events == [ev.TraiteraSpent(seat=0, tile="traitera-1"), agenda(*action(0))]
    state = after(state, events)
    assert state.seats[0].gods == [] and state.gods_box == ["traitera-1"]
    assert when(state, draw(0))[-1] == agenda(picks_left(0, 2), end_action(0))


def test_declining_the_traitera_ends_the_turn_and_keeps_the_tile():
    state = given(persia(traitera=1), owns(0, "traitera-1"), agenda(extra_action(0, 1)))
    events = when(state, cmd.Pass(seat=0))
    assert events == [agenda(*action(1))]
    assert after(state, events).seats[0].gods == ["traitera-1"]


def test_gods_used_in_the_first_action_may_be_used_again_in_the_extra_action():
    # The rulebook's example: a Buying with Stonkus, then Traitera and a second Buying with it.
    state = given(persia(traitera=1), owns(0, "stonkus-1", "traitera-1"))
    purchase = cmd.Reserve(piece="column")
    first = when(state, cmd.Buy(seat=0, purchases=[purchase]))
    assert first == [ev.Bought(seat=0, money=[], budget=1, purchases=[purchase], costs=[1]), agenda(extra_action(0, 1))]
    state = after(state, first)
    state = after(state, when(state, cmd.UseTraitera(seat=0)))
    assert when(state, cmd.Buy(seat=0, purchases=[purchase])) == [
        ev.Bought(seat=0, money=[], budget=1, purchases=[purchase], costs=[1]),
        agenda(*action(1)),
    ]


def test_several_traitera_can_be_spent_one_after_another_in_one_turn():
    state = given(persia(traitera=2), owns(0, "stonkus-1", "traitera-1", "traitera-2"))
    spent = []
    for left in (2, 1):
        events = when(state, cmd.Buy(seat=0))
        assert events[-1] == agenda(extra_action(0, left))
        state = after(state, events)
        events = when(state, cmd.UseTraitera(seat=0))
        assert events[-1] == agenda(*action(0, traitera=left - 1))
        spent += [e.tile for e in events if isinstance(e, ev.TraiteraSpent)]
        state = after(state, events)
    assert spent == ["traitera-1", "traitera-2"]
    assert when(state, cmd.Buy(seat=0))[-1] == agenda(*action(1))


def test_a_traitera_gained_during_the_turn_can_be_used_only_from_the_next_turn():
    hand = ["dancer"] * 2 + ["priest"] * 3
    state = given(persia(hands={0: hand, 1: ["money"]}, gods=["traitera-1", "gadicea-1"]))
    events = when(state, cmd.GainGod(seat=0, tile="traitera-1", sacrifice={"priest": 3, "dancer": 2}))
    assert events == [
        ev.GodGained(seat=0, tile="traitera-1", source="board", points=1, cards=hand),
        agenda(*action(1)),
    ]
    state = after(state, events)
    assert when(state, cmd.Buy(seat=1, money={"money": 1}))[-1] == agenda(*action(0, traitera=1))


def test_a_traitera_gained_while_holding_one_does_not_add_an_extra_action_that_turn():
    state = given(
        persia(hands={0: ["dancer"] * 2 + ["priest"] * 3}, traitera=1, gods=["traitera-1", "gadicea-1"]),
        owns(0, "stonkus-1", "traitera-2"),
    )
    gain = cmd.GainGod(seat=0, tile="traitera-1", sacrifice={"dancer": 2, "priest": 3})
    state = after(state, when(state, gain))
    assert awaiting(state) == (0, "extra_action") and state.agenda[0].n == 1
    state = after(state, when(state, cmd.UseTraitera(seat=0)))
    assert when(state, cmd.Buy(seat=0))[-1] == agenda(*action(1))
    assert after(state, when(state, cmd.Buy(seat=0))).seats[0].gods == ["stonkus-1", "traitera-1"]


def test_a_traitera_can_only_be_spent_when_the_game_offers_it():
    state = given(persia(traitera=1), owns(0, "traitera-1"))
    then_error(state, cmd.UseTraitera(seat=0), "wrong_command")
    then_error(state, cmd.UseTraitera(seat=1), "not_your_turn")


def test_no_traitera_may_be_spent_after_the_action_that_ends_the_turn_phase():
    hand = ["dancer"] * 2 + ["priest"] * 3
    state = given(turn_phase(2, epoch=6, hands={0: hand}, gods=["gaiviles-2"], traitera=1), owns(0, "traitera-1"))
    events = when(state, cmd.GainGod(seat=0, tile="gaiviles-2", sacrifice={"dancer": 2, "priest": 3}))
    empty = ev.ScoreRow(half_gods=0, columns=0, pietalte=0, total=0)
    assert events == [
        ev.GodGained(seat=0, tile="gaiviles-2", source="board", points=6, cards=hand),
        ev.TurnPhaseEnded(seat=0, points=3),
        ev.EpochEnded(epoch=6, next_starting_seat=1),
        ev.Scored(epoch=6, rows=[empty, empty]),
        ev.GameEnded(scores=[9, 0], half_gods=[[], []], winners=[0]),
        agenda(),
    ]
    assert after(state, events).seats[0].gods == ["traitera-1", "gaiviles-2"]
