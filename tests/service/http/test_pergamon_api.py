"""Pergamon, the second game, over HTTP through the registry: whole games by choices, audit, export and
import, forks of ended and running games, and its bodies typed by its kind."""

from __future__ import annotations

import random
import re

from redis.asyncio import Redis

from service.audit.export import read_export
from service.audit.lineage import import_game
from service.store.streams import EventStore
from service.write import GameService

from ..api_helpers import PARTITIONS, api_client, assert_problem, bearer, new_game, play

DUMP = re.compile(r"\w+\(\w+=|\[\[|\{'")  # an object's repr, nested lists, a dict's repr

SECRET = {"vp_visibility": "secret", "variant_sorting": True}


async def play_by_choices(
    client, game: str, tokens: list[str], rnd: random.Random, max_commands: int | None = None
) -> int:
    """Follow random choices from the root to a command, send it, until the end (or `max_commands`)."""
    played = 0
    while max_commands is None or played < max_commands:
        detail = (await client.get(f"/games/{game}")).json()
        if detail["finished"]:
            break
        token = tokens[detail["awaiting"]["seat"]]
        listed = (await client.get(f"/games/{game}/options", headers=bearer(token))).json()
        assert listed["kind"] == "pergamon" and listed["decision"] == detail["awaiting"]["decision"], listed
        choice = rnd.choice(listed["choices"])
        while choice["command"] is None:
            listed = (
                await client.get(f"/games/{game}/options", params={"after": choice["next"]}, headers=bearer(token))
            ).json()
            choice = rnd.choice(listed["choices"])
        answer = await client.post(f"/games/{game}/commands", json=choice["command"], headers=bearer(token))
        assert answer.status_code == 201, answer.text
        played += 1
    return played


async def test_a_whole_pergamon_game_between_three_people_is_played_by_choices_and_audits_clean(client):
    game, _, tokens = await new_game(client, ("human",) * 3, kind="pergamon", options=SECRET)
    detail = (await client.get(f"/games/{game}")).json()
    assert detail["kind"] == "pergamon" and detail["options"] == {
        "players": 3,
        "edition": "house-1",
        "first_seat": "random",
        "variant_player_order": False,
        "variant_sorting": True,
        "vp_visibility": "secret",
    }

    played = await play_by_choices(client, game, tokens, random.Random(1))

    detail = (await client.get(f"/games/{game}")).json()
    assert detail["finished"] and played > 30 and detail["seed"]
    assert set(detail["outcome"]) == {"winners", "scores", "places"} and len(detail["outcome"]["scores"]) == 3
    score = (await client.get(f"/games/{game}/score")).json()
    assert score["kind"] == "pergamon" and [s["total"] for s in score["view"]["seats"]] == detail["outcome"]["scores"]
    view = (await client.get(f"/games/{game}/view", headers=bearer(tokens[2]))).json()
    assert view["view"]["finished"] and view["view"]["you"]["seat"] == 2
    audit = (await client.get(f"/games/{game}/audit")).json()
    assert audit["ok"] and audit["kind"] == "pergamon" and len(audit["story_events"]) == audit["events"], audit[
        "checks"
    ]
    assert audit["story_events"][-1]["scores"] == detail["outcome"]["scores"]
    lobby = (await client.get("/games", params={"status": "finished", "kind": "pergamon"})).json()["games"]
    assert [g["game"] for g in lobby] == [game]


