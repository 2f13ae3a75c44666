"""A game ended by a forfeit (a platform event, `timed_out` with `then: forfeit`) reads as ended in its
read models too: the board's views are those of the kernel's fold, the lobby's summary is finished,
with the game's winners."""

from __future__ import annotations

import random

import pytest

from domain import games
from domain.kernel import TimedOut, fold
from domain.rng import SeededRng
from projections.base import fold_game
from projections.registry import read_models


@pytest.mark.parametrize("kind", list(games.GAMES))
def test_a_forfeit_ends_the_game_in_its_board_and_its_summary(kind):
    game = games.get(kind)
    decider, rnd = game.decider, random.Random(11)
    events = decider.decide(None, game.create_command(game.random_options(game.players[0], rnd)), SeededRng(b"f", b"g"))
    state = fold(decider, events)
    for i in range(8):  # a few commands in
        more = decider.decide(
            state, game.random_command(state, decider.awaited(state).seat, rnd), SeededRng(b"f", f"{i}".encode())
        )
        events, state = events + more, fold(decider, more, state)
    seat = decider.awaited(state).seat
    log = [*events, TimedOut(seat=seat, observed_ms=1, deadline_ms=1, then="forfeit")]
    ended = fold(decider, log)
    folded = fold_game(read_models(kind).projections, log)
    assert folded.view("board") == decider.public_view(ended)
    assert folded.view("board", seat) == decider.seat_view(ended, seat)
    summary = folded.view("summary")
    assert summary["status"] == "finished" and summary["awaiting"] is None
    assert summary["winners"] == decider.outcome(ended).winners and seat not in summary["winners"]
