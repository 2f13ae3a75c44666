"""The eight nation traits (rules §6), step 4 of the preparation."""

import pytest

from domain.pantheon import events as ev
from domain.pantheon.commands import (
    Discard,
    Exchange,
    GainGod,
    GalliaChoice,
    ImproveSacrifice,
    Pass,
    PlacePiece,
    Reserve,
    SacrificeTile,
    Spend,
)

from .helpers_flow import (
    after_trait,
    agenda,
    between_epochs,
    drawn,
    first_action,
    in_preparation,
    play,
    run_tasks,
    stack_index,
    temple,
)
from .scenario import ScriptedRng, Task, after, given, then_error, when


def gallia(hands=None, extra=(), players=2):
    state = given(in_preparation("gallia", players, hands=hands, extra=extra))
    return agenda(state, *[Task(kind="gallia", seat=s, n=1) for s in range(players)], *after_trait(0))


def revealed(state, tile, seat=0):
    """The state after `seat` chose to reveal, with `tile` on top of the gods stack."""
    rest = state.agenda[1:]
    state, events = play(state, GalliaChoice(seat=seat, choice="reveal"), rng=ScriptedRng(stack_index(state, tile)))
    assert events == [
        ev.GalliaRevealed(seat=seat, tile=tile),
        ev.AgendaSet(tasks=[Task(kind="gallia_gain", seat=seat, item=tile), *rest]),
    ]
    assert (state.gallia_tile, tile in state.gods_stack) == (tile, False)
    return state


GALLIA_REST = [Task(kind="gallia", seat=1, n=1), *after_trait(0)]


# --- Gallia -----------------------------------------------------------------------------------


def test_gallia_asks_each_seat_from_the_starting_seat():
    state = given(between_epochs(3, ("roma",), starting_seat=2))
    state = after(state, run_tasks(state, Task(kind="prepare"), seat=2))  # zeros: gallia
    assert state.nation == "gallia"
    assert state.agenda[:3] == [Task(kind="gallia", seat=s, n=1) for s in (2, 0, 1)]


def test_gallia_draw_gives_two_cards_from_the_draw_pile():
    assert when(gallia(), GalliaChoice(seat=0, choice="draw")) == [
        drawn(0, ["movement", "movement"], "gallia"),
        ev.AgendaSet(tasks=GALLIA_REST),
    ]


def test_gallia_gains_the_revealed_tile_by_paying_only_its_first_number_with_cards():
    state = revealed(gallia(hands={0: ["dancer"] * 5 + ["priest"]}), "gadicea-2")  # needs 5-1
    then_error(state, GainGod(seat=0, tile="gadicea-2", sacrifice={"dancer": 5, "priest": 1}), "sacrifice_not_met")
    then_error(state, GainGod(seat=0, tile="gadicea-2", sacrifice={"dancer": 4}), "sacrifice_not_met")
    assert when(state, GainGod(seat=0, tile="gadicea-2", sacrifice={"dancer": 5})) == [
        ev.GodGained(seat=0, tile="gadicea-2", source="gallia", points=1, cards=["dancer"] * 5),
        ev.AgendaSet(tasks=GALLIA_REST),
    ]


def test_gallia_counts_sacrifice_tiles_towards_the_first_number():
    state = gallia(hands={0: ["temple"]}, extra=(ev.SacrificeImproved(seat=0, kind="temple", level=3),))
    state = revealed(state, "depraccus-1")  # needs 4-1
    assert when(state, GainGod(seat=0, tile="depraccus-1", sacrifice={"temple": 1}))[0] == ev.GodGained(
        seat=0, tile="depraccus-1", source="gallia", points=1, cards=["temple"]
    )


def test_gallia_accepts_only_cards_for_pietalte():
    tiles = (ev.SacrificeImproved(seat=0, kind="priest", level=4),)
    state = revealed(gallia(hands={0: ["priest", "offering"] * 3}, extra=tiles), "pietalte-1")  # 3-2-1
    then_error(state, GainGod(seat=0, tile="pietalte-1", sacrifice={}), "sacrifice_not_met")
    assert when(state, GainGod(seat=0, tile="pietalte-1", sacrifice={"offering": 3}))[0] == ev.GodGained(
        seat=0, tile="pietalte-1", source="gallia", points=1, cards=["offering"] * 3
    )


def test_gallia_only_offers_the_revealed_tile():
    state = revealed(gallia(hands={0: ["dancer"] * 5}), "gadicea-1")
    then_error(state, GainGod(seat=0, tile="gadicea-2", sacrifice={"dancer": 5}), "tile_not_offered")


