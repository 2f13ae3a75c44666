"""Conditional GETs: ETags built from everything an answer depends on, 304 Not Modified, and the
Cache-Control and Vary that keep one seat's answers from another."""

from __future__ import annotations

import pytest

from ..api_helpers import bearer, new_game, play

LIVE_READS = ("", "/view", "/score", "/events", "/options", "/options/blocks")


async def _get(client, url: str, token: str | None = None, tag: str | None = None, method: str = "GET", **params):
    headers = {**(bearer(token) if token else {}), **({"If-None-Match": tag} if tag else {})}
    return await client.request(method, url, headers=headers, params=params or None)


async def _tags(client, game: str, token: str) -> dict[str, str]:
    tags = {}
    for read in LIVE_READS:
        answer = await _get(client, f"/games/{game}{read}", token)
        assert answer.status_code == 200, (read, answer.text)
        tags[read] = answer.headers["etag"]
    return tags


async def _move(client, game: str, tokens: list[str]) -> None:
    seat = (await client.get(f"/games/{game}")).json()["awaiting"]["seat"]
    choices = (await _get(client, f"/games/{game}/options", tokens[seat])).json()["choices"]
    command = next(c["command"] for c in choices if c.get("command"))
    assert (await client.post(f"/games/{game}/commands", json=command, headers=bearer(tokens[seat]))).status_code == 201


async def test_a_repeated_read_is_304_without_a_body_and_head_agrees(client):
    game, _, tokens = await new_game(client)
    for read in LIVE_READS:
        url = f"/games/{game}{read}"
        first = await _get(client, url, tokens[0])
        again = await _get(client, url, tokens[0], first.headers["etag"])
        head = await _get(client, url, tokens[0], method="HEAD")
        head_again = await _get(client, url, tokens[0], first.headers["etag"], method="HEAD")

        assert first.status_code == 200 and first.headers["etag"].startswith('"'), read  # strong
        assert again.status_code == 304 and again.content == b"", read
        assert again.headers["etag"] == first.headers["etag"] and "x-request-id" in again.headers
        assert again.headers["cache-control"] == first.headers["cache-control"]
        assert head.status_code == 200 and head.headers["etag"] == first.headers["etag"], read
        assert head_again.status_code == 304, read
        weak_and_listed = await _get(client, url, tokens[0], f'"other", W/{first.headers["etag"]}')
        assert weak_and_listed.status_code == 304, read


async def test_a_move_gives_every_live_read_a_new_tag(client):
    game, _, tokens = await new_game(client)
    before = await _tags(client, game, tokens[0])
    await _move(client, game, tokens)
    after = await _tags(client, game, tokens[0])

    for read in LIVE_READS:
        assert before[read] != after[read], read
        assert (await _get(client, f"/games/{game}{read}", tokens[0], before[read])).status_code == 200, read


async def test_a_claim_changes_no_version_but_the_games_tag(client):
    made = (await client.post("/games", json={"seats": [{"type": "human"}, {"type": "human"}]})).json()
    game = made["game"]
    first = await client.get(f"/games/{game}")
    claimed = await client.post(f"/games/{game}/seats/1/claim")
    second = await client.get(f"/games/{game}", headers={"If-None-Match": first.headers["etag"]})

    assert claimed.status_code == 201
    assert second.status_code == 200 and second.json()["version"] == first.json()["version"]
    assert second.json()["open_seats"] == [0] and second.headers["etag"] != first.headers["etag"]


async def test_handing_a_seat_to_the_ai_taking_it_back_and_a_reissue_each_change_the_games_tag(client):
    game, admin, _ = await new_game(client)
    tags = [(await client.get(f"/games/{game}")).headers["etag"]]
    for step in (
        lambda: client.post(f"/games/{game}/seats/1/ai", json={"level": "random"}, headers=bearer(admin)),
        lambda: client.delete(f"/games/{game}/seats/1/ai", headers=bearer(admin)),
        lambda: client.post(f"/games/{game}/seats/1/token", headers=bearer(admin)),
    ):
        assert (await step()).status_code in (200, 201)
        tags.append((await client.get(f"/games/{game}")).headers["etag"])
    assert len(set(tags)) == len(tags)


