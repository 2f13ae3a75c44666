"""The leak sweep: random games of 2, 3 and 4 players (some with an AI seat) played over HTTP; at
several moments and at the end every caller (spectator, admin, each seat) reads every route of the
game, and the detector of tests/service/leaks.py looks in every response for anything hidden from
that caller at that moment. 0 leaks is the bar. The full run of 200 games is the benchmark
`tests/bench/bench_leaks.py` (its figure is in the README); the suite sweeps a part of it, in
process and against a real API process, and shows that the detector finds planted leaks."""

from __future__ import annotations

import dataclasses
import os
import random
import re

import msgspec
import pytest

import service.http.audit as audit_routes
import service.http.games as game_routes
import service.http.play as play_routes
import service.write.reads as reads
from domain.kernel import fold
from domain.pantheon.random_play import random_command
from domain.pantheon.vocabulary import CARDS
from projections.board import BoardProjection

from ..api_helpers import bearer, referee_service
from ..leaks import (
    TRUE_REDACT,
    GameTruth,
    hidden_atoms,
    in_process,
    over_http,
    projector_on,
    run_sweep,
    windows,
)
from ..live import live_api

# Games per number of players in the suite's sweep (the benchmark plays 200 in all); fewer when
# the service tests run a second time on another Redis (scripts/test: REDIS_URL), as the sweep
# is about the server's answers, not the Redis under it.
GAMES_PER_COUNT = int(os.environ.get("PANTHEON_LEAK_GAMES_PER_COUNT", "5" if os.environ.get("REDIS_URL") else "20"))
_HEX_RUN = re.compile(r"[0-9a-fA-F]{16,}")


def _report(report) -> str:
    return "\n".join([str(report.summary())] + [str(f) for f in report.findings[:40]])


async def test_random_games_swept_in_process_show_no_caller_anything_hidden_from_it(redis_url, prefix):
    async with in_process(redis_url, prefix) as api, referee_service(redis_url, prefix) as referee, \
            projector_on(referee) as projector:
        report = await run_sweep(api, referee, {2: GAMES_PER_COUNT, 3: GAMES_PER_COUNT, 4: GAMES_PER_COUNT},
                                 seed=2026, projector=projector)
    print(report.summary())
    assert report.games == 3 * GAMES_PER_COUNT and report.ai_games > 0 and report.refused > 0
    assert report.responses > 200 * report.games
    assert report.findings == [], _report(report)


async def test_random_games_swept_against_a_live_api_process_show_no_caller_anything_hidden(redis_url, prefix):
    with live_api(redis_url, prefix) as base:
        async with over_http(base) as api, referee_service(redis_url, prefix) as referee, \
                projector_on(referee) as projector:
            report = await run_sweep(api, referee, {2: 1, 3: 1, 4: 1}, seed=11, projector=projector)
    print(report.summary())
    assert report.games == 3 and report.responses > 300
    assert report.findings == [], _report(report)


# --- the detector can fail: leaks planted in the in-process app ----------------------------------

def _unredacted_events(monkeypatch):
    original = reads.public_envelope
    monkeypatch.setattr(reads, "public_envelope", lambda decider, e, viewer: original(
        dataclasses.replace(decider, redact=lambda event, viewer: event), e, viewer))


def _another_seats_hand_in_the_seat_view(monkeypatch):
    original = BoardProjection.view

    def view(self, model, seat=None):
        shown = original(self, model, seat)
        if seat is not None and model is not None:
            other = model.seats[(seat + 1) % len(model.seats)]
            shown["you"] = {**shown["you"], "hand": {c: n for c, n in zip(CARDS, other.hand) if n}}
        return shown

    monkeypatch.setattr(BoardProjection, "view", view)


def _seed_in_the_status(monkeypatch):
    original = game_routes.game_detail

    async def detail(service, game):
        shown = await original(service, game)
        return msgspec.structs.replace(shown, seed=(await service.meta(game))["seed"].decode())

    monkeypatch.setattr(game_routes, "game_detail", detail)


def _hashes_in_the_feed(monkeypatch):
    monkeypatch.setattr(play_routes, "_redacted", lambda events, finished: events)


def _seed_in_the_audit(monkeypatch):
    original = audit_routes.load_export

    async def load(store, game):
        header, envelopes = await original(store, game)
        seed = (await store.meta(game))["seed"].decode()
        return msgspec.structs.replace(header, seed=seed), envelopes

    monkeypatch.setattr(audit_routes, "load_export", load)


STREAM = ("GET /stream?after=N", "GET /stream (Last-Event-ID)")
PLANTS = {
    # plant: (how, the routes where the sweep must find it: each entry is one route, or a tuple of which one will do)
    "events not redacted": (_unredacted_events, ["GET /events", "GET /events?after=N", STREAM]),
    "another seat's hand in a seat view": (_another_seats_hand_in_the_seat_view,
                                           ["GET /view", "GET /view?at=N", "GET /view?min_version=V"]),
    "the seed in a running game's status": (_seed_in_the_status, ["GET /games/{id}"]),
    "hashes in the feed before the end": (_hashes_in_the_feed, ["GET /events", "GET /events?after=N", STREAM]),
    "the audit knowing the seed before the end": (_seed_in_the_audit, ["GET /audit"]),
}


