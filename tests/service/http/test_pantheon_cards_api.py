"""Pantheon, the card game (the third game), over HTTP through the registry: a whole short game of
three people by choices (read models, replay, audit, lobby), export and import, a fork of a
running game re-dealt from the forker's knowledge, and its bodies typed by its kind (3 to 6 seats)."""

from __future__ import annotations

import random

import msgspec
from redis.asyncio import Redis

from domain import games
from service.audit.export import read_export
from service.audit.lineage import import_game
from service.store.streams import EventStore
from service.write import GameService

from ..api_helpers import PARTITIONS, api_client, assert_problem, bearer, new_game, play

KIND, SHORT = "pantheon_cards", {"game_length": "short"}
CARDS = games.get(KIND).decider


async def play_by_choices(client, game: str, tokens: list[str], rnd: random.Random) -> int:
    """Follow random choices from the root to a command, send it, until the end."""
    played = 0
    while not (detail := (await client.get(f"/games/{game}")).json())["finished"]:
        token = tokens[detail["awaiting"]["seat"]]
        listed = (await client.get(f"/games/{game}/options", headers=bearer(token))).json()
        assert listed["kind"] == KIND and listed["decision"] == detail["awaiting"]["decision"], listed
        choice = rnd.choice(listed["choices"])
        while choice["command"] is None:
            listed = (
                await client.get(f"/games/{game}/options", params={"after": choice["next"]}, headers=bearer(token))
            ).json()
            choice = rnd.choice(listed["choices"])
        assert choice["label"], choice
        answer = await client.post(f"/games/{game}/commands", json=choice["command"], headers=bearer(token))
        assert answer.status_code == 201, answer.text
        played += 1
    return played


async def test_a_whole_short_card_game_of_three_people_is_played_by_choices_replayed_and_audited(client, referee):
    game, _, tokens = await new_game(client, ("human",) * 3, kind=KIND, options=SHORT)
    detail = (await client.get(f"/games/{game}")).json()
    assert detail["kind"] == KIND and detail["options"] == {"players": 3, "game_length": "short", "edition": "house-1"}

    played = await play_by_choices(client, game, tokens, random.Random(1))

    detail = (await client.get(f"/games/{game}")).json()
    assert detail["finished"] and played > 30 and detail["seed"]
    assert set(detail["outcome"]) == {"winners", "scores", "draw", "reason"} and len(detail["outcome"]["scores"]) == 3
    score = (await client.get(f"/games/{game}/score", params={"min_version": detail["version"]})).json()
    assert score["kind"] == KIND and [s["total"] for s in score["view"]["seats"]] == detail["outcome"]["scores"]
    assert score["view"]["winners"] == detail["outcome"]["winners"] and score["view"]["finished"]
    view = (await client.get(f"/games/{game}/view", headers=bearer(tokens[2]))).json()
    assert view["view"]["finished"] and view["view"]["you"]["seat"] == 2
    version, state = await referee.state_at(game)
    assert version == detail["version"] and state.finished and state.winners == detail["outcome"]["winners"]
    middle = version // 2  # replay: the board and the score as they were, as the engine folds the log to there
    _, before = await referee.state_at(game, middle)
    public = (await client.get(f"/games/{game}/view", params={"at": middle})).json()
    mine = (await client.get(f"/games/{game}/view", params={"at": middle}, headers=bearer(tokens[1]))).json()
    assert public["version"] == mine["version"] == middle
    assert public["view"] == msgspec.to_builtins(CARDS.public_view(before))
    assert mine["view"] == msgspec.to_builtins(CARDS.seat_view(before, 1))
    old = (await client.get(f"/games/{game}/score", params={"at": middle})).json()["view"]
    assert [s["total"] for s in old["seats"]] == [s["score"] for s in public["view"]["seats"]]
    audit = (await client.get(f"/games/{game}/audit")).json()
    assert audit["ok"] and audit["kind"] == KIND and len(audit["story"]) == audit["events"], audit["checks"]
    lobby = (await client.get("/games", params={"status": "finished", "kind": KIND})).json()["games"]
    assert [g["game"] for g in lobby] == [game]
    events = (await client.get(f"/games/{game}/events")).json()["events"]
    assert len(events) == version and events[0]["payload"]["type"] == "game_created"


async def test_an_exported_card_game_imports_elsewhere_and_audits_clean(redis_url, prefix):
    async with api_client(redis_url, prefix) as client:
        game, _, tokens = await new_game(client, ("human",) * 4, kind=KIND, options=SHORT)
        await play_by_choices(client, game, tokens, random.Random(4))
        exported = await client.get(f"/games/{game}/export")
        assert exported.status_code == 200
        outcome = (await client.get(f"/games/{game}")).json()["outcome"]
    header, envelopes = read_export(exported.content.splitlines())
    redis = Redis.from_url(redis_url)
    try:
        imported = await import_game(
            GameService(EventStore(redis, prefix=prefix + "-x", partitions=PARTITIONS)), header, envelopes
        )
    finally:
        await redis.aclose()
    async with api_client(redis_url, prefix + "-x") as elsewhere:
        assert imported == game and header.kind == KIND
        audit = (await elsewhere.get(f"/games/{game}/audit")).json()
        assert audit["ok"] and audit["kind"] == KIND, audit["checks"]
        assert (await elsewhere.get(f"/games/{game}")).json()["outcome"] == outcome