async def test_while_vp_are_secret_no_seat_nor_spectator_sees_another_seats_vp(client, referee):
    game, admin, tokens = await new_game(client, ("human",) * 2, kind="pergamon", options={"vp_visibility": "secret"})
    for rounds in range(8):  # until every seat has VP (the deal is random), and well before the end (~75)
        _, state = await referee.state_at(game)
        if all(seat.vp for seat in state.seats):
            break
        await play(client, referee, game, tokens, seed=3 + rounds, max_commands=5)
    state_version, state = await referee.state_at(game)
    assert not state.finished and any(seat.vp for seat in state.seats), "no VP yet: the test would prove nothing"
    for who, token in ((None, None), (0, tokens[0]), (1, tokens[1]), (None, admin)):
        headers = bearer(token) if token else {}
        view = (await client.get(f"/games/{game}/view", headers=headers)).json()["view"]
        assert [s["vp"] for s in view["seats"]] == [None, None]
        assert (view.get("you") or {}).get("vp") == (state.seats[who].vp if who is not None else None)
        for params in ({"min_version": state_version}, {"at": state_version}):  # its own score only, now and in replay
            score = (await client.get(f"/games/{game}/score", headers=headers, params=params)).json()["view"]
            assert [s["total"] for s in score["seats"]] == [state.seats[i].vp if i == who else None for i in (0, 1)]
            assert score["secret"]
        events = (await client.get(f"/games/{game}/events", headers=headers)).json()["events"]
        for e in events:
            p = e["payload"]
            if p["type"] == "exhibited" and p["seat"] != who:
                assert p["vp"] is None
            if p["type"] == "markers_scored":
                assert all(v is None for i, v in enumerate(p["points"]) if i != who)
        story = (await client.get(f"/games/{game}/audit", headers=headers)).json()["story_events"]
        assert all(line["scores"] == [None, None] for line in story[1:])


async def test_pergamon_bodies_are_typed_by_the_games_kind(client):
    pantheon, _, pantheon_tokens = await new_game(client)
    game, _, tokens = await new_game(client, kind="pergamon")
    options = {"kind": "pergamon", "options": {"start_material": "bsw"}, "seats": [{"type": "human"}] * 2}
    assert_problem(await client.post("/games", json=options), 400, "malformed_request")
    assert_problem(
        await client.post("/games", json={"options": {"vp_visibility": "secret"}, "seats": [{"type": "human"}] * 2}),
        400,
        "malformed_request",
    )
    assert_problem(
        await client.post("/games", json={"kind": "chess", "seats": [{"type": "human"}] * 2}), 400, "malformed_request"
    )
    seat = (await client.get(f"/games/{game}")).json()["awaiting"]["seat"]
    assert_problem(
        await client.post(f"/games/{game}/commands", json={"type": "pass"}, headers=bearer(tokens[seat])),
        422,
        "wrong_kind",
    )
    assert_problem(
        await client.post(
            f"/games/{pantheon}/commands", json={"type": "excavate", "gallery": 1}, headers=bearer(pantheon_tokens[0])
        ),
        422,
        "wrong_kind",
    )
    assert_problem(
        await client.post(
            f"/games/{game}/commands", json={"type": "choose_funding_space", "space": "3"}, headers=bearer(tokens[seat])
        ),
        400,
        "malformed_request",
    )
    blocks = (await client.get(f"/games/{game}/options/blocks", headers=bearer(tokens[seat]))).json()
    assert blocks["kind"] == "pergamon" and blocks["options"]["decision"] == "choose_funding_space"
    space = blocks["options"]["spaces"][0]["space"]
    answer = await client.post(
        f"/games/{game}/commands", json={"type": "choose_funding_space", "space": space}, headers=bearer(tokens[seat])
    )
    assert answer.status_code == 201, answer.text


async def test_an_exported_pergamon_game_imports_elsewhere_and_audits_clean(redis_url, prefix):
    async with api_client(redis_url, prefix) as client:
        game, _, tokens = await new_game(client, kind="pergamon", options={"vp_visibility": "secret"})
        await play_by_choices(client, game, tokens, random.Random(4))
        exported = await client.get(f"/games/{game}/export")
        assert exported.status_code == 200
    header, envelopes = read_export(exported.content.splitlines())
    redis = Redis.from_url(redis_url)
    try:
        imported = await import_game(
            GameService(EventStore(redis, prefix=prefix + "-x", partitions=PARTITIONS)), header, envelopes
        )
    finally:
        await redis.aclose()
    async with api_client(redis_url, prefix + "-x") as elsewhere:
        assert imported == game and header.kind == "pergamon"
        audit = (await elsewhere.get(f"/games/{game}/audit")).json()
        assert audit["ok"] and audit["kind"] == "pergamon", audit["checks"]
        assert (await elsewhere.get(f"/games/{game}")).json()["outcome"]["scores"]