def test_declining_the_gallia_tile_sends_it_to_the_box():
    state = revealed(gallia(), "stonkus-1")
    events = when(state, Pass(seat=0))
    assert events == [ev.GalliaDeclined(seat=0, tile="stonkus-1"), ev.AgendaSet(tasks=GALLIA_REST)]
    state = after(state, events)
    assert (state.gods_box, "stonkus-1" in state.gods_stack, state.gallia_tile) == (["stonkus-1"], False, "")


def test_a_surparit_gained_through_gallia_takes_the_top_gods_tile_with_its_points_and_benefit():
    state = revealed(gallia(hands={0: ["dancer"] * 3}), "surparit-1")  # 3-2
    rng = ScriptedRng(stack_index(state, "taksator-1"))
    assert when(state, GainGod(seat=0, tile="surparit-1", sacrifice={"dancer": 3}), rng) == [
        ev.GodGained(seat=0, tile="surparit-1", source="gallia", points=1, cards=["dancer"] * 3),
        ev.GodGained(seat=0, tile="taksator-1", source="surparit", points=1),
        ev.SpecialMoneyTaken(seat=0, value=2),
        ev.AgendaSet(tasks=GALLIA_REST),
    ]


def test_a_plaesiris_gained_through_gallia_takes_the_top_two_half_gods_of_the_stack_not_the_display():
    state = revealed(gallia(hands={0: ["dancer"] * 4}, extra=(ev.HalfGodsDisplayed(values=[3, 3]),)), "plaesiris-1")
    # the 1-3 group is now [1, 1, 2, 2, 2, 2, 3, 3, 3]: indexes 8 and 0 give a 3 and a 1
    events = when(state, GainGod(seat=0, tile="plaesiris-1", sacrifice={"dancer": 4}), ScriptedRng(8, 0))
    assert events == [
        ev.GodGained(seat=0, tile="plaesiris-1", source="gallia", points=1, cards=["dancer"] * 4),
        ev.HalfGodTaken(seat=0, source="stack", value=3),
        ev.HalfGodTaken(seat=0, source="stack", value=1),
        ev.AgendaSet(tasks=GALLIA_REST),
    ]
    assert after(state, events).half_god_display == [3, 3]


def test_the_last_gallia_choice_ends_the_trait_and_the_preparation_goes_on():
    state, _ = play(gallia(), GalliaChoice(seat=0, choice="draw"))
    assert when(state, GalliaChoice(seat=1, choice="draw")) == [
        drawn(1, ["movement", "movement"], "gallia"),
        temple("gallia"),
        first_action(0),
    ]


# --- Germania and Graecia ---------------------------------------------------------------------

NINE = ["movement"] * 3 + ["priest"] * 3 + ["money"] * 3


@pytest.mark.parametrize("nation", ["germania", "graecia"])
def test_a_seat_over_seven_cards_discards_cards_of_its_choice_down_to_seven_and_one_under_draws_up_to_seven(nation):
    state = given(in_preparation(nation, 2, hands={0: NINE, 1: ["dancer"] * 4}))
    hand7 = [Task(kind="hand7", seat=0, n=1), Task(kind="hand7", seat=1, n=1), *after_trait(0)]
    events = run_tasks(state, *hand7)
    assert events == [ev.AgendaSet(tasks=[Task(kind="discard", seat=0, n=2), *hand7[1:]])]
    state = after(agenda(state, *hand7), events)
    events = when(state, Discard(seat=0, cards={"priest": 1, "money": 1}))
    assert events == [
        ev.CardsDiscarded(seat=0, cards=["priest", "money"]),
        drawn(1, ["movement"] * 3, "hand_to_seven"),
        temple(nation),
        first_action(0),
    ]
    state = after(state, events)
    assert [sum(s.hand) for s in state.seats] == [7, 7]
    assert state.discard[:6] == [0, 1, 0, 0, 0, 1]


@pytest.mark.parametrize("cards", [{"priest": 1}, {"priest": 3}, {}])
def test_discarding_other_than_down_to_exactly_seven_is_refused(cards):
    state = given(in_preparation("germania", 2, hands={0: NINE}))
    state = agenda(state, Task(kind="discard", seat=0, n=2), *after_trait(0))
    then_error(state, Discard(seat=0, cards=cards), "wrong_discard")


def test_discarding_cards_not_in_hand_is_refused():
    state = given(in_preparation("germania", 2, hands={0: NINE}))
    state = agenda(state, Task(kind="discard", seat=0, n=2), *after_trait(0))
    then_error(state, Discard(seat=0, cards={"dancer": 2}), "cards_not_in_hand")


