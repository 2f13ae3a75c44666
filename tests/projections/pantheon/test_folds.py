"""The projections as pure folds agree with the game state at every version of random games."""

import msgspec
import pytest

from domain.pantheon import PANTHEON
from domain.pantheon import events as ev
from domain.pantheon.commands import Options
from domain.pantheon.views import awaiting
from projections import GameFold, SummaryProjection, fold_game
from projections.pantheon import SUMMARY_RULES, ScoreProjection
from projections.registry import projections_for

from .games import random_games

PANTHEON_PROJECTIONS = projections_for("pantheon")


def score_at(timeline: list[dict], version: int) -> list[int]:
    """The scores after event `version`, read from a score view's timeline."""
    return [entry["scores"] for entry in timeline if entry["version"] <= version][-1]


def test_at_every_version_of_random_games_every_view_agrees_with_the_game_state():
    for events in random_games():
        fold, state, acted = GameFold(PANTHEON_PROJECTIONS), None, False
        for version, event in enumerate(events, start=1):
            fold.apply(version, event)
            state = PANTHEON.evolve(state, event)
            assert fold.view("board") == PANTHEON.public_view(state)
            for seat in range(state.players):
                assert fold.view("board", seat) == PANTHEON.seat_view(state, seat)
            summary, score = fold.view("summary"), msgspec.to_builtins(fold.view("score"))
            scores = [seat.score for seat in state.seats]
            assert (summary["version"], summary["epoch"]) == (version, state.epoch)
            assert (summary["nation"], summary["awaiting"]) == (
                state.nation or None,
                msgspec.to_builtins(awaiting(state)),
            )
            assert (summary["scores"], summary["winners"]) == (scores, state.winners)
            acted = acted or getattr(awaiting(state), "decision", None) == "action"
            assert summary["status"] == ("finished" if state.finished else "playing" if acted else "setup")
            assert [s["total"] for s in score["seats"]] == scores == score_at(score["timeline"], version)
        assert state.finished and summary["status"] == "finished" and score["finished"]


def test_folding_event_by_event_gives_the_views_of_a_fresh_fold_at_every_tenth_version():
    for events in random_games()[:3]:
        fold = GameFold(PANTHEON_PROJECTIONS)
        for version, event in enumerate(events, start=1):
            fold.apply(version, event)
            if version % 10 == 0 or version == len(events):
                fresh = fold_game(PANTHEON_PROJECTIONS, events[:version])
                assert msgspec.json.encode(fold.views()) == msgspec.json.encode(fresh.views()), version


def test_an_event_applied_twice_or_after_a_gap_is_refused():
    fold = fold_game(PANTHEON_PROJECTIONS, random_games()[0][:5])
    for version in (5, 7, 1):
        with pytest.raises(ValueError, match="cannot follow version 5"):
            fold.apply(version, ev.AgendaSet(tasks=[]))
    assert fold.version == 5


def test_each_seats_points_add_up_from_gods_by_epoch_phase_ends_and_scorings_to_the_final_scores():
    for events in random_games():
        score = msgspec.to_builtins(fold_game([ScoreProjection()], events).view("score"))
        [end] = [e for e in events if isinstance(e, ev.GameEnded)]
        assert [s["total"] for s in score["seats"]] == end.scores
        for seat in score["seats"]:
            parts = (seat["gods"], seat["phase_end"], seat["half_gods"], seat["columns"], seat["pietalte"])
            assert seat["total"] == sum(parts) and seat["gods"] == sum(seat["gods_by_source"].values())
            assert [r["epoch"] for r in seat["scorings"]] == [3, 6] and len(seat["gods_by_epoch"]) == 6


def game_created(players: int = 2) -> ev.GameCreated:
    return ev.GameCreated(options=Options(players=players, bonus_tiles="random"))


def test_the_score_view_attributes_gods_to_their_epoch_and_lists_scores_only_when_they_change():
    row = ev.ScoreRow(half_gods=4, columns=6, pietalte=2, total=12)
    events = [
        game_created(),
        ev.NationRevealed(epoch=1, nation="roma"),
        ev.GodGained(seat=0, tile="stonkus-1", source="board", points=1),
        ev.AgendaSet(tasks=[]),
        ev.TurnPhaseEnded(seat=1, points=3),
        ev.NationRevealed(epoch=2, nation="gallia"),
        ev.GodGained(seat=0, tile="gaiviles-2", source="loot", points=2),
        ev.Scored(epoch=3, rows=[row, ev.ScoreRow(half_gods=0, columns=0, pietalte=0, total=0)]),
        ev.AgendaSet(tasks=[]),
    ]
    view = msgspec.to_builtins(fold_game([ScoreProjection()], events).view("score"))
    assert view["seats"][0] == {
        "seat": 0,
        "total": 15,
        "gods": 3,
        "gods_by_epoch": [1, 2],
        "gods_by_source": {"board": 1, "loot": 2},
        "phase_end": 0,
        "half_gods": 4,
        "columns": 6,
        "pietalte": 2,
        "scorings": [{"epoch": 3, "half_gods": 4, "columns": 6, "pietalte": 2, "total": 12}],
        "carried_over": 0,
    }
    assert view["seats"][1]["total"] == 3 and view["seats"][1]["gods_by_epoch"] == [0, 0]
    assert view["timeline"] == [
        {"version": 1, "scores": [0, 0]},
        {"version": 3, "scores": [1, 0]},
        {"version": 5, "scores": [1, 3]},
        {"version": 7, "scores": [3, 3]},
        {"version": 8, "scores": [15, 3]},
        {"version": 9, "scores": [15, 3]},
    ]


def test_the_summary_is_in_setup_until_the_first_action_is_awaited_and_finished_after_the_end():
    action = ev.AgendaSet(tasks=[ev.Task(kind="action", seat=1)])
    choose = ev.AgendaSet(tasks=[ev.Task(kind="choose_bonus", seat=0)])
    fold = GameFold([SummaryProjection(kind="pantheon", rules=SUMMARY_RULES)])
    statuses = []
    for version, event in enumerate(
        [game_created(3), choose, action, choose, ev.GameEnded(scores=[1, 2, 3], half_gods=[[], [], []], winners=[2])],
        start=1,
    ):
        fold.apply(version, event)
        statuses.append((fold.view("summary")["status"], fold.view("summary")["awaiting"]))
    bonus, act = {"seat": 0, "decision": "choose_bonus"}, {"seat": 1, "decision": "action"}
    assert statuses == [("setup", None), ("setup", bonus), ("playing", act), ("playing", bonus), ("finished", None)]
    assert fold.view("summary")["winners"] == [2] and fold.view("summary")["players"] == 3
