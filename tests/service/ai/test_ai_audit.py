"""AI turns played in-process as a worker plays them, and their audit: each recorded view hash is
the seat's knowledge rebuilt at that point, and the recorded bot, parameters and RNG choose the
recorded command again; a log whose provenance was rewritten (with the hash chain recomputed)
fails at exactly that command. A failing bot falls back to the random bot, on the record."""

import dataclasses
import json
import random

import msgspec
import pytest

from domain.kernel import DomainError
from domain.pantheon import PANTHEON
from domain.pantheon import bots as pantheon_bots
from domain.pantheon.commands import ChooseBonus
from domain.pantheon.state import clone
from service.ai.worker import play_turn
from service.audit.archive import load_export
from service.audit.checks import audit
from service.audit.export import export_lines
from service.cli.commands import main
from service.store.codec import GENESIS_HASH, Envelope, seal
from service.write import SeatSpec


async def ai_game(service, levels: list[str]) -> str:
    """A game of AI seats played to its end in-process, each turn exactly as a worker plays it."""
    game = (await service.create("pantheon", {}, [SeatSpec(type="ai", level=level) for level in levels])).game
    while True:
        version, state = await service.state_at(game)
        awaited = PANTHEON.awaited(state)
        if awaited is None:
            return game
        assert (await play_turn(service, game, version, awaited.seat))["outcome"] == "played"


def rewritten(envelopes: list[Envelope], version: int, **provenance: str) -> list[Envelope]:
    """The log with one command's provenance changed and every hash from there recomputed (what an
    operator rewriting history could do; only the AI checks can tell)."""
    out, prev = [], GENESIS_HASH
    for e in envelopes:
        if e.version == version:
            e = msgspec.structs.replace(e, provenance={**e.provenance, **provenance})
        e = seal(msgspec.structs.replace(e, prev_hash=prev))
        out.append(e)
        prev = e.hash
    return out


def states_before(envelopes: list[Envelope]) -> dict[int, object]:
    """The full state before each command's first event, by that event's version."""
    decode = msgspec.msgpack.Decoder(PANTHEON.event_type).decode
    state, before = PANTHEON.initial_state(), {}
    for e in envelopes:
        if e.cause is not None:
            before[e.version] = clone(state) if state is not None else None
        state = PANTHEON.evolve(state, decode(e.payload))
    return before


def checks(report) -> dict:
    return {c.name: (c.ok, c.first_failure) for c in report.checks}


async def test_every_ai_command_is_confirmed_by_its_view_hash_and_by_running_its_bot_again(service):
    game = await ai_game(service, ["random", "greedy"])
    header, envelopes = await load_export(service.store, game)
    ai_commands = [e for e in envelopes if e.provenance]
    assert len(ai_commands) == sum(e.cause is not None for e in envelopes[1:]) > 50
    assert {e.provenance["bot"] for e in ai_commands} == {"random", "greedy"}

    report = audit(header, envelopes, PANTHEON, rerun_bots=True)
    assert report.ok, [c for c in report.checks if c.ok is not True]
    assert checks(report)["ai_views"] == (True, None) and checks(report)["ai_decisions"] == (True, None)
    assert f"{len(ai_commands)} AI commands" in next(c.detail for c in report.checks if c.name == "ai_decisions")
    # without the kind's bots the AI commands cannot be checked, and the audit says so
    assert checks(audit(header, envelopes, dataclasses.replace(PANTHEON, bots=None)))["ai_views"] == (None, None)


async def test_the_ai_views_of_a_game_recorded_by_an_older_engine_are_said_to_be_unconfirmable_not_failed(service):
    game = await ai_game(service, ["random", "greedy"])
    header, envelopes = await load_export(service.store, game)
    older = msgspec.structs.replace(header, engine="pantheon-engine/1")  # its knowledge held fewer facts
    report = audit(older, envelopes, PANTHEON, rerun_bots=True)
    [views] = [c for c in report.checks if c.name == "ai_views"]
    assert views.ok is None and "recorded by pantheon-engine/1" in views.detail
    assert "ai_decisions" not in checks(report) and all(c.ok is not False for c in report.checks)
    # the engine running here still checks its own games: a tampered view fails them
    damaged = [
        msgspec.structs.replace(e, provenance={**e.provenance, "view": "0" * 64}) if e.provenance else e
        for e in envelopes
    ]
    assert checks(audit(header, damaged, PANTHEON))["ai_views"][0] is False


async def test_pantheon_audit_bots_reruns_the_bots_of_an_exported_file(service, tmp_path, capsys):
    game = await ai_game(service, ["greedy", "random"])
    header, envelopes = await load_export(service.store, game)
    path = tmp_path / "game.jsonl"
    path.write_bytes(b"\n".join(export_lines(header, envelopes, PANTHEON)))
    assert main(["audit", "--quiet", str(path)]) == 0
    out = capsys.readouterr().out
    assert "PASS ai_views" in out and "ai_decisions" not in out  # bots are run again only when asked
    assert main(["audit", "--quiet", "--bots", str(path)]) == 0
    assert "PASS ai_decisions" in capsys.readouterr().out
    tampered = tmp_path / "tampered.jsonl"
    target = [e for e in envelopes if e.provenance][10]
    lines = export_lines(header, rewritten(envelopes, target.version, view="0" * 64), PANTHEON)
    tampered.write_bytes(b"\n".join(lines))
    assert main(["audit", "--quiet", str(tampered)]) == 1
    assert "FAIL ai_views" in capsys.readouterr().out


