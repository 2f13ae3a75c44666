"""What each caller may see over HTTP: views, redacted event feeds and the Server-Sent Events stream."""

from __future__ import annotations

import asyncio
import uuid

import pytest

from service.store.connection import connect_sync

from ..api_helpers import (
    api_client,
    bearer,
    new_game,
    play,
    referee_service,
    sse_events,
)


async def _finished_game(redis_url: str, prefix: str) -> dict:
    async with api_client(redis_url, prefix) as client, referee_service(redis_url, prefix) as referee:
        game, admin, tokens = await new_game(client)
        await play(client, referee, game, tokens, seed=11)
        return {"game": game, "admin": admin, "tokens": tokens, "prefix": prefix}


@pytest.fixture(scope="module")
def finished(redis_url):
    """One 2-player game played to its end over HTTP, shared by the read-only tests below."""
    prefix = f"test-{uuid.uuid4().hex[:10]}"
    yield asyncio.run(_finished_game(redis_url, prefix))
    client = connect_sync(redis_url)
    keys = list(client.scan_iter(match=f"*{prefix}*", count=1000))
    if keys:
        client.delete(*keys)
    client.close()


@pytest.fixture
async def client(redis_url, finished):
    async with api_client(redis_url, finished["prefix"]) as client:
        yield client


async def feed(client, game: str, token: str | None = None, after: int = 0) -> list[dict]:
    answer = await client.get(f"/games/{game}/events", params={"after": after}, headers=bearer(token) if token else {})
    assert answer.status_code == 200, answer.text
    return answer.json()["events"]


def private_values(events: list[dict], seat: int | None) -> dict[str, list]:
    """What `events` show of each kind of private information, for seats other than `seat`."""
    out: dict[str, list] = {"cards": [], "half_gods": [], "hands": []}
    for e in events:
        p = e["payload"]
        if e["type"] == "cards_drawn" and p["seat"] != seat:
            out["cards"] += p["cards"]
        if e["type"] == "half_god_taken" and p["source"] == "stack" and p["seat"] != seat and p["value"]:
            out["half_gods"].append(p["value"])  # redacted to 0
        if e["type"] == "hands_reshuffled":
            out["hands"] += [h for i, h in enumerate(p["hands"]) if i != seat and h]
    return out


async def test_spectators_see_no_drawn_cards_no_hands_and_no_half_god_values_in_events(client, finished):
    events = await feed(client, finished["game"])
    admin_events = await feed(client, finished["game"], finished["admin"])

    assert any(e["type"] == "cards_drawn" and e["payload"]["count"] for e in events)
    assert private_values(events, None) == {"cards": [], "half_gods": [], "hands": []}
    assert admin_events == events


async def test_a_seats_event_feed_shows_its_own_secrets_and_no_other_seats(client, finished):
    game, tokens = finished["game"], finished["tokens"]
    for seat in (0, 1):
        events = await feed(client, game, tokens[seat])
        own = [e for e in events if e["type"] == "cards_drawn" and e["payload"]["seat"] == seat]

        assert own and all(len(e["payload"]["cards"]) == e["payload"]["count"] for e in own)
        assert private_values(events, seat) == {"cards": [], "half_gods": [], "hands": []}


async def test_a_spectator_view_during_the_game_holds_no_hands_and_no_half_god_values(client, finished):
    game = finished["game"]
    for at in (20, 150, 300):
        view = (await client.get(f"/games/{game}/view", params={"at": at})).json()

        assert view["version"] == at and view["seat"] is None
        assert "you" not in view["view"] and "half_god_values" not in view["view"]
        assert all(set(s) >= {"hand_size", "half_gods"} and "hand" not in s for s in view["view"]["seats"])
        assert all(isinstance(s["half_gods"], int) for s in view["view"]["seats"])


async def test_a_seat_view_is_the_public_view_plus_that_seats_own_hand(client, finished):
    game, tokens = finished["game"], finished["tokens"]
    public = (await client.get(f"/games/{game}/view", params={"at": 100})).json()["view"]
    mine = (await client.get(f"/games/{game}/view", params={"at": 100}, headers=bearer(tokens[1]))).json()

    you = mine["view"].pop("you")
    assert mine["seat"] == 1 and mine["view"] == public
    assert you["seat"] == 1 and sum(you["hand"].values()) == public["seats"][1]["hand_size"]


async def test_a_finished_games_view_reveals_half_god_values_and_the_hash_chain(client, finished):
    game = finished["game"]
    view = (await client.get(f"/games/{game}/view")).json()
    events = await feed(client, game)

    assert view["view"]["finished"] and len(view["view"]["half_god_values"]) == 2
    assert all(len(e["hash"]) == 64 for e in events)


async def test_hashes_are_hidden_while_a_game_is_in_progress(redis_url, prefix):
    # A hash covers the unredacted event: with it, a hidden draw could be found by trying them all.
    async with api_client(redis_url, prefix) as client:
        game, _, tokens = await new_game(client)
        for token in (None, tokens[0]):
            events = await feed(client, game, token)
            assert events and all(e["hash"] is None for e in events)


async def test_events_after_a_version_are_the_rest_of_the_feed(client, finished):
    game = finished["game"]
    everything = await feed(client, game)

    assert await feed(client, game, after=100) == everything[100:]
    assert await feed(client, game, after=len(everything)) == []


async def test_the_stream_sends_every_event_with_its_version_as_id_and_ends_when_the_game_has(client, finished):
    game, token = finished["game"], finished["tokens"][0]
    answer = await client.get(f"/games/{game}/stream", headers=bearer(token))

    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/event-stream")
    streamed, events = sse_events(answer.text), await feed(client, game, token)
    assert [i for i, _ in streamed] == [e["version"] for e in events] == list(range(1, len(events) + 1))
    assert [data for _, data in streamed] == events


async def test_the_stream_resumes_after_last_event_id(client, finished):
    game = finished["game"]
    everything = await feed(client, game)

    resumed = await client.get(f"/games/{game}/stream", headers={"Last-Event-ID": "250"})
    by_query = await client.get(f"/games/{game}/stream", params={"after": 250})

    assert [i for i, _ in sse_events(resumed.text)] == list(range(251, len(everything) + 1))
    assert sse_events(by_query.text) == sse_events(resumed.text)


async def test_the_stream_delivers_events_as_they_are_appended_until_the_game_ends(redis_url, prefix):
    async with api_client(redis_url, prefix) as client, referee_service(redis_url, prefix) as referee:
        game, _, tokens = await new_game(client)
        start = (await client.get(f"/games/{game}")).json()["version"]

        streamed, _ = await asyncio.gather(
            client.get(f"/games/{game}/stream", params={"after": start}), play(client, referee, game, tokens, seed=5)
        )

        final = (await client.get(f"/games/{game}")).json()["version"]
        assert [i for i, _ in sse_events(streamed.text)] == list(range(start + 1, final + 1))
