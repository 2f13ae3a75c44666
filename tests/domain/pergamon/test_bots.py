"""Bots play legal commands from a seat's knowledge only, deterministically for a given draw, and
the levels are ordered: greedy beats random."""

import random
import time

import pytest

from domain.pergamon import PERGAMON
from domain.pergamon.bots import BOTS, make_bot, seat_knowledge, view_hash
from domain.pergamon.commands import PergamonOptions
from domain.pergamon.playout import game_seed, play_game
from domain.pergamon.state import clone
from service.ai.ladder import ladder


def _bot_policies(names):
    bots = [make_bot(n) for n in names]
    return {
        s: (lambda state, seat, rnd: bots[seat].choose(seat_knowledge(state, seat), seat, rnd))
        for s in range(len(names))
    }


@pytest.mark.parametrize("players", [2, 3, 4])
def test_greedy_bots_play_whole_games_with_legal_commands(players):
    options = PergamonOptions(players=players, variant_sorting=True, vp_visibility="secret")
    record = play_game(
        game_seed("bots", players), options, random.Random(players), policies=_bot_policies(["greedy"] * players)
    )
    assert record.errors == [] and record.violations == [] and record.state.finished


def test_the_strong_bot_plays_a_whole_game_with_legal_commands():
    record = play_game(
        game_seed("strong", 0),
        PergamonOptions(players=2),
        random.Random(0),
        policies=_bot_policies(["strong", "greedy"]),
    )
    assert record.errors == [] and record.violations == [] and record.state.finished


def test_a_bot_chooses_from_knowledge_alone_so_hidden_vp_change_nothing():
    options = PergamonOptions(players=3, vp_visibility="secret")
    record = play_game(game_seed("knowledge", 0), options, random.Random(0))
    state = None
    checked = 0
    for step, (_, events) in enumerate(record.steps[:60]):
        for e in events:
            state = PERGAMON.evolve(state, e)
        if state.decision is None:
            continue
        seat, other = state.awaiting, clone(state)
        for i, s in enumerate(other.seats):
            if i != seat:
                s.vp += 21
        assert view_hash(seat_knowledge(state, seat)) == view_hash(seat_knowledge(other, seat))
        for name in ("greedy", "strong") if step % 4 == 0 else ("greedy",):
            bot = make_bot(name)
            one = bot.choose(seat_knowledge(state, seat), seat, random.Random(7))
            two = bot.choose(seat_knowledge(other, seat), seat, random.Random(7))
            assert one == two
        checked += 1
    assert checked > 20


def test_the_levels_are_named_weakest_first():
    assert tuple(BOTS) == ("random", "greedy", "strong", "expert") and PERGAMON.bots.names == tuple(BOTS)
    assert make_bot("strong", width=2).params["width"] == 2 and make_bot("strong").budget


def test_greedy_beats_random():
    tallies = ladder(["greedy", "random"], games=10, players=2, seed="test", clock=time.perf_counter, kind="pergamon")
    assert tallies["greedy"].wins >= 8
