"""The end of the turn phase (rules §3.3): the last loot tile or the last gods tile leaves the
board; the action in progress finishes, the seat whose turn it is scores 3 VP, no Traitera
follows, and the seat to its left starts the next epoch. Most tests play epoch 6 so that the
game ends right after; the preparation of a next epoch is shown once."""

from domain.pantheon import commands as cmd
from domain.pantheon import events as ev

from .helpers_actions import (
    action,
    agenda,
    drawn,
    end_action,
    follow_up,
    foot,
    moved,
    owns,
    persia,
    placed,
)
from .scenario import ScriptedRng, Task, after, given, then_error, turn_phase, when

HAND = ["dancer"] * 2 + ["priest"] * 3  # pays gaiviles-2 (3-2) and traitera-1 (3-2)
PAY = {"dancer": 2, "priest": 3}
NO_POINTS = ev.ScoreRow(half_gods=0, columns=0, pietalte=0, total=0)


def last_epoch(players: int, **kwargs) -> list[ev.Event]:
    return persia(players, epoch=6, **kwargs)


def game_over(ender: int, players: int, scores: list[int], winners: list[int]) -> list[ev.Event]:
    """The events after the action that ends the turn phase of epoch 6 (nobody has columns or
    half gods in these tests)."""
    return [
        ev.TurnPhaseEnded(seat=ender, points=3),
        ev.EpochEnded(epoch=6, next_starting_seat=(ender + 1) % players),
        ev.Scored(epoch=6, rows=[NO_POINTS] * players),
        ev.GameEnded(scores=scores, half_gods=[[]] * players, winners=winners),
        agenda(),
    ]


def test_taking_the_last_gods_tile_ends_the_turn_phase_and_the_seat_left_of_the_ender_starts_the_next_epoch():
    state = given(turn_phase(3, seat=2, hands={2: HAND}, gods=["gaiviles-2"]))
    events = when(state, cmd.GainGod(seat=2, tile="gaiviles-2", sacrifice=PAY), ScriptedRng(4))
    assert events == [
        ev.GodGained(seat=2, tile="gaiviles-2", source="board", points=1, cards=HAND),
        ev.TurnPhaseEnded(seat=2, points=3),
        ev.EpochEnded(epoch=1, next_starting_seat=0),
        ev.NationRevealed(epoch=2, nation="persia"),
        *[ev.GodsRevealed(tiles=[f"depraccus-{n}"]) for n in (1, 2, 3, 4)],
        ev.LootPlaced(tiles=[((18, 1), "draw_2"), ((18, 2), "draw_2"), ((18, 3), "gods_tile"), ((17, 5), "gods_tile")]),
        ev.SpecialMoneyResorted(order=[5, 4, 4, 3, 3, 2, 2]),
        ev.TemplePlaced(hex=(16, 4)),
        agenda(*action(0)),
    ]
    assert after(state, events).seats[2].score == 1 + 3


def test_the_turn_phase_goes_on_while_a_loot_tile_and_a_gods_tile_remain_on_the_board():
    state = given(persia(hands={0: ["movement"]}, gods=["gaiviles-2"], loot={(17, 5): "draw_2", (18, 2): "draw_2"}))
    events = when(state, cmd.Move(seat=0, cards=1, placements=[foot(16, 5), foot(17, 5)]))
    assert events[-1] == agenda(follow_up(1), end_action(0))
    assert when(after(state, events), cmd.Pass(seat=1))[-1] == agenda(*action(1))


def test_the_rulebooks_example_the_last_loot_tile_taken_in_a_movement_lets_the_others_follow_up_first():
    # Seat 0 takes the last loot tile; seats 1 and 2 still make their follow-ups; then seat 0,
    # the big-foot holder, gains the 3 VP.
    state = given(
        last_epoch(3, hands={0: ["movement"], 1: ["movement"]}, gods=["gaiviles-2"], loot={(17, 5): "draw_2"})
    )
    mover = when(state, cmd.Move(seat=0, cards=1, placements=[foot(16, 5), foot(17, 5)]))
    assert mover == [
        moved(0, 1, 3, placed("foot", (16, 5)), placed("foot", (17, 5)), loot=["draw_2"]),
        ev.LootActivated(seat=0, tile="draw_2"),
        drawn(0, "loot", "movement", "movement"),
        agenda(follow_up(1), follow_up(2), end_action(0)),
    ]
    state = after(state, mover)
    first = when(state, cmd.Move(seat=1, cards=1, placements=[foot(16, 5)]))
    assert first == [
        moved(1, 1, 2, placed("foot", (16, 5), cost=2), big_foot=False),
        agenda(follow_up(2), end_action(0)),
    ]
    state = after(state, first)
    second = when(state, cmd.Pass(seat=2))
    assert second == [
        ev.FollowUpDeclined(seat=2),
        drawn(2, "follow_up_declined", "movement"),
        *game_over(0, 3, scores=[3, 0, 0], winners=[0]),
    ]


