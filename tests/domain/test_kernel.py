"""The kernel is game-agnostic: a toy game plugs into it without touching Pantheon."""

import dataclasses
import typing
from dataclasses import dataclass

import msgspec
import pytest

from domain import games
from domain.choices import Choice, ChoiceList, Menu, branch, follow, leaf
from domain.kernel import (
    PLATFORM_TYPES,
    Awaiting,
    Decider,
    DomainError,
    SeatReissued,
    evolve,
    fold,
    logged_event_type,
    redact,
    step,
)
from domain.rng import SeededRng, commitment


@dataclass(frozen=True)
class Add:
    seat: int
    amount: int


@dataclass(frozen=True)
class Added:
    seat: int
    amount: int
    roll: int


def _decide(state, command, rng):
    if command.seat != state["turn"]:
        raise DomainError("not_your_turn", "Wait for your turn.")
    return [Added(seat=command.seat, amount=command.amount, roll=rng.randbelow(6))]


def _evolve(state, event):
    totals = list(state["totals"])
    totals[event.seat] += event.amount + event.roll
    return {"totals": totals, "turn": 1 - event.seat}


TOY = Decider(
    kind="toy",
    initial_state=lambda: {"totals": [0, 0], "turn": 0},
    decide=_decide,
    evolve=_evolve,
    awaited=lambda s: Awaiting(s["turn"], "add"),
    legal_options=lambda s, seat: {"amount": [1, 2]},
    public_view=lambda s: s,
    seat_view=lambda s, seat: s,
    redact=lambda e, viewer: e,
    is_terminal=lambda s: max(s["totals"]) >= 10,
    outcome=lambda s: s["totals"],
    command_type=Add,
    event_type=Added,
)


def test_a_second_game_uses_the_same_kernel_and_replays_without_chance():
    rng = SeededRng(b"toy")
    state, history = TOY.initial_state(), []
    for seat in (0, 1, 0, 1):
        state, events = step(TOY, state, Add(seat=seat, amount=1), rng)
        history += events
    assert fold(TOY, history) == state
    with pytest.raises(DomainError) as refused:
        TOY.decide(state, Add(seat=1, amount=1), rng)
    assert refused.value.code == "not_your_turn"


def test_every_fold_passes_over_the_platforms_events_which_every_viewer_sees_whole():
    rng, state, history = SeededRng(b"toy"), TOY.initial_state(), []
    for seat in (0, 1, 0):
        state, events = step(TOY, state, Add(seat=seat, amount=2), rng)
        history += [*events, SeatReissued(seat=seat)]
    assert fold(TOY, history) == state
    assert evolve(TOY, state, SeatReissued(seat=1)) is state
    assert redact(TOY, SeatReissued(seat=1), 0) == redact(TOY, SeatReissued(seat=1), None) == SeatReissued(seat=1)


@pytest.mark.parametrize("kind", games.kinds())
def test_no_games_event_has_a_platform_events_tag_and_its_log_decodes_both(kind):
    game = games.get(kind)
    tags = {t.__struct_config__.tag for t in typing.get_args(game.decider.event_type)}
    assert "game_created" in tags and not tags & PLATFORM_TYPES
    decoder = msgspec.msgpack.Decoder(logged_event_type(game.decider))
    created = game.decider.decide(None, game.create_command({"players": game.players[0]}), SeededRng(b"k"))
    assert decoder.decode(msgspec.msgpack.encode(SeatReissued(seat=2))) == SeatReissued(seat=2)
    assert [decoder.decode(msgspec.msgpack.encode(e)) for e in created] == created


def test_the_seeded_rng_is_deterministic_uniform_and_bound_to_its_context():
    draws = [SeededRng(b"seed", b"game-1").randbelow(6) for _ in range(3)]
    assert len(set(draws)) == 1
    rng = SeededRng(b"seed", b"game-1")
    sample = [rng.randbelow(6) for _ in range(6000)]
    assert all(800 < sample.count(v) < 1200 for v in range(6))
    one, other = SeededRng(b"seed", b"game-1"), SeededRng(b"seed", b"game-2")
    assert [one.randbelow(1000) for _ in range(5)] != [other.randbelow(1000) for _ in range(5)]
    assert commitment(b"seed") == "19b25856e1c150ca834cffc8b59b23adbd0ec0389e58eb22b3b64768098d002b"


@pytest.mark.parametrize("seed", [b"", b"k" * 32, b"k" * 64, b"k" * 65, b"k" * 200])
def test_each_draw_reads_the_hmac_sha256_of_the_seed_context_and_draw_index(seed):
    from domain.rng import hmac_sha256

    rng = SeededRng(seed, b"game-9|v12")
    bound = 2**64 - 1  # almost never rejects, so draw i is block i
    draws = [rng.randbelow(bound) for _ in range(20)]
    expected = [int.from_bytes(hmac_sha256(seed, b"game-9|v12", i)[:8], "big") % bound for i in range(20)]
    assert draws == expected


def _toy_choices(state, seat, path):
    amounts = [leaf(f"add:{n}", f"Add {n}", Add(seat=seat, amount=n), amount=n) for n in (1, 2)]
    return follow(
        "add", Menu("How much do you add?", [branch("add", "Add something", lambda: Menu("How much?", amounts))]), path
    )


def test_a_second_game_can_offer_a_choice_tree_with_the_same_types():
    toy = dataclasses.replace(TOY, choices=_toy_choices)
    leaves = toy.choices(toy.initial_state(), 0, ("add",))
    assert leaves == ChoiceList(
        decision="add",
        prompt="How much?",
        choices=[
            Choice(key="add:1", label="Add 1", command=Add(seat=0, amount=1), refers={"amount": 1}),
            Choice(key="add:2", label="Add 2", command=Add(seat=0, amount=2), refers={"amount": 2}),
        ],
    )
    assert toy.decide(toy.initial_state(), leaves.choices[1].command, SeededRng(b"toy"))
    with pytest.raises(DomainError) as refused:
        toy.choices(toy.initial_state(), 0, ("add", "add:3"))
    assert refused.value.code == "unknown_choice"
