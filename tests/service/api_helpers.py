"""Helpers for the HTTP API tests: an app on the test's Redis, a referee, games played over HTTP."""

from __future__ import annotations

import asyncio
import logging
import os
import random
import tempfile
from collections.abc import Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import replace
from logging.handlers import BufferingHandler

import httpx
import msgspec

from domain import games
from service.audit.archiver import Archiver
from service.audit.cold import Archive
from service.config import QuotaSettings, Settings
from service.http.app import create_app
from service.store.connection import connect
from service.store.streams import EventStore
from service.write import GameService

PARTITIONS = 4
PROBLEM = "application/problem+json"
YEAR_S = 365 * 24 * 3600


@asynccontextmanager
async def serve(app):
    """An HTTP client of `app`, started and run on this event loop, so that requests can overlap.

    The app's lifespan runs in a task of its own: anyio wants it entered and left in one task,
    which pytest-asyncio's fixture setup and teardown are not."""
    started, stop = asyncio.Event(), asyncio.Event()

    async def lifespan():
        async with app.lifespan():
            started.set()
            await stop.wait()

    task = asyncio.create_task(lifespan())
    await asyncio.wait([task, asyncio.create_task(started.wait())], return_when=asyncio.FIRST_COMPLETED)
    if task.done():
        task.result()  # startup failed: raise its error
    try:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver") as client:
            yield client
    finally:
        stop.set()
        await task


# Tests play as fast as they can from one address: limits far above what they do (the quota tests
# set their own).
RELAXED = QuotaSettings(create="10000/minute", commands="10000/second", ai_games=1000, streams=1000)


def app_settings(redis_url: str, prefix: str, **options) -> Settings:
    """The settings of an app under test on this Redis and key prefix: the table's defaults (not this
    process's environment), an archive directory that stays empty, and `options` (Settings fields)."""
    defaults = Settings.from_environ({})
    return replace(
        defaults,
        redis_url=redis_url,
        prefix=prefix,
        partitions=PARTITIONS,
        **{"archive_dir": _NO_ARCHIVE.name, "queue_url": QUEUE_URL, **options},
    )


# the plain Redis of RQ's queue when the tests' Redis is a cluster (scripts/test's third pass sets it)
QUEUE_URL = os.environ.get("PANTHEON_QUEUE_URL") or None


_NO_ARCHIVE = tempfile.TemporaryDirectory(prefix="pantheon-no-archive-")  # removed when the tests end


def api_client(redis_url: str, prefix: str, **options):
    """A client of an app on this Redis and key prefix."""
    return serve(create_app(app_settings(redis_url, prefix, **{"quotas": RELAXED, **options})))


@asynccontextmanager
async def referee_service(redis_url: str, prefix: str):
    """The test's own service on the same keys: it reads the whole state only to pick legal
    commands for the random player, as a referee would; everything under test goes over HTTP."""
    redis = connect(redis_url)
    try:
        yield GameService(EventStore(redis, prefix=prefix, partitions=PARTITIONS))
    finally:
        await redis.aclose()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def new_game(
    client, seats: tuple[str, ...] | None = None, kind: str | None = None, options: dict | None = None
) -> tuple[str, str, list[str]]:
    """Create a game (of the default kind unless told; by default with as few human seats as the game
    allows) and claim its human seats: (game, admin token, seat tokens by seat)."""
    if seats is None:
        seats = ("human",) * min((games.get(kind) if kind else games.default()).players)
    body = {
        "seats": [{"type": s} for s in seats],
        **({"kind": kind} if kind else {}),
        **({"options": options} if options is not None else {}),
    }
    created = await client.post("/games", json=body)
    assert created.status_code == 201, created.text
    game = created.json()["game"]
    tokens = []
    for seat, kind in enumerate(seats):
        if kind == "human":
            claimed = await client.post(f"/games/{game}/seats/{seat}/claim")
            assert claimed.status_code == 201, claimed.text
            tokens.append(claimed.json()["token"])
    return game, created.json()["admin_token"], tokens


async def next_command(client, referee: GameService, game: str, rnd: random.Random) -> tuple[int, dict, int] | None:
    """(awaited seat, a random legal command for it, current version), or None once finished."""
    detail = (await client.get(f"/games/{game}")).json()
    if detail["finished"]:
        return None
    seat = detail["awaiting"]["seat"]
    _, state = await referee.state_at(game)
    return seat, wire(games.get(detail["kind"]).random_command(state, seat, rnd)), detail["version"]


def wire(command) -> dict:
    """A seat's command as a client sends it: without `seat` (the token says it)."""
    body = msgspec.to_builtins(command)
    body.pop("seat", None)
    return body


async def play(
    client, referee: GameService, game: str, tokens: list[str], seed: int = 1, max_commands: int | None = None
) -> int:
    """Play random legal commands over HTTP, each with its seat's token, until the end (or
    `max_commands`); every one must be accepted. Returns how many were played."""
    rnd, played = random.Random(seed), 0
    while max_commands is None or played < max_commands:
        step = await next_command(client, referee, game, rnd)
        if step is None:
            break
        seat, command, version = step
        answer = await client.post(
            f"/games/{game}/commands", json=command, headers=bearer(tokens[seat]), params={"expected_version": version}
        )
        assert answer.status_code == 201, answer.text
        played += 1
    return played


def sse_events(text: str) -> list[tuple[int, dict]]:
    """(id, decoded data) of each event in a Server-Sent Events body; comments are skipped."""
    out = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.split("\n") if line and not line.startswith(":"))
        if "data" in fields:
            out.append((int(fields["id"]), msgspec.json.decode(fields["data"])))
    return out


def assert_problem(response, status: int, code: str) -> dict:
    """The response is an RFC 9457 problem with this status and stable code; its body."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith(PROBLEM)
    body = response.json()
    assert body["code"] == code and body["status"] == status
    assert body["type"].endswith("/" + code) and body["title"] and body["detail"]
    return body


async def version_of(client, game: str) -> int:
    return (await client.get(f"/games/{game}")).json()["version"]


def archiver(redis, prefix: str, directory, *, finished_s: float = 0, abandoned_s: float = YEAR_S) -> Archiver:
    """An archiver of this test's games into `directory` (finished games at once, abandoned ones after a year)."""
    archive = Archive(directory)
    store = EventStore(redis, prefix=prefix, partitions=PARTITIONS, cold=archive)
    return Archiver(store, archive, finished_s=finished_s, abandoned_s=abandoned_s)


@contextmanager
def logged(name: str, level: int = logging.WARNING) -> Iterator[list[logging.LogRecord]]:
    """The records logger `name` logs meanwhile, caught by a handler on that logger itself: an app's
    logging config replaces the root logger's handlers (pytest's caplog among them) when it starts."""
    handler, logger = BufferingHandler(capacity=10_000), logging.getLogger(name)
    handler.setLevel(level)
    logger.addHandler(handler)
    try:
        yield handler.buffer
    finally:
        logger.removeHandler(handler)