@pytest.mark.parametrize("plant", sorted(PLANTS))
async def test_the_sweep_finds_a_planted_leak(redis_url, prefix, monkeypatch, plant):
    how, routes = PLANTS[plant]
    how(monkeypatch)
    async with in_process(redis_url, prefix) as api, referee_service(redis_url, prefix) as referee, \
            projector_on(referee) as projector:
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
        answer = await api.request("POST", f"/games/{game}/commands", headers=bearer(tokens[seat]),
                                   json=msgspec.to_builtins(random_command(state, seat, rnd)),
                                   params={"expected_version": version})
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
    """Seat 0 forks a running 3-player game, claims every seat of the fork and reads it: nothing
    hidden from seat 0 in the parent at the fork point may show (the other seats' hands and half
    gods, the draw pile, the hidden draws of the copied events, the parent's seed and hashes), nor
    may the fork keep the parent's seed (its undrawn order). Forks of running games are being
    redesigned (seat or admin token; everything the caller has not seen dealt again): until
    then this test fails."""
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

        forked = await api.request("POST", f"/games/{parent}/fork", headers=bearer(tokens[0]),
                                   json={"at": at, "seats": [{"type": "human"}] * 3})
        assert forked.status == 201, forked.text
        child = forked.json()["game"]
        if forked.json()["commitment"] == created["commitment"]:
            found.append("the fork has the parent's seed (so its undrawn order)")
        child_tokens = {}
        for s in range(3):
            claimed = await api.request("POST", f"/games/{child}/seats/{s}/claim")
            if claimed.status == 201:  # (a fork may come with the forker's seat already taken)
                child_tokens[s] = claimed.json()["token"]
        callers = [("spectator", None), ("the fork's admin", forked.json()["admin_token"])] + [
            (f"the fork's seat {s}", t) for s, t in child_tokens.items()]

        texts = []
        for name, token in callers:
            headers = bearer(token) if token else {}
            for path, params in ((f"/games/{child}", None), (f"/games/{child}/view", None),
                                 (f"/games/{child}/view", {"at": at}), (f"/games/{child}/events", None),
                                 (f"/games/{child}/score", None), (f"/games/{child}/rejected", None),
                                 (f"/games/{child}/audit", None), (f"/games/{child}/export", None),
                                 ("/games", {"limit": 10})):
                answer = await api.request("GET", path, headers=headers, params=params)
                texts.append((f"GET {path.replace(child, '{fork}')} as {name}", answer.text))

            if token in child_tokens.values():
                seat = next(s for s, t in child_tokens.items() if t == token)
                if seat == 0:
                    continue
                view = (await api.request("GET", f"/games/{child}/view", headers=headers,
                                          params={"at": at})).json()["view"]["you"]
                real = {c: n for c, n in zip(CARDS, hidden.seats[seat].hand) if n}
                if view["hand"] == real:
                    found.append(f"the fork's seat {seat} holds the parent's seat {seat} hand {real}, hidden from "
                                 "seat 0 (read with a token of the fork, which the forker claimed)")
                if len(hidden.seats[seat].half_gods) >= 2 and view["half_gods"] == sorted(hidden.seats[seat].half_gods):
                    found.append(f"the fork's seat {seat} has the parent's seat {seat} half gods")
                events = (await api.request("GET", f"/games/{child}/events", headers=headers)).json()
                parent_draws = [(v, a) for v, e in enumerate(truth.events[:at], 1)
                                for a in hidden_atoms(e, 0) if getattr(e, "seat", None) == seat]
                child_draws = [(item["version"], ("cards", item["payload"]["cards"])) for item in events
                               if item["type"] == "cards_drawn" and item["payload"]["seat"] == seat
                               and item["payload"]["cards"] and item["version"] <= at]
                if parent_draws and sum(len(a[1]) for _, a in parent_draws if a[0] == "cards") >= 5 and \
                        [d for d in parent_draws if d[1][0] == "cards"] == child_draws:
                    found.append(f"the fork's events show every card seat {seat} drew in the parent before the fork "
                                 f"({len(child_draws)} draws), hidden from seat 0")

        for route, text in texts:
            hits = set().union(*(windows(m) for m in _HEX_RUN.findall(text))) & parent_secrets
            if hits:
                found.append(f"{route}: a hash or the seed of the running parent ({min(hits)}…)")

        # Play the fork to its end: its export then shows everything it was dealt at the fork point.
        await _play_to_the_end(referee, child, rnd)
        export = await api.request("GET", f"/games/{child}/export")
        assert export.status == 200, export.text
        hits = set().union(*(windows(m) for m in _HEX_RUN.findall(export.text))) & parent_secrets
        if hits:
            found.append(f"GET /export of the ended fork: a hash or the seed of the running parent ({min(hits)}…)")
        child_truth = GameTruth(referee, child, forked.json()["admin_token"], child_tokens)
        await child_truth.refresh()
        dealt = fold(child_truth.decider, child_truth.events[:at])
        if dealt.draw_pile == hidden.draw_pile and sum(hidden.draw_pile) >= 5:
            found.append(f"the fork's export shows the parent's draw pile at the fork point "
                         f"({ {c: n for c, n in zip(CARDS, hidden.draw_pile) if n} }), hidden from seat 0")
        others = [s for s in (1, 2) if dealt.seats[s].hand == hidden.seats[s].hand]
        if others:
            found.append(f"the fork's export shows the parent's hands of seats {others} at the fork point")
        redacted = [TRUE_REDACT(e, 0) for e in truth.events[:at]]
        if [e for e in child_truth.events[:at]] == truth.events[:at] and redacted != truth.events[:at]:
            found.append("the fork's export copies the parent's events before the fork, hidden draws included")
    assert found == [], "the fork shows seat 0 what it may not see:\n" + "\n".join(found)

