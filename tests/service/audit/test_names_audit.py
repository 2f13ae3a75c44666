"""The audit of the players' names (`seat_named`, platform events): a finished game whose seats
were named passes, and tells its story with the names of each moment; a log forged to give a seat a
name the game would have refused (a label of the page, a bidi override, another seat's name) fails
at that event."""

from __future__ import annotations

import random

import msgspec
import pytest

from domain import games
from domain.kernel import SeatNamed
from service.audit.archive import load_export
from service.audit.checks import audit
from service.audit.lineage import fork
from service.store.codec import PACK
from service.write import SeatSpec
from service.write.meta import token_hash
from service.write.names import names_of

from .test_platform_events import _chained, _platform_check, _play


@pytest.fixture
async def named(service):
    """A finished 2-player game: seat 0 named "Ann" at creation, seat 1 "Bob" after 6 commands,
    renamed "Cy" after 12: (header, envelopes)."""
    created = await service.create("pantheon", {}, [SeatSpec()] * 2, claim=[0, 1], names={0: "Ann"})
    game, bob = created.game, token_hash(created.tokens[1])
    await _play(service, game, 6, random.Random(4))
    await service.name_seat(game, 1, "Bob", bob)
    await _play(service, game, 6, random.Random(5))
    await service.name_seat(game, 1, "Cy", bob)
    await _play(service, game, 3000, random.Random(6))
    return await load_export(service.store, game)


def test_a_game_with_names_passes_and_its_story_uses_the_names_of_each_moment(named):
    header, envelopes = named
    report = audit(header, envelopes, games.get(header.kind).decider)
    assert report.ok and _platform_check(report) == (True, None)
    texts = [line.text for line in report.story]
    renamed = texts.index("Bob chose the name “Cy”.")
    assert "Player B chose the name “Bob”." in texts[:renamed]
    assert any(t.startswith("Bob ") for t in texts[:renamed] if "chose the name" not in t)
    ann = texts.index("Player A chose the name “Ann”.")  # right after the game's first events
    assert not any("Player B" in t for t in texts[renamed:]) and not any("Player A" in t for t in texts[ann + 1 :])


@pytest.mark.parametrize(
    "name", ["You", "Player A", "\u202eevil", "ann", "x" * 25], ids=["you", "label", "bidi", "taken", "long"]
)
def test_a_name_the_game_would_refuse_forged_into_the_log_fails_the_audit_at_that_event(named, name):
    header, envelopes = named
    i = next(k for k, e in enumerate(envelopes) if e.type == "seat_named" and k > 20)  # Bob's naming
    forged = msgspec.structs.replace(envelopes[i], payload=msgspec.Raw(PACK.encode(SeatNamed(seat=1, name=name))))
    report = audit(header, _chained([*envelopes[:i], forged, *envelopes[i + 1 :]]), games.get(header.kind).decider)
    assert _platform_check(report) == (False, i + 1)


async def test_a_fork_of_the_ended_game_carries_its_names(service, named):
    header, envelopes = named
    child = await fork(service, header.game, len(envelopes), [SeatSpec()] * 2)
    assert names_of(await service.meta(child.game)) == {0: "Ann", 1: "Cy"}
