"""Hidden information never leaves before its time: refused commands, a fork's lineage."""

from __future__ import annotations

import msgspec

from domain.pantheon import PANTHEON

from ..api_helpers import bearer, new_game, play


async def _refuse(client, game, tokens, seat, command) -> None:
    answer = await client.post(f"/games/{game}/commands", json=command, headers=bearer(tokens[seat]))
    assert answer.status_code == 422, answer.text


async def test_before_the_end_a_seat_reads_its_own_refusals_in_full_and_of_others_only_seat_time_and_code(
    client, referee
):
    game, admin, tokens = await new_game(client)
    awaited = (await client.get(f"/games/{game}")).json()["awaiting"]["seat"]
    other = 1 - awaited
    await _refuse(client, game, tokens, other, {"type": "pass"})  # not its turn
    await _refuse(client, game, tokens, awaited, {"type": "buy", "money": {"gold": 9}})
    url = f"/games/{game}/rejected"

    mine = (await client.get(url, headers=bearer(tokens[other]))).json()
    spectator = await client.get(url)
    with_admin = (await client.get(url, headers=bearer(admin))).json()

    assert spectator.status_code == 200
    own = [r for r in mine if r["seat"] == other]
    assert len(own) == 1 and own[0]["command"] == {"type": "pass", "seat": other} and own[0]["message"]
    assert own[0]["version"] is not None
    for entries, hidden_seats in ((mine, {awaited}), (spectator.json(), {0, 1}), (with_admin, {0, 1})):
        for entry in entries:
            if entry["seat"] in hidden_seats:
                assert (entry["command"], entry["message"], entry["version"]) == (None, None, None), entry
                assert entry["code"] and entry["at"]
    assert {r["seat"] for r in with_admin} == {0, 1}
    assert (await client.get(url, headers=bearer("forged"))).status_code == 403

    await play(client, referee, game, tokens, seed=21)
    after = (await client.get(url)).json()
    assert len(after) == 2 and all(r["command"] is not None and r["message"] for r in after)


async def test_a_forks_lineage_shows_the_parents_hash_only_once_the_parent_has_ended(client, referee):
    game, admin, tokens = await new_game(client)
    await play(client, referee, game, tokens, seed=22, max_commands=10)
    at = (await client.get(f"/games/{game}")).json()["version"]
    forked = await client.post(
        f"/games/{game}/fork",
        headers=bearer(tokens[0]),
        json={"at": at, "seats": [{"type": "human"}, {"type": "human"}]},
    )
    assert forked.status_code == 201, forked.text
    child = forked.json()["game"]

    running = (await client.get(f"/games/{child}")).json()["lineage"]
    in_lobby = [g["lineage"] for g in (await client.get("/games")).json()["games"] if g["game"] == child]

    assert running["parent"] == game and running["at"] == at and running["prefix_hash"] is None
    assert all(lineage is None or lineage["prefix_hash"] is None for lineage in in_lobby)
    await play(client, referee, game, tokens, seed=22)
    ended = (await client.get(f"/games/{child}")).json()["lineage"]
    events = (await client.get(f"/games/{game}/events", params={"after": at - 1})).json()["events"]
    assert ended["prefix_hash"] == events[0]["hash"] and events[0]["version"] == at


async def _hands(referee, game, at=None):
    _, state = await referee.state_at(game, at)
    return [seat.hand for seat in state.seats], [seat.half_gods for seat in state.seats]


async def test_a_running_game_is_forked_only_with_one_of_its_tokens_and_the_fork_shows_no_other_hand(client, referee):
    game, admin, tokens = await new_game(client, seats=("human", "human", "human"))
    await play(client, referee, game, tokens, seed=23, max_commands=40)
    at = (await client.get(f"/games/{game}")).json()["version"]
    body = {"at": at, "seats": [{"type": "human"}] * 3}

    assert (await client.post(f"/games/{game}/fork", json=body)).status_code == 401
    assert (await client.post(f"/games/{game}/fork", json=body, headers=bearer("forged"))).status_code == 403
    forked = await client.post(f"/games/{game}/fork", json=body, headers=bearer(tokens[0]))

    assert forked.status_code == 201, forked.text
    child, seat_tokens = forked.json()["game"], {s["seat"]: s["token"] for s in forked.json()["seats"]}
    assert sorted(seat_tokens) == [0, 1, 2]
    hands, half_gods = await _hands(referee, game, at)
    dealt_hands, dealt_half_gods = await _hands(referee, child)
    assert dealt_hands[0] == hands[0] and dealt_half_gods[0] == half_gods[0]
    assert [sum(h) for h in dealt_hands] == [sum(h) for h in hands]
    # the fork's other seats show the world dealt from the fork's own seed, not the parent's hands
    _, dealt = await referee.state_at(child)
    for seat in (1, 2):
        view = (await client.get(f"/games/{child}/view", headers=bearer(seat_tokens[seat]))).json()["view"]
        assert view == msgspec.json.decode(msgspec.json.encode(PANTHEON.seat_view(dealt, seat)))
    detail = (await client.get(f"/games/{child}")).json()
    assert detail["lineage"]["redealt"] is True and detail["lineage"]["prefix_hash"] is None
    assert child not in [g["game"] for g in (await client.get("/games", params={"limit": 200})).json()["games"]]
    claim = await client.post(f"/games/{child}/seats/1/claim")
    assert claim.status_code == 409 and claim.json()["code"] == "seat_taken"


async def test_a_fork_of_a_running_game_stays_sealed_until_its_parent_ends(client, referee):
    game, _, tokens = await new_game(client)
    await play(client, referee, game, tokens, seed=24, max_commands=20)
    at = (await client.get(f"/games/{game}")).json()["version"]
    forked = (
        await client.post(
            f"/games/{game}/fork", headers=bearer(tokens[1]), json={"at": at, "seats": [{"type": "human"}] * 2}
        )
    ).json()
    child, child_tokens = forked["game"], [s["token"] for s in forked["seats"]]

    await play(client, referee, child, child_tokens, seed=25)
    ended = (await client.get(f"/games/{child}")).json()
    assert ended["finished"] and ended["seed"] is None
    assert (await client.get(f"/games/{child}/export")).status_code == 409
    assert all(e["hash"] is None for e in (await client.get(f"/games/{child}/events")).json()["events"])
    audit = (await client.get(f"/games/{child}/audit")).json()
    assert audit["first_failure"] is None and {c["name"]: c["ok"] for c in audit["checks"]}["commitment"] is None

    await play(client, referee, game, tokens, seed=26)
    assert (await client.get(f"/games/{child}")).json()["seed"]
    assert (await client.get(f"/games/{child}/export")).status_code == 200
    assert (await client.get(f"/games/{child}/audit")).json()["ok"]
