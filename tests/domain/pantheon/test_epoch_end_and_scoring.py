"""The end of an epoch (rules §3.4), the scorings after epochs 3 and 6 and the end of the game (§8)."""

import pytest

from domain.pantheon import events as ev
from domain.pantheon.commands import GainGod, Pass

from .helpers_flow import half_gods_taken, run_tasks
from .scenario import BOARD, Task, after, awaiting, given, then_error, turn_phase, when

SITES = [(18, 0), (6, 1), (13, 1), (15, 1), (7, 2), (17, 2), (-1, 3), (1, 3), (9, 3), (15, 3), (2, 4), (4, 5)]


def columns(seat: int, n: int) -> list:
    """`n` columns of `seat` on the board (all 12 of its columns moved to the general reserve first)."""
    return [
        ev.PiecesExchanged(seat=seat, give="column", count=5),  # bsw, 2 players: 5 columns in hand
        *[ev.ColumnPlaced(seat=seat, hex=h) for h in SITES[:n]],
    ]


def row(half_gods=0, columns=0, pietalte=0) -> ev.ScoreRow:
    return ev.ScoreRow(half_gods=half_gods, columns=columns, pietalte=pietalte, total=half_gods + columns + pietalte)


def end_of(epoch: int, *extra, rng=None, seat: int = 0) -> tuple:
    """The state at the end of `epoch`'s turn phase (ended by `seat`) and the events that follow."""
    state = given(turn_phase(2, epoch=epoch), *extra)
    return state, run_tasks(state, Task(kind="end_epoch", seat=seat), rng=rng)


# --- the end of an epoch ----------------------------------------------------------------------


def test_the_epoch_ends_after_the_action_that_took_the_last_gods_tile_and_the_seat_to_its_left_starts_the_next():
    state = given(turn_phase(2, seat=1, gods=["gadicea-1"], hands={1: ["dancer"] * 5}))
    events = when(state, GainGod(seat=1, tile="gadicea-1", sacrifice={"dancer": 5}))
    assert events[:3] == [
        ev.GodGained(seat=1, tile="gadicea-1", source="board", points=1, cards=["dancer"] * 5),
        ev.TurnPhaseEnded(seat=1, points=3),
        ev.EpochEnded(epoch=1, next_starting_seat=0),
    ]
    assert isinstance(events[3], ev.NationRevealed) and events[3].epoch == 2


def test_at_the_end_of_an_epoch_feet_return_columns_stay_and_gods_loot_and_displayed_half_gods_go_to_the_box():
    pieces = [
        ev.Moved(
            seat=0,
            cards=0,
            big_foot=True,
            steps=3,
            placements=[
                ev.Placed(piece="foot", hex=(8, 4), cost=1),
                ev.Placed(piece="column", hex=(9, 3), cost=1),
                ev.Placed(piece="foot", hex=(9, 4), cost=1),
            ],
        ),
        ev.Moved(seat=1, cards=0, big_foot=False, steps=1, placements=[ev.Placed(piece="foot", hex=(8, 6), cost=1)]),
        ev.HalfGodsDisplayed(values=[4, 2]),
    ]
    state, events = end_of(1, *pieces, seat=1)
    assert events[0] == ev.EpochEnded(epoch=1, next_starting_seat=0)
    assert isinstance(events[1], ev.NationRevealed)
    ended = after(state, events[:1])
    assert [(s.feet, s.columns, s.feet_on_board, s.columns_on_board) for s in ended.seats] == [
        (6, 4, [], [BOARD.index_of[(9, 3)]]),
        (6, 5, [], []),
    ]
    assert ended.occupants == {BOARD.index_of[(9, 3)]: [1]}  # seat 0's column
    assert (ended.gods_board, ended.gods_box) == ([], ["surparit-1", "taksator-1", "gadicea-1"])
    assert (ended.loot_board, ended.loot_box) == ({}, {"draw_2": 3})
    assert (ended.half_god_display, sorted(ended.half_gods_box)) == ([], [2, 4])
    assert (ended.temple, ended.starting_seat) == (-1, 0)


# --- scoring ----------------------------------------------------------------------------------


@pytest.mark.parametrize("epoch", [1, 2, 4, 5])
def test_there_is_no_scoring_after_epochs_1_2_4_and_5(epoch):
    _, events = end_of(epoch, *half_gods_taken(0, 3), *columns(1, 2))
    assert events[0] == ev.EpochEnded(epoch=epoch, next_starting_seat=1)
    assert events[1] == ev.NationRevealed(epoch=epoch + 1, nation=events[1].nation)
    assert not any(isinstance(e, ev.Scored) for e in events)


