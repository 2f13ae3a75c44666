"""Random playouts (OpenSpiel's random_sim_test): hundreds of games of 2, 3 and 4 players with
every option end without an error or an invariant violation; folding the events gives the state
built step by step; the in-place `apply` plays the same game; every view encodes."""

import random

import msgspec
import pytest

from domain.kernel import fold
from domain.pergamon import PERGAMON
from domain.pergamon.commands import PergamonOptions
from domain.pergamon.playout import game_seed, play_game

GAMES_PER_COUNT = 100


def _options(players: int, index: int) -> PergamonOptions:
    return PergamonOptions(
        players=players,
        variant_sorting=index % 2 == 0,
        variant_player_order=players > 2 and index % 3 == 0,
        vp_visibility="secret" if index % 5 == 0 else "open",
        first_seat="random" if index % 4 else index % players,
    )


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_end_without_errors_or_invariant_violations(players):
    winners = set()
    for index in range(GAMES_PER_COUNT):
        options = _options(players, index)
        record = play_game(game_seed(f"random-{players}", index), options, random.Random(index))
        assert record.errors == [] and record.violations == [], (index, record.errors, record.violations[:3])
        state = record.state
        assert state.finished and state.round == 12 and state.winners
        assert PERGAMON.outcome(state).scores == [s.vp for s in state.seats]
        winners.update(state.winners)
    assert winners == set(range(players))  # every seat wins some games: no seat is favoured by a bug


@pytest.mark.parametrize("players", [2, 3, 4])
def test_folding_the_events_gives_the_state_and_apply_plays_the_same_game(players):
    for index in range(10):
        seed, options = game_seed(f"fold-{players}", index), _options(players, index)
        checked = play_game(seed, options, random.Random(index))
        fast = play_game(seed, options, random.Random(index), check=False)
        assert fast.events == checked.events
        assert fold(PERGAMON, checked.events) == checked.state == fast.state


def test_every_event_command_and_view_round_trips_through_json():
    record = play_game(game_seed("json", 0), _options(3, 1), random.Random(0))
    commands = msgspec.json.decode(msgspec.json.encode([c for c, _ in record.steps]), type=list[PERGAMON.command_type])
    events = msgspec.json.decode(msgspec.json.encode(record.events), type=list[PERGAMON.event_type])
    assert commands == [c for c, _ in record.steps] and events == record.events
    state = fold(PERGAMON, record.events)
    for seat in range(3):
        msgspec.json.encode(PERGAMON.seat_view(state, seat))
        msgspec.json.encode(PERGAMON.legal_options(state, seat))
    msgspec.json.encode(PERGAMON.public_view(state))


def test_the_same_seed_gives_the_same_game_and_another_seed_another():
    one = play_game(game_seed("same", 0), _options(4, 1), random.Random(1))
    two = play_game(game_seed("same", 0), _options(4, 1), random.Random(1))
    other = play_game(game_seed("same", 1), _options(4, 1), random.Random(1))
    assert one.events == two.events and one.events != other.events


def test_random_games_reach_the_rare_rules():
    """The playouts are worth their time only if they exercise break-ups, push-offs, drops that
    remove collections, storage fees and discards, arrangements and the tomb raider."""
    from collections import Counter

    from domain.pergamon import events as ev

    seen = Counter()
    for index in range(60):
        players = 2 + index % 3
        record = play_game(game_seed("rare", index), _options(players, index), random.Random(index), check=False)
        for e in record.events:
            seen[type(e).__name__] += 1
            if isinstance(e, ev.Exhibited):
                seen["broken_up"] += e.broken_up is not None
                seen["pushed_off"] += bool(e.pushed_off)
            if isinstance(e, ev.Stored):
                seen["fee"] += e.fee > 0
                seen["discard"] += bool(e.discard)
            if isinstance(e, ev.MarkersDropped):
                seen["removed"] += bool(e.removed)
    for key in ("broken_up", "pushed_off", "fee", "discard", "removed", "FindsArranged", "TombRaiderExcavated"):
        assert seen[key] > 0, key


class CountingRng:
    """The game's Rng, counting the draws a command makes."""

    def __init__(self, rng) -> None:
        self.rng, self.draws = rng, 0

    def randbelow(self, n: int) -> int:
        self.draws += 1
        return self.rng.randbelow(n)


def test_the_only_draws_are_the_first_seat_the_tiles_the_backs_and_the_values():
    from domain.pergamon import events as ev
    from domain.rng import game_rng

    for index in range(12):
        players = 2 + index % 3
        record = play_game(game_seed("draws", index), _options(players, index), random.Random(index))
        state, version = None, 0
        for command, events in record.steps:
            rng = CountingRng(game_rng(record.seed, record.game, version))
            assert PERGAMON.decide(state, command, rng) == events
            expected = sum(
                len(e.tiles)
                if isinstance(e, ev.FindsDrawn)
                else 2
                if isinstance(e, (ev.FundingBacksDrawn, ev.FundingRevealed))
                else 1
                if isinstance(e, ev.PergamonGameCreated) and e.options.first_seat == "random"
                else 0
                for e in events
            )
            assert rng.draws == expected
            for e in events:
                state = PERGAMON.evolve(state, e)
            version += len(events)


def test_evaluations_happen_exactly_in_rounds_5_7_9_and_12():
    from domain.pergamon import events as ev

    for index in range(6):
        record = play_game(game_seed("calendar", index), _options(2 + index % 3, index), random.Random(index))
        assert [e.round for e in record.events if isinstance(e, ev.MarkersScored)] == [5, 7, 9, 12]
        assert [e.round for e in record.events if isinstance(e, ev.MarkersDropped)] == [5, 7, 9]
        assert sum(isinstance(e, ev.FinalBonusGiven) for e in record.events) == 1
        assert isinstance(record.events[-1], ev.PergamonGameEnded)
