"""Pantheon (the card game)'s read models folded over random short games agree with the engine at
every event: the board is the decider's views, the summary's scores, awaited seat, status and
winners and the score view's totals are the state's; the score timeline lists only changes; a fork
starts the read models from the forked state."""

import random

import msgspec
import pytest

from domain.kernel import fold as replay
from domain.pantheon_cards import PANTHEON_CARDS
from domain.pantheon_cards import commands as cmd
from domain.pantheon_cards.random_play import random_command
from domain.pantheon_cards.rules import scores
from domain.rng import SeededRng
from projections.base import GameFold
from projections.pantheon_cards import ScoreProjection
from projections.registry import projections_for, read_models


def random_game(players: int, index: int) -> list:
    """The events of one random short game."""
    rnd, rng = random.Random(index), SeededRng(f"cards-projections-{players}-{index}".encode())
    options = cmd.PantheonCardsOptions(players=players, game_length="short")
    command, state, events = cmd.PantheonCardsCreateGame(options=options), None, []
    while state is None or not state.finished:
        new = PANTHEON_CARDS.decide(state, command, rng)
        events += new
        for event in new:
            state = PANTHEON_CARDS.evolve(state, event)
        if not state.finished:
            command = random_command(state, state.awaiting, rnd)
    return events


def _awaited(state):
    a = PANTHEON_CARDS.awaited(state)
    return None if a is None else {"seat": a.seat, "decision": a.decision}


@pytest.mark.parametrize("players", [3, 6])
def test_the_read_models_agree_with_the_engine_at_every_event(players):
    events = random_game(players, 0)
    fold, state, statuses = GameFold(projections_for("pantheon_cards")), None, []
    for version, event in enumerate(events, start=1):
        state = PANTHEON_CARDS.evolve(state, event)
        fold.apply(version, event)
        summary, score = fold.view("summary"), fold.view("score")
        assert fold.view("board") == PANTHEON_CARDS.public_view(state)
        assert [fold.view("board", s) for s in range(players)] == [
            PANTHEON_CARDS.seat_view(state, s) for s in range(players)
        ]
        assert summary["awaiting"] == _awaited(state), (version, event)
        assert summary["scores"] == scores(state) == [s.total for s in score.seats]
        assert all(s.total == len(s.gods) * (2 if s.doubled else 1) for s in score.seats)
        assert summary["turn"] == state.turn and score.version == summary["version"] == version
        statuses.append(summary["status"])
    assert statuses[0] == "setup" and "playing" in statuses and statuses[-1] == "finished"
    assert "setup" not in statuses[statuses.index("playing") :]
    assert summary["winners"] == state.winners and summary["kind"] == "pantheon_cards"
    assert score.finished and score.winners == state.winners and score.draw == state.draw
    timeline = [p.scores for p in score.timeline]  # each change, then the scores at the last version
    assert timeline[-1] == scores(state) and score.timeline[-1].version == len(events)
    assert all(a != b for a, b in zip(timeline[:-1], timeline[1:-1])) and len(timeline) > 2
    assert list(fold.views()["score"]) == ["public"] and list(fold.views()["summary"]) == ["public"]
    assert sorted(fold.views()["board"]) == ["public"] + [f"seat:{s}" for s in range(players)]


def test_the_score_view_is_the_registered_type_on_the_wire():
    fold = GameFold(projections_for("pantheon_cards"))
    fold.apply_all(enumerate(random_game(3, 1), start=1))
    score = fold.view("score")
    assert isinstance(score, read_models("pantheon_cards").score)
    assert msgspec.json.decode(msgspec.json.encode(score), type=read_models("pantheon_cards").score) == score


def test_a_fork_starts_the_read_models_from_the_forked_state():
    events = random_game(4, 2)
    parent = replay(PANTHEON_CARDS, events[: len(events) // 2])
    assert not parent.finished
    forked = PANTHEON_CARDS.decide(None, PANTHEON_CARDS.fork_command(parent, 1), SeededRng(b"fork"))
    fold = GameFold(projections_for("pantheon_cards"))
    fold.apply(1, forked[0])
    child = replay(PANTHEON_CARDS, forked[:1])
    assert fold.view("board") == PANTHEON_CARDS.public_view(child) == PANTHEON_CARDS.public_view(parent)
    assert fold.view("summary")["awaiting"] == _awaited(parent)
    assert fold.view("summary")["scores"] == scores(parent) == [s.total for s in fold.view("score").seats]
    assert fold.view("summary")["status"] == "playing"


@pytest.mark.parametrize("players", [3, 5])
def test_the_score_view_is_the_same_from_the_events_as_any_viewer_sees_them(players):
    """Scores are public (§22): the score view folded from a seat's or a spectator's redacted
    events is the one folded from the full events (what the leak sweep checks of every caller)."""
    events = random_game(players, 3)
    full = GameFold([ScoreProjection()])
    full.apply_all(enumerate(events, start=1))
    for viewer in [None, *range(players)]:
        seen = GameFold([ScoreProjection()])
        seen.apply_all(enumerate((PANTHEON_CARDS.redact(e, viewer) for e in events), start=1))
        assert seen.view("score") == full.view("score"), viewer
