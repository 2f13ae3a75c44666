"""Pergamon golden playthroughs: complete games stored as JSON Lines (a header, then one line per
command with the events it caused), compared on every test run and regenerated only on purpose:

    .venv/bin/python -m tests.golden.pergamon.golden --regenerate
"""

from __future__ import annotations

import argparse
import pathlib
import random

import msgspec

from domain.pergamon import Command, Event
from domain.pergamon.commands import PergamonOptions
from domain.pergamon.playout import GameRecord, game_seed, play_game

HERE = pathlib.Path(__file__).parent
GAMES = {  # file name -> (seed label, options)
    "pergamon-2p.jsonl": ("golden-2", PergamonOptions(players=2, first_seat="random")),
    "pergamon-3p.jsonl": ("golden-3", PergamonOptions(players=3, variant_sorting=True, vp_visibility="secret")),
    "pergamon-4p.jsonl": ("golden-4", PergamonOptions(players=4, variant_player_order=True, first_seat=2)),
}


class Header(msgspec.Struct, kw_only=True):
    game: str
    seed: str
    options: PergamonOptions
    commands: int
    events: int
    scores: list[int]
    places: list[int]
    winners: list[int]


class Line(msgspec.Struct, kw_only=True):
    command: Command
    events: list[Event]


_ENCODER = msgspec.json.Encoder()
_HEADER = msgspec.json.Decoder(Header)
_LINE = msgspec.json.Decoder(Line)


def play(label: str, options: PergamonOptions) -> GameRecord:
    """Replay the golden game's recipe: the same seed and the same random player."""
    return play_game(game_seed(label, 0), options, random.Random(label))


def dump(record: GameRecord) -> bytes:
    state = record.state
    header = Header(game=record.game, seed=record.seed.hex(), options=record.options, commands=len(record.steps),
                    events=len(record.events), scores=[s.vp for s in state.seats], places=state.places,
                    winners=state.winners)
    lines = [_ENCODER.encode(header)]
    lines += [_ENCODER.encode(Line(command=c, events=list(e))) for c, e in record.steps]
    return b"\n".join(lines) + b"\n"


def load(path: pathlib.Path) -> tuple[Header, list[Line]]:
    raw = path.read_bytes().splitlines()
    return _HEADER.decode(raw[0]), [_LINE.decode(line) for line in raw[1:]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--regenerate", action="store_true", help="overwrite the stored games")
    args = parser.parse_args()
    for name, (label, options) in GAMES.items():
        record = play(label, options)
        assert not record.errors and not record.violations, record.errors + record.violations
        path = HERE / name
        if args.regenerate:
            path.write_bytes(dump(record))
            print(f"wrote {path} ({len(record.steps)} commands, {len(record.events)} events)")
        else:
            same = path.exists() and path.read_bytes() == dump(record)
            print(f"{name}: {'unchanged' if same else 'DIFFERS'}")


if __name__ == "__main__":
    main()
