"""Gaining a gods tile (rules §4.3) and the gods' benefits (§5)."""

from domain.pantheon import commands as cmd
from domain.pantheon import events as ev

from .helpers_actions import (
    action,
    agenda,
    drawn,
    end_action,
    follow_up,
    gods_rng,
    levels,
    owns,
    persia,
    special_money,
)
from .scenario import ScriptedRng, Task, after, given, then_error, turn_phase, when

FOUR_ONE = "depraccus-1"  # requires 4-1, like the rulebook's sacrifice examples


def gain(seat: int, tile: str, **sacrifice: int) -> cmd.GainGod:
    return cmd.GainGod(seat=seat, tile=tile, sacrifice=sacrifice)


def gained(
    seat: int, tile: str, source: str = "board", points: int = 1, cards: list[str] | None = None
) -> ev.GodGained:
    return ev.GodGained(seat=seat, tile=tile, source=source, points=points, cards=cards or [])


# --- paying the sacrifice ---------------------------------------------------------------------


def test_the_rulebooks_sacrifice_with_cards_only():
    state = given(persia(hands={0: ["dancer"] * 4 + ["temple"]}, gods=[FOUR_ONE, "taksator-1"]))
    events = when(state, gain(0, FOUR_ONE, dancer=4, temple=1))
    assert events == [gained(0, FOUR_ONE, cards=["dancer"] * 4 + ["temple"]), agenda(*action(1))]
    later = after(state, events)
    assert later.seats[0].hand == [0] * 10 and later.discard[2:4] == [4, 1]
    assert later.seats[0].score == 1 and later.gods_board == ["taksator-1"]


def test_the_rulebooks_sacrifice_with_tiles_only_keeps_the_tiles():
    state = given(persia(gods=[FOUR_ONE, "taksator-1"]), levels(0, dancer=4, temple=2))
    events = when(state, gain(0, FOUR_ONE))
    assert events == [gained(0, FOUR_ONE), agenda(*action(1))]
    assert after(state, events).seats[0].sacrifice == [0, 4, 2, 0]


def test_the_rulebooks_sacrifice_combining_a_tile_with_cards():
    state = given(persia(hands={0: ["dancer", "dancer", "temple"]}, gods=[FOUR_ONE, "taksator-1"]), levels(0, dancer=2))
    assert when(state, gain(0, FOUR_ONE, dancer=2, temple=1)) == [
        gained(0, FOUR_ONE, cards=["dancer", "dancer", "temple"]),
        agenda(*action(1)),
    ]


def test_each_number_of_the_requirement_needs_a_different_kind():
    state = given(persia(hands={0: ["dancer"] * 5}, gods=[FOUR_ONE, "taksator-1"]), levels(0, dancer=4))
    then_error(state, gain(0, FOUR_ONE, dancer=5), "sacrifice_not_met")
    then_error(state, gain(0, FOUR_ONE, dancer=1), "sacrifice_not_met")


def test_a_payment_must_be_exact_and_made_with_cards_in_hand():
    state = given(persia(hands={0: ["dancer"] * 4 + ["temple"] * 2}, gods=[FOUR_ONE, "taksator-1"]))
    then_error(state, gain(0, FOUR_ONE, dancer=4, temple=2), "sacrifice_not_met")
    then_error(state, gain(0, FOUR_ONE, dancer=4, priest=1), "sacrifice_not_met")
    then_error(state, gain(0, FOUR_ONE, dancer=3, temple=1), "sacrifice_not_met")
    then_error(state, gain(0, FOUR_ONE, dancer=4, temple=-1), "sacrifice_not_met")
    then_error(state, gain(0, FOUR_ONE, dancer=4, movement=1), "wrong_card")


def test_a_malformed_sacrifice_is_refused_with_a_stable_code():
    state = given(persia(hands={0: ["dancer"] * 4 + ["temple"]}, gods=[FOUR_ONE]))
    malformed = [{"dancer": "4", "temple": 1}, {"dancer": 4.0, "temple": 1}, ["dancer"] * 4, {"dancer": None}]
    for sacrifice in malformed:
        command = {"type": "gain_god", "seat": 0, "tile": FOUR_ONE, "sacrifice": sacrifice}
        then_error(state, command, "malformed_command")
    then_error(state, {"type": "gain_god", "seat": 0, "tile": 4}, "malformed_command")
    then_error(state, {"type": "gain_god", "seat": 0}, "malformed_command")