def test_when_a_follow_up_takes_the_last_loot_tile_the_big_foot_holder_gains_the_points():
    state = given(
        last_epoch(3, seat=1, hands={2: ["movement"]}, gods=["gaiviles-2"], loot={(17, 5): "draw_2"}),
        moved(1, 0, 1),
        agenda(follow_up(2), follow_up(0), end_action(1)),
    )
    taker = when(state, cmd.Move(seat=2, cards=1, placements=[foot(16, 5), foot(17, 5)]))
    assert taker == [
        moved(2, 1, 2, placed("foot", (16, 5)), placed("foot", (17, 5)), big_foot=False, loot=["draw_2"]),
        ev.LootActivated(seat=2, tile="draw_2"),
        drawn(2, "loot", "movement", "movement"),
        agenda(follow_up(0), end_action(1)),
    ]
    state = after(state, taker)
    assert when(state, cmd.Pass(seat=0)) == [
        ev.FollowUpDeclined(seat=0),
        drawn(0, "follow_up_declined", "movement"),
        *game_over(1, 3, scores=[0, 3, 0], winners=[1]),
    ]


def test_the_last_loot_tile_taken_in_a_buying_ends_the_turn_phase_after_the_loot_is_activated():
    state = given(last_epoch(2, hands={0: ["money"] * 2}, gods=["gaiviles-2"], loot={(17, 5): "draw_2"}))
    purchases = [cmd.PlacePiece(piece="foot", hex=(16, 5)), cmd.PlacePiece(piece="foot", hex=(17, 5))]
    assert when(state, cmd.Buy(seat=0, money={"money": 2}, purchases=purchases)) == [
        ev.Bought(seat=0, money=["money"] * 2, budget=2, purchases=purchases, costs=[1, 1], loot=["draw_2"]),
        ev.LootActivated(seat=0, tile="draw_2"),
        drawn(0, "loot", "movement", "movement"),
        *game_over(0, 2, scores=[3, 0], winners=[0]),
    ]


def test_a_last_loot_tile_that_asks_for_a_choice_is_resolved_before_the_turn_phase_ends():
    state = given(
        last_epoch(2, hands={0: ["movement"]}, gods=["gaiviles-2"], loot={(17, 5): "reserve_2_feet_or_2_columns"})
    )
    events = when(state, cmd.Move(seat=0, cards=1, placements=[foot(16, 5), foot(17, 5)]))
    assert events == [
        moved(0, 1, 3, placed("foot", (16, 5)), placed("foot", (17, 5)), loot=["reserve_2_feet_or_2_columns"]),
        ev.LootActivated(seat=0, tile="reserve_2_feet_or_2_columns"),
        agenda(Task(kind="reserve_choice", seat=0, n=2), follow_up(1), end_action(0)),
    ]
    state = after(state, events)
    events = when(state, cmd.ChooseReserve(seat=0, piece="column"))
    assert events == [ev.ReserveGained(seat=0, feet=0, columns=2), agenda(follow_up(1), end_action(0))]
    state = after(state, events)
    assert when(state, cmd.Pass(seat=1)) == [
        ev.FollowUpDeclined(seat=1),
        drawn(1, "follow_up_declined", "movement"),
        *game_over(0, 2, scores=[3, 0], winners=[0]),
    ]


def test_a_gods_tile_taken_from_the_stack_does_not_empty_the_board():
    state = given(persia(hands={0: ["movement"]}, gods=["gaiviles-2"], loot={(17, 5): "gods_tile", (18, 2): "draw_2"}))
    events = when(state, cmd.Move(seat=0, cards=1, placements=[foot(16, 5), foot(17, 5)]))
    assert events == [
        moved(0, 1, 3, placed("foot", (16, 5)), placed("foot", (17, 5)), loot=["gods_tile"]),
        ev.LootActivated(seat=0, tile="gods_tile"),
        ev.GodGained(seat=0, tile="depraccus-1", source="loot", points=1),
        agenda(follow_up(1), end_action(0)),
    ]
    assert when(after(state, events), cmd.Pass(seat=1))[-1] == agenda(*action(1))


def test_an_extra_action_from_a_traitera_can_end_the_turn_phase_and_its_seat_scores():
    state = given(last_epoch(2, hands={0: HAND}, gods=["gaiviles-2"], traitera=1), owns(0, "stonkus-1", "traitera-1"))
    state = after(state, when(state, cmd.Buy(seat=0)))
    state = after(state, when(state, cmd.UseTraitera(seat=0)))
    assert when(state, cmd.GainGod(seat=0, tile="gaiviles-2", sacrifice=PAY)) == [
        ev.GodGained(seat=0, tile="gaiviles-2", source="board", points=6, cards=HAND),
        *game_over(0, 2, scores=[9, 0], winners=[0]),
    ]


def test_after_the_game_has_ended_no_command_is_taken():
    state = given(last_epoch(2, hands={0: HAND}, gods=["gaiviles-2"]))
    state = after(state, when(state, cmd.GainGod(seat=0, tile="gaiviles-2", sacrifice=PAY)))
    assert state.finished
    then_error(state, cmd.Pass(seat=1), "game_over")
    then_error(state, cmd.DrawCard(seat=1), "game_over")
