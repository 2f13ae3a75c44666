"""Bots play legal commands from a seat's knowledge only (§22): other hands and a sealed enemy
commitment are never read, a deal of them is consistent with what the seat knows, and the
greedy bot beats the random one."""

import json
import os
import pathlib
import random
import subprocess
import sys

import pytest

from domain.pantheon_cards import commands as cmd
from domain.pantheon_cards.bots import BOTS, make_bot, seat_knowledge, view_hash
from domain.pantheon_cards.bots.knowledge import determinize
from domain.pantheon_cards.decide import apply
from domain.pantheon_cards.invariants import check_invariants
from domain.pantheon_cards.random_play import random_command
from domain.pantheon_cards.state import clone
from domain.rng import SeededRng


def play(names, seed, length="short"):
    bots = [make_bot(n) for n in names]
    rnd, rng = random.Random(seed), SeededRng(f"bots-{seed}".encode())
    options = cmd.PantheonCardsOptions(players=len(names), game_length=length)
    state, _ = apply(None, cmd.PantheonCardsCreateGame(options=options), rng)
    while not state.finished:
        seat = state.awaiting
        state, _ = apply(state, bots[seat].choose(seat_knowledge(state, seat), seat, rnd), rng)
        assert check_invariants(state) == []
    return state


@pytest.mark.parametrize("names", [["random", "greedy", "random", "greedy"], ["strong", "greedy", "random"]])
def test_bots_play_whole_games_with_legal_commands(names):
    state = play(names, len(names))
    assert state.finished and state.winners


def _positions(count=40):
    rnd, rng = random.Random(7), SeededRng(b"positions")
    state, _ = apply(None, cmd.PantheonCardsCreateGame(options=cmd.PantheonCardsOptions(players=4)), rng)
    out = []
    while not state.finished and len(out) < count:
        out.append(state)
        state, _ = apply(state, random_command(state, state.awaiting, rnd), rng)
    return out


def test_knowledge_hides_other_hands_and_a_deal_is_consistent_with_it():
    for state in _positions():
        seat = state.awaiting
        known = seat_knowledge(state, seat)
        others = [s for s in range(state.players) if s != seat]
        assert all(known.state.hands[s] == [] for s in others if not (state.spy == seat and s == state.spied))
        assert known.state.hands[seat] == state.hands[seat]
        hidden = {c for s in others for c in state.hands[s]}
        assert hidden <= set(known.state.unseen)
        dealt = determinize(known, random.Random(1))
        assert check_invariants(dealt) == [] and [len(h) for h in dealt.hands] == [len(h) for h in state.hands]
        assert dealt.hands[seat] == state.hands[seat] and dealt.deck == state.deck


def test_what_a_seat_may_not_see_changes_neither_its_knowledge_nor_its_bots_choice():
    checked = 0
    for state in _positions():
        seat = state.awaiting
        other = next(s for s in range(state.players) if s != seat and state.hands[s] and s != state.spied)
        if not state.unseen:
            continue
        swapped = clone(state)
        secret, fresh = swapped.hands[other][0], swapped.unseen[0]
        swapped.hands[other][0] = fresh
        swapped.unseen[0] = secret
        swapped.unseen.sort()
        assert view_hash(seat_knowledge(state, seat)) == view_hash(seat_knowledge(swapped, seat))
        names = ("random", "greedy", "strong") if checked % 4 == 0 else ("random", "greedy")  # strong: 1 in 4
        for name in names:
            choices = [make_bot(name).choose(seat_knowledge(s, seat), seat, random.Random(3)) for s in (state, swapped)]
            assert choices[0] == choices[1]
        checked += 1
    assert checked > 20


def test_greedy_beats_random_in_three_player_games():
    share = 0.0
    games = 20
    for index in range(games):
        names = ["greedy", "random", "random"]
        seats = names[index % 3 :] + names[: index % 3]
        state = play(seats, 100 + index)
        hero = seats.index("greedy")
        share += 1 / len(state.winners) if hero in state.winners else 0.0
    assert share / games > 0.5  # a fair share is 1/3


def test_the_strong_bot_is_the_games_own_and_says_what_it_searches():
    from domain.pantheon_cards.bots.strong import StrongBot

    bot = make_bot("strong")
    assert isinstance(bot, StrongBot) and bot.params["worlds"] >= 4
    assert "every candidate one command ahead" in bot.budget and "next turn" in bot.budget
    assert make_bot("strong", worlds=2).params["worlds"] == 2 and make_bot("strong").params == bot.params


def test_the_strong_bots_playouts_stop_at_the_seats_next_turn():
    from domain.pantheon_cards.bots.strong import StrongBot

    seen: list[tuple[int, int]] = []

    class Watching(StrongBot):
        def _greedy(self, worlds, seat, rnd, samples):
            seen.append((worlds[0].turn, seat))
            return super()._greedy(worlds, seat, rnd, samples)

    start = next(s for s in _positions() if s.decision == "draw_card" and s.turn > 2)
    bot = Watching(make_bot("strong").search, "strong", {**make_bot("strong").params, "plies": 200})
    bot._rollout(clone(start), start.awaiting, random.Random(5))
    assert seen and all(turn < start.turn + start.players for turn, _ in seen)
    assert {seat for _, seat in seen} == set(range(start.players))  # every other seat had its turn too


CHOICES_SCRIPT = """
import json, random, msgspec
from domain.pantheon_cards.bots import BOTS, make_bot, seat_knowledge
from tests.domain.pantheon_cards.test_bots import _positions
out = []
for state in _positions(24)[::3]:
    seat = state.awaiting
    for name in sorted(BOTS):
        bot = make_bot(name, **({"iterations": 40} if name == "expert" else {}))
        command = bot.choose(seat_knowledge(state, seat), seat, random.Random("audit"))
        out.append(msgspec.to_builtins(command))
print(json.dumps(out))
"""


def test_bots_choose_the_same_in_every_process_whatever_its_string_hash_seed():
    # An auditor re-runs a bot in another process: no choice may depend on the order of a set or dict of strings.
    root = pathlib.Path(__file__).resolve().parents[3]
    runs = [
        subprocess.run(
            [sys.executable, "-c", CHOICES_SCRIPT],
            cwd=root,
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
            timeout=300,
        )
        for seed in ("1", "2")
    ]
    assert all(run.returncode == 0 for run in runs), runs[0].stderr
    choices = [json.loads(run.stdout) for run in runs]
    assert len(choices[0]) == 8 * len(BOTS) and choices[0] == choices[1]