def test_only_a_gods_tile_face_up_on_the_board_can_be_gained():
    state = given(persia(hands={0: ["dancer"] * 4 + ["temple"]}, gods=[FOUR_ONE]))
    then_error(state, gain(0, "depraccus-2", dancer=4, temple=1), "tile_not_on_board")
    then_error(state, gain(0, "zeus-1"), "tile_not_on_board")


def test_pietalte_is_paid_three_two_one_with_cards_alone():
    hand = ["dancer"] * 2 + ["priest"] * 3 + ["temple"]
    state = given(persia(hands={0: hand}, gods=["pietalte-1", "taksator-1"]), levels(0, priest=3, dancer=2))
    then_error(state, gain(0, "pietalte-1", temple=1), "sacrifice_not_met")
    then_error(state, gain(0, "pietalte-1", dancer=2, temple=1), "sacrifice_not_met")
    assert when(state, gain(0, "pietalte-1", priest=3, dancer=2, temple=1)) == [
        gained(0, "pietalte-1", cards=hand),
        agenda(*action(1)),
    ]


def test_a_gods_tile_gives_as_many_points_as_the_epoch_number():
    state = given(turn_phase(2, epoch=3, hands={0: ["dancer"] * 4 + ["temple"]}, gods=[FOUR_ONE, "taksator-1"]))
    assert when(state, gain(0, FOUR_ONE, dancer=4, temple=1))[0] == gained(
        0, FOUR_ONE, points=3, cards=["dancer"] * 4 + ["temple"]
    )


def test_immediate_tiles_go_to_the_box_and_permanent_ones_stay_with_the_owner():
    state = given(persia(gods=["taksator-1", FOUR_ONE]), levels(0, dancer=4, temple=1))
    later = after(state, when(state, gain(0, "taksator-1")))
    assert later.gods_box == ["taksator-1"] and later.seats[0].gods == []
    later = after(state, when(state, gain(0, FOUR_ONE)))
    assert later.gods_box == [] and later.seats[0].gods == [FOUR_ONE]


# --- Surparit ---------------------------------------------------------------------------------

SURPARIT_HAND = {0: ["dancer"] * 2 + ["priest"] * 3}  # pays surparit-1, 3-2


def test_surparit_takes_the_top_gods_tile_too_with_its_points_and_benefit():
    state = given(persia(hands=SURPARIT_HAND, gods=["surparit-1", "gadicea-1"]))
    assert when(state, gain(0, "surparit-1", priest=3, dancer=2), gods_rng(state, "taksator-2")) == [
        gained(0, "surparit-1", cards=SURPARIT_HAND[0]),
        gained(0, "taksator-2", source="surparit"),
        ev.SpecialMoneyTaken(seat=0, value=2),
        agenda(*action(1)),
    ]


def test_a_surparit_drawn_by_a_surparit_gives_only_its_points():
    state = given(persia(hands=SURPARIT_HAND, gods=["surparit-1", "gadicea-1"]))
    assert when(state, gain(0, "surparit-1", priest=3, dancer=2), gods_rng(state, "surparit-2")) == [
        gained(0, "surparit-1", cards=SURPARIT_HAND[0]),
        gained(0, "surparit-2", source="surparit"),
        agenda(*action(1)),
    ]


def test_a_surparit_from_a_loot_tile_also_takes_the_top_gods_tile():
    state = given(persia(hands={0: ["movement"]}, loot={(17, 5): "gods_tile", (18, 2): "draw_2"}))
    rng = gods_rng(state, "surparit-2", "vinthrad-1")
    places = [cmd.Place(piece="foot", hex=(16, 5)), cmd.Place(piece="foot", hex=(17, 5))]
    assert when(state, cmd.Move(seat=0, cards=1, placements=places), rng) == [
        ev.Moved(
            seat=0,
            cards=1,
            big_foot=True,
            steps=3,
            loot=["gods_tile"],
            placements=[ev.Placed(piece="foot", hex=p.hex, cost=1) for p in places],
        ),
        ev.LootActivated(seat=0, tile="gods_tile"),
        gained(0, "surparit-2", source="loot"),
        gained(0, "vinthrad-1", source="surparit"),
        agenda(follow_up(1), end_action(0)),
    ]


