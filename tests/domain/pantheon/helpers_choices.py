"""Helpers for the choice-tree tests: states of random games, random walks down a tree, and the
path of a given command (found by following the choices whose `refers` match its parts)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import msgspec

from domain.choices import Choice, ChoiceList
from domain.pantheon import PANTHEON
from domain.pantheon import commands as cmd
from domain.pantheon.commands import CreateGame, Options
from domain.pantheon.random_play import random_command
from domain.pantheon.state import State, clone
from domain.pantheon.vocabulary import CARDS
from domain.rng import game_rng

choices = PANTHEON.choices
Player = Callable[[State, int, random.Random], cmd.Command]


def played(
    seed: str, players: int, player: Player = random_command, plies: int = 10_000
) -> Iterator[tuple[State, cmd.Command]]:
    """(state, command) for each decision of one game in which every seat plays `player`
    (each state a copy, awaiting a seat), until the end or `plies` commands."""
    rnd = random.Random(seed)
    options = Options(
        players=players, start_material=rnd.choice(["bsw", "rulebook"]), bonus_tiles=rnd.choice(["draft", "random"])
    )
    state, version, command = None, 0, CreateGame(options=options)
    for _ in range(plies):
        state, events = PANTHEON.apply(state, command, game_rng(seed.encode(), "g", version))
        version += len(events)
        if state.finished:
            return
        command = player(state, state.agenda[0].seat, rnd)
        yield clone(state), command


def check_list(listed: ChoiceList) -> None:
    """The shape every ChoiceList keeps: unique keys, each choice a leaf or a branch, JSON-able."""
    keys = [c.key for c in listed.choices]
    assert len(keys) == len(set(keys)), f"duplicate keys in {keys}"
    for c in listed.choices:
        assert c.key and c.label and (c.command is None) == c.more, c
    msgspec.json.encode(listed)


def random_walk(state: State, seat: int, rnd: random.Random, deep: float = 0.5) -> tuple[tuple[str, ...], cmd.Command]:
    """Follow random choices to a leaf (a branch is preferred with probability `deep`): its path and command."""
    path: tuple[str, ...] = ()
    while True:
        listed = choices(state, seat, path)
        check_list(listed)
        assert listed.choices, f"a dead end at {path}"
        branches = [c for c in listed.choices if c.more]
        pool = branches if branches and rnd.random() < deep else listed.choices
        chosen = rnd.choice(pool)
        path += (chosen.key,)
        if not chosen.more:
            return path, chosen.command


def normal(command: cmd.Command) -> object:
    """The command as builtins with zero counts dropped (they change nothing)."""
    data = msgspec.to_builtins(command)
    for field in ("money", "sacrifice", "cards"):
        if isinstance(data.get(field), dict):
            data[field] = {k: n for k, n in data[field].items() if n}
    return data


def _purchase_part(p) -> dict:
    if isinstance(p, cmd.SacrificeTile):
        return {"kind": p.kind, "level": p.level}
    if isinstance(p, cmd.Reserve):
        return {"piece": p.piece, "count": p.count}
    return {"piece": p.piece, "hex": list(p.hex)}


def parts(state: State, command: cmd.Command) -> list[dict]:
    """What the `refers` of the branches on the way to `command` say, in order."""
    decision = state.agenda[0].kind
    action = (
        [{"action": {cmd.Move: "move", cmd.Buy: "buy", cmd.GainGod: "gain_god", cmd.DrawCard: "draw"}[type(command)]}]
        if decision == "action"
        else []
    )
    if isinstance(command, cmd.Move):
        return (
            action
            + [{"cards": command.cards}]
            + [{"piece": p.piece, "hex": list(p.hex), "jump": p.jump} for p in command.placements]
        )
    if isinstance(command, cmd.Buy):
        return action + [{"money": normal(command)["money"]}] + [_purchase_part(p) for p in command.purchases]
    if isinstance(command, cmd.Spend):
        return [_purchase_part(p) for p in command.purchases]
    if isinstance(command, cmd.GainGod):
        return action + [{"tile": command.tile}]
    if isinstance(command, cmd.Discard):
        cards = [card for card, n in normal(command)["cards"].items() for _ in range(n)]
        return [{"card": card} for card in sorted(cards, key=CARDS.index)]
    return action


def path_to(state: State, seat: int, command: cmd.Command) -> tuple[str, ...]:
    """The path of `command` in the tree: at each level its leaf if there, else the one branch
    whose `refers` match the command's next part; fails saying where the command was lost."""
    wanted, steps = normal(command), parts(state, command)
    path: tuple[str, ...] = ()
    while True:
        listed = choices(state, seat, path)
        found = [c for c in listed.choices if not c.more and normal(c.command) == wanted]
        if found:
            assert len(found) == 1, f"{command} is {len(found)} leaves at {path}"
            return (*path, found[0].key)
        part = steps[len(path)] if len(path) < len(steps) else {}
        ways = [c for c in listed.choices if c.more and part and _matches(c, part)]
        assert len(ways) == 1, (
            f"{command} is lost after {path}: looking for {part}, the choices are {[c.key for c in listed.choices]}"
        )
        path += (ways[0].key,)


def _matches(choice: Choice, part: dict) -> bool:
    return all(choice.refers.get(k) == v for k, v in part.items())
