"""The choice tree in concrete decisions: its keys, its words and what each choice refers to.
Persia, temple (16, 4); see helpers_actions for the neighbourhood."""

import pytest

from domain.choices import ChoiceList
from domain.kernel import DomainError
from domain.pantheon import commands as cmd

from .helpers_actions import (
    agenda,
    column,
    display,
    end_action,
    follow_up,
    foot,
    levels,
    move,
    owns,
    persia,
    pieces,
)
from .helpers_choices import choices
from .scenario import Task, given, when

SACRIFICES = ["priest"] * 3 + ["dancer"] * 3


def keys(listed: ChoiceList) -> list[str]:
    return [c.key for c in listed.choices]


def choice(listed: ChoiceList, key: str):
    return next(c for c in listed.choices if c.key == key)


# --- the action -------------------------------------------------------------------------------


def test_the_action_offers_the_four_actions_in_words():
    state = given(persia(hands={0: ["money", *SACRIFICES]}))
    root = choices(state, 0, ())
    assert (root.decision, keys(root)) == ("action", ["move", "buy", "gain", "draw"])
    assert [c.refers for c in root.choices] == [{"action": a} for a in ("move", "buy", "gain_god", "draw")]
    assert all(c.more and c.command is None for c in root.choices)
    assert choice(root, "draw").label == "Drawing: take 3 cards, one at a time, from the display or the pile"


def test_a_seat_without_money_or_a_payable_gods_tile_may_only_move_or_draw():
    assert keys(choices(given(persia()), 0, ())) == ["move", "draw"]


def test_a_movement_asks_for_the_cards_first_with_the_steps_they_give():
    state = given(persia(hands={0: ["movement"]}))
    cards = choices(state, 0, ("move",))
    assert keys(cards) == ["cards:0", "cards:1"]
    assert choice(cards, "cards:1").label == "Play 1 movement card: 3 steps (big foot 1 + cards 2)"
    assert choice(cards, "cards:1").refers == {"cards": 1, "steps": 3}


def test_each_placement_names_its_hex_its_cost_and_what_lies_there():
    state = given(persia(hands={0: ["movement"]}), pieces(1, ("foot", (16, 5))))
    first = choices(state, 0, ("move", "cards:1"))
    shared = choice(first, "foot@16,5")
    assert shared.label == "Foot on Persia, hex 20, shared with Player B: 2 steps"
    assert shared.refers == {"piece": "foot", "hex": [16, 5], "cost": 2, "jump": False} and shared.more
    second = choices(state, 0, ("move", "cards:1", "foot@17,4"))
    assert choice(second, "foot@17,5").label == "Foot on Persia, hex 21, loot: draw 2 cards: 1 step"
    assert "foot@17,4" not in keys(second)


def test_a_movement_is_built_placement_by_placement_and_ends_with_done():
    state = given(persia(hands={0: ["movement"]}))
    last = choices(state, 0, ("move", "cards:1", "foot@16,5", "foot@16,6", "column@16,7"))
    assert keys(last) == ["done"]  # no step left
    done = last.choices[0]
    assert done.command == move(0, 1, foot(16, 5), foot(16, 6), column(16, 7))
    assert (
        done.label
        == "Done: foot on Persia, hex 20 → foot on Persia, hex 24 → column on Persia, hex 25 (1 movement card, 3 of 3 steps used)"
    )
    assert done.refers == {"done": True, "placements": 3} and not done.more
    assert when(state, done.command)  # decide accepts it


def test_a_gaiviles_offers_a_jump_over_another_seats_piece():
    state = given(persia(), owns(0, "gaiviles-1"), pieces(1, ("foot", (16, 5))))
    jump = choice(choices(state, 0, ("move", "cards:0")), "jump@16,6")
    assert jump.label == "Foot jumps to Persia, hex 24: 1 step"
    assert jump.refers == {"piece": "foot", "hex": [16, 6], "cost": 1, "jump": True}
    done = choice(choices(state, 0, ("move", "cards:0", "jump@16,6")), "done")
    assert done.command == move(0, 0, foot(16, 6, jump=True))


def test_drawing_names_the_card_in_each_display_slot():
    state = given(persia(), display("priest", "movement", "money_3", "dancer"))
    draw = choices(state, 0, ("draw",))
    assert keys(draw) == ["pile", "slot:0", "slot:1", "slot:2", "slot:3"]
    assert choice(draw, "slot:2").label == "Take the card in display slot 2 (Special money 3)"
    assert choice(draw, "slot:2").refers == {"slot": 2, "card": "money_3"}
    assert choice(draw, "pile").command == cmd.DrawCard(seat=0, slot=None)


def test_a_gods_tile_with_several_least_payments_asks_how_to_pay():
    state = given(persia(hands={0: SACRIFICES}))
    gods = choices(state, 0, ("gain",))
    assert keys(gods) == ["surparit-1", "taksator-1"]
    assert choice(gods, "surparit-1").label == (
        "Surparit (needs 3-2 sacrifices): also take the top tile of the gods stack; +1 point"
    )
    pay = choices(state, 0, ("gain", "surparit-1"))
    assert keys(pay) == ["2xpriest+3xdancer", "3xpriest+2xdancer"]
    assert choice(pay, "3xpriest+2xdancer").command == cmd.GainGod(
        seat=0, tile="surparit-1", sacrifice={"priest": 3, "dancer": 2}
    )
    assert choice(pay, "3xpriest+2xdancer").refers == {"tile": "surparit-1", "payment": {"priest": 3, "dancer": 2}}