def test_a_seat_with_exactly_seven_cards_keeps_its_hand():
    state = given(in_preparation("graecia", 2, hands={0: ["temple"] * 7, 1: ["offering"] * 7}))
    assert run_tasks(state, Task(kind="hand7", seat=0, n=1), Task(kind="hand7", seat=1, n=1), *after_trait(0)) == [
        temple("graecia"),
        first_action(0),
    ]


# --- Aegyptus ---------------------------------------------------------------------------------


def aegyptus(extra=()):
    state = given(in_preparation("aegyptus", 2, extra=extra))  # bsw: 6 feet, 5 columns; general 6/7
    return agenda(state, Task(kind="exchange", seat=0, n=1), Task(kind="exchange", seat=1, n=1), *after_trait(0))


AEGYPTUS_REST = [Task(kind="exchange", seat=1, n=1), *after_trait(0)]


@pytest.mark.parametrize("give, count, feet, columns", [("foot", 6, 0, 11), ("column", 5, 11, 0), ("foot", 2, 4, 7)])
def test_aegyptus_exchanges_feet_for_columns_or_columns_for_feet_with_the_general_reserve(give, count, feet, columns):
    state = aegyptus()
    events = when(state, Exchange(seat=0, give=give, count=count))
    assert events == [ev.PiecesExchanged(seat=0, give=give, count=count), ev.AgendaSet(tasks=AEGYPTUS_REST)]
    me = after(state, events).seats[0]
    assert (me.feet, me.columns, me.general_feet, me.general_columns) == (feet, columns, 12 - feet, 12 - columns)


def test_aegyptus_is_limited_by_the_personal_reserve():
    then_error(aegyptus(), Exchange(seat=0, give="foot", count=7), "bad_exchange")
    then_error(aegyptus(), Exchange(seat=0, give="column", count=6), "bad_exchange")
    then_error(aegyptus(), Exchange(seat=0, give="foot", count=0), "bad_exchange")


def test_aegyptus_is_limited_by_the_general_reserve():
    state = aegyptus(extra=(ev.ReserveGained(seat=0, feet=5, columns=6),))  # general: 1 foot, 1 column
    then_error(state, Exchange(seat=0, give="foot", count=2), "bad_exchange")
    then_error(state, Exchange(seat=0, give="column", count=2), "bad_exchange")
    assert when(state, Exchange(seat=0, give="column", count=1))[0] == ev.PiecesExchanged(
        seat=0, give="column", count=1
    )


def test_a_seat_may_pass_on_aegyptus():
    assert when(aegyptus(), Pass(seat=0)) == [ev.AgendaSet(tasks=AEGYPTUS_REST)]


def test_aegyptus_skips_a_seat_that_can_exchange_nothing():
    state = aegyptus(extra=(ev.ReserveGained(seat=1, feet=6, columns=7),))  # seat 1: general reserve empty
    assert when(state, Pass(seat=0)) == [temple("aegyptus"), first_action(0)]


# --- Persia -----------------------------------------------------------------------------------


def test_persia_resorts_the_special_money_stack_descending():
    state = given(in_preparation("persia", 2, extra=(ev.SpecialMoneyTaken(seat=1, value=2),)))
    assert run_tasks(state, Task(kind="persia"), *after_trait(0)) == [
        ev.SpecialMoneyResorted(order=[5, 4, 4, 3, 3, 2]),
        temple("persia"),
        first_action(0),
    ]


def test_after_persia_the_stack_stays_descending_for_the_rest_of_the_game():
    state = given(
        between_epochs(
            2,
            ("persia",),
            hands={0: ["priest"] * 3 + ["dancer"]},
            before=(ev.SpecialMoneyResorted(order=[5, 4, 4, 3, 3, 2, 2]),),
        )
    )
    # epoch 2: roma (index 5), and taksator-1 (index 28) is revealed first
    state = after(state, run_tasks(state, Task(kind="prepare"), rng=ScriptedRng(5, 28)))
    assert (state.nation, state.gods_board[0], state.special_money) == ("roma", "taksator-1", [5, 4, 4, 3, 3, 2, 2])
    events = when(state, GainGod(seat=0, tile="taksator-1", sacrifice={"priest": 3, "dancer": 1}))
    assert events[1] == ev.SpecialMoneyTaken(seat=0, value=5)
    assert after(state, events).special_money == [4, 4, 3, 3, 2, 2]


# --- Iberia -----------------------------------------------------------------------------------


