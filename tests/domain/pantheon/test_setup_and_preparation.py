"""Setup (rules §2) and the preparation of an epoch (§3.1), given/when/then."""

import pytest

from domain.kernel import DomainError
from domain.pantheon import PANTHEON
from domain.pantheon import events as ev
from domain.pantheon.commands import (
    ChooseBonus,
    CreateGame,
    GainGod,
    GalliaChoice,
    Options,
)
from service.cli.simulate import run

from .helpers_flow import (
    GODS_SORTED,
    after_trait,
    agenda,
    between_epochs,
    drawn,
    first_action,
    half_gods_taken,
    in_preparation,
    play,
    run_tasks,
    temple,
    usable_loot,
)
from .scenario import ScriptedRng, Task, after, awaiting, given, then_error, when

ROMA_LOOT_2P = [(8, 3), (7, 4), (9, 6)]


def create(options: Options, rng=None) -> list:
    return PANTHEON.decide(None, CreateGame(options=options), rng or ScriptedRng())


# --- setup ----------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [0, 1, 5, 6])
def test_a_game_for_fewer_than_two_or_more_than_four_players_is_refused(players):
    with pytest.raises(DomainError) as raised:
        create(Options(players=players))
    assert raised.value.code == "bad_options"


def test_creating_a_game_twice_is_refused():
    state = given(create(Options(players=2)))
    then_error(state, CreateGame(options=Options(players=2)), "game_exists")


def test_the_default_options_are_four_players_bsw_material_and_drafted_bonus_tiles():
    assert Options() == Options(players=4, start_material="bsw", bonus_tiles="draft", edition="house-1")


@pytest.mark.parametrize(
    "material, players, feet, columns",
    [
        ("rulebook", 2, 4, 3),
        ("rulebook", 3, 4, 3),
        ("rulebook", 4, 4, 3),
        ("bsw", 2, 6, 5),
        ("bsw", 3, 5, 4),
        ("bsw", 4, 4, 3),
    ],
)
def test_each_seat_starts_with_its_material_and_the_rest_of_its_twelve_and_twelve_in_the_general_reserve(
    material, players, feet, columns
):
    state = given(create(Options(players=players, start_material=material)))
    assert [(s.feet, s.columns, s.general_feet, s.general_columns) for s in state.seats] == [
        (feet, columns, 12 - feet, 12 - columns)
    ] * players
    assert [(s.score, s.feet_on_board, s.columns_on_board) for s in state.seats] == [(0, [], [])] * players


def test_setup_deals_five_cards_each_fills_the_display_draws_the_starting_seat_and_deals_random_bonus_tiles_whose_effects_wait_for_step_7():
    # 14 zeros: 5 + 5 cards and 4 display cards (all movement); then starting seat 1, bonus
    # tiles half_god (index 2) and steps_1 (index 4 of the rest), nation roma (index 6).
    events = create(Options(players=2, bonus_tiles="random"), ScriptedRng(*[0] * 14, 1, 2, 4, 6))
    five = ["movement"] * 5
    assert events == [
        ev.GameCreated(options=Options(players=2, bonus_tiles="random")),
        drawn(0, five, "setup"),
        drawn(1, five, "setup"),
        *[ev.DisplayRefilled(slot=i, card="movement") for i in range(4)],
        ev.StartingSeatChosen(seat=1),
        ev.BonusTilesDealt(tiles=["half_god", "steps_1"]),
        ev.NationRevealed(epoch=1, nation="roma"),
        ev.GodsRevealed(tiles=["depraccus-1"]),
        ev.GodsRevealed(tiles=["depraccus-2"]),
        ev.GodsRevealed(tiles=["depraccus-3"]),
        ev.LootPlaced(tiles=[(h, "draw_2") for h in ROMA_LOOT_2P]),
        drawn(1, ["movement", "movement"], "roma"),
        drawn(0, ["priest", "priest"], "roma"),
        temple("roma"),
        ev.BonusActivated(seat=1, tile="steps_1"),
        ev.BonusActivated(seat=0, tile="half_god"),
        ev.HalfGodTaken(seat=0, source="stack", value=1),
        first_action(1),
    ]
    state = given(events)
    assert state.special_money == [2, 2, 3, 3, 4, 4, 5]
    assert [sum(s.hand) for s in state.seats] == [7, 7]
    assert sum(state.draw_pile) == 75 - 14 - 4


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_the_starting_seat_is_drawn_at_random(seat):
    state = given(create(Options(players=3), ScriptedRng(*[0] * 19, seat)))
    assert state.starting_seat == seat