def test_when_the_gods_stack_is_empty_the_box_but_not_the_surparit_in_use_becomes_the_new_stack():
    base = given(persia(hands=SURPARIT_HAND, gods=["surparit-1", "gadicea-1"]))
    declined = [
        e
        for tile in base.gods_stack
        for e in (ev.GalliaRevealed(seat=1, tile=tile), ev.GalliaDeclined(seat=1, tile=tile))
    ]
    state = after(base, declined)
    assert state.gods_stack == [] and len(state.gods_box) == 38
    events = when(state, gain(0, "surparit-1", priest=3, dancer=2), ScriptedRng(37))
    assert events == [
        gained(0, "surparit-1", cards=SURPARIT_HAND[0]),
        ev.GodsStackRebuilt(count=38, kept=["surparit-1"]),
        gained(0, "vinthrad-4", source="surparit"),
        agenda(*action(1)),
    ]
    later = after(state, events)
    assert later.gods_box == ["surparit-1"] and len(later.gods_stack) == 37


def test_with_no_gods_tile_in_the_stack_or_the_box_surparit_gives_only_its_points():
    # The Surparit itself is not back in the box while its benefit draws.
    base = given(persia(hands=SURPARIT_HAND, gods=["surparit-1", "gadicea-1"]))
    state = after(base, [ev.GodsRevealed(tiles=list(base.gods_stack))])
    assert when(state, gain(0, "surparit-1", priest=3, dancer=2)) == [
        gained(0, "surparit-1", cards=SURPARIT_HAND[0]),
        agenda(*action(1)),
    ]


# --- Plaesiris --------------------------------------------------------------------------------

PLAESIRIS_HAND = {0: ["dancer"] * 2 + ["priest"] * 4}  # pays plaesiris-1, 4-2


def test_plaesiris_gained_by_the_action_takes_the_two_highest_half_gods_of_the_display():
    state = given(
        persia(hands=PLAESIRIS_HAND, gods=["plaesiris-1", "gadicea-1"]), ev.HalfGodsDisplayed(values=[2, 5, 3])
    )
    events = when(state, gain(0, "plaesiris-1", priest=4, dancer=2))
    assert events == [
        gained(0, "plaesiris-1", cards=PLAESIRIS_HAND[0]),
        ev.HalfGodTaken(seat=0, source="display", value=5),
        ev.HalfGodTaken(seat=0, source="display", value=3),
        agenda(*action(1)),
    ]
    later = after(state, events)
    assert later.half_god_display == [2] and later.seats[0].half_gods == [5, 3]


def test_plaesiris_gained_by_the_action_takes_from_the_stack_when_the_display_runs_out():
    state = given(persia(hands=PLAESIRIS_HAND, gods=["plaesiris-1", "gadicea-1"]), ev.HalfGodsDisplayed(values=[4]))
    assert when(state, gain(0, "plaesiris-1", priest=4, dancer=2), ScriptedRng(10)) == [
        gained(0, "plaesiris-1", cards=PLAESIRIS_HAND[0]),
        ev.HalfGodTaken(seat=0, source="display", value=4),
        ev.HalfGodTaken(seat=0, source="stack", value=3),
        agenda(*action(1)),
    ]


def test_plaesiris_gained_any_other_way_takes_the_top_two_half_gods_of_the_stack():
    state = given(persia(hands=SURPARIT_HAND, gods=["surparit-1", "gadicea-1"]), ev.HalfGodsDisplayed(values=[6]))
    rng = ScriptedRng(gods_rng(state, "plaesiris-2").values[0], 0, 9)
    assert when(state, gain(0, "surparit-1", priest=3, dancer=2), rng) == [
        gained(0, "surparit-1", cards=SURPARIT_HAND[0]),
        gained(0, "plaesiris-2", source="surparit"),
        ev.HalfGodTaken(seat=0, source="stack", value=1),
        ev.HalfGodTaken(seat=0, source="stack", value=3),
        agenda(*action(1)),
    ]