def iberia(extra=()):
    state = given(in_preparation("iberia", 2, extra=extra))
    return agenda(state, *[Task(kind="sacrifice", seat=s, n=1, item="optional") for s in (0, 1)], *after_trait(0))


IBERIA_REST = [Task(kind="sacrifice", seat=1, n=1, item="optional"), *after_trait(0)]


def test_iberia_gives_a_level_1_tile_of_a_lacking_kind():
    assert when(iberia(), ImproveSacrifice(seat=0, kind="dancer")) == [
        ev.SacrificeImproved(seat=0, kind="dancer", level=1),
        ev.AgendaSet(tasks=IBERIA_REST),
    ]


def test_iberia_raises_an_owned_tile_by_one_level():
    state = iberia(extra=(ev.SacrificeImproved(seat=0, kind="priest", level=2),))
    assert when(state, ImproveSacrifice(seat=0, kind="priest"))[0] == ev.SacrificeImproved(
        seat=0, kind="priest", level=3
    )
    then_error(
        iberia(extra=(ev.SacrificeImproved(seat=0, kind="priest", level=4),)),
        ImproveSacrifice(seat=0, kind="priest"),
        "max_level",
    )


def test_iberia_may_be_declined():
    assert when(iberia(), Pass(seat=0)) == [ev.AgendaSet(tasks=IBERIA_REST)]


def test_iberia_skips_a_seat_whose_four_tiles_are_at_level_4():
    full = tuple(ev.SacrificeImproved(seat=1, kind=k, level=4) for k in ("priest", "dancer", "temple", "offering"))
    assert when(iberia(extra=full), Pass(seat=0)) == [temple("iberia"), first_action(0)]


# --- Roma -------------------------------------------------------------------------------------


def test_roma_gives_every_seat_two_cards_from_the_draw_pile_from_the_starting_seat():
    state = given(between_epochs(3, ("gallia",), starting_seat=2))
    events = run_tasks(state, Task(kind="prepare"), rng=ScriptedRng(5), seat=2)  # roma
    assert [e for e in events if isinstance(e, ev.CardsDrawn)] == [
        drawn(2, ["movement"] * 2, "roma"),
        drawn(0, ["movement"] * 2, "roma"),
        drawn(1, ["movement"] * 2, "roma"),
    ]
    assert after(state, events).display == state.display


# --- Cartago ----------------------------------------------------------------------------------


def cartago():
    state = given(in_preparation("cartago", 2, extra=(ev.SacrificeImproved(seat=0, kind="temple", level=1),)))
    return agenda(state, Task(kind="cartago", seat=0, n=1), Task(kind="cartago", seat=1, n=1), *after_trait(0))


CARTAGO_REST = [Task(kind="cartago", seat=1, n=1), *after_trait(0)]


@pytest.mark.parametrize(
    "purchases, costs",
    [
        ([SacrificeTile(kind="dancer", level=1), Reserve(piece="column")], [1, 1]),
        ([SacrificeTile(kind="temple", level=2)], [2]),
        ([Reserve(piece="foot", count=2)], [2]),
        ([Reserve(piece="foot")], [1]),
    ],
)
def test_cartago_spends_two_money_on_tiles_upgrades_and_pieces(purchases, costs):
    assert when(cartago(), Spend(seat=0, purchases=purchases)) == [
        ev.Bought(seat=0, money=[], budget=2, purchases=purchases, costs=costs),
        ev.AgendaSet(tasks=CARTAGO_REST),
    ]


def test_cartago_refuses_spending_more_than_two_money():
    then_error(cartago(), Spend(seat=0, purchases=[SacrificeTile(kind="dancer", level=2)]), "insufficient_money")
    then_error(
        cartago(),
        Spend(seat=0, purchases=[Reserve(piece="foot"), Reserve(piece="column", count=2)]),
        "insufficient_money",
    )


def test_cartago_money_is_not_increased_by_stonkus():
    state = given(
        in_preparation("cartago", 2, extra=(ev.GodGained(seat=0, tile="stonkus-3", source="loot", points=1),))
    )
    state = agenda(state, Task(kind="cartago", seat=0, n=1), *after_trait(0))
    then_error(state, Spend(seat=0, purchases=[Reserve(piece="foot", count=3)]), "insufficient_money")


def test_cartago_refuses_placing_pieces_because_the_temple_is_not_on_the_board():
    then_error(cartago(), Spend(seat=0, purchases=[PlacePiece(piece="foot", hex=(5, 10))]), "no_placing")


def test_a_seat_may_pass_on_cartago():
    state, _ = play(cartago(), Pass(seat=0))
    assert when(state, Pass(seat=1)) == [temple("cartago"), first_action(0)]
