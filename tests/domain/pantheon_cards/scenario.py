"""Given/when/then helpers for Pantheon, the card game: a position built from the worked
examples' short names (W500.3 = worshiper.500.03, Tw.1 / Ts.1 = temple.wooden.01 / stone.01),
every card not placed left unseen, and a scripted Rng that answers each draw as the example
records it."""

from __future__ import annotations

from typing import Any

from domain.pantheon_cards import commands as cmd
from domain.pantheon_cards.decide import apply
from domain.pantheon_cards.evolve import evolve
from domain.pantheon_cards.invariants import check_invariants
from domain.pantheon_cards.rules import comps
from domain.pantheon_cards.state import Column, State, clone

A, B, C, D = 0, 1, 2, 3


def W(level: int, n: int) -> str:
    return f"worshiper.{level}.{n:02d}"


def Tw(n: int) -> str:
    return f"temple.wooden.{n:02d}"


def Ts(n: int) -> str:
    return f"temple.stone.{n:02d}"


def god(name: str) -> str:
    return f"god.{name}"


class Scripted:
    """An Rng that answers a script of draws; past the script it fails loudly, or (`tail`)
    answers 0, 1, 2, … for draws after the position the example describes (the next turn's extra card)."""

    def __init__(self, *values: int, tail: bool = False) -> None:
        self.values = list(values)
        self.tail = tail
        self.unscripted = 0

    def randbelow(self, n: int) -> int:
        if not self.values and self.tail:  # 0, 1, 2, ... (mod n): a tie always breaks
            self.unscripted += 1
            assert self.unscripted < 1000, "a runaway of unscripted draws"
            return (self.unscripted - 1) % n
        assert self.values, f"an unscripted draw (randbelow({n}))"
        value = self.values.pop(0)
        assert 0 <= value < n, (value, n)
        return value


def die(*rolls: int) -> list[int]:
    """The answers that make the die show these rolls."""
    return [r - 1 for r in rolls]


def col(
    seat: int, n: int, *worshipers: str, temple: str | None = None, damaged: bool = False, god: str | None = None
) -> Column:
    return Column(id=f"{seat}:{n}", temple=temple, damaged=damaged, god=god, worshipers=list(worshipers))


def given(
    *columns: Column,
    players: int = 4,
    deck: int = 30,
    hands: dict[int, list[str]] | None = None,
    general: list[str] | None = None,
    gods: list[str] | None = None,
    in_effect: dict[int, list[str]] | None = None,
    active: int = A,
    decision: str = "special_power",
    awaiting: int | None = None,
    stage: str = "power",
    turn: int = 10,
    game_length: str = "standard",
) -> State:
    """A position: the columns, hands and piles given, every other card unseen (the deck count
    `deck`, the rest counted as removed at setup)."""
    hands = hands or {}
    state = State(
        options=cmd.PantheonCardsOptions(players=players, game_length=game_length),  # type: ignore[arg-type]
        removed_count=0,
        deck=deck,
        unseen=[],
        hands=[list(hands.get(s, [])) for s in range(players)],
        columns=[[c for c in columns if c.id.startswith(f"{s}:")] for s in range(players)],
        opened=[
            max([int(c.id.split(":")[1]) for c in columns if c.id.startswith(f"{s}:")], default=0)
            for s in range(players)
        ],
        in_effect=[list((in_effect or {}).get(s, [])) for s in range(players)],
        removed_hands=[[] for _ in range(players)],
        general=list(general or []),
        gods=list(gods or []),
        turn=turn,
        active=active,
        stage=stage,
        decision=decision,
        awaiting=active if awaiting is None else awaiting,
    )
    placed = {c for cs in state.columns for k in cs for c in (k.temple, k.god, *k.worshipers) if c}
    placed |= {c for h in state.hands for c in h} | set(state.general) | set(state.gods)
    placed |= {c for e in state.in_effect for c in e}
    state.unseen = sorted(set(comps(state).cards) - placed)
    state.removed_count = len(state.unseen) - deck
    assert state.removed_count >= 0
    assert check_invariants(state) == [], check_invariants(state)
    return state


def run(state: State | None, command: Any, *draws: int, tail: bool = True) -> tuple[State, list[Any]]:
    """Decide and evolve with scripted draws: the new state and the events; checks that the
    events fold into the same state and that every script value was used (later draws, of the
    next turn, answer 0, 1, 2, … unless `tail` is False)."""
    rng = Scripted(*draws, tail=tail)
    new, events = apply(state, command, rng)
    assert rng.values == [], f"unused draws: {rng.values}"
    if state is not None:
        replay = clone(state)
        for e in events:
            replay = evolve(replay, e)
        assert replay == new
    return new, events


def unseen_index(state: State, card_id: str, level: int | None = None) -> int:
    """The draw that picks `card_id` among the unseen cards (of one level, for a replacement)."""
    pool = state.unseen if level is None else [c for c in state.unseen if comps(state).cards[c].level == level]
    return pool.index(card_id)


def of(events: list[Any], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def column(state: State, column_id: str) -> Column | None:
    return next((c for cs in state.columns for c in cs if c.id == column_id), None)