def test_drafted_bonus_tiles_are_chosen_in_reverse_seat_order_from_the_right_of_the_starting_seat_then_resolved_from_the_starting_seat():
    state = given(create(Options(players=3), ScriptedRng(*[0] * 19, 1, 6)))  # starting seat 1, roma
    assert state.seats[0].bonus == state.seats[1].bonus == state.seats[2].bonus == ""
    assert state.agenda == [
        Task(kind="choose_bonus", seat=0),
        Task(kind="choose_bonus", seat=2),
        Task(kind="choose_bonus", seat=1),
        Task(kind="bonus", seat=1),
        Task(kind="bonus", seat=2),
        Task(kind="bonus", seat=0),
        Task(kind="turn", seat=1),
    ]
    then_error(state, ChooseBonus(seat=1, tile="steps_1"), "not_your_turn")
    state, _ = play(state, ChooseBonus(seat=0, tile="steps_1"))
    then_error(state, ChooseBonus(seat=2, tile="steps_1"), "bonus_not_available")
    state, _ = play(state, ChooseBonus(seat=2, tile="reserve_2_feet_1_column"))
    events = when(state, ChooseBonus(seat=1, tile="gods_tile"))
    assert events == [
        ev.BonusTileChosen(seat=1, tile="gods_tile"),
        ev.BonusActivated(seat=1, tile="gods_tile"),
        ev.GodGained(seat=1, tile="gadicea-1", source="bonus", points=1),  # depraccus-1..4 are on the board
        ev.BonusActivated(seat=2, tile="reserve_2_feet_1_column"),
        ev.ReserveGained(seat=2, feet=2, columns=1),
        ev.BonusActivated(seat=0, tile="steps_1"),
        first_action(1),
    ]


def test_a_depraccus_from_a_bonus_tile_does_not_draw_in_epoch_1_but_draws_two_in_epoch_2():
    # bonus tiles: seat 0 gets gods_tile (index 1), seat 1 steps_1; nation roma; the bonus gods
    # tile is the top of the stack: depraccus-4, as depraccus-1..3 were revealed.
    events = create(Options(players=2, bonus_tiles="random"), ScriptedRng(*[0] * 14, 0, 1, 4, 6))
    assert events[-3:] == [
        ev.GodGained(seat=0, tile="depraccus-4", source="bonus", points=1),
        ev.BonusActivated(seat=1, tile="steps_1"),
        first_action(0),
    ]
    assert [e for e in events if isinstance(e, ev.CardsDrawn) and e.reason == "depraccus"] == []
    state = after(given(events), [ev.EpochEnded(epoch=1, next_starting_seat=0)])
    second = run_tasks(state, Task(kind="prepare"), rng=ScriptedRng(4))  # persia
    i = second.index(temple("persia"))
    assert second[i + 1 :] == [drawn(0, ["priest", "priest"], "depraccus"), first_action(0)]


# --- preparation ----------------------------------------------------------------------------


@pytest.mark.parametrize("pick, nation", [(0, "iberia"), (1, "roma"), (2, "cartago"), (3, "iberia")])
def test_the_preparation_reveals_a_nation_not_played_before(pick, nation):
    state = given(between_epochs(2, ("gallia", "germania", "graecia", "aegyptus", "persia")))
    events = run_tasks(state, Task(kind="prepare"), rng=ScriptedRng(pick))
    assert events[0] == ev.NationRevealed(epoch=6, nation=nation)


def test_no_nation_is_played_twice_in_a_game():
    _, records = run(games=6, players="mixed", seed="six-nations")
    for record in records:
        assert record.state.finished
        assert len(set(record.state.nations_played)) == len(record.state.nations_played) == 6


def test_a_preparation_reveals_the_nation_three_gods_two_plus_one_half_gods_loot_on_every_usable_hex_and_places_the_temple():
    # roma (index 5 of the nations left), plaesiris-1 (16) shows half gods 3 and 1 (indexes 10, 0
    # of the 1-3 group), then depraccus-1 and -2; loot half_god (12), draw_2, draw_2; the half-god
    # loot tile shows a 3 (index 8 of the rest); roma: 2 cards each from the starting seat.
    state = given(between_epochs(2, ("gallia",), starting_seat=1))
    events = run_tasks(state, Task(kind="prepare"), rng=ScriptedRng(5, 16, 10, 0, 0, 0, 12, 0, 0, 8))
    assert events == [
        ev.NationRevealed(epoch=2, nation="roma"),
        ev.GodsRevealed(tiles=["plaesiris-1"]),
        ev.HalfGodsDisplayed(values=[3, 1]),
        ev.GodsRevealed(tiles=["depraccus-1"]),
        ev.GodsRevealed(tiles=["depraccus-2"]),
        ev.LootPlaced(tiles=[((8, 3), "half_god"), ((7, 4), "draw_2"), ((9, 6), "draw_2")]),
        ev.HalfGodsDisplayed(values=[3]),
        drawn(1, ["movement", "movement"], "roma"),
        drawn(0, ["movement", "movement"], "roma"),
        temple("roma"),
        first_action(1),
    ]
    state = after(state, events)
    assert (state.epoch, state.nation, state.gods_board, sorted(state.half_god_display)) == (
        2,
        "roma",
        ["plaesiris-1", "depraccus-1", "depraccus-2"],
        [1, 3, 3],
    )


