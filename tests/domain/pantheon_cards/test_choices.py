"""Choice trees for every decision kind of rules §23.1: over random games, every leaf is a
command decide accepts, the trees hold every legal answer the engine lists, sibling keys are
unique and every label is words, naming players as the screen does ("Player B", never "seat 1");
labels read like the issue's example."""

import random
import re

from domain.kernel import DomainError
from domain.pantheon_cards import commands as cmd
from domain.pantheon_cards import flow
from domain.pantheon_cards.choices import choices
from domain.pantheon_cards.decide import apply, decide
from domain.pantheon_cards.legal import civ_commands, plays, power_commands, repairs
from domain.pantheon_cards.random_play import random_command
from domain.rng import SeededRng

from .scenario import A, B, Ts, Tw, W, col, given, god

SEAT_NUMBER = re.compile(r"\b[Ss]eat \d")  # a seat by its number: the API's, not a person's word
COMBINATORIAL = (flow.COMMIT, flow.PLACE_SURVIVORS, flow.ORDER_DISCARDS)


def _leaves(state, seat, rnd, path=(), sample=False):
    """Every leaf under `path` (a few random descents where the tree is combinatorial)."""
    listing = choices(state, seat, path)
    keys = [c.key for c in listing.choices]
    assert len(keys) == len(set(keys)), keys
    assert all(c.label and c.label[0].isupper() for c in listing.choices)
    assert not [t for t in (listing.prompt, *(c.label for c in listing.choices)) if SEAT_NUMBER.search(t)]
    assert listing.choices or path == (), path
    picked = listing.choices
    if sample or state.decision in COMBINATORIAL or any(k.startswith("move=") for k in keys):
        picked = rnd.sample(listing.choices, min(2, len(listing.choices)))
        sample = True
    out = []
    for c in picked:
        if c.more:
            out += _leaves(state, seat, rnd, (*path, c.key), sample)
        else:
            out.append(c.command)
    return out


def test_every_leaf_is_accepted_and_every_listed_answer_is_a_leaf():
    seen = set()
    for index in range(12):
        rnd, rng = random.Random(index), SeededRng(f"choices-{index}".encode())
        create = cmd.PantheonCardsCreateGame(
            options=cmd.PantheonCardsOptions(players=3 + index % 4, game_length="short")
        )
        state, _ = apply(None, create, rng)
        while not state.finished:
            seat = state.awaiting
            leaves = _leaves(state, seat, rnd)
            assert leaves, state.decision
            for command in leaves:
                try:
                    decide(state, command, SeededRng(b"leaf"))
                except DomainError as error:  # pragma: no cover - the failure message names it
                    raise AssertionError(f"{state.decision}: leaf {command} refused: {error}") from None
            if state.decision == flow.PLAY_CARD:
                assert set(map(repr, plays(state, seat))) == set(map(repr, leaves))
            if state.decision == flow.SPECIAL_POWER:
                wanted = [*power_commands(state, seat), *repairs(state, seat)]
                wanted += [c for c in civ_commands(state, seat) if not c.moves]
                assert set(map(repr, wanted)) <= set(map(repr, leaves))
            seen.add(state.decision)
            state, _ = apply(state, random_command(state, seat, rnd), rng)
    assert {flow.DRAW_CARD, flow.PLAY_CARD, flow.SPECIAL_POWER, flow.ORDER_DISCARDS, flow.COMMIT} <= seen


def test_a_seat_not_awaited_has_no_choices_and_a_wrong_path_is_refused():
    state = given(col(A, 1, W(10, 1), temple=Tw(1)), hands={A: [Ts(2)]}, decision="play_card", stage="play")
    assert choices(state, B).decision is None and choices(state, B).choices == []
    try:
        choices(state, A, ("card:nothing",))
    except DomainError as error:
        assert error.code == "unknown_choice"
    else:  # pragma: no cover
        raise AssertionError("a path not in the tree must be refused")


def test_labels_say_what_a_play_does():
    state = given(
        col(A, 1, W(500, 1), W(100, 1), temple=Tw(3), god=god("zeus")),
        col(A, 2, W(10, 1)),
        hands={A: [Ts(2), W(50, 1)]},
        decision="play_card",
        stage="play",
    )
    temple = {c.key: c.label for c in choices(state, A, (f"card:{Ts(2)}",)).choices}
    assert temple["column:0:1"] == (
        "Play stone temple 2 on your column 1 (Zeus; wooden temple 3; value 600) "
        "(replaces its wooden temple 3, which is discarded)"
    )
    assert temple["column:new"] == "Play stone temple 2 into a new column of yours"
    worshiper = {c.key: c.label for c in choices(state, A, (f"card:{W(50, 1)}",)).choices}
    assert worshiper["column:0:2"] == "Play 50 worshipers (card 1) on your column 2 (value 10) (value 10 → 60)"
    root = {c.key: c.label for c in choices(state, A).choices}
    assert root[f"card:{Ts(2)}"] == "Play stone temple 2"