def test_a_gods_tile_with_one_payment_is_a_single_choice():
    state = given(persia(hands={0: ["priest"] * 3 + ["dancer"]}))
    only = choice(choices(state, 0, ("gain",)), "taksator-1")
    assert only.command == cmd.GainGod(seat=0, tile="taksator-1", sacrifice={"priest": 3, "dancer": 1})
    assert only.label.endswith("; pay 3 Priest and 1 Dancer cards")


def test_buying_asks_for_the_money_cards_then_each_purchase():
    state = given(persia(hands={0: ["money", "money_3"]}), levels(0, priest=1))
    money = choices(state, 0, ("buy",))
    assert keys(money) == ["1xmoney", "1xmoney_3", "1xmoney+1xmoney_3"]
    assert choice(money, "1xmoney+1xmoney_3").refers == {"money": {"money": 1, "money_3": 1}, "budget": 4}
    shop = choices(state, 0, ("buy", "1xmoney+1xmoney_3"))
    assert choice(shop, "tile:priest:2").label == "Raise your Priest tile from level 1 to 2: 2 money"
    assert choice(shop, "reserve:column:3").refers == {"piece": "column", "count": 3, "cost": 3}
    last = choices(state, 0, ("buy", "1xmoney+1xmoney_3", "tile:priest:2", "reserve:column:1", "foot@17,4"))
    assert keys(last) == ["done"]
    assert last.choices[0].command == cmd.Buy(
        seat=0,
        money={"money": 1, "money_3": 1},
        purchases=[
            cmd.SacrificeTile(kind="priest", level=2),
            cmd.Reserve(piece="column", count=1),
            cmd.PlacePiece(piece="foot", hex=(17, 4)),
        ],
    )


# --- the other decisions ------------------------------------------------------------------------


def test_a_follow_up_offers_to_pass_or_to_play_movement_cards():
    state = given(persia(hands={1: ["movement"]}), agenda(follow_up(1), end_action(0)))
    root = choices(state, 1, ())
    assert (root.decision, keys(root)) == ("follow_up", ["pass", "cards:1"])  # no step without a card
    assert choice(root, "pass").command == cmd.Pass(seat=1)
    assert choice(root, "pass").refers == {"pass": True}


def test_a_discard_goes_card_by_card_and_each_set_of_cards_has_one_path():
    state = given(
        persia(hands={0: ["movement", "priest", "priest", "money"]}), agenda(Task(kind="discard", seat=0, n=2))
    )
    assert keys(choices(state, 0, ())) == ["movement", "priest"]  # money alone cannot make 2
    second = choices(state, 0, ("priest",))
    assert keys(second) == ["priest", "money"]
    assert choice(second, "money").command == cmd.Discard(seat=0, cards={"priest": 1, "money": 1})
    assert choice(second, "money").label == "Discard a Money 1 card (discarding 1 Priest and 1 Money 1 cards)"


def test_cartago_offers_purchases_without_placing_and_a_pass():
    state = given(persia(), agenda(Task(kind="cartago", seat=0, n=1)))
    root = choices(state, 0, ())
    assert root.decision == "cartago" and root.prompt.startswith("Cartago: spend 2 money")
    assert not any("@" in key for key in keys(root))
    assert choice(root, "done").command == cmd.Spend(seat=0, purchases=[])
    assert choice(root, "pass").command == cmd.Pass(seat=0)


def test_the_bonus_draft_describes_each_tile():
    state = given(persia(), agenda(Task(kind="choose_bonus", seat=0)))
    assert choice(choices(state, 0, ()), "reserve_2_feet_1_column").label == (
        "Bonus tile '2 feet and 1 column': take 2 feet and 1 column"
    )


def test_a_sacrifice_step_says_which_level_each_kind_reaches():
    state = given(persia(), levels(0, priest=2), agenda(Task(kind="sacrifice", seat=0, n=1, item="optional")))
    root = choices(state, 0, ())
    assert keys(root) == ["priest", "dancer", "temple", "offering", "pass"]
    assert choice(root, "priest").label == "Raise your Priest tile to level 3"
    assert choice(root, "dancer").refers == {"kind": "dancer", "level": 1}


# --- paths that are not in the tree -----------------------------------------------------------


@pytest.mark.parametrize("path", [("fly",), ("move", "cards:3"), ("move", "cards:0", "foot@0,0"), ("buy",)])
def test_a_key_that_is_not_among_the_choices_is_refused(path):
    with pytest.raises(DomainError) as refused:
        choices(given(persia()), 0, path)
    assert refused.value.code == "unknown_choice"


def test_nothing_follows_a_choice_that_is_a_complete_command():
    with pytest.raises(DomainError) as refused:
        choices(given(persia()), 0, ("draw", "pile", "pile"))
    assert refused.value.code == "unknown_choice"


def test_a_seat_that_is_not_awaited_has_no_choices():
    state = given(persia())
    assert choices(state, 1, ()) == ChoiceList(decision=None, prompt=choices(state, 1, ()).prompt, choices=[])
    with pytest.raises(DomainError) as refused:
        choices(state, 1, ("move",))
    assert refused.value.code == "unknown_choice"
