"""Pergamon's read models folded over random games agree with the engine at every event: the
board is the decider's views, the summary's awaited seat and VP are the state's, the score
breakdown adds up to each seat's VP; with secret VP nothing shows another seat's VP before the end."""

import random

import msgspec
import pytest

from domain.pergamon import PERGAMON
from domain.pergamon.commands import PergamonOptions
from domain.pergamon.playout import game_seed, play_game
from projections.base import GameFold
from projections.registry import projections_for


def _awaited(state):
    a = PERGAMON.awaited(state)
    return None if a is None else {"seat": a.seat, "decision": a.decision}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_read_models_agree_with_the_engine_at_every_event(players):
    for index in range(3):
        options = PergamonOptions(players=players, variant_sorting=index == 1)
        record = play_game(game_seed("projections", 10 * players + index), options, random.Random(index))
        fold, state = GameFold(projections_for("pergamon")), None
        for version, event in enumerate(record.events, start=1):
            state = PERGAMON.evolve(state, event)
            fold.apply(version, event)
            summary, score = fold.view("summary"), msgspec.to_builtins(fold.view("score"))
            assert fold.view("board") == PERGAMON.public_view(state)
            assert summary["awaiting"] == _awaited(state), (version, event)
            vp = [s.vp for s in state.seats]
            assert summary["scores"] == vp and [s["total"] for s in score["seats"]] == vp
            for s in score["seats"]:
                parts = s["exhibits"] + sum(s["markers"].values()) + sum(s["awards"].values()) + s["final_bonus"]
                assert parts == s["total"]
        assert summary["status"] == "finished" and summary["winners"] == state.winners
        assert summary["round"] == 12 and summary["kind"] == "pergamon"


def test_with_secret_vp_the_read_models_show_only_a_seats_own_vp_until_the_end():
    options = PergamonOptions(players=3, vp_visibility="secret")
    record = play_game(game_seed("projections-secret", 0), options, random.Random(0))
    fold, state = GameFold(projections_for("pergamon")), None
    for version, event in enumerate(record.events, start=1):
        state = PERGAMON.evolve(state, event)
        fold.apply(version, event)
        if state.finished:
            break
        views = msgspec.to_builtins(fold.views())  # as the read models store them
        assert views["summary"]["public"]["scores"] == [0, 0, 0]
        assert [s["total"] for s in views["score"]["public"]["seats"]] == [None, None, None]
        for seat in range(3):
            own = views["score"][f"seat:{seat}"]
            assert [s["total"] for s in own["seats"]] == [state.seats[i].vp if i == seat else None for i in range(3)]
            assert all(e["scores"][i] is None for e in own["timeline"] for i in range(3) if i != seat)
            board = views["board"][f"seat:{seat}"]
            assert board["you"]["vp"] == state.seats[seat].vp
            assert [s["vp"] for s in board["seats"]] == [None, None, None]
    views = msgspec.to_builtins(fold.views())
    assert views["summary"]["public"]["scores"] == [s.vp for s in state.seats]
    assert [s["total"] for s in views["score"]["public"]["seats"]] == [s.vp for s in state.seats]


def test_a_fork_starts_the_read_models_from_the_forked_state():
    from domain.kernel import fold as replay
    from domain.rng import SeededRng

    record = play_game(game_seed("projections-fork", 0), PergamonOptions(players=3), random.Random(0))
    parent = replay(PERGAMON, [e for _, es in record.steps[:50] for e in es])
    events = PERGAMON.decide(None, PERGAMON.fork_command(parent, None), SeededRng(b"fork"))
    fold = GameFold(projections_for("pergamon"))
    fold.apply(1, events[0])
    assert fold.view("board") == PERGAMON.public_view(parent)
    assert fold.view("summary")["awaiting"] == _awaited(parent)
    assert fold.view("summary")["scores"] == [s.vp for s in parent.seats]
    assert [s.carried_over for s in fold.view("score").seats] == [s.vp for s in parent.seats]
