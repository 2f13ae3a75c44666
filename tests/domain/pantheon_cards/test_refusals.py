"""Bad input is refused with a stable code and a sentence, never a crash: over positions of
random games, commands of every kind with random (often wrong) seats, cards, columns, targets and
modes either play or raise a DomainError whose message a person can read."""

import random

import msgspec

from domain.kernel import DomainError
from domain.pantheon_cards import commands as cmd
from domain.pantheon_cards.components import load_components
from domain.pantheon_cards.decide import _ANSWERS, apply, decide
from domain.pantheon_cards.random_play import random_command
from domain.rng import SeededRng

CARDS = list(load_components().cards)


def _junk(state, rnd: random.Random):
    cols = [c.id for cs in state.columns for c in cs] + ["new", "9:9", "x", "new:1", "new:0", ""]
    card = lambda: rnd.choice([*CARDS, "nope", ""])  # noqa: E731
    column = lambda: rnd.choice(cols)  # noqa: E731
    seat = rnd.choice([state.awaiting] * 6 + [-1, 0, 1, 7])
    target = rnd.choice([None, -1, 0, 1, 2, 3, 8])
    kinds = [
        lambda: cmd.DrawCard(seat=seat, source=rnd.choice(["deck", "general_discard", "god_discard"])),
        lambda: cmd.ChooseGodColumn(seat=seat, column=column()),
        lambda: cmd.PlayCard(seat=seat, card=card(), column=column()),
        lambda: cmd.SkipPlay(seat=seat),
        lambda: cmd.EmployPower(
            seat=seat,
            god=card(),
            slot=rnd.choice(["minor", "major"]),
            mode=rnd.choice([None, "move", "discard", "attack", "famine", "plenty", "x"]),
            target=target,
            target_god=rnd.choice([None, card()]),
            worshiper=rnd.choice([None, card()]),
            temple=rnd.choice([None, card()]),
            column=rnd.choice([None, column()]),
        ),
        lambda: cmd.PlayCivilization(
            seat=seat,
            card=card(),
            target=target,
            column=rnd.choice([None, column()]),
            temple=rnd.choice([None, card()]),
            moves=[cmd.Move(worshiper=card(), destination=column()) for _ in range(rnd.randrange(4))],
        ),
        lambda: cmd.RepairTemple(seat=seat, temple=card()),
        lambda: cmd.EndTurn(seat=seat),
        lambda: cmd.PassBattleTurn(seat=seat),
        lambda: cmd.TakeSpiedCard(seat=seat, card=card()),
        lambda: cmd.MischiefPlay(
            seat=seat,
            target=rnd.choice([-1, 0, 1, 2, 9]),
            column=rnd.choice([None, column()]),
            temple=rnd.choice([None, card()]),
            moves=[cmd.Move(worshiper=card(), destination=column()) for _ in range(rnd.randrange(3))],
        ),
        lambda: cmd.DamageUndefendedTemple(seat=seat, temple=rnd.choice([None, card()])),
        lambda: cmd.CommitWarColumns(seat=seat, columns=[column() for _ in range(rnd.randrange(4))]),
        lambda: cmd.PlayBattleCard(seat=seat, card=card()),
        lambda: cmd.SkipBattleCard(seat=seat),
        lambda: cmd.PlaceSurvivors(
            seat=seat,
            placements=[cmd.Placement(worshiper=card(), destination=column()) for _ in range(rnd.randrange(3))],
        ),
        lambda: cmd.OrderDiscards(seat=seat, general=[card() for _ in range(rnd.randrange(3))], gods=[]),
    ]
    made = [k() for k in kinds]
    fitting = [c for c in made if state.decision in _ANSWERS[type(c)]]  # mostly the awaited kind
    return rnd.choice(fitting if fitting and rnd.random() < 0.8 else made)


def test_random_wrong_commands_are_refused_with_a_code_and_a_sentence_never_a_crash():
    codes = set()
    for index in range(6):
        rnd, rng = random.Random(index), SeededRng(f"refusals-{index}".encode())
        state, _ = apply(
            None, cmd.PantheonCardsCreateGame(options=cmd.PantheonCardsOptions(players=3 + index % 4)), rng
        )
        while not state.finished:
            for _ in range(8):
                command = _junk(state, rnd)
                try:
                    decide(state, command, SeededRng(b"junk"))
                except DomainError as error:
                    assert error.code and error.message.endswith((".", ")")), error
                    codes.add(error.code)
            state, _ = apply(state, random_command(state, state.awaiting, rnd), rng)
    assert {"not_your_decision", "wrong_decision", "illegal_parameters", "not_in_hand", "illegal_play"} <= codes


def test_a_malformed_command_is_a_domain_error():
    bad = msgspec.structs.replace(cmd.EndTurn(seat=0), seat="zero")  # type: ignore[arg-type]
    try:
        decide(None, bad, SeededRng(b"x"))
    except DomainError as error:
        assert error.code == "malformed_command"
    else:  # pragma: no cover
        raise AssertionError("a malformed command must be refused")
