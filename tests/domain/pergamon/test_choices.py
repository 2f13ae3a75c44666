"""The choice trees list exactly what decide accepts: every leaf is accepted, and every command
decide accepts (found by brute force over each decision's commands) is a leaf. Labels are plain
sentences and keys are unique among siblings."""

import itertools
import json
import random
import re

import msgspec
import pytest

from domain.kernel import DomainError
from domain.pergamon import PERGAMON
from domain.pergamon import commands as cmd
from domain.pergamon.playout import game_seed
from domain.pergamon.random_play import random_command
from domain.rng import SeededRng

from .scenario import A, exhibit, loose, new_game, turn_of

LEAF_CAP = 3000


def _key(command) -> str:
    data = msgspec.to_builtins(command)
    if data["type"] == "store":
        data["discard"] = sorted(data["discard"])
    return json.dumps(data, sort_keys=True)


def _leaves(state, seat, path=(), found=None) -> set[str]:
    found = set() if found is None else found
    listed = PERGAMON.choices(state, seat, path)
    keys = [c.key for c in listed.choices]
    assert len(keys) == len(set(keys)), keys
    assert listed.prompt
    for c in listed.choices:
        assert c.label and "None" not in c.label and c.label[0].isupper(), c.label
        assert not re.search(r"\b1 (coins|tiles)\b|I to I\b", c.label), c.label
        if c.more:
            _leaves(state, seat, (*path, c.key), found)
        else:
            found.add(_key(c.command))
        if len(found) > LEAF_CAP:
            break
    return found


def _accepted(state, commands) -> set[str]:
    found = set()
    for command in commands:
        try:
            PERGAMON.decide(state, command, SeededRng(b"choices"))
        except DomainError:
            continue
        found.add(_key(command))
    return found


def _candidates(state, seat):
    """Every command worth trying for the awaited decision (a superset of the legal ones)."""
    me, decision = state.seats[seat], state.decision
    if decision == "arrange_finds":
        return [cmd.ArrangeFinds(seat=seat, order=list(p)) for p in itertools.permutations(state.finds)]
    if decision == "choose_funding_space":
        return [cmd.ChooseFundingSpace(seat=seat, space=k) for k in range(0, 15)]
    if decision == "excavate":
        return [cmd.Excavate(seat=seat, gallery=g) for g in range(0, 7)] + [cmd.SkipExcavation(seat=seat)]
    if decision == "store":
        return [
            cmd.Store(seat=seat, discard=list(d))
            for n in range(len(me.loose) + 1)
            for d in itertools.combinations(me.loose, n)
        ]
    rows = [list(r) for n in (1, 2, 3) for r in itertools.permutations(me.loose, n)]
    rows += [k.tiles[::-1] for k in me.collections]  # not loose tiles
    polishes = range(-1, min(me.coins, 4) + 2) if len(me.loose) <= 6 else (0, 1, 3, 4)
    return [cmd.FinishExhibiting(seat=seat)] + [
        cmd.Exhibit(seat=seat, tiles=row, polish=p, break_up=b)
        for row in rows
        for p in polishes
        for b in (None, 1, 2, 3, 4)
    ]


@pytest.mark.parametrize("seed", range(4))
def test_every_leaf_is_accepted_and_every_accepted_command_is_a_leaf(seed):
    seen = set()
    for n, state in enumerate(_frozen_states(seed)):
        if n % 3 and state.decision not in ("store", "arrange_finds"):
            continue
        seat = state.awaiting
        leaves = _leaves(state, seat)
        if len(leaves) <= LEAF_CAP:
            assert _accepted(state, _commands_of(leaves)) == leaves
        accepted = _accepted(state, _candidates(state, seat))
        assert accepted <= leaves or len(leaves) > LEAF_CAP, (state.decision, accepted - leaves)
        seen.add(state.decision)
    assert {"choose_funding_space", "excavate", "exhibit", "store"} <= seen


def _commands_of(leaves):
    return [msgspec.json.decode(k.encode(), type=PERGAMON.command_type) for k in leaves]


def _frozen_states(seed):
    """States at every decision of a few random games, each its own copy."""
    from domain.pergamon.playout import play_game
    from domain.pergamon.state import clone

    for game in range(3):
        options = cmd.PergamonOptions(players=2 + (seed + game) % 3, variant_sorting=True)
        record = play_game(game_seed("choices", 10 * seed + game), options, random.Random(seed))
        state = None
        for _, events in record.steps[:-1]:
            for e in events:
                state = PERGAMON.evolve(state, e)
            if state.decision is not None and len(state.seats[state.awaiting].loose) <= 7:
                yield clone(state)


def test_break_up_choices_name_each_collection_when_all_pairs_are_in_use():
    state = new_game(3)
    loose(state, A, [590, 358])
    for numeral, (tiles, space) in enumerate((([131, 140], 3), ([205, 103], 6), ([210, 177], 9)), start=1):
        exhibit(state, A, numeral, tiles, space)
    state = turn_of(state, A, space=11, coins=1)
    state.decision = "exhibit"
    leaves = _leaves(state, A)
    assert _accepted(state, _candidates(state, A)) == leaves
    assert len(leaves) == 1 + 2 * 3  # finish, or 590-358 with polish 0 or 1, breaking up I, II or III


def test_a_seat_that_is_not_awaited_has_no_choices_and_an_unknown_path_is_refused():
    state = new_game(3)
    assert PERGAMON.choices(state, 1, ()).choices == [] and PERGAMON.choices(state, 1, ()).decision is None
    with pytest.raises(DomainError) as error:
        PERGAMON.choices(state, A, ("space:99",))
    assert error.value.code == "unknown_choice"
    with pytest.raises(DomainError):
        PERGAMON.choices(state, A, ("space:3", "more"))


def test_random_commands_are_always_accepted():
    for index in range(20):
        state = new_game(2 + index % 3, seed=bytes([index]))
        rnd = random.Random(index)
        for _ in range(200):
            if state.finished:
                break
            command = random_command(state, state.awaiting, rnd)
            state, _ = PERGAMON.apply(state, command, SeededRng(bytes([index, 1])))
