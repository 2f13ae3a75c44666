"""The leak sweep: random games of 2, 3 and 4 players (some with an AI seat; Pergamon's with secret VP,
and short card games of 3, 4 and 6 players) played over HTTP; at
several moments and at the end every caller (spectator, admin, each seat) reads every route of the
game, and the detector of tests/service/leaks.py looks in every response for anything hidden from
that caller at that moment. 0 leaks is the bar. The full run of 200 games is the benchmark
`bench/bench_leaks.py` (its figure is in docs/benchmarks.md); the suite sweeps a part of it, in
process and against a real API process, and shows that the detector finds planted leaks."""

from __future__ import annotations

import dataclasses
import os
import random
import re

import msgspec
import pytest

import service.audit.story as audit_story
import service.http.audit as audit_routes
import service.http.games as game_routes
import service.http.play as play_routes
import service.http.sse as sse_routes
import service.write.reads as reads
import service.write.texts as texts
from domain.pantheon.bots.knowledge import seat_knowledge
from domain.pantheon.random_play import random_command
from domain.pantheon.vocabulary import CARDS
from projections.board import BoardProjection
from service.store.records import GameRecords

from ..api_helpers import bearer, referee_service, wire
from ..leaks import (
    GameTruth,
    in_process,
    over_http,
    projector_on,
    run_sweep,
    windows,
)
from ..live import live_api