def test_plaesiris_from_the_gods_tile_bonus_takes_the_top_two_half_gods_of_the_stack():
    state = given(
        persia(gods=["surparit-1", "gadicea-1"]),
        ev.HalfGodsDisplayed(values=[6]),
        ev.BonusTileChosen(seat=1, tile="steps_1"),
        agenda(
            Task(kind="choose_bonus", seat=0),
            Task(kind="bonus", seat=0),
            Task(kind="bonus", seat=1),
            Task(kind="turn", seat=0),
        ),
    )
    rng = ScriptedRng(gods_rng(state, "plaesiris-2").values[0], 0, 9)
    assert when(state, cmd.ChooseBonus(seat=0, tile="gods_tile"), rng) == [
        ev.BonusTileChosen(seat=0, tile="gods_tile"),
        ev.BonusActivated(seat=0, tile="gods_tile"),
        gained(0, "plaesiris-2", source="bonus"),
        ev.HalfGodTaken(seat=0, source="stack", value=1),
        ev.HalfGodTaken(seat=0, source="stack", value=3),
        ev.BonusActivated(seat=1, tile="steps_1"),
        agenda(*action(0)),
    ]


# --- Taksator ---------------------------------------------------------------------------------


def test_taksator_takes_the_top_special_money_card():
    state = given(
        persia(hands={0: ["dancer"] + ["priest"] * 3}, gods=["taksator-1", "gadicea-1"]),
        ev.SpecialMoneyResorted(order=[5, 4, 4, 3, 3, 2, 2]),
    )
    events = when(state, gain(0, "taksator-1", priest=3, dancer=1))
    assert events == [
        gained(0, "taksator-1", cards=["dancer"] + ["priest"] * 3),
        ev.SpecialMoneyTaken(seat=0, value=5),
        agenda(*action(1)),
    ]
    later = after(state, events)
    assert later.special_money == [4, 4, 3, 3, 2, 2] and later.seats[0].hand[9] == 1


def test_taksator_gives_only_its_points_when_the_special_money_is_gone():
    state = given(
        persia(hands={0: ["dancer"] + ["priest"] * 3}, gods=["taksator-1", "gadicea-1"]),
        special_money(1, 2, 2, 3, 3, 4, 4, 5),
    )
    assert when(state, gain(0, "taksator-1", priest=3, dancer=1)) == [
        gained(0, "taksator-1", cards=["dancer"] + ["priest"] * 3),
        agenda(*action(1)),
    ]


# --- permanent gods ---------------------------------------------------------------------------


def test_stonkus_adds_no_step_to_a_movement():
    state = given(persia(), owns(0, "stonkus-3"))
    then_error(
        state,
        cmd.Move(seat=0, placements=[cmd.Place(piece="foot", hex=(16, 5)), cmd.Place(piece="foot", hex=(16, 6))]),
        "insufficient_steps",
    )


def test_vinthrad_gives_no_money_in_a_buying():
    state = given(persia(hands={0: ["money"]}), owns(0, "vinthrad-1"))
    then_error(
        state, cmd.Buy(seat=0, money={"money": 1}, purchases=[cmd.Reserve(piece="foot", count=2)]), "insufficient_money"
    )


def test_depraccus_draws_two_cards_per_tile_after_the_temple_is_placed_from_the_starting_seat():
    # Seat 0 takes the last gods tile of epoch 1 (Roma); epoch 2 is Persia (its trait needs no
    # choice) and seat 1 starts it. Depraccus owners draw at step 6, the new starting seat first.
    state = given(
        turn_phase(2, hands={0: ["dancer"] * 2 + ["priest"] * 3}, gods=["gaiviles-2"]),
        owns(0, "depraccus-1", "depraccus-2"),
        owns(1, "depraccus-3"),
    )
    events = when(state, gain(0, "gaiviles-2", priest=3, dancer=2), ScriptedRng(4))
    assert events == [
        gained(0, "gaiviles-2", cards=["dancer"] * 2 + ["priest"] * 3),
        ev.TurnPhaseEnded(seat=0, points=3),
        ev.EpochEnded(epoch=1, next_starting_seat=1),
        ev.NationRevealed(epoch=2, nation="persia"),
        ev.GodsRevealed(tiles=["depraccus-4"]),
        ev.GodsRevealed(tiles=["gadicea-1"]),
        ev.GodsRevealed(tiles=["gadicea-2"]),
        ev.LootPlaced(tiles=[((18, 2), "draw_2"), ((18, 3), "draw_2"), ((17, 5), "draw_2")]),
        ev.SpecialMoneyResorted(order=[5, 4, 4, 3, 3, 2, 2]),
        ev.TemplePlaced(hex=(16, 4)),
        drawn(1, "depraccus", "movement", "movement"),
        drawn(0, "depraccus", "movement", "movement", "movement", "movement"),
        agenda(*action(1)),
    ]
