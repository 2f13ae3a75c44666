"""Engine-level properties: pure decide, in-place apply, cloning, placement targets, the CLI."""

import json
import xml.etree.ElementTree as ET

import msgspec
import pytest

from domain.kernel import DomainError
from domain.pantheon import PANTHEON
from domain.pantheon.commands import Move, Place
from domain.pantheon.planner import Planner
from domain.pantheon.rules import board_of
from domain.pantheon.state import SeatState, clone
from domain.pantheon.vocabulary import COLUMN, FOOT
from domain.rng import SeededRng
from service.cli.commands import main
from service.cli.simulate import run


@pytest.fixture(scope="module")
def game():
    _, records = run(games=1, players="4", seed="engine-props")
    return records[0]


def _states(record):
    state = None
    for _, events in record.steps:
        for event in events:
            state = PANTHEON.evolve(state, event)
        yield clone(state)


def _containers(value, path="state"):
    if isinstance(value, (list, dict, set)):
        yield path, value
        items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else []
        for key, item in items:
            yield from _containers(item, f"{path}[{key}]")
    elif isinstance(value, msgspec.Struct) and not value.__struct_config__.frozen:
        for name in value.__struct_fields__:
            yield from _containers(getattr(value, name), f"{path}.{name}")


def test_a_clone_shares_no_mutable_container_with_its_original(game):
    original = game.state
    copy = clone(original)
    assert copy == original
    shared = {id(c) for _, c in _containers(original)} & {id(c) for _, c in _containers(copy)}
    assert not shared
    assert all(s is not c for s, c in zip(original.seats, copy.seats) if isinstance(s, SeatState))


def test_placement_targets_are_exactly_the_placements_check_accepts(game):
    checked = 0
    for state in list(_states(game))[::7]:
        for seat in range(state.players):
            planner = Planner(state, seat, jumps=1)
            targets = {(p, i): (cost, jump) for p, i, cost, jump in planner.targets()}
            for index in range(len(board_of(state).hexes)):
                for piece in (FOOT, COLUMN):
                    try:
                        cost = planner.check(piece, index, jump=False)
                        expected = (cost, False)
                    except DomainError:
                        try:
                            expected = (planner.check(piece, index, jump=True), True)
                        except DomainError:
                            expected = None
                    assert targets.get((piece, index)) == expected, (seat, piece, index)
                    checked += 1
    assert checked > 10_000


def test_apply_in_place_gives_the_same_events_as_pure_decide():
    _, checked = run(games=2, players="mixed", seed="apply-vs-decide", check=True)
    _, fast = run(games=2, players="mixed", seed="apply-vs-decide", check=False)
    assert [r.events for r in checked] == [r.events for r in fast]


def test_a_refused_command_applied_in_place_leaves_the_state_as_it_was(game):
    state = next(s for s in _states(game) if s.agenda and s.agenda[0].kind == "action")
    seat = state.agenda[0].seat
    before = clone(state)
    far = board_of(state).hexes[0]
    with pytest.raises(DomainError) as refused:
        PANTHEON.apply(
            state, Move(seat=seat, cards=0, placements=[Place(piece="foot", hex=(far.q, far.r))]), SeededRng(b"x")
        )
    assert refused.value.code in {"not_connected", "column_site", "temple_hex"}
    assert state == before


def test_simulate_prints_one_json_summary_as_its_last_line(capsys):
    assert main(["simulate", "--games", "2", "--players", "2", "--seed", "7"]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert {"games", "commands", "events", "errors", "invariant_violations", "games_per_s"} <= set(summary)
    assert summary["games"] == 2 and summary["errors"] == 0 and summary["invariant_violations"] == 0


def test_map_command_writes_an_svg_file(tmp_path):
    target = tmp_path / "map.svg"
    assert main(["map", "--svg", str(target)]) == 0
    assert ET.parse(target).getroot().tag.endswith("svg")


def test_hidden_piles_hold_no_order_only_what_is_left(game):
    for state in _states(game):
        assert state.gods_stack == sorted(state.gods_stack)
        assert state.half_gods_low == sorted(state.half_gods_low)
        assert state.half_gods_high == sorted(state.half_gods_high)
        assert all(isinstance(n, int) for n in state.draw_pile)  # the draw pile is counts per card type
        assert isinstance(state.loot_bag, dict)
