"""Every key the server leaves in a real Redis is one that service/store/keys.py (and so
docs/redis.md's table, tests/test_redis_door.py) lists: a game is created, claimed, played (with
keys, a refusal), projected, listed, counted against quotas, rate-limited, claimed by an archiver
and scheduled for the AI, and every key under the test's prefix then matches a listed pattern."""

from __future__ import annotations

import random
import re
import uuid

import msgspec
import pytest
from limits import parse
from limits.aio.strategies import SlidingWindowCounterRateLimiter

from domain.pantheon import PANTHEON
from domain.pantheon.random_play import random_command
from service.read.projector import Projector
from service.store.keys import KEYS, Key
from service.store.quotas import rate_storage
from service.store.turns import AiTurns
from service.write import GameService, SeatSpec, ServiceError

PLACEHOLDERS = {"ID": "[^:]+", "KEY": ".+", "NAME": "[^:]+", "JOB": ".+", "HOST": ".+", "ADDR": ".+", "…": ".*"}


def pattern(key: Key, prefix: str) -> re.Pattern[str]:
    """The regular expression of the keys a listed pattern stands for, under `prefix`."""
    text = key.pattern.replace("{prefix:pN}", "\0TAG\0").replace("<prefix>", "\0PREFIX\0")
    parts = re.split(r"(\0TAG\0|\0PREFIX\0|ID|KEY|NAME|JOB|HOST|ADDR|…)", text)
    out = []
    for part in parts:
        if part == "\0TAG\0":
            out.append(re.escape("{" + prefix + ":p") + r"\d+" + re.escape("}"))
        elif part == "\0PREFIX\0":
            out.append(re.escape(prefix))
        elif part in PLACEHOLDERS:
            out.append(PLACEHOLDERS[part])
        else:
            out.append(re.escape(part))
    return re.compile("".join(out) + "$")


def test_a_pattern_stands_for_the_keys_it_says_and_no_other():
    (meta,) = [k for k in KEYS if k.pattern.endswith(":game:ID:meta")]
    assert pattern(meta, "pfx").match("{pfx:p3}:game:abc:meta")
    assert not pattern(meta, "pfx").match("{pfx:p3}:game:abc:meta:more")
    assert not pattern(meta, "pfx").match("{other:p3}:game:abc:meta")
    (lease,) = [k for k in KEYS if k.pattern.startswith("<prefix>:ai:lease:")]
    assert pattern(lease, "pfx").match("pfx:ai:lease:pfx-ai-g-1-0") and not pattern(lease, "pfx").match("pfx:ai:turns")


async def test_every_key_left_in_redis_is_a_listed_one(store, redis_url, prefix):
    service = GameService(store)
    human, ai = SeatSpec(type="human"), SeatSpec(type="ai", level="random")
    created = await service.create("pantheon", {}, [human, human], idempotency_key=uuid.uuid4().hex * 2)
    game = created.game
    await service.claim(game, 0, idempotency_key=uuid.uuid4().hex)
    await service.claim(game, 1)
    _, state = await service.state_at(game)
    awaited = PANTHEON.awaited(state).seat
    command = msgspec.to_builtins(random_command(state, awaited, random.Random(1)))
    with pytest.raises(ServiceError):  # out of turn: refused by the game, and recorded
        await service.submit(game, 1 - awaited, {"type": "pass", "seat": 1 - awaited})
    await service.submit(game, awaited, command, idempotency_key=uuid.uuid4().hex)
    await service.create("pantheon", {}, [human, ai])

    projector = Projector(store)
    await projector.setup()
    await projector.drain()
    for feed in store.feeds.keys():  # noqa: SIM118 - Feeds is no dict
        await projector.remove_dead(feed)

    await store.quotas.count_ai_game("198.51.100.7", game)
    place = await store.quotas.take_stream_place("198.51.100.7")
    limiter = SlidingWindowCounterRateLimiter(rate_storage(redis_url, prefix))
    await limiter.hit(parse("5/minute"), "create", "198.51.100.7")
    await limiter.storage.bridge.storage.aclose()

    assert await store.claims.claim(game, "token", 60)
    await store.claims.record_sweep(0)
    await store.claims.count_skipped("error")
    await store.claims.say_alive("host-1", 60)
    await store.server_secret().value()
    assert await store.awaiting.beat(1_000) is None  # the clock keeper's first look

    turns = AiTurns(redis_url, redis_url, prefix, store.partitions)
    try:
        turns.record(game, "2|1|0|job|0.000|0.000")
        turns.hold_lease(f"{prefix}-ai-{game}-2-1", 10_000)
        assert turns.take_sweep(10_000)
        turns.record_sweep({"due": 0})
        turns.count_requeued("never_enqueued")
    finally:
        turns.close()

    keys = sorted([k.decode() async for k in store.redis.scan_iter(match=f"*{prefix}*", count=1000)])
    patterns = {key.pattern: pattern(key, prefix) for key in KEYS}
    unlisted = [k for k in keys if not any(p.match(k) for p in patterns.values())]
    assert not unlisted, f"keys in Redis that service/store/keys.py does not list: {unlisted}"
    seen = {name for name, p in patterns.items() if any(p.match(k) for k in keys)}
    # and it leaves every listed key but these: proofs (no replica is awaited here), the rebuild lock
    # (released when done), the ended games' lobby (no game ends), the keys of earlier versions
    assert seen >= {k.pattern for k in KEYS} - {
        "{prefix:pN}:proof",
        "{<prefix>:secret}:proof",
        "<prefix>:projections:rebuild-lock",
        "<prefix>:lobby:ended",
        "<prefix>:ai:awaiting",
        "<prefix>:ai:jobs",
        "<prefix>:ai:attempts",
    }, sorted({k.pattern for k in KEYS} - seen)
    await place.release()
