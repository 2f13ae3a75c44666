"""Given/when/then helpers for Pergamon: games set up by the engine, then arranged by hand into
the position a rule or worked example describes (tiles moved, never created or lost)."""

from __future__ import annotations

import msgspec

from domain.kernel import DomainError
from domain.pergamon import PERGAMON
from domain.pergamon import commands as cmd
from domain.pergamon.invariants import check_invariants
from domain.pergamon.rules import components_of
from domain.pergamon.state import Collection, State, clone
from domain.pergamon.vocabulary import EXCAVATE, EXCAVATION
from domain.rng import SeededRng

A, B, C, D = 0, 1, 2, 3


class Scripted:
    """An Rng that answers a script of draws (then fails loudly if asked for more)."""

    def __init__(self, *values: int) -> None:
        self.values = list(values)

    def randbelow(self, n: int) -> int:
        value = self.values.pop(0)
        assert 0 <= value < n, (value, n)
        return value


def tile_draws(unrevealed: list[int], tiles: list[int]) -> list[int]:
    """The randbelow answers that make phase 1 draw `tiles` in this order (rules §11)."""
    pool, answers = sorted(unrevealed), []
    for t in tiles:
        answers.append(pool.index(t))
        pool.remove(t)
    return answers


def back_draws(state: State, backs: list[str]) -> list[int]:
    """The answers that draw these backs: a bag is any answer below B."""
    comps = components_of(state)
    bags = sum(n for n, b in zip(state.undrawn, comps.card_backs) if b == "bag")
    chests = sum(state.undrawn) - bags
    answers = []
    for back in backs:
        answers.append(0 if back == "bag" else bags + chests - 1)
        bags, chests = (bags - 1, chests) if back == "bag" else (bags, chests - 1)
    return answers


def value_draws(state: State, backs: list[str], values: list[int]) -> list[int]:
    """The answers that reveal these values for these backs (copies counted, §11)."""
    comps = components_of(state)
    left, answers = state.undrawn[:], []
    for back, value in zip(backs, values):
        counts = [n if b == back else 0 for n, b in zip(left, comps.card_backs)]
        answers.append(sum(counts[: value - 1]))
        left[value - 1] -= 1
    return answers


def new_game(players: int = 3, seed: bytes = b"scenario", **options) -> State:
    """A created game (round 1 laid out, awaiting the first placement); first seat 0 by default."""
    options.setdefault("first_seat", 0)
    state, _ = run(
        None, cmd.PergamonCreateGame(options=cmd.PergamonOptions(players=players, **options)), SeededRng(seed)
    )
    return state


def run(state: State | None, command, rng=None) -> tuple[State, list]:
    """Decide and evolve: the new state and the events (the given state is not changed)."""
    events = PERGAMON.decide(state, command, rng or SeededRng(b"run"))
    state = None if state is None else clone(state)  # evolve works in place
    for event in events:
        state = PERGAMON.evolve(state, event)
    return state, events


def refused(state: State, command, rng=None) -> DomainError:
    """The DomainError a command raises (the test fails if it is accepted)."""
    try:
        PERGAMON.decide(state, command, rng or SeededRng(b"run"))
    except DomainError as error:
        return error
    raise AssertionError(f"{command!r} was accepted")


def _take(state: State, tile: int) -> None:
    """Remove a tile from wherever it is."""
    if tile in state.unrevealed:
        state.unrevealed.remove(tile)
        return
    for g in state.galleries:
        if tile in g:
            g.remove(tile)
            return
    for s in state.seats:
        if tile in s.loose:
            s.loose.remove(tile)
            return
        for k in s.collections:
            if tile in k.tiles:
                raise AssertionError(f"tile {tile} is exhibited")
    state.box.remove(tile)


def gallery(state: State, g: int, tiles: list[int]) -> None:
    """Gallery g holds exactly these tiles (its old tiles return to the unrevealed ones)."""
    state.unrevealed = sorted(state.unrevealed + state.galleries[g - 1])
    state.galleries[g - 1] = []
    for t in tiles:
        _take(state, t)
    state.galleries[g - 1] = list(tiles)


def loose(state: State, seat: int, tiles: list[int]) -> None:
    for t in tiles:
        _take(state, t)
    state.seats[seat].loose = sorted(state.seats[seat].loose + list(tiles))


def exhibit(state: State, seat: int, numeral: int, tiles: list[int], space: int) -> None:
    """Put a collection straight into the museum."""
    for t in tiles:
        _take(state, t)
    me = state.seats[seat]
    me.collections = sorted(
        me.collections + [Collection(numeral=numeral, tiles=list(tiles), space=space)], key=lambda k: k.numeral
    )


def turn_of(
    state: State, seat: int, *, space: int, coins: int, round: int = 4, others: dict[int, int] | None = None
) -> State:
    """Phase 3 of `round` with `seat`'s turn at step A: its figure on `space` with `coins`."""
    state.round, state.phase = round, EXCAVATION
    state.figures = {seat: space, **(others or {})}
    state.action_order = [s for s, _ in sorted(state.figures.items(), key=lambda item: item[1])]
    state.turn = state.action_order.index(seat)
    state.seats[seat].coins = coins
    state.decision, state.awaiting = EXCAVATE, seat
    state.backs = ["bag", "bag"]
    state.values = [1, 1]
    state.undrawn[0] -= 2
    state.past_values = [1] * 0
    return state


def without_checks(state: State) -> list[str]:
    return check_invariants(state)


def replace(obj, **changes):
    return msgspec.structs.replace(obj, **changes)


def last_turn(state: State, round: int, seat: int = 0) -> State:
    """Phase 3 of `round`, the last figure's turn (seat's) at step B with no loose tile: its
    FinishExhibiting ends the phase, so the evaluation (if any) and the round end follow."""
    from domain.pergamon.vocabulary import EXHIBIT

    others = [s for s in range(state.players) if s != seat]
    state.round, state.phase = round, EXCAVATION
    state.figures = {s: 1 + i for i, s in enumerate(others)} | {seat: len(others) + 2}
    state.action_order = [*others, seat]
    state.turn = len(others)
    state.decision, state.awaiting = EXHIBIT, seat
    state.unrevealed = sorted(state.unrevealed + state.seats[seat].loose)
    state.seats[seat].loose = []
    state.past_values, state.backs, state.values = [], [], []
    return state