async def test_a_view_hash_of_anything_but_the_seats_knowledge_fails_at_that_command(service):
    game = await ai_game(service, ["random", "random", "random"])
    header, envelopes = await load_export(service.store, game)
    before = states_before(envelopes)
    target = [e for e in envelopes if e.provenance][40]
    other_seat = (target.seat + 1) % 3
    peeked = PANTHEON.bots.view_hash(PANTHEON.bots.knowledge(before[target.version], other_seat))
    assert peeked != target.provenance["view"]  # another seat's knowledge differs (its own hand)

    report = audit(header, rewritten(envelopes, target.version, view=peeked), PANTHEON)
    assert checks(report)["hash_chain"] == (True, None) and checks(report)["commands_redecided"] == (True, None)
    assert checks(report)["ai_views"] == (False, target.version)
    assert not report.ok and report.first_failure == target.version
    # a damaged provenance (no view at all) fails the same way, it does not crash the audit
    damaged = rewritten(envelopes, target.version, view="")
    assert checks(audit(header, damaged, PANTHEON))["ai_views"] == (False, target.version)


async def test_a_command_the_recorded_bot_would_not_choose_fails_the_rerun_at_that_command(service):
    game = await ai_game(service, ["random", "random"])
    header, envelopes = await load_export(service.store, game)
    before = states_before(envelopes)
    replay_decode = msgspec.msgpack.Decoder(PANTHEON.command_type).decode

    def chosen(e: Envelope, rng: str):
        knowledge = PANTHEON.bots.knowledge(before[e.version], e.seat)
        return msgspec.to_builtins(PANTHEON.bots.make("random").choose(knowledge, e.seat, random.Random(rng)))

    # the first AI command where the recorded RNG matters: claiming another RNG misattributes it
    target = next(
        e for e in envelopes if e.provenance and chosen(e, "another rng") != msgspec.to_builtins(replay_decode(e.cause))
    )
    report = audit(header, rewritten(envelopes, target.version, rng="another rng"), PANTHEON, rerun_bots=True)
    assert checks(report)["ai_views"] == (True, None)  # it saw only its seat's knowledge …
    assert checks(report)["ai_decisions"] == (False, target.version)  # … but not that bot chose this
    unknown = audit(header, rewritten(envelopes, target.version, bot="no-such-bot"), PANTHEON, rerun_bots=True)
    assert checks(unknown)["ai_decisions"] == (False, target.version)
    assert "cannot be run again (KeyError: 'no-such-bot')" in next(
        c.detail for c in unknown.checks if c.name == "ai_decisions"
    )


class CrashingBot:
    name, params, budget = "greedy", {}, "none"

    def choose(self, knowledge, seat, rnd):
        raise ZeroDivisionError("a bug in the bot")


class RefusedBot(CrashingBot):
    def choose(self, knowledge, seat, rnd):
        return ChooseBonus(seat=seat, tile="no-such-tile")  # never a legal command


@pytest.mark.parametrize("broken, reason", [(CrashingBot, "ZeroDivisionError"), (RefusedBot, "greedy: ")])
async def test_a_failing_bot_does_not_stall_the_game_the_random_bot_plays_that_turn_on_the_record(
    service, monkeypatch, broken, reason
):
    monkeypatch.setitem(pantheon_bots.BOTS, "greedy", broken)
    game = (await service.create("pantheon", {}, [SeatSpec(type="ai", level="greedy")] * 2)).game
    version, state = await service.state_at(game)
    seat = PANTHEON.awaited(state).seat
    if broken is RefusedBot:
        with pytest.raises(DomainError):
            PANTHEON.decide(state, ChooseBonus(seat=seat, tile="no-such-tile"), None)
    assert (await play_turn(service, game, version, seat))["outcome"] == "played"
    header, envelopes = await load_export(service.store, game)
    turn = envelopes[version]
    assert turn.seat == seat and turn.provenance["bot"] == "random"
    assert turn.provenance["fallback"].startswith("greedy: ") and reason in turn.provenance["fallback"]
    report = audit(header, envelopes, PANTHEON, rerun_bots=True)
    assert checks(report)["ai_decisions"] == (True, None)  # the random bot's choice, confirmed


async def test_an_expert_games_moves_are_confirmed_by_running_its_search_again_with_the_recorded_budget(service):
    game = (await service.create("pantheon", {}, [SeatSpec(type="ai", level=lv) for lv in ("expert", "greedy")])).game
    while (awaited := PANTHEON.awaited((current := await service.state_at(game))[1])) is not None:
        assert (await play_turn(service, game, current[0], awaited.seat, expert_s=0.01))["outcome"] == "played"
    header, envelopes = await load_export(service.store, game)
    expert = [e for e in envelopes if e.provenance and e.provenance["bot"] == "expert"]
    assert len(expert) > 20 and all("fallback" not in e.provenance for e in expert)
    assert all(json.loads(e.provenance["params"])["iterations"] >= 16 for e in expert)  # the budget, recorded
    report = audit(header, envelopes, PANTHEON, rerun_bots=True)
    assert checks(report)["ai_views"] == (True, None) and checks(report)["ai_decisions"] == (True, None)
