"""The audit of a platform event (a seat re-issued), which no command decides: a game with one
passes; a log that forges one, or hides game events behind one, fails at that event."""

from __future__ import annotations

import random

import msgspec
import pytest

from domain import games
from domain.kernel import SeatReissued
from service.audit.archive import load_export
from service.audit.checks import audit
from service.store.codec import PACK, seal
from service.write import SeatSpec


async def _play(service, game: str, commands: int, rnd: random.Random) -> None:
    decider = await service.decider(game)
    for _ in range(commands):
        _, state = await service.state_at(game)
        if decider.is_terminal(state):
            return
        seat = decider.awaited(state).seat
        await service.submit(game, seat, msgspec.to_builtins(games.get(decider.kind).random_command(state, seat, rnd)))


@pytest.fixture
async def logged(service):
    """A finished 2-player game whose seat 1 was re-issued after its 10th command: (header,
    envelopes, the re-issue's index in them)."""
    game = (await service.create("pantheon", {}, [SeatSpec()] * 2, claim=[0, 1])).game
    await _play(service, game, 10, random.Random(4))
    await service.reissue(game, 1)
    at = (await service.state_at(game))[0]
    await _play(service, game, 3000, random.Random(5))
    header, envelopes = await load_export(service.store, game)
    return header, envelopes, at - 1


def _chained(envelopes):
    """The envelopes numbered 1, 2, … with the hash chain recomputed (as a forger would)."""
    out, prev = [], "0" * 64
    for version, e in enumerate(envelopes, start=1):
        e = seal(msgspec.structs.replace(e, version=version, prev_hash=prev, hash=""))
        out.append(e)
        prev = e.hash
    return out


def _platform_check(report):
    return next((c.ok, c.first_failure) for c in report.checks if c.name == "platform_events")


async def test_a_game_with_a_reissue_passes_every_check(logged):
    header, envelopes, i = logged
    report = audit(header, envelopes, games.get(header.kind).decider)
    assert report.ok and envelopes[i].type == "seat_reissued" and _platform_check(report) == (True, None)


def _payload(event) -> msgspec.Raw:
    return msgspec.Raw(PACK.encode(event))


def _forge_seat(envelopes, i):  # a seat the game does not have
    return [
        *envelopes[:i],
        msgspec.structs.replace(envelopes[i], payload=_payload(SeatReissued(seat=7))),
        *envelopes[i + 1 :],
    ], i + 1


def _forge_cause(envelopes, i):  # a platform event that claims a seat caused it
    return [*envelopes[:i], msgspec.structs.replace(envelopes[i], seat=0, command="pass"), *envelopes[i + 1 :]], i + 1


def _forge_after_the_end(envelopes, i):  # re-issued once the game had ended
    return [*envelopes, envelopes[i]], len(envelopes) + 1


def _forge_inside_a_command(envelopes, i):  # a platform event among a command's own events
    j = next(j for j in range(1, len(envelopes)) if envelopes[j].cause is None and envelopes[j].type != "seat_reissued")
    return [
        *envelopes[:j],
        msgspec.structs.replace(envelopes[j], payload=_payload(SeatReissued(seat=0))),
        *envelopes[j + 1 :],
    ], j + 1


def _forge_uncaused_events(envelopes, i):  # game events with no command, hidden behind the platform event
    return [*envelopes[: i + 1], msgspec.structs.replace(envelopes[i + 1], cause=None), *envelopes[i + 2 :]], i + 2


def _forge_type(envelopes, i):  # recorded as a re-issue, holding a game event
    return [
        *envelopes[:i],
        msgspec.structs.replace(envelopes[i], payload=envelopes[i - 1].payload),
        *envelopes[i + 1 :],
    ], i + 1


@pytest.mark.parametrize(
    "forge",
    [_forge_seat, _forge_cause, _forge_after_the_end, _forge_inside_a_command, _forge_uncaused_events, _forge_type],
    ids=lambda f: f.__name__,
)
async def test_a_forged_platform_event_fails_the_audit_at_that_event(logged, forge):
    header, envelopes, i = logged
    forged, version = forge(envelopes, i)

    report = audit(header, _chained(forged), games.get(header.kind).decider)

    assert not report.ok and _platform_check(report) == (False, version)
