"""Every option `legal_options` lists for the awaited seat is accepted by `decide`."""

import msgspec
import pytest

from domain.kernel import fold
from domain.pantheon import PANTHEON
from domain.pantheon import commands as cmd
from domain.pantheon.options import next_placements
from domain.pantheon.state import clone
from domain.rng import SeededRng
from service.cli.simulate import run


def _states(seed):
    _, records = run(games=2, players="mixed", seed=seed)
    for record in records:
        state = None
        for _, events in record.steps:
            state = fold(PANTHEON, events, state)
            if not state.finished:
                yield clone(state)


def _commands_for(state, seat, o):
    d = o["decision"]
    if d in ("action", "follow_up") and o["move"]:
        first = o["move"]["first_targets"]
        for t in first[:6]:
            cards = 0 if d == "action" or o["move"]["steps_without_cards"] else 1
            if cards > o["move"]["max_cards"]:
                continue
            steps = o["move"]["steps_without_cards"] + 2 * cards
            if t["cost"] <= steps:
                yield cmd.Move(
                    seat=seat,
                    cards=cards,
                    placements=[cmd.Place(piece=t["piece"], hex=tuple(t["hex"]), jump=t["jump"])],
                )
    if d == "action":
        for offer in o["gain_god"]:
            for pay in offer["payments"]:
                yield cmd.GainGod(seat=seat, tile=offer["tile"], sacrifice=pay)
        buy = o["buy"]
        if buy:
            money = buy["money_cards"]
            for tile in buy["sacrifice_tiles"]:
                yield cmd.Buy(
                    seat=seat, money=money, purchases=[cmd.SacrificeTile(kind=tile["kind"], level=tile["level"])]
                )
            for piece, n in buy["reserve"].items():
                if n:
                    yield cmd.Buy(seat=seat, money=money, purchases=[cmd.Reserve(piece=piece, count=n)])
            for t in buy["place_targets"][:4]:
                yield cmd.Buy(seat=seat, money=money, purchases=[cmd.PlacePiece(piece=t["piece"], hex=tuple(t["hex"]))])
    if d in ("action", "draw"):
        draw = o["draw"] if d == "action" else o
        for slot in [None, *draw["display"]]:
            yield cmd.DrawCard(seat=seat, slot=slot)
    if d == "follow_up":
        yield cmd.Pass(seat=seat)
    if d == "gallia_gain":
        for pay in o["payments"]:
            yield cmd.GainGod(seat=seat, tile=o["tile"], sacrifice=pay)
    if d == "sacrifice":
        for kind in o["kinds"]:
            yield cmd.ImproveSacrifice(seat=seat, kind=kind)
    if d == "choose_bonus":
        for tile in o["tiles"]:
            yield cmd.ChooseBonus(seat=seat, tile=tile)
    if d == "bonus_column":
        for h in o["hexes"]:
            yield cmd.PlaceColumn(seat=seat, hex=tuple(h))
    if d == "exchange":
        for give in ("foot", "column"):
            if o[give]:
                yield cmd.Exchange(seat=seat, give=give, count=o[give])
    if d == "cartago":
        for tile in o["sacrifice_tiles"]:
            yield cmd.Spend(seat=seat, purchases=[cmd.SacrificeTile(kind=tile["kind"], level=tile["level"])])


@pytest.mark.parametrize("seed", ["options-a", "options-b"])
def test_every_listed_option_is_accepted_by_decide(seed):
    tried = 0
    for state in _states(seed):
        seat = PANTHEON.awaited(state).seat
        options = msgspec.to_builtins(PANTHEON.legal_options(state, seat))  # as the API sends them
        assert options["awaited"]
        for command in _commands_for(state, seat, options):
            PANTHEON.decide(state, command, SeededRng(b"options"))
            tried += 1
        for other in range(state.players):
            if other != seat:
                assert msgspec.to_builtins(PANTHEON.legal_options(state, other)) == {"awaited": False, "decision": None}
    assert tried > 1000


def test_next_placements_follow_a_sequence_and_shrink_with_the_steps_left():
    for state in _states("next-placements"):
        if state.agenda[0].kind != "action":
            continue
        seat = state.agenda[0].seat
        first = msgspec.to_builtins(next_placements(state, seat, [], 3, movement=True))
        if not first["targets"]:
            continue
        t = first["targets"][0]
        step = [cmd.Place(piece=t["piece"], hex=tuple(t["hex"]), jump=t["jump"])]
        second = msgspec.to_builtins(next_placements(state, seat, step, 3, movement=True))
        assert second["left"] == 3 - t["cost"]
        assert all(x["cost"] <= second["left"] for x in second["targets"])
        assert {"piece": t["piece"], "hex": t["hex"], "cost": t["cost"], "jump": t["jump"]} not in second["targets"]
        return
    pytest.fail("no state with a placement found")
