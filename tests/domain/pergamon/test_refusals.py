"""Refused commands: each carries its stable code (rules §9) and a sentence, and changes nothing."""

import copy

import pytest

from domain.kernel import DomainError
from domain.pergamon import PERGAMON
from domain.pergamon import commands as cmd
from domain.rng import SeededRng

from .scenario import A, B, C, gallery, last_turn, loose, new_game, refused, run, turn_of


def _excavating():
    state = new_game(3)
    gallery(state, 1, [131])
    return turn_of(state, A, space=3, coins=1, others={B: 5, C: 7})


def test_the_game_must_exist_and_exists_only_once():
    with pytest.raises(DomainError) as error:
        PERGAMON.decide(None, cmd.SkipExcavation(seat=0), SeededRng(b""))
    assert error.value.code == "no_game"
    state = new_game(3)
    assert refused(state, cmd.PergamonCreateGame(options=cmd.PergamonOptions(players=3))).code == "game_exists"


@pytest.mark.parametrize("players", [1, 5, 0])
def test_pergamon_is_played_by_2_to_4(players):
    with pytest.raises(DomainError) as error:
        PERGAMON.decide(None, cmd.PergamonCreateGame(options=cmd.PergamonOptions(players=players)), SeededRng(b""))
    assert error.value.code == "bad_options" and "2 to 4" in error.value.message


def test_a_malformed_command_is_refused():
    state = new_game(3)
    bad = cmd.ChooseFundingSpace(seat=A, space="7")  # msgspec does not check types at construction
    assert refused(state, bad).code == "malformed_command"


def test_only_the_awaited_seat_may_act_and_only_on_the_awaited_decision():
    state = new_game(3)
    out_of_turn, unknown = (
        refused(state, cmd.ChooseFundingSpace(seat=B, space=3)),
        refused(state, cmd.ChooseFundingSpace(seat=7, space=3)),
    )
    assert (out_of_turn.code, out_of_turn.message) == ("not_your_turn", "The game awaits Player A, not Player B.")
    assert (unknown.code, unknown.message) == (
        "not_your_turn",
        "This game has seats 0 to 2 (Player A to Player C). It awaits Player A.",
    )
    assert refused(state, cmd.Excavate(seat=A, gallery=1)).code == "wrong_decision"
    assert refused(state, cmd.Store(seat=A)).code == "wrong_decision"


def test_funding_spaces_must_exist_and_be_free():
    state = new_game(3)
    assert refused(state, cmd.ChooseFundingSpace(seat=A, space=0)).code == "no_such_space"
    assert refused(state, cmd.ChooseFundingSpace(seat=A, space=14)).code == "no_such_space"
    state, _ = run(state, cmd.ChooseFundingSpace(seat=A, space=6))
    assert refused(state, cmd.ChooseFundingSpace(seat=B, space=6)).code == "space_occupied"


def test_no_seat_may_choose_the_tomb_raiders_space():
    state = new_game(2)
    assert refused(state, cmd.ChooseFundingSpace(seat=A, space=state.tomb_raider)).code == "space_occupied"


def test_exhibit_rows_must_be_rows_of_your_loose_tiles():
    state = _excavating()
    loose(state, A, [590, 358])
    state.decision = "exhibit"
    assert refused(state, cmd.Exhibit(seat=A, tiles=[590])).code == "row_too_short"
    assert refused(state, cmd.Exhibit(seat=A, tiles=[590, 590])).code == "duplicate_tile"
    assert refused(state, cmd.Exhibit(seat=A, tiles=[590, 229])).code == "tile_not_loose"
    assert refused(state, cmd.Exhibit(seat=A, tiles=[358, 590])).code == "halves_do_not_match"


def test_store_discards_must_be_distinct_loose_tiles():
    state = _excavating()
    loose(state, A, [103, 108, 112, 119, 124])
    state.decision = "store"
    assert refused(state, cmd.Store(seat=A, discard=[103, 103])).code == "duplicate_tile"
    assert refused(state, cmd.Store(seat=A, discard=[590])).code == "tile_not_loose"


def test_any_command_after_the_end_is_refused_with_game_over():
    state, _ = run(last_turn(new_game(2), round=12), cmd.FinishExhibiting(seat=A))
    assert state.finished
    assert refused(state, cmd.SkipExcavation(seat=A)).code == "game_over"


def test_every_refusal_has_a_sentence_and_leaves_the_state_as_it_was():
    state = _excavating()
    before = copy.deepcopy(state)
    error = refused(state, cmd.Excavate(seat=A, gallery=2))
    assert error.code == "gallery_too_deep" and error.message.endswith(".")
    assert state == before
    with pytest.raises(DomainError):
        PERGAMON.apply(state, cmd.Excavate(seat=A, gallery=2), SeededRng(b"x"))
    assert state == before
