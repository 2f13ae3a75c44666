"""More given/when/then helpers for Pantheon: preparation, nation traits, automatic tasks.

`run_tasks` makes the engine run automatic tasks through its public `decide`: the given state
awaits a Cartago decision of one seat (whose `pass` changes nothing), followed by the tasks;
passing lets `flow.advance` run them until the next decision.
"""

from __future__ import annotations

from domain.pantheon import events as ev
from domain.pantheon.commands import Options, Pass
from domain.pantheon.components import load_components
from domain.pantheon.state import State

from .scenario import BOARD, ScriptedRng, Task, after, coords, start_of, when

COMPONENTS = load_components()
GODS_SORTED = sorted(COMPONENTS.gods)  # the order of a full gods stack


def trigger(seat: int = 0) -> Task:
    """A decision whose `pass` emits nothing, used to make the engine run the tasks after it."""
    return Task(kind="cartago", seat=seat, n=1)


def run_tasks(state: State, *tasks: Task, rng=None, seat: int = 0) -> list[ev.Event]:
    """The events of the automatic `tasks` (and what they push), as decide emits them."""
    ready = after(state, [ev.AgendaSet(tasks=[trigger(seat), *tasks])])
    return when(ready, Pass(seat=seat), rng or ScriptedRng())


def agenda(state: State, *tasks: Task) -> State:
    """The state with this agenda (the first task is the awaited decision)."""
    return after(state, [ev.AgendaSet(tasks=list(tasks))])


def play(state: State, *commands, rng=None) -> tuple[State, list[ev.Event]]:
    """Decide and evolve the commands one after another: the final state and the last events."""
    rng = rng or ScriptedRng()
    events: list = []
    for command in commands:
        events = when(state, command, rng)
        state = after(state, events)
    return state, events


def between_epochs(
    players: int = 2,
    played: tuple[str, ...] = ("gallia",),
    *,
    starting_seat: int = 0,
    options: Options | None = None,
    before: tuple = (),
    hands: dict | None = None,
) -> list:
    """Events of a game whose epochs `played` have ended (no scoring events)."""
    options = options or Options(players=players)
    events: list = [ev.GameCreated(options=options)]
    for seat, cards in (hands or {}).items():
        events.append(ev.CardsDrawn(seat=seat, count=len(cards), cards=list(cards), reason="test"))
    events += [ev.StartingSeatChosen(seat=starting_seat), *before]
    for epoch, nation in enumerate(played, start=1):
        events += [
            ev.NationRevealed(epoch=epoch, nation=nation),
            ev.EpochEnded(epoch=epoch, next_starting_seat=starting_seat),
        ]
    return events


def usable_loot(nation: str, players: int) -> list[tuple[int, int]]:
    return [coords(i) for i in BOARD.usable_loot_hexes(nation, players)]


def in_preparation(
    nation: str,
    players: int = 2,
    *,
    starting_seat: int = 0,
    epoch: int = 1,
    hands: dict | None = None,
    extra: tuple = (),
    options: Options | None = None,
    gods: tuple[str, ...] = (),
) -> list:
    """Events of a preparation that has revealed `nation` (and `gods`), placed draw-2 loot on its
    usable hexes and reached step 4; `extra` events follow. The agenda is set by the caller."""
    options = options or Options(players=players)
    played = [n for n in ("germania", "graecia", "aegyptus", "persia", "iberia", "roma") if n != nation]
    events = between_epochs(
        players, tuple(played[: epoch - 1]), starting_seat=starting_seat, options=options, hands=hands
    )
    events.append(ev.NationRevealed(epoch=epoch, nation=nation))
    if gods:
        events.append(ev.GodsRevealed(tiles=list(gods)))
    events.append(ev.LootPlaced(tiles=[(h, "draw_2") for h in usable_loot(nation, options.players)]))
    events += list(extra)
    return events


def after_trait(starting_seat: int = 0) -> list[Task]:
    """The preparation's steps 5 and 6 and the first turn (epochs after the first)."""
    return [Task(kind="temple"), Task(kind="depraccus"), Task(kind="turn", seat=starting_seat)]


def first_action(seat: int = 0, traitera: int = 0) -> ev.AgendaSet:
    return ev.AgendaSet(tasks=[Task(kind="action", seat=seat), Task(kind="end_action", seat=seat, n=traitera)])


def temple(nation: str) -> ev.TemplePlaced:
    return ev.TemplePlaced(hex=start_of(nation))


def half_gods_taken(seat: int, *values: int) -> list[ev.HalfGodTaken]:
    return [ev.HalfGodTaken(seat=seat, source="stack", value=v) for v in values]


def drawn(seat: int, cards: list[str], reason: str) -> ev.CardsDrawn:
    return ev.CardsDrawn(seat=seat, count=len(cards), cards=list(cards), reason=reason)


def stack_index(state: State, tile: str) -> int:
    """The scripted value that makes the next gods draw give `tile`."""
    return state.gods_stack.index(tile)


__all__ = [
    "COMPONENTS",
    "GODS_SORTED",
    "trigger",
    "run_tasks",
    "agenda",
    "play",
    "between_epochs",
    "usable_loot",
    "in_preparation",
    "after_trait",
    "first_action",
    "temple",
    "half_gods_taken",
    "drawn",
    "stack_index",
]