@pytest.mark.parametrize(
    "players, hexes",
    [
        (2, ROMA_LOOT_2P),
        (3, [(7, 3), (8, 3), (7, 4), (9, 6)]),
        (4, [(8, 2), (7, 3), (8, 3), (7, 4), (9, 6)]),
    ],
)
def test_n_plus_one_gods_tiles_are_revealed_and_loot_goes_on_the_unmarked_hexes_plus_the_hexes_marked_up_to_the_player_count(
    players, hexes
):
    state = given(between_epochs(players, ("gallia",)))
    events = run_tasks(state, Task(kind="prepare"), rng=ScriptedRng(5))  # roma
    revealed = [e for e in events if isinstance(e, ev.GodsRevealed)]
    assert revealed == [ev.GodsRevealed(tiles=[t]) for t in GODS_SORTED[: players + 1]]
    (loot,) = [e for e in events if isinstance(e, ev.LootPlaced)]
    assert sorted(h for h, _ in loot.tiles) == sorted(hexes) == sorted(usable_loot("roma", players))


def test_the_half_god_stack_gives_the_1_to_3_group_before_any_4_to_6_tile():
    # seat 0 holds ten of the eleven low half gods: only one 2 is left in the 1-3 group
    state = given(between_epochs(2, ("gallia",), before=tuple(half_gods_taken(0, 1, 1, 2, 2, 2, 3, 3, 3, 3, 3))))
    events = run_tasks(state, Task(kind="prepare"), rng=ScriptedRng(5, 16, 99, 9))
    assert events[1:3] == [ev.GodsRevealed(tiles=["plaesiris-1"]), ev.HalfGodsDisplayed(values=[2, 6])]


def test_a_half_god_loot_tile_with_an_empty_half_god_stack_shows_nothing():
    state = given(
        between_epochs(
            2,
            ("gallia",),
            before=tuple(half_gods_taken(0, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 5, 5, 5, 6, 6)),
        )
    )
    events = run_tasks(state, Task(kind="prepare"), rng=ScriptedRng(5, 0, 0, 0, 12))
    assert events[4] == ev.LootPlaced(tiles=[((8, 3), "half_god"), ((7, 4), "draw_2"), ((9, 6), "draw_2")])
    assert not any(isinstance(e, ev.HalfGodsDisplayed) for e in events)


def test_each_depraccus_owner_draws_two_cards_per_tile_from_the_starting_seat_after_the_temple():
    state = given(
        in_preparation(
            "roma",
            2,
            starting_seat=1,
            epoch=2,
            extra=(
                ev.GodGained(seat=0, tile="depraccus-1", source="loot", points=1),
                ev.GodGained(seat=1, tile="depraccus-2", source="loot", points=1),
                ev.GodGained(seat=0, tile="depraccus-3", source="loot", points=1),
            ),
        )
    )
    events = run_tasks(state, *after_trait(1))  # the trait is done: steps 5 and 6
    assert events == [
        temple("roma"),
        drawn(1, ["movement", "movement"], "depraccus"),
        drawn(0, ["movement", "movement", "movement", "movement"], "depraccus"),
        first_action(1),
    ]


def test_a_depraccus_gained_through_gallia_in_step_4_draws_in_step_6_of_the_same_preparation():
    state = given(in_preparation("gallia", 2, hands={0: ["priest"] * 4}))
    state = agenda(state, Task(kind="gallia", seat=0, n=1), Task(kind="gallia", seat=1, n=1), *after_trait(0))
    state, events = play(state, GalliaChoice(seat=0, choice="reveal"))  # the top tile: depraccus-1
    assert awaiting(state) == (0, "gallia_gain")
    state, events = play(state, GainGod(seat=0, tile="depraccus-1", sacrifice={"priest": 4}))
    assert events == [
        ev.GodGained(seat=0, tile="depraccus-1", source="gallia", points=1, cards=["priest"] * 4),
        ev.AgendaSet(tasks=[Task(kind="gallia", seat=1, n=1), *after_trait(0)]),
    ]
    events = when(state, GalliaChoice(seat=1, choice="draw"))
    assert events == [
        drawn(1, ["movement", "movement"], "gallia"),
        temple("gallia"),
        drawn(0, ["movement", "movement"], "depraccus"),
        first_action(0),
    ]
