"""Chaos: people and AIs play while the world breaks, and afterwards nothing is lost, doubled or
corrupt.

Two `pantheon api` processes, two projectors and two AI workers run on a private redis-server (AOF,
fsync always). People play random all-human games over HTTP (each command with an Idempotency-Key,
retried with the same key after a 503, a timeout or a connection error, on either API process), and
all-AI games run, for `--seconds`. Meanwhile, every few seconds, a fault: kill -9 of a worker, a
projector or an API process (started again a second later, as a restart policy would), Redis killed
and started again on the same port, its memory full (`CONFIG SET maxmemory 1`), its clients paused
(`CLIENT PAUSE`) or the server stopped (SIGSTOP). Then the faults stop, every game is played to its
end, the projectors catch up, and the checks run:

- every acknowledged command is in its game's log exactly once (lost, duplicated: 0);
- every game's audit passes (seed, chain, every command decided again, AI views, scores);
- every AI game finished;
- the stored views equal a rebuild from the events;
- no answer was a 500.

Run: .venv/bin/python -m bench.bench_chaos --seconds 180
The last line is JSON with the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import signal
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import msgspec

from domain.pantheon.random_play import random_command
from service.audit.archive import load_export
from service.audit.checks import audit
from service.store.connection import connect
from service.store.streams import EventStore
from service.write import GameService
from tests.service.live import RELAXED_ENV, free_port
from tests.service.private_redis import private_server
from tests.service.projector_helpers import caught_up, rebuilt_snapshot, snapshot

ROOT = Path(__file__).resolve().parents[2]
PREFIX, PARTITIONS = "chaos", 4
FAULTS = ("kill_worker", "kill_projector", "kill_api", "restart_redis", "redis_full", "redis_paused", "redis_stopped")
LEASE_S = 5  # the AI lease of this run (the bound on a turn after a fault is 2 lease periods)
RETRYABLE = (httpx.TransportError, httpx.TimeoutException)


class Role:
    """One role process, started again by `revive` after a kill (what a restart policy does)."""

    def __init__(self, name: str, argv: list[str], env: dict[str, str], port: int | None = None) -> None:
        self.name, self.argv, self.env, self.port = name, argv, env, port
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "service.cli", *self.argv],
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def kill(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@dataclass
class Run:
    """What the players and the fault injector share, and what they saw."""

    apis: list[Role]
    store: EventStore
    rnd: random.Random
    chaos: bool = True  # faults and new games; then every game is played to its end
    acked: dict[str, tuple[str, int]] = field(default_factory=dict)  # idempotency key -> (game, first version)
    human_games: list[str] = field(default_factory=list)
    ai_games: list[str] = field(default_factory=list)
    faults: Counter = field(default_factory=Counter)
    answers: Counter = field(default_factory=Counter)  # "503 store_unavailable", "transport", …
    refused: list[str] = field(default_factory=list)

    def base(self) -> str:
        return f"http://127.0.0.1:{self.rnd.choice(self.apis).port}"


async def request(run: Run, client: httpx.AsyncClient, method: str, path: str, **kwargs) -> httpx.Response:
    """The answer of either API process, retried (the same request, the same key) until it is not a
    503 nor a lost connection."""
    while True:
        try:
            answer = await client.request(method, run.base() + path, **kwargs)
        except RETRYABLE as error:
            run.answers[f"transport {type(error).__name__}"] += 1
            await asyncio.sleep(0.2)
            continue
        if answer.status_code >= 500:
            code = (
                answer.json().get("code", "")
                if answer.headers.get("content-type", "").startswith("application/problem+json")
                else answer.text[:80]
            )
            run.answers[f"{answer.status_code} {code}"] += 1
            await asyncio.sleep(0.2 if answer.status_code == 503 else 1)
            continue
        return answer


async def referee_state(referee: GameService, game: str):
    """The game's state as the test's own reader sees it (retried while Redis is away)."""
    while True:
        try:
            return await referee.state_at(game)
        except Exception:  # noqa: BLE001 - Redis faulted: read again
            referee.folds.forget(game)
            await asyncio.sleep(0.2)


async def human_player(run: Run, client: httpx.AsyncClient, referee: GameService, number: int) -> None:
    """Play all-human games to their end, one after another while the chaos lasts."""
    rnd = random.Random(number)
    while run.chaos:
        seats = [{"type": "human", "holder": "creator"}] * rnd.choice((2, 3, 4))
        created = await request(
            run, client, "POST", "/games", json={"seats": seats}, headers={"Idempotency-Key": secrets.token_urlsafe(18)}
        )
        assert created.status_code == 201, created.text
        body = created.json()
        game, tokens = body["game"], {s["seat"]: s["token"] for s in body["seats"]}
        run.human_games.append(game)
        for n in range(100_000):
            _, state = await referee_state(referee, game)
            if state.finished:
                break
            seat = state.agenda[0].seat
            command, key = msgspec.to_builtins(random_command(state, seat, rnd)), f"h{number}-{game}-{n}"
            command.pop("seat")  # the token says it
            answer = await request(
                run,
                client,
                "POST",
                f"/games/{game}/commands",
                json=command,
                headers={"Authorization": f"Bearer {tokens[seat]}", "Idempotency-Key": key},
            )
            if answer.status_code == 201:
                run.acked[key] = (game, answer.json()["first"])
            else:
                run.refused.append(f"{game} {key}: {answer.status_code} {answer.text[:200]}")
                referee.folds.forget(game)


async def ai_games(run: Run, client: httpx.AsyncClient, running: int) -> None:
    """Keep `running` all-AI games going while the chaos lasts."""
    live: list[str] = []
    while run.chaos or live:
        if run.chaos:
            while len(live) < running:
                seats = [
                    {"type": "ai", "level": run.rnd.choice(("random", "random", "greedy"))}
                    for _ in range(run.rnd.choice((2, 3, 4)))
                ]
                created = await request(
                    run,
                    client,
                    "POST",
                    "/games",
                    json={"seats": seats},
                    headers={"Idempotency-Key": secrets.token_urlsafe(18)},
                )
                assert created.status_code == 201, created.text
                live.append(created.json()["game"])
                run.ai_games.append(live[-1])
        for game in list(live):
            if (await request(run, client, "GET", f"/games/{game}")).json()["finished"]:
                live.remove(game)
        await asyncio.sleep(1)


async def inject(run: Run, redis_server, roles: dict[str, list[Role]], every_s: tuple[float, float]) -> None:
    """A random fault every few seconds while the chaos lasts."""
    admin = redis_server.admin()
    while run.chaos:
        await asyncio.sleep(run.rnd.uniform(*every_s))
        if not run.chaos:
            return
        fault = run.rnd.choice(FAULTS)
        run.faults[fault] += 1
        try:
            if fault.startswith("kill_"):
                role = run.rnd.choice(roles[fault[5:]])
                role.kill()
                await asyncio.sleep(1)
                role.start()
            elif fault == "restart_redis":
                redis_server.kill()
                await asyncio.sleep(run.rnd.uniform(0, 2))
                redis_server.start()
            elif fault == "redis_full":
                admin.config_set("maxmemory", 1)
                await asyncio.sleep(run.rnd.uniform(0.5, 2))
                admin.config_set("maxmemory", 0)
            elif fault == "redis_paused":
                admin.execute_command("CLIENT", "PAUSE", int(run.rnd.uniform(500, 2500)), "ALL")
            elif fault == "redis_stopped":
                os.kill(redis_server.process.pid, signal.SIGSTOP)
                await asyncio.sleep(run.rnd.uniform(0.5, 2))
                os.kill(redis_server.process.pid, signal.SIGCONT)
        except Exception as error:  # noqa: BLE001 - a fault that could not be set up is not counted
            run.faults[fault] -= 1
            print(f"fault {fault} failed: {error!r}", file=sys.stderr)
            admin = redis_server.admin()


async def wait_until(condition, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not await condition():
        if time.monotonic() > deadline:
            raise SystemExit(f"gave up waiting: {what}")
        await asyncio.sleep(0.5)


async def check(run: Run) -> dict:
    """Every acknowledged command once, every audit, every AI game finished."""
    lost = duplicated = corrupt = unfinished = events = 0
    batches: Counter = Counter()
    firsts: dict[str, int] = {}
    for game in run.human_games + run.ai_games:
        header, envelopes = await load_export(run.store, game)
        events += len(envelopes)
        report = audit(header, envelopes, await GameService(run.store).decider(game))
        corrupt += not report.ok
        if not report.ok:
            print(f"audit of {game} failed: {[c for c in report.checks if not c.ok]}", file=sys.stderr)
        unfinished += game in run.ai_games and header.seed is None
        for e in envelopes:
            if e.cause is not None and e.idempotency_key:  # the first event of each command
                batches[e.idempotency_key] += 1
                firsts[e.idempotency_key] = e.version
    for key, (_game, first) in run.acked.items():
        lost += batches[key] == 0
        duplicated += batches[key] > 1 or (batches[key] == 1 and firsts[key] != first)
    duplicated += sum(1 for key, n in batches.items() if n > 1 and key not in run.acked)
    return {
        "lost": lost,
        "duplicated": duplicated,
        "corrupt": corrupt,
        "ai_games_unfinished": unfinished,
        "events": events,
    }


async def main(args: argparse.Namespace) -> dict:
    with private_server() as redis_server:
        env = dict(
            os.environ,
            REDIS_URL=redis_server.url,
            PANTHEON_PREFIX=PREFIX,
            PANTHEON_FEED_PARTITIONS=str(PARTITIONS),
            PANTHEON_AI_LEASE_S=str(LEASE_S),
            PANTHEON_REDIS_TIMEOUT_S="2",
            **RELAXED_ENV,
        )
        apis = []
        for _ in range(2):
            port = free_port()
            apis.append(Role("api", ["api"], dict(env, PANTHEON_PORT=str(port)), port))
        roles = {
            "api": apis,
            "projector": [Role("projector", ["projector"], env) for _ in range(2)],
            "worker": [Role("worker", ["worker"], env) for _ in range(2)],
        }
        everyone = [r for group in roles.values() for r in group]
        for role in everyone:
            role.start()
        client_redis = connect(redis_server.url, timeout_s=2)
        run = Run(
            apis=apis,
            store=EventStore(client_redis, prefix=PREFIX, partitions=PARTITIONS),
            rnd=random.Random(args.seed),
        )
        referee = GameService(run.store)
        started = time.monotonic()
        try:
            async with httpx.AsyncClient(timeout=15) as client:
                await wait_until(lambda: _ready(run, client), 30, "the API processes to start")
                players = [asyncio.create_task(human_player(run, client, referee, n)) for n in range(args.people)]
                ai = asyncio.create_task(ai_games(run, client, args.ai_games))
                faults = asyncio.create_task(inject(run, redis_server, roles, (args.min_gap, args.max_gap)))
                await asyncio.sleep(args.seconds)
                run.chaos = False
                await faults
                for role in everyone:  # whatever the last fault left dead runs again
                    if role.process.poll() is not None:
                        role.start()
                calm = time.monotonic()
                await asyncio.wait_for(asyncio.gather(*players, ai), timeout=args.finish_s)
                finish_s = time.monotonic() - calm
            await wait_until(
                lambda: caught_up(run.store, run.human_games + run.ai_games), 120, "the projectors to catch up"
            )
            for role in roles["projector"]:
                role.stop()
            games = run.human_games + run.ai_games
            views_equal = await snapshot(run.store, games) == await rebuilt_snapshot(run.store, games)
            checked = await check(run)
            for line in run.refused[:20]:
                print("refused:", line, file=sys.stderr)
        finally:
            for role in everyone:
                role.stop()
            await client_redis.aclose()
    return {
        "seconds": args.seconds,
        "people": args.people,
        "ai_games_running": args.ai_games,
        "commands_acknowledged": len(run.acked),
        "faults": sum(run.faults.values()),
        "faults_by_kind": dict(sorted(run.faults.items())),
        "human_games": len(run.human_games),
        "ai_games": len(run.ai_games),
        **checked,
        "views_equal_rebuild": views_equal,
        "answers_500": sum(n for k, n in run.answers.items() if k.startswith("500")),
        "retried_answers": dict(sorted(run.answers.items())),
        "refused": len(run.refused),
        "finish_after_chaos_s": round(finish_s, 1),
        "wall_s": round(time.monotonic() - started, 1),
    }


async def _ready(run: Run, client: httpx.AsyncClient) -> bool:
    try:
        return all(
            [(await client.get(f"http://127.0.0.1:{api.port}/health/ready")).status_code == 200 for api in run.apis]
        )
    except httpx.HTTPError:
        return False


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=180, help="how long the faults go on")
    parser.add_argument("--people", type=int, default=6, help="people playing all-human games at once")
    parser.add_argument("--ai-games", type=int, default=4, help="all-AI games running at once")
    parser.add_argument("--min-gap", type=float, default=2.0, help="fewest seconds between faults")
    parser.add_argument("--max-gap", type=float, default=6.0, help="most seconds between faults")
    parser.add_argument("--finish-s", type=float, default=900, help="time to play every game to its end after")
    parser.add_argument("--seed", type=int, default=1)
    print(json.dumps(asyncio.run(main(parser.parse_args()))))
