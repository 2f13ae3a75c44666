"""Every hidden state a bot or a fork deals agrees with the public log: replaying the log with its
hidden parts (the unseen draws, the half gods drawn from the stack) filled in from the dealt state
gives back every event as the viewer saw it, every published score and the dealt state itself."""

from __future__ import annotations

import random
from collections import Counter

import msgspec
import pytest

from domain.kernel import fold
from domain.pantheon import PANTHEON, Options
from domain.pantheon import events as ev
from domain.pantheon.bots.knowledge import determinize, seat_knowledge
from domain.pantheon.evolve import evolve
from domain.pantheon.facts import DRAW
from domain.pantheon.flow import score_row
from domain.pantheon.state import State
from domain.pantheon.vocabulary import CARDS
from domain.rng import game_rng
from service.cli.simulate import game_seed, play_game


def _data(value) -> object:
    return msgspec.to_builtins(value, order="sorted")


def _comparable(state: State) -> object:
    data = _data(state)
    data["gods_stack"] = sorted(data["gods_stack"])  # drawn at random: its order means nothing
    return data


def _half_god_slots(log: list, seat: int) -> tuple[list[tuple[int, bool]], list[tuple[int, int, int]]]:
    """The seat's half gods as taken: (value if from the display else 0, drawn while the 1-3
    group had tiles), and at each scoring (slots so far, sum published, event index)."""
    slots, checks, state = [], [], None
    for index, event in enumerate(log):
        if isinstance(event, ev.HalfGodTaken) and event.seat == seat:
            slots.append((event.value if event.source == "display" else 0, bool(state.half_gods_low)))
        if isinstance(event, ev.Scored):
            checks.append((len(slots), event.rows[seat].half_gods, index))
        state = evolve(state, event)
    return slots, checks


def _assign(
    slots, checks, values: Counter, dealt: list[int], at: int = 0, total: int = 0, chosen=()
) -> list[int] | None:
    """Values for the seat's half gods, each from the group it was drawn from and making every sum
    published (a search, trying the dealt order first)."""
    for count, published, _ in checks:
        if count == at and total != published:
            return None
    if at == len(slots):
        return list(chosen) if not +values else None
    shown, low = slots[at]
    options = [shown] if shown else sorted(values, key=lambda v: v != dealt[at])
    options = [v for v in options if shown or (v <= 3) == low]
    for v in options:
        if not values[v]:
            continue
        values[v] -= 1
        found = _assign(slots, checks, values, dealt, at + 1, total + v, (*chosen, v))
        values[v] += 1
        if found is not None:
            return found
    return None


def _filled(log: list, viewer: int | None, dealt: State) -> list:
    """The log with its hidden parts taken from the dealt state (AssertionError if impossible)."""
    players = dealt.players
    values = {}
    for seat in range(players):
        slots, checks = _half_god_slots(log, seat)
        found = _assign(slots, checks, Counter(dealt.seats[seat].half_gods), dealt.seats[seat].half_gods)
        assert found is not None, f"no draw of seat {seat}'s dealt half gods {dealt.seats[seat].half_gods} fits the log"
        values[seat] = iter(found)
    last_pile = max([i for i, e in enumerate(log) if isinstance(e, ev.HandsReshuffled)], default=-1)
    draws = iter(step.cards for step in dealt.card_trace if step.kind == DRAW)
    filled = []
    for index, event in enumerate(log):
        if isinstance(event, ev.HalfGodTaken):
            event = msgspec.structs.replace(event, value=next(values[event.seat]))
        elif isinstance(event, ev.CardsDrawn) and index > last_pile:
            cards = next(draws, None)
            assert cards is not None, "the dealt card trace holds fewer draws than the log"
            event = msgspec.structs.replace(event, cards=[CARDS[c] for c in cards])
        filled.append(event)
    return filled