async def test_a_seats_tag_never_answers_304_for_another_seat_or_a_spectator(client):
    game, _, tokens = await new_game(client)
    for read in ("/view", "/events", "/options", "/options/blocks"):
        url = f"/games/{game}{read}"
        mine = await _get(client, url, tokens[0])
        theirs = await _get(client, url, tokens[1], mine.headers["etag"])

        assert theirs.status_code == 200 and theirs.headers["etag"] != mine.headers["etag"], read
        assert mine.headers["cache-control"] == "private, no-cache", read
        assert "authorization" in mine.headers["vary"].lower(), read
        if read in ("/view", "/events"):
            public = await _get(client, url, None, mine.headers["etag"])
            assert public.status_code == 200 and public.headers["etag"] != mine.headers["etag"], read


async def test_answers_that_do_not_depend_on_the_token_are_public(client):
    game, _, tokens = await new_game(client)
    answer = await _get(client, f"/games/{game}", tokens[0])
    assert answer.headers["cache-control"] == "no-cache" and "authorization" not in answer.headers.get("vary", "")
    assert (await _get(client, f"/games/{game}", None, answer.headers["etag"])).status_code == 304
    # a score depends on the token (a seat sees its own secret score): never the public's answer
    score = await _get(client, f"/games/{game}/score", tokens[0])
    assert "authorization" in score.headers["vary"].lower() and score.headers["cache-control"].startswith("private")
    assert (await _get(client, f"/games/{game}/score", None, score.headers["etag"])).status_code == 200


async def test_replays_and_a_finished_games_events_and_export_are_immutable(client, referee):
    game, _, tokens = await new_game(client)
    await play(client, referee, game, tokens, max_commands=3)
    running = await _get(client, f"/games/{game}/events")
    at = await _get(client, f"/games/{game}/view", tokens[0], at=2)
    score_at = await _get(client, f"/games/{game}/score", at=2)
    assert "immutable" not in running.headers["cache-control"]
    assert at.headers["cache-control"] == "private, max-age=31536000, immutable" and at.json()["version"] == 2
    assert score_at.headers["cache-control"] == "private, max-age=31536000, immutable"
    await play(client, referee, game, tokens)

    at_later = await _get(client, f"/games/{game}/view", tokens[0], at.headers["etag"], at=2)
    events = await _get(client, f"/games/{game}/events", tokens[0])
    export = await _get(client, f"/games/{game}/export")
    assert at_later.status_code == 304
    assert events.headers["cache-control"] == "private, max-age=31536000, immutable"
    assert export.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert (await _get(client, f"/games/{game}/export", None, export.headers["etag"])).status_code == 304
    assert (await _get(client, f"/games/{game}/view", tokens[0], at=10**6)).status_code == 404


async def test_a_forks_reads_get_new_tags_when_the_game_it_was_dealt_from_ends(client, referee):
    game, _, tokens = await new_game(client)
    await play(client, referee, game, tokens, seed=5, max_commands=6)
    at = (await client.get(f"/games/{game}")).json()["version"]
    forked = await client.post(
        f"/games/{game}/fork", headers=bearer(tokens[0]), json={"at": at, "seats": [{"type": "human"}] * 2}
    )
    fork, fork_tokens = forked.json()["game"], [s["token"] for s in forked.json()["seats"]]
    await play(client, referee, fork, fork_tokens, seed=6)  # the fork ends first: its secrets stay sealed
    before = {read: await _get(client, f"/games/{fork}{read}") for read in ("", "/events")}
    assert (
        before["/events"].json()["events"][-1]["hash"] is None
        and "immutable" not in before["/events"].headers["cache-control"]
    )
    await play(client, referee, game, tokens, seed=5)  # the parent ends: the fork's hashes and lineage show

    for read, answer in before.items():
        again = await _get(client, f"/games/{fork}{read}", None, answer.headers["etag"])
        assert again.status_code == 200 and again.headers["etag"] != answer.headers["etag"], read
    events = await _get(client, f"/games/{fork}/events")
    assert events.json()["events"][-1]["hash"] and "immutable" in events.headers["cache-control"]
    assert (await client.get(f"/games/{fork}")).json()["lineage"]["prefix_hash"]


@pytest.mark.parametrize("read", ["/view", "/score"])
async def test_a_view_is_tagged_with_the_version_it_shows(client, read):
    game, _, tokens = await new_game(client)
    first = await _get(client, f"/games/{game}{read}", tokens[0])
    replay = await _get(client, f"/games/{game}{read}", tokens[0], at=first.json()["version"])
    # the same version by two routes is the same representation; the live one is asked for again
    assert replay.headers["etag"] == first.headers["etag"]
    assert "immutable" not in first.headers["cache-control"]


