"""Event streams, views and cached states after a failover lost events a client had already been
sent: the log's tail is lost as a failover leaves it and other events are appended at those
versions; no stream goes on on top of a lost event, and every answer is the fold of the log."""

from __future__ import annotations

import asyncio

import msgspec

from service.read.models import view_at

from ..api_helpers import api_client, bearer, new_game, play, referee_service, sse_events
from ..failover_helpers import append_other, lose_tail


def frames(text: str) -> list[dict[str, str]]:
    """Each frame of a Server-Sent Events body as its fields (comments skipped)."""
    out = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.split("\n") if line and not line.startswith(":"))
        if fields:
            out.append(fields)
    return out


async def streamed_then_lost(client, referee, commands_lost: int, commands_after: int):
    """A game played over HTTP with a stream open at its head, then its last appends lost and
    others appended: (game, token, the stream's body, the version kept, the lost envelopes)."""
    game, _, tokens = await new_game(client)
    await play(client, referee, game, tokens, seed=3, max_commands=12)
    stream = asyncio.create_task(client.get(f"/games/{game}/stream", headers=bearer(tokens[0])))
    await asyncio.sleep(0.5)  # it has sent every event and waits on the fan-out
    assert not stream.done()
    lost = await lose_tail(referee.store, game, commands_lost)
    await append_other(referee, game, lost, commands_after)
    answer = await asyncio.wait_for(stream, 10)  # no stream waits on a lost event
    return game, tokens[0], answer.text, lost[0].version - 1, lost


async def test_a_stream_that_sent_lost_events_ends_with_a_reset_to_the_version_the_log_still_holds(redis_url, prefix):
    for commands_after in (1, 6):  # the log ends before the lost events, then goes past them
        async with api_client(redis_url, prefix) as client, referee_service(redis_url, prefix) as referee:
            game, token, text, kept, lost = await streamed_then_lost(client, referee, 3, commands_after)
            *events, last = frames(text)
            assert last == {"event": "reset", "id": str(kept), "data": f'{{"version":{kept}}}'}
            assert [int(f["id"]) for f in events] == list(range(1, lost[-1].version + 1))  # nothing on top
            events_now = (
                await client.get(f"/games/{game}/events", params={"after": kept}, headers=bearer(token))
            ).json()["events"]
            assert events_now and events_now[0]["version"] == kept + 1


async def test_a_stream_resumed_after_a_version_the_log_does_not_have_is_told_to_reset(client, referee):
    game, _, tokens = await new_game(client)
    head = (await client.get(f"/games/{game}")).json()["version"]
    answer = await asyncio.wait_for(
        client.get(f"/games/{game}/stream", headers={**bearer(tokens[0]), "Last-Event-ID": str(head + 5)}), 10
    )
    assert frames(answer.text) == [{"event": "reset", "id": "0", "data": '{"version":0}'}]
    assert sse_events(answer.text) == [(0, {"version": 0})]


async def test_views_and_the_games_state_after_a_lost_event_are_those_of_the_log(client, referee):
    game, _, tokens = await new_game(client)
    await play(client, referee, game, tokens, seed=4, max_commands=10)
    lost = await lose_tail(referee.store, game, 2)
    head = await append_other(referee, game, lost, 1)
    status = (await client.get(f"/games/{game}")).json()
    assert status["version"] == head
    _, body = await view_at(referee.store, game, "board", 0)
    view = (await client.get(f"/games/{game}/view", headers=bearer(tokens[0]))).json()
    assert (view["version"], view["view"]) == (head, msgspec.json.decode(body))


async def test_an_answer_cached_while_a_lost_event_held_its_version_is_not_confirmed_with_a_304(client, referee):
    for seed in range(20):  # until the other command makes as many events as the lost one
        game, _, tokens = await new_game(client)
        await play(client, referee, game, tokens, seed=seed, max_commands=8)
        reads = {
            path: await client.get(path, headers=bearer(tokens[0]))
            for path in (f"/games/{game}", f"/games/{game}/view", f"/games/{game}/events")
        }
        version = reads[f"/games/{game}"].json()["version"]
        lost = await lose_tail(referee.store, game, 1)
        if await append_other(referee, game, lost, 1) == version:
            break
    else:
        raise AssertionError("no game came back to the same version")
    for path, before in reads.items():
        assert before.status_code == 200 and before.headers["etag"], path
        again = await client.get(path, headers={**bearer(tokens[0]), "If-None-Match": before.headers["etag"]})
        assert again.status_code == 200 and again.headers["etag"] != before.headers["etag"], path