def _problems_replaying(log: list, filled: list, viewer: int | None) -> tuple[list[str], State]:
    problems, state = [], None
    for index, (event, mine) in enumerate(zip(log, filled)):
        if isinstance(mine, ev.Scored) and list(mine.rows) != [score_row(seat) for seat in state.seats]:
            problems.append(f"event {index}: the published scores differ")
        if isinstance(mine, ev.HalfGodTaken) and mine.source == "stack":
            group = state.half_gods_low or state.half_gods_high
            if mine.value not in group:
                problems.append(f"event {index}: half god {mine.value} is not on top of the stack")
        if isinstance(mine, ev.CardsDrawn):
            pile = Counter(dict(zip(CARDS, state.draw_pile)))
            if Counter(mine.cards) - pile:
                problems.append(f"event {index}: {mine.cards} are not all in the draw pile")
        state = evolve(state, mine)
        if min(min(s.hand) for s in state.seats) < 0 or min(state.draw_pile) < 0:
            problems.append(f"event {index}: a hand or the draw pile holds fewer than no cards")
        if _data(PANTHEON.redact(mine, viewer)) != _data(PANTHEON.redact(event, viewer)):
            problems.append(f"event {index}: {type(event).__name__} comes out otherwise")
    return problems, state


def public_log_problems(log: list, viewer: int | None, dealt: State) -> list[str]:
    """What in the public log (as `viewer` saw it) the dealt state contradicts."""
    try:
        filled = _filled(log, viewer, dealt)
    except AssertionError as no_history:
        return [str(no_history)]
    problems, replayed = _problems_replaying(log, filled, viewer)
    if _comparable(replayed) != _comparable(dealt):
        problems.append("the log replayed with the dealt draws does not end in the dealt state")
    return problems


def _game(players: int, label: str) -> list[list]:
    record = play_game(game_seed(label, players), Options(players=players), random.Random(label), check=False)
    return [batch for _, batch in record.steps]


def _points(batches: list[list], count: int) -> list[list]:
    """Logs ending after a command at `count` spread points of the game (the last ones late: the
    half-god sums are published at the end of epoch 3)."""
    ends = [len(batches) * k // (count + 1) for k in range(1, count + 1)] + [len(batches) - 2]
    return [[e for batch in batches[:end] for e in batch] for end in ends]


def _viewers(players: int) -> list[int | None]:
    return [*range(players), None]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_strong_bots_determinizations_agree_with_every_public_event(players):
    for label in ("facts-a", "facts-b"):
        for log in _points(_game(players, label), 3):
            state = fold(PANTHEON, log)
            for viewer in _viewers(players):
                knowledge = seat_knowledge(state, viewer)
                for n in range(3):
                    dealt = determinize(knowledge, random.Random(n))
                    assert public_log_problems(log, viewer, dealt) == [], (label, len(log), viewer, n)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_forks_redeal_agrees_with_every_public_event(players):
    for log in _points(_game(players, "facts-fork"), 3):
        state = fold(PANTHEON, log)
        for viewer in _viewers(players):
            for n in range(2):
                command = PANTHEON.fork_command(state, viewer)
                [event] = PANTHEON.decide(None, command, game_rng(bytes([n]), "fork", 0))
                assert public_log_problems(log, viewer, event.state) == [], (len(log), viewer, n)


def test_the_replay_finds_a_deal_that_swaps_half_gods_against_a_published_sum():
    batches = _game(3, "facts-a")
    log = _points(batches, 3)[-1]
    state = fold(PANTHEON, log)
    assert any(isinstance(e, ev.Scored) for e in log)
    swapped = msgspec.convert(_data(state), State)
    a, b = (i for i in range(3) if i != 0)
    swapped.seats[a].half_gods, swapped.seats[b].half_gods = state.seats[b].half_gods, state.seats[a].half_gods
    if sorted(state.seats[a].half_gods) == sorted(state.seats[b].half_gods):
        pytest.skip("the two seats hold the same half gods")
    assert public_log_problems(log, 0, state) == []
    assert public_log_problems(log, 0, swapped) != []