def test_the_first_scoring_follows_the_end_of_epoch_3_and_keeps_the_half_gods():
    state, events = end_of(3, *half_gods_taken(0, 3), *columns(1, 2))
    assert events[:2] == [
        ev.EpochEnded(epoch=3, next_starting_seat=1),
        ev.Scored(epoch=3, rows=[row(half_gods=3), row(columns=2)]),
    ]
    assert events[2] == ev.NationRevealed(epoch=4, nation=events[2].nation)
    state = after(state, events)
    assert [(s.score, s.half_gods, len(s.columns_on_board)) for s in state.seats] == [(3, [3], 0), (2, [], 2)]


def test_the_rulebook_scoring_example_scores_half_gods_3_plus_2_and_five_columns_as_15_points():
    _, events = end_of(3, ev.TurnPhaseEnded(seat=0, points=11), *half_gods_taken(0, 3, 2), *columns(0, 5))
    assert events[1] == ev.Scored(epoch=3, rows=[row(half_gods=5, columns=10), row()])
    assert events[1].rows[0].total == 15
    assert after(given(turn_phase(2, epoch=3), ev.TurnPhaseEnded(seat=0, points=11)), events[:2]).seats[0].score == 26


@pytest.mark.parametrize("n, points", [(0, 0), (1, 1), (3, 3), (4, 8), (5, 10), (7, 14), (8, 24), (11, 33), (12, 48)])
def test_columns_score_1_each_up_to_3_then_2_each_up_to_7_then_3_each_up_to_11_and_4_each_for_12(n, points):
    _, events = end_of(6, *columns(0, n))
    assert events[1] == ev.Scored(epoch=6, rows=[row(columns=points), row()])


@pytest.mark.parametrize(
    "pietalte, levels, points",
    [
        (1, {"priest": 4, "dancer": 2}, 4),
        (2, {"priest": 4, "dancer": 2}, 8),
        (2, {"temple": 1}, 2),
        (1, {}, 0),
        (0, {"priest": 4}, 0),
    ],
)
def test_each_pietalte_scores_the_level_of_the_seats_highest_sacrifice_tile(pietalte, levels, points):
    tiles = [ev.GodGained(seat=0, tile=f"pietalte-{i}", source="loot", points=0) for i in range(1, pietalte + 1)]
    improved = [ev.SacrificeImproved(seat=0, kind=k, level=lv) for k, lv in levels.items()]
    _, events = end_of(3, *tiles, *improved)
    assert events[1] == ev.Scored(epoch=3, rows=[row(pietalte=points), row()])


def test_a_scoring_adds_half_gods_then_columns_then_pietalte_for_every_seat():
    extra = [
        *half_gods_taken(0, 5, 1),
        *columns(0, 4),
        ev.GodGained(seat=0, tile="pietalte-1", source="loot", points=0),
        ev.SacrificeImproved(seat=0, kind="offering", level=3),
        *half_gods_taken(1, 6),
    ]
    _, events = end_of(6, *extra)
    assert events[1] == ev.Scored(
        epoch=6, rows=[ev.ScoreRow(half_gods=6, columns=8, pietalte=3, total=17), row(half_gods=6)]
    )


# --- the end of the game ----------------------------------------------------------------------


def final(points: tuple[int, int], half_gods: tuple[tuple[int, ...], tuple[int, ...]]) -> tuple:
    extra = [ev.TurnPhaseEnded(seat=s, points=p) for s, p in enumerate(points) if p]
    extra += [e for s, values in enumerate(half_gods) for e in half_gods_taken(s, *values)]
    return end_of(6, *extra)


def test_the_game_ends_after_the_second_scoring_and_the_most_vp_wins():
    state, events = final((30, 20), ((), ()))
    assert events == [
        ev.EpochEnded(epoch=6, next_starting_seat=1),
        ev.Scored(epoch=6, rows=[row(), row()]),
        ev.GameEnded(scores=[30, 20], half_gods=[[], []], winners=[0]),
        ev.AgendaSet(tasks=[]),
    ]
    state = after(state, events)
    assert (state.finished, state.winners, awaiting(state)) == (True, [0], None)
    then_error(state, Pass(seat=0), "game_over")


def test_a_tie_in_vp_goes_to_the_seat_with_more_half_god_tiles_not_more_half_god_points():
    _, events = final((10, 12), ((6,), (2, 2)))
    assert events[1:3] == [
        ev.Scored(epoch=6, rows=[row(half_gods=6), row(half_gods=4)]),
        ev.GameEnded(scores=[16, 16], half_gods=[[6], [2, 2]], winners=[1]),
    ]


def test_a_tie_in_vp_and_half_god_tiles_shares_the_victory():
    _, events = final((10, 10), ((3, 3), (4, 2)))
    assert events[2] == ev.GameEnded(scores=[16, 16], half_gods=[[3, 3], [2, 4]], winners=[0, 1])


def test_the_points_of_the_second_scoring_count_for_the_winner():
    _, events = final((20, 15), ((), (6, 5)))  # 20 against 15 + 11
    assert events[2] == ev.GameEnded(scores=[20, 26], half_gods=[[], [5, 6]], winners=[1])