# Games per number of players in the suite's sweep (the benchmark, bench.bench_leaks, plays
# 200 in all: run it after a change to what a route answers); fewer when
# the service tests run a second time on another Redis (scripts/test: REDIS_URL), as the sweep
# is about the server's answers, not the Redis under it.
# 6 games per player count in the suite (its 12-minute budget); `bench.bench_leaks --games 200` sweeps more
GAMES_PER_COUNT = int(os.environ.get("PANTHEON_LEAK_GAMES_PER_COUNT", "3" if os.environ.get("REDIS_URL") else "6"))
PERGAMON_GAMES_PER_COUNT = max(1, GAMES_PER_COUNT // 4)
CARD_GAMES_PER_COUNT = max(1, GAMES_PER_COUNT // 5)  # short games (rules §3), of 3, 4 and 6 players
_HEX_RUN = re.compile(r"[0-9a-fA-F]{16,}")


def _report(report) -> str:
    return "\n".join([str(report.summary())] + [str(f) for f in report.findings[:40]])


@pytest.mark.long
async def test_random_games_swept_in_process_show_no_caller_anything_hidden_from_it(redis_url, prefix):
    async with (
        in_process(redis_url, prefix) as api,
        referee_service(redis_url, prefix) as referee,
        projector_on(referee) as projector,
    ):
        report = await run_sweep(
            api, referee, {2: GAMES_PER_COUNT, 3: GAMES_PER_COUNT, 4: GAMES_PER_COUNT}, seed=2026, projector=projector
        )
    print(report.summary())
    assert report.games == report.reissued == 3 * GAMES_PER_COUNT and report.ai_games > 0 and report.refused > 0
    assert report.responses > 200 * report.games
    assert report.findings == [], _report(report)


@pytest.mark.long
async def test_random_pergamon_games_with_secret_vp_swept_in_process_show_no_caller_anything_hidden(redis_url, prefix):
    async with (
        in_process(redis_url, prefix) as api,
        referee_service(redis_url, prefix) as referee,
        projector_on(referee) as projector,
    ):
        report = await run_sweep(
            api,
            referee,
            {2: PERGAMON_GAMES_PER_COUNT, 3: PERGAMON_GAMES_PER_COUNT, 4: PERGAMON_GAMES_PER_COUNT},
            seed=2027,
            projector=projector,
            kind="pergamon",
        )
    print(report.summary())
    assert report.games == report.reissued == 3 * PERGAMON_GAMES_PER_COUNT and report.refused > 0
    assert report.responses > 100 * report.games
    assert report.findings == [], _report(report)


@pytest.mark.long
async def test_random_card_games_swept_in_process_show_no_caller_anything_hidden(redis_url, prefix):
    """Pantheon, the card game: hands, cards dealt and drawn unseen, spied hands, sealed war
    commitments and the cards Creation removed from a hand stay with whom §22 shows them to."""
    async with (
        in_process(redis_url, prefix) as api,
        referee_service(redis_url, prefix) as referee,
        projector_on(referee) as projector,
    ):
        report = await run_sweep(
            api,
            referee,
            {3: CARD_GAMES_PER_COUNT, 4: CARD_GAMES_PER_COUNT, 6: CARD_GAMES_PER_COUNT},
            seed=2028,
            projector=projector,
            kind="pantheon_cards",
        )
    print(report.summary())
    assert report.games == report.reissued == 3 * CARD_GAMES_PER_COUNT and report.refused > 0
    assert report.moments > 3 * report.games and report.responses > 100 * report.games
    assert report.findings == [], _report(report)


@pytest.mark.long
async def test_random_games_swept_against_a_live_api_process_show_no_caller_anything_hidden(redis_url, prefix):
    with live_api(redis_url, prefix) as base:
        async with (
            over_http(base) as api,
            referee_service(redis_url, prefix) as referee,
            projector_on(referee) as projector,
        ):
            report = await run_sweep(api, referee, {2: 1, 3: 1, 4: 1}, seed=11, projector=projector)
    print(report.summary())
    assert report.games == 3 and report.responses > 300
    assert report.findings == [], _report(report)


# --- the detector can fail: leaks planted in the in-process app ----------------------------------


def _unredacted_events(monkeypatch):
    original = reads.public_envelope

    def unredacted(decider, e, viewer, text):
        return original(dataclasses.replace(decider, redact=lambda event, viewer: event), e, viewer, text)

    monkeypatch.setattr(reads, "public_envelope", unredacted)
    monkeypatch.setattr(sse_routes, "public_envelope", unredacted)  # the stream's frames


def _texts_of_unredacted_events(monkeypatch):
    monkeypatch.setattr(texts, "redact", lambda decider, event, viewer: event)  # the words of what others drew


def _audit_story_of_unredacted_events(monkeypatch):
    monkeypatch.setattr(audit_story, "redact", lambda decider, event, viewer: event)  # a running game's draws told


def _another_seats_hand_in_the_seat_view(monkeypatch):
    original = BoardProjection.view

    def view(self, model, seat=None):
        shown = original(self, model, seat)
        if seat is not None and model is not None:
            other = model.seats[(seat + 1) % len(model.seats)]
            hand = {c: n for c, n in zip(CARDS, other.hand) if n}
            shown = msgspec.structs.replace(shown, you=msgspec.structs.replace(shown.you, hand=hand))
        return shown

    monkeypatch.setattr(BoardProjection, "view", view)


def _seed_in_the_status(monkeypatch):
    original = game_routes.game_detail

    async def detail(service, game, **read):
        shown = await original(service, game, **read)
        return msgspec.structs.replace(shown, seed=(await service.meta(game))["seed"].decode())

    monkeypatch.setattr(game_routes, "game_detail", detail)


def _hashes_in_the_feed(monkeypatch):
    for routes in (play_routes, sse_routes):  # the feed, and the stream's frames
        monkeypatch.setattr(routes, "redacted", lambda events, finished: events)


def _seed_in_the_audit(monkeypatch):
    original = audit_routes.load_export

    async def load(store, game):
        header, envelopes = await original(store, game)
        seed = (await store.records.meta(game))["seed"].decode()
        return msgspec.structs.replace(header, seed=seed), envelopes

    monkeypatch.setattr(audit_routes, "load_export", load)


def _old_token_kept_after_a_reissue(monkeypatch):
    original = GameRecords.reissue_seat

    async def reissue_seat(self, game, seat, invite_hash, envelope):
        meta = self.store.keys(game).meta
        old = await self.redis.hget(meta, f"seat:{seat}")
        outcome = await original(self, game, seat, invite_hash, envelope)
        if outcome == "ok" and old:
            await self.redis.hset(meta, f"token:{old.decode()}", seat)
        return outcome

    monkeypatch.setattr(GameRecords, "reissue_seat", reissue_seat)


STREAM = ("GET /stream?after=N", "GET /stream (Last-Event-ID)")
PLANTS = {
    # plant: (how, the routes where the sweep must find it: each entry is one route, or a tuple of which one will do)
    "events not redacted": (_unredacted_events, ["GET /events", "GET /events?after=N", STREAM]),
    "texts of unredacted events": (_texts_of_unredacted_events, ["GET /events", "GET /events?after=N", STREAM]),
    "another seat's hand in a seat view": (
        _another_seats_hand_in_the_seat_view,
        ["GET /view", "GET /view?at=N", "GET /view?min_version=V", "GET /page"],
    ),
    "the seed in a running game's status": (_seed_in_the_status, ["GET /games/{id}"]),
    "hashes in the feed before the end": (_hashes_in_the_feed, ["GET /events", "GET /events?after=N", STREAM]),
    "the audit knowing the seed before the end": (_seed_in_the_audit, ["GET /audit"]),
    "the audit's story of unredacted events": (_audit_story_of_unredacted_events, ["GET /audit"]),
    "a re-issued seat's old token still working": (
        _old_token_kept_after_a_reissue,
        ["GET /view (a re-issued seat's old token)"],
    ),
}


@pytest.mark.parametrize("plant", sorted(PLANTS))
async def test_the_sweep_finds_a_planted_leak(redis_url, prefix, monkeypatch, plant):
    how, routes = PLANTS[plant]
    how(monkeypatch)
    async with (
        in_process(redis_url, prefix) as api,
        referee_service(redis_url, prefix) as referee,
        projector_on(referee) as projector,
    ):
        report = await run_sweep(api, referee, {3: 1}, seed=5, projector=projector, moments=6)
    found = {f.route for f in report.findings}
    missed = [route for route in routes if not found & ({route} if isinstance(route, str) else set(route))]
    assert not missed, _report(report)
    print(plant, "->", sorted(found), report.findings[0])


# --- forks of running games (being redesigned: expected to fail until then) ---------------------


async def _play_to_a_fork_point(api, referee, game: str, tokens: dict[int, str], rnd: random.Random) -> int:
    """Play random commands until seats 1 and 2 hold 5 cards or more, the draw pile 5 or more,
    and seat 1 has drawn from the pile: a moment with plenty hidden from seat 0."""
    while True:
        version, state = await referee.state_at(game)
        hands = [sum(seat.hand) for seat in state.seats]
        if version > 60 and min(hands[1:]) >= 5 and sum(state.draw_pile) >= 5:
            return version
        assert not state.finished
        seat = state.agenda[0].seat
        answer = await api.request(
            "POST",
            f"/games/{game}/commands",
            headers=bearer(tokens[seat]),
            json=wire(random_command(state, seat, rnd)),
            params={"expected_version": version},
        )
        assert answer.status == 201, answer.text


async def _play_to_the_end(referee, game: str, rnd: random.Random) -> None:
    """Random commands until the end, submitted by the referee for whichever seat is awaited."""
    while True:
        _, state = await referee.state_at(game)
        if state.finished:
            return
        seat = state.agenda[0].seat
        await referee.submit(game, seat, msgspec.to_builtins(random_command(state, seat, rnd)))


async def test_a_fork_of_a_running_game_shows_the_forker_nothing_hidden(redis_url, prefix):
    """Seat 0 forks a running 3-player game and reads the fork with every one of its tokens: no
    hash or seed of the running parent shows anywhere, the export stays sealed until the parent
    ends, and the only input to the fork's deal is what seat 0 knew (its first command carries
    exactly seat 0's knowledge at the fork point; everything else comes from the fork's own seed)."""
    rnd = random.Random(31)
    found: list[str] = []
    async with in_process(redis_url, prefix) as api, referee_service(redis_url, prefix) as referee:
        created = (await api.request("POST", "/games", json={"seats": [{"type": "human"}] * 3})).json()
        parent = created["game"]
        tokens = {s: (await api.request("POST", f"/games/{parent}/seats/{s}/claim")).json()["token"] for s in range(3)}
        at = await _play_to_a_fork_point(api, referee, parent, tokens, rnd)
        truth = GameTruth(referee, parent, created["admin_token"], tokens)
        await truth.refresh()
        hidden = truth.state(at)
        parent_secrets = set(truth.hex_windows)

        forked = await api.request(
            "POST",
            f"/games/{parent}/fork",
            headers=bearer(tokens[0]),
            json={"at": at, "seats": [{"type": "human"}] * 3},
        )
        assert forked.status == 201, forked.text
        child = forked.json()["game"]
        if forked.json()["commitment"] == created["commitment"]:
            found.append("the fork has the parent's seed (so its undrawn order)")
        child_tokens = {entry["seat"]: entry["token"] for entry in forked.json()["seats"]}
        callers = [("spectator", None), ("the fork's admin", forked.json()["admin_token"])] + [
            (f"the fork's seat {s}", t) for s, t in child_tokens.items()
        ]
        texts = []
        for name, token in callers:
            headers = bearer(token) if token else {}
            for path, params in (
                (f"/games/{child}", None),
                (f"/games/{child}/view", None),
                (f"/games/{child}/view", {"at": 1}),
                (f"/games/{child}/events", None),
                (f"/games/{child}/score", None),
                (f"/games/{child}/rejected", None),
                (f"/games/{child}/audit", None),
                (f"/games/{child}/export", None),
                ("/games", {"limit": 10}),
            ):
                answer = await api.request("GET", path, headers=headers, params=params)
                texts.append((f"GET {path.replace(child, '{fork}')} as {name}", answer.text))
        for route, text in texts:
            hits = set().union(*(windows(m) for m in _HEX_RUN.findall(text))) & parent_secrets
            if hits:
                found.append(f"{route}: a hash or the seed of the running parent ({min(hits)}…)")

        stored = await referee.store.read(child, 0, 1)
        deal = msgspec.msgpack.decode(stored[0].cause, type=truth.decider.command_type)
        knows = msgspec.to_builtins(seat_knowledge(hidden, 0), order="sorted")
        if msgspec.to_builtins(deal.knowledge, order="sorted") != knows:
            found.append("the fork was dealt from more (or other) than what seat 0 knew at the fork point")

        await _play_to_the_end(referee, child, rnd)
        sealed = await api.request("GET", f"/games/{child}/export")
        if sealed.status != 409:
            found.append(f"GET /export of the ended fork while its parent runs answered {sealed.status}")
        await _play_to_the_end(referee, parent, rnd)
        export = await api.request("GET", f"/games/{child}/export")
        assert export.status == 200, export.text
    assert found == [], "the fork shows seat 0 what it may not see:\n" + "\n".join(found)


@pytest.mark.parametrize("plant", ["events not redacted", "the seed in a running game's status"])
async def test_the_sweep_finds_a_planted_leak_in_pergamon_games(redis_url, prefix, monkeypatch, plant):
    how, routes = PLANTS[plant]
    how(monkeypatch)
    async with (
        in_process(redis_url, prefix) as api,
        referee_service(redis_url, prefix) as referee,
        projector_on(referee) as projector,
    ):
        report = await run_sweep(api, referee, {2: 1}, seed=6, projector=projector, moments=12, kind="pergamon")
    found = {f.route for f in report.findings}
    missed = [route for route in routes if not found & ({route} if isinstance(route, str) else set(route))]
    assert not missed, _report(report)
    if plant == "events not redacted":  # what it finds there is another seat's secret VP
        assert any("shows vp" in f.what or "shows points" in f.what for f in report.findings), _report(report)


def _another_seats_hand_in_a_card_seat_view(monkeypatch):
    original = BoardProjection.view

    def view(self, model, seat=None):
        shown = original(self, model, seat)
        if seat is not None and model is not None:
            other = sorted(model.hands[(seat + 1) % model.players])
            shown = msgspec.structs.replace(shown, you=msgspec.structs.replace(shown.you, hand=other))
        return shown

    monkeypatch.setattr(BoardProjection, "view", view)


def _war_commitments_unsealed_in_events(monkeypatch):
    original = reads.public_envelope

    def unsealed(decider, e, viewer, text):
        def redact(event, viewer):
            return event if type(event).__name__ == "WarCommitted" else decider.redact(event, viewer)

        return original(dataclasses.replace(decider, redact=redact), e, viewer, text)

    monkeypatch.setattr(reads, "public_envelope", unsealed)
    monkeypatch.setattr(sse_routes, "public_envelope", unsealed)


CARD_PLANTS = {
    "events not redacted": (PLANTS["events not redacted"][0], PLANTS["events not redacted"][1], "shows card"),
    "another seat's hand in a seat view": (
        _another_seats_hand_in_a_card_seat_view,
        ["GET /view", "GET /view?at=N", "GET /view?min_version=V"],
        "view.you.hand",
    ),
    "war commitments unsealed in events": (
        _war_commitments_unsealed_in_events,
        [("GET /events", "GET /events?after=N", *STREAM)],
        "shows columns",
    ),
}


@pytest.mark.parametrize("plant", sorted(CARD_PLANTS))
async def test_the_sweep_finds_a_planted_leak_in_card_games(redis_url, prefix, monkeypatch, plant):
    how, routes, what = CARD_PLANTS[plant]
    how(monkeypatch)
    async with (
        in_process(redis_url, prefix) as api,
        referee_service(redis_url, prefix) as referee,
        projector_on(referee) as projector,
    ):
        # a war's sealed commitments show only at moments inside a war: the AI seat's pace moves the
        # moments, so the war plant sweeps more games and moments than the others need
        counts, moments = ({3: 2, 4: 2}, 30) if "war" in plant else ({3: 1}, 12)
        report = await run_sweep(
            api, referee, counts, seed=8, projector=projector, moments=moments, kind="pantheon_cards"
        )
    found = {f.route for f in report.findings}
    missed = [route for route in routes if not found & ({route} if isinstance(route, str) else set(route))]
    assert not missed, _report(report)
    assert any(what in f.what for f in report.findings), _report(report)