async def test_a_fork_of_an_ended_pergamon_game_copies_its_events_and_plays_on(client, referee):
    game, _, tokens = await new_game(client, kind="pergamon")
    await play(client, referee, game, tokens, seed=5, max_commands=30)
    at = (await client.get(f"/games/{game}")).json()["version"]  # where a command's events end
    await play(client, referee, game, tokens, seed=5)
    events = (await client.get(f"/games/{game}/events")).json()["events"]
    forked = await client.post(
        f"/games/{game}/fork", json={"at": at, "seats": [{"type": "human", "holder": "creator"}] * 2}
    )
    assert forked.status_code == 201, forked.text
    child, child_tokens = forked.json()["game"], [s["token"] for s in forked.json()["seats"]]
    copied = (await client.get(f"/games/{child}/events")).json()["events"]
    assert [e["payload"] for e in copied] == [e["payload"] for e in events[:at]]
    detail = (await client.get(f"/games/{child}")).json()
    assert detail["kind"] == "pergamon" and detail["lineage"]["redealt"] is False and detail["lineage"]["prefix_hash"]
    await play(client, referee, child, child_tokens, seed=6)
    audit = (await client.get(f"/games/{child}/audit")).json()
    assert audit["ok"], audit["checks"]


async def test_a_running_pergamon_game_forks_redealt_from_the_forkers_knowledge_and_stays_sealed(client, referee):
    game, _, tokens = await new_game(client, ("human",) * 3, kind="pergamon", options={"vp_visibility": "secret"})
    await play(client, referee, game, tokens, seed=7, max_commands=50)
    at = (await client.get(f"/games/{game}")).json()["version"]
    _, parent = await referee.state_at(game)
    assert sum(1 for seat in parent.seats if seat.vp) >= 2, "too few VP to tell a leak"
    forked = await client.post(
        f"/games/{game}/fork",
        headers=bearer(tokens[0]),
        json={"at": at, "seats": [{"type": "human", "holder": "creator"}] * 3},
    )
    assert forked.status_code == 201, forked.text
    child, child_tokens = forked.json()["game"], [s["token"] for s in forked.json()["seats"]]
    version, dealt = await referee.state_at(child)
    assert version == 1 and dealt.seats[0].vp == parent.seats[0].vp  # the forker's own VP it knew
    assert [s.vp for s in dealt.seats[1:]] == [0, 0]  # secret VP of others start at 0 (R26)
    assert [s.loose for s in dealt.seats] == [s.loose for s in parent.seats]  # public: kept
    for viewer, headers in ((0, bearer(child_tokens[0])), (1, bearer(child_tokens[1])), (None, {})):
        [forked_event] = (await client.get(f"/games/{child}/events", headers=headers)).json()["events"]
        assert forked_event["payload"]["type"] == "forked" and forked_event["payload"]["seat"] == 0
        assert [s["vp"] for s in forked_event["payload"]["state"]["seats"]] == [
            parent.seats[0].vp if viewer == 0 else 0,
            0,
            0,
        ]  # only the forker sees the VP it knew
    detail = (await client.get(f"/games/{child}")).json()
    assert detail["lineage"]["redealt"] is True and detail["lineage"]["prefix_hash"] is None

    await play(client, referee, child, child_tokens, seed=8)
    ended = (await client.get(f"/games/{child}")).json()
    assert ended["finished"] and ended["seed"] is None
    assert (await client.get(f"/games/{child}/export")).status_code == 409
    await play(client, referee, game, tokens, seed=9)
    assert (await client.get(f"/games/{child}")).json()["seed"]
    audit = (await client.get(f"/games/{child}/audit")).json()
    assert audit["ok"], audit["checks"]
    # the re-dealt state is told in words, not dumped (`PergamonState(options=...)`)
    assert audit["story_events"][0]["text"] == (
        "This game was forked from another one, as Player A saw it, with everything unseen dealt afresh."
    )
    assert [line["text"] for line in audit["story_events"] if DUMP.search(line["text"])] == []
