"""Fork, audit, export and refused commands over HTTP."""

import re

from service.cli.audit import audit_file

from ..api_helpers import api_client, bearer, new_game, play, referee_service


async def test_a_game_played_over_http_audits_clean_exports_and_lists_its_refused_commands(redis_url, prefix, tmp_path):
    async with api_client(redis_url, prefix) as client, referee_service(redis_url, prefix) as referee:
        game, admin, tokens = await new_game(client)
        awaiting = (await client.get(f"/games/{game}")).json()["awaiting"]
        other = 1 - awaiting["seat"]
        refused = await client.post(f"/games/{game}/commands", json={"type": "pass"}, headers=bearer(tokens[other]))
        assert refused.status_code == 422
        spectator = (await client.get(f"/games/{game}/rejected")).json()  # before the end: no command, no message
        assert [(r["seat"], r["code"], r["command"], r["message"]) for r in spectator] == [
            (other, "not_your_turn", None, None)
        ]
        assert (await client.get(f"/games/{game}/export")).status_code == 409
        running = (await client.get(f"/games/{game}/audit")).json()
        assert running["first_failure"] is None and {c["name"]: c["ok"] for c in running["checks"]}["hash_chain"]
        with_admin = (await client.get(f"/games/{game}/rejected", headers=bearer(admin))).json()
        assert [(r["seat"], r["code"]) for r in with_admin] == [(other, "not_your_turn")]

        await play(client, referee, game, tokens, seed=11)
        report = (await client.get(f"/games/{game}/audit")).json()
        assert report["ok"] and report["first_failure"] is None and len(report["story_events"]) == report["events"]
        exported = await client.get(f"/games/{game}/export")
        assert exported.status_code == 200 and exported.headers["content-type"].startswith("application/octet-stream")
        assert exported.headers["content-disposition"] == f'attachment; filename="{game}.ndjson"'
        (tmp_path / "game.jsonl").write_bytes(exported.content)
        assert audit_file(str(tmp_path / "game.jsonl")).ok
        [public] = (await client.get(f"/games/{game}/rejected")).json()
        assert public["command"] == {"type": "pass", "seat": other} and public["message"]


DUMP = re.compile(r"\w+\(\w+=|\[\[|\{'")  # `State(options=...`, nested lists, a dict's repr


async def test_a_running_games_audit_tells_each_event_in_a_spectators_words_and_leaves_the_end_checks_pending(
    redis_url, prefix
):
    async with api_client(redis_url, prefix) as client, referee_service(redis_url, prefix) as referee:
        game, _, tokens = await new_game(client)
        await play(client, referee, game, tokens, seed=5, max_commands=15)
        report = (await client.get(f"/games/{game}/audit")).json()
        events = (await client.get(f"/games/{game}/events")).json()["events"]

    told = [(line["version"], line["seat"], line["text"]) for line in report["story_events"]]
    assert told == [(e["version"], e["seat"], e["text"]) for e in events] and len(told) == report["events"] > 15
    assert [line["text"] for line in report["story_events"] if DUMP.search(line["text"])] == []
    assert all(line.startswith(f"v{e['version']} ") and e["text"] in line for line, e in zip(report["story"], events))
    assert report["story_events"][0]["command"] == "create_game" and all(
        isinstance(s, int) for s in report["story_events"][-1]["scores"]
    )
    pending = {c["name"] for c in report["checks"] if c["ok"] is None}
    assert pending == {"commitment", "commands_redecided", "final_scores"} and report["first_failure"] is None
    assert all(c["ok"] for c in report["checks"] if c["name"] not in pending)


async def test_a_fork_of_an_ended_game_over_http_starts_at_its_version_and_the_lobby_shows_its_lineage(
    redis_url, prefix
):
    async with api_client(redis_url, prefix) as client, referee_service(redis_url, prefix) as referee:
        game, _, tokens = await new_game(client)
        await play(client, referee, game, tokens, seed=12, max_commands=12)
        at = (await client.get(f"/games/{game}")).json()["version"]
        await play(client, referee, game, tokens, seed=12)  # to the end: now anyone may fork it, copied exactly
        forked = await client.post(f"/games/{game}/fork", json={"at": at, "seats": [{"type": "human"}, {"type": "ai"}]})
        assert forked.status_code == 201
        child = forked.json()["game"]
        assert (await client.get(f"/games/{child}/view")).json()["view"] == (
            await client.get(f"/games/{game}/view", params={"at": at})
        ).json()["view"]
        running = (await client.get("/games")).json()["games"]
        ended = (await client.get("/games", params={"status": "finished"})).json()["games"]
        assert game not in [g["game"] for g in running] and game in [g["game"] for g in ended]
        lobby = {g["game"]: g for g in running + ended}
        assert lobby[child]["lineage"]["parent"] == game and lobby[child]["lineage"]["at"] == at
        assert lobby[game]["lineage"] is None
        inside = await client.post(f"/games/{game}/fork", json={"at": 2, "seats": [{"type": "human"}] * 2})
        assert inside.status_code == 422 and inside.json()["code"] == "fork_inside_command"