async def test_a_running_card_game_forks_redealt_from_the_forkers_knowledge_and_stays_sealed(client, referee):
    game, _, tokens = await new_game(client, ("human",) * 3, kind=KIND, options=SHORT)
    # the deal is the server's: play on until every seat holds a hidden card (a moment to re-deal)
    await play(client, referee, game, tokens, seed=7, max_commands=30)
    for step in range(200):
        _, parent = await referee.state_at(game)
        if parent.finished or all(parent.hands):
            break
        await play(client, referee, game, tokens, seed=100 + step, max_commands=1)
    at = (await client.get(f"/games/{game}")).json()["version"]
    assert not parent.finished and all(parent.hands), "no hands to re-deal: the test would prove nothing"
    wrong = await client.post(
        f"/games/{game}/fork", headers=bearer(tokens[0]), json={"at": at, "seats": [{"type": "human"}] * 2}
    )
    assert_problem(wrong, 422, "wrong_seat_count")
    forked = await client.post(
        f"/games/{game}/fork",
        headers=bearer(tokens[0]),
        json={"at": at, "seats": [{"type": "human", "holder": "creator"}] * 3},
    )
    assert forked.status_code == 201, forked.text
    child, child_tokens = forked.json()["game"], [s["token"] for s in forked.json()["seats"]]
    version, dealt = await referee.state_at(child)
    assert version == 1 and dealt.hands[0] == parent.hands[0]  # the forker's own hand, which it knew
    assert [len(h) for h in dealt.hands] == [len(h) for h in parent.hands] and dealt.deck == parent.deck
    assert dealt.columns == parent.columns and dealt.general == parent.general  # public: kept

    def pool(state) -> list[str]:  # what the forker could not see: the others' hands and the unseen cards
        return sorted([*state.hands[1], *state.hands[2], *state.unseen])

    assert pool(dealt) == pool(parent)
    for viewer, headers in ((0, bearer(child_tokens[0])), (1, bearer(child_tokens[1])), (None, {})):
        [forked_event] = (await client.get(f"/games/{child}/events", headers=headers)).json()["events"]
        hands = forked_event["payload"]["state"]["hands"]
        assert forked_event["payload"]["type"] == "forked" and forked_event["payload"]["seat"] == 0
        assert [bool(h) for h in hands] == [s == viewer for s in range(3)]  # each sees its own hand only
    detail = (await client.get(f"/games/{child}")).json()
    assert detail["kind"] == KIND and detail["lineage"]["redealt"] is True and detail["lineage"]["prefix_hash"] is None

    await play(client, referee, child, child_tokens, seed=8)
    ended = (await client.get(f"/games/{child}")).json()
    assert ended["finished"] and ended["seed"] is None  # sealed while its parent runs
    assert (await client.get(f"/games/{child}/export")).status_code == 409
    await play(client, referee, game, tokens, seed=9)
    assert (await client.get(f"/games/{child}")).json()["seed"]
    audit = (await client.get(f"/games/{child}/audit")).json()
    assert audit["ok"], audit["checks"]


async def test_card_game_bodies_are_typed_by_its_kind_and_its_seat_counts(client):
    for count in (2, 7):
        body = {"kind": KIND, "seats": [{"type": "human"}] * count}
        problem = assert_problem(await client.post("/games", json=body), 400, "malformed_request")
        assert "seats" in problem["detail"]
    six = await client.post("/games", json={"kind": KIND, "seats": [{"type": "human"}] * 6, "options": SHORT})
    assert six.status_code == 201, six.text
    assert (await client.get(f"/games/{six.json()['game']}")).json()["players"] == 6
    five = {"seats": [{"type": "human"}] * 5}  # the default game still allows 2 to 4
    assert_problem(await client.post("/games", json=five), 400, "malformed_request")
    body = {"kind": KIND, "seats": [{"type": "human"}] * 3, "options": {"game_length": "tiny"}}
    assert_problem(await client.post("/games", json=body), 400, "malformed_request")
    game, _, tokens = await new_game(client, kind=KIND, options=SHORT)
    seat = (await client.get(f"/games/{game}")).json()["awaiting"]["seat"]
    assert_problem(
        await client.post(f"/games/{game}/commands", json={"type": "buy"}, headers=bearer(tokens[seat])),
        422,
        "wrong_kind",
    )
    assert_problem(
        await client.post(f"/games/{game}/commands", json={"type": "play_card"}, headers=bearer(tokens[seat])),
        400,
        "malformed_request",
    )
    # both games have a `draw_card`: the board game's (a `slot`) is another game's command, and the detail
    # says what does not fit this game; one with a field neither game has is a malformed command
    pantheons = {"type": "draw_card", "slot": 1}
    problem = assert_problem(
        await client.post(f"/games/{game}/commands", json=pantheons, headers=bearer(tokens[seat])), 422, "wrong_kind"
    )
    assert "slot" in problem["detail"], problem
    neither = {"type": "draw_card", "colour": "red"}
    assert_problem(
        await client.post(f"/games/{game}/commands", json=neither, headers=bearer(tokens[seat])),
        400,
        "malformed_request",
    )