async def test_metadata_changes_count_a_revision_and_refusals_do_not(client, referee):
    game, admin, _ = await new_game(client)

    async def rev() -> int:
        return int(await referee.store.redis.hget(referee.store.keys(game).meta, "rev") or 0)

    start = await rev()
    assert (await client.post(f"/games/{game}/seats/0/claim")).status_code == 409  # taken: nothing changes
    assert await rev() == start
    await client.post(f"/games/{game}/seats/1/ai", json={"level": "random"}, headers=bearer(admin))
    await client.delete(f"/games/{game}/seats/1/ai", headers=bearer(admin))
    assert (await client.delete(f"/games/{game}/seats/1/ai", headers=bearer(admin))).status_code == 409
    assert await rev() == start + 2
    version = (await client.get(f"/games/{game}")).json()["version"]
    await client.post(f"/games/{game}/seats/0/token", headers=bearer(admin))  # an event: the version moves instead
    assert await rev() == start + 2 and (await client.get(f"/games/{game}")).json()["version"] == version + 1


async def test_a_view_from_a_lagging_read_model_is_tagged_with_the_version_it_shows(client, referee):
    from service.read.models import PROJECTIONS, fold_with_hash, write_views

    game, _, tokens = await new_game(client)
    await play(client, referee, game, tokens, max_commands=4)
    head = (await client.get(f"/games/{game}")).json()["version"]
    store, board = referee.store, [p for p in PROJECTIONS["pantheon"] if p.name == "board"]
    lagging, last = await fold_with_hash(store, game, board, "pantheon", until=head - 2)
    await write_views(store, game, lagging, last_hash=last)  # the projector is two events behind

    behind = await _get(client, f"/games/{game}/view", tokens[0])
    replay = await _get(client, f"/games/{game}/view", tokens[0], at=head - 2)
    assert behind.json()["version"] == head - 2 and behind.headers["etag"] == replay.headers["etag"]
    assert (await _get(client, f"/games/{game}/view", tokens[0], behind.headers["etag"])).status_code == 304
    current, last = await fold_with_hash(store, game, board, "pantheon")
    await write_views(store, game, current, last_hash=last)  # caught up

    caught_up = await _get(client, f"/games/{game}/view", tokens[0], behind.headers["etag"])
    assert caught_up.status_code == 200 and caught_up.json()["version"] == head
    assert caught_up.headers["etag"] != behind.headers["etag"]


async def test_the_lobby_is_tagged_by_what_it_says(client):
    made = (await client.post("/games", json={"seats": [{"type": "human"}] * 2})).json()
    first = await client.get("/games")
    again = await client.get("/games", headers={"If-None-Match": first.headers["etag"]})
    await client.post(f"/games/{made['game']}/seats/0/claim")  # its open seats change
    claimed = await client.get("/games", headers={"If-None-Match": first.headers["etag"]})
    other_filter = await client.get(
        "/games", params={"status": "finished"}, headers={"If-None-Match": first.headers["etag"]}
    )

    assert first.headers["cache-control"] == "no-cache"
    assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == first.headers["etag"]
    assert claimed.status_code == 200 and claimed.headers["etag"] != first.headers["etag"]
    assert other_filter.status_code == 200


async def test_a_compressed_answers_tag_names_its_coding_and_any_coding_revalidates(client):
    game, _, _ = await new_game(client)
    url = f"/games/{game}/events"
    plain = await client.get(url, headers={"Accept-Encoding": "identity"})
    as_br = await client.get(url, headers={"Accept-Encoding": "br"})
    as_gzip = await client.get(url, headers={"Accept-Encoding": "gzip"})
    head = await client.head(url, headers={"Accept-Encoding": "br"})
    again = await client.get(url, headers={"Accept-Encoding": "identity", "If-None-Match": as_br.headers["etag"]})

    assert as_br.headers["content-encoding"] == "br" and "content-encoding" not in plain.headers
    assert as_br.headers["etag"] == plain.headers["etag"][:-1] + '-br"' == head.headers["etag"]
    assert as_gzip.headers["etag"] == plain.headers["etag"][:-1] + '-gzip"'
    assert again.status_code == 304 and again.headers["etag"] == as_br.headers["etag"]
