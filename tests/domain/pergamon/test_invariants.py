"""The invariants of rules §14 hold on a fresh game and catch each kind of broken state."""

import pytest

from domain.pergamon.invariants import check_invariants
from domain.pergamon.state import Collection

from .scenario import A, B, new_game


def _break(state, how):
    if how == "tile_twice":
        state.seats[A].loose.append(state.galleries[0][0])
    elif how == "tile_lost":
        state.galleries[0].pop()
    elif how == "gallery_over_4":
        state.galleries[0] += [state.unrevealed.pop() for _ in range(4)]
    elif how == "cards":
        state.undrawn[3] -= 1
    elif how == "markers_share_a_space":
        state.seats[A].collections = [Collection(numeral=1, tiles=[state.unrevealed.pop(0)], space=5)]
        state.seats[B].collections = [Collection(numeral=1, tiles=[state.unrevealed.pop(0)], space=5)]
    elif how == "marker_off_the_museum":
        tiles = [590, 358]
        for t in tiles:
            state.unrevealed.remove(t)
        state.seats[A].collections = [Collection(numeral=1, tiles=tiles, space=25)]
    elif how == "invalid_row":
        tiles = [358, 590]
        for t in tiles:
            state.unrevealed.remove(t)
        state.seats[A].collections = [Collection(numeral=1, tiles=tiles, space=3)]
    elif how == "negative_coins":
        state.seats[B].coins = -1
    elif how == "unrevealed_count":
        state.box.append(state.unrevealed.pop())
    return state


def test_a_fresh_game_breaks_no_invariant():
    for players in (2, 3, 4):
        assert check_invariants(new_game(players)) == []


@pytest.mark.parametrize(
    "how",
    [
        "tile_twice",
        "tile_lost",
        "gallery_over_4",
        "cards",
        "markers_share_a_space",
        "marker_off_the_museum",
        "invalid_row",
        "negative_coins",
        "unrevealed_count",
    ],
)
def test_each_broken_state_is_caught(how):
    assert check_invariants(_break(new_game(3), how))
