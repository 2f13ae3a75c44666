"""Golden playthroughs of every registered game: complete games stored as JSON Lines under
`tests/golden/<kind>/<kind>-<N>p.jsonl` (a header, then one line per command with the events it
caused), compared on every test run and regenerated only on purpose:

    .venv/bin/python -m tests.golden.golden --regenerate

Game `<kind>-<N>p` is the N-player game the random player plays from the seed label `golden-<N>`
(as `pantheon simulate` would), with the options RECIPES gives; its header records the seed, the
options and the outcome's fields RECIPES names."""

from __future__ import annotations

import argparse
import pathlib
import random
from dataclasses import dataclass, field
from typing import Any

import msgspec

from domain import games
from service.cli.simulate import GameRecord, game_seed, play_game

HERE = pathlib.Path(__file__).parent


@dataclass(frozen=True)
class Recipe:
    """How a game's golden games are made: the outcome's fields its headers record, and the
    options of each number of players (the game's defaults where none are given)."""

    outcome: tuple[str, ...] = ("scores", "winners")
    options: dict[int, dict] = field(default_factory=dict)


RECIPES = {
    "pantheon": Recipe(
        options={
            2: {"start_material": "rulebook", "bonus_tiles": "draft"},
            3: {"start_material": "bsw", "bonus_tiles": "random"},
            4: {"start_material": "bsw", "bonus_tiles": "draft"},
        },
    ),
    "pergamon": Recipe(
        outcome=("scores", "places", "winners"),
        options={
            2: {"first_seat": "random"},
            3: {"variant_sorting": True, "vp_visibility": "secret"},
            4: {"variant_player_order": True, "first_seat": 2},
        },
    ),
}
_ENCODER = msgspec.json.Encoder()


def recipe(kind: str) -> Recipe:
    return RECIPES.get(kind, Recipe())


def names(kind: str) -> list[str]:
    """The golden games a registered game has: one for each number of players it allows."""
    return [f"{kind}/{kind}-{players}p.jsonl" for players in games.get(kind).players]


def players_of(name: str) -> int:
    """The number of players of golden game `name`."""
    return int(name.rsplit("-", 1)[1].removesuffix("p.jsonl"))


def play(kind: str, players: int) -> GameRecord:
    """Play the golden game's recipe again: the same seed, options and random player."""
    label, game = f"golden-{players}", games.get(kind)
    options = game.create_command({**recipe(kind).options.get(players, {}), "players": players}).options
    return play_game(game_seed(label, 0, kind), options, random.Random(label), kind=kind)


def dump(record: GameRecord) -> bytes:
    outcome = games.get(record.kind).decider.outcome(record.state)
    header = {
        "game": record.game,
        "seed": record.seed.hex(),
        "options": record.options,
        "commands": len(record.steps),
        "events": len(record.events),
        **{name: getattr(outcome, name) for name in recipe(record.kind).outcome},
    }
    lines = [_ENCODER.encode(header)]
    lines += [_ENCODER.encode({"command": c, "events": list(e)}) for c, e in record.steps]
    return b"\n".join(lines) + b"\n"


def load(name: str) -> tuple[dict[str, Any], list[tuple[Any, list]]]:
    """A golden game's header (as JSON) and its lines: each command with its events (typed)."""
    kind = name.split("/", 1)[0]
    decider = games.get(kind).decider
    line = msgspec.defstruct("Line", [("command", decider.command_type), ("events", list[decider.event_type])])
    raw = (HERE / name).read_bytes().splitlines()
    lines = [msgspec.json.decode(text, type=line) for text in raw[1:]]
    return msgspec.json.decode(raw[0]), [(x.command, x.events) for x in lines]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--regenerate", action="store_true", help="overwrite the stored games")
    args = parser.parse_args()
    for kind in games.kinds():
        for name in names(kind):
            record = play(kind, players_of(name))
            assert not record.errors and not record.violations, record.errors + record.violations
            path = HERE / name
            if args.regenerate:
                path.parent.mkdir(exist_ok=True)
                path.write_bytes(dump(record))
                print(f"wrote {path} ({len(record.steps)} commands, {len(record.events)} events)")
            else:
                same = path.exists() and path.read_bytes() == dump(record)
                print(f"{name}: {'unchanged' if same else 'DIFFERS'}")


if __name__ == "__main__":
    main()
