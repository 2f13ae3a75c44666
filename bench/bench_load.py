"""Load benchmark (not a test) with a native load generator, `wrk` (Debian's package), so that the
client is not the bottleneck: every wrk thread holds one connection and plays its own 2-player
games, one command after another, from commands prepared beforehand. They are legal because they
were decided offline from each game's seed, read from Redis after the games were created (the
server decides each one again, as it would any client's). Beside our figures, from the same run:
the bare baseline, a Litestar endpoint doing one XADD (bench/bare_app.py), sent the same
bodies by the same script.

Both run on the same HTTP stack (`service.http.server.run_server`: uvicorn's httptools protocol with
our limits, on uvloop), started the same way, so the ratio measures our work, not the server's.

Reports: saturated commands/s with 1 and 2 API processes (each its own `pantheon api`, each driven
by its own wrk), the ratio to the bare baseline with as many processes, and the CPU time per command
(per request for the bare app) of the servers and Redis in those runs, with the load average before
and after each (the machine is shared); p50/p99 latency at 100
and 1,000 concurrent games at a human pace (`--think` seconds between a game's commands, jittered
±50%), with a projector running, and the CPU time per command of the API process, the projector
and Redis in those runs (the figures docs/benchmarks.md's capacity model multiplies). Everything runs on this machine against a private redis-server (AOF, fsync every second).

    apt-get install -y wrk   # once
    .venv/bin/python -m bench.bench_load [--seconds 15] [--think 5] [--paced 100,1000] [--processes 1,2]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import msgspec
import redis as sync_redis
from redis.asyncio import Redis

from bench.bench_api import _wait
from bench.private_redis import free_port, private_redis, replica_of
from domain import games
from service.store.streams import EventStore
from service.write import GameService, SeatSpec
from service.write.submit import decide
from tests.service.live import RELAXED_ENV

LUA = Path(__file__).with_name("load.lua")
PREFIX = "bench"


class Processes:
    """Server processes on the private Redis, stopped at the end."""

    def __init__(
        self, redis_url: str, keep_alive_s: float, wait_replicas: int | None = None, logs: Path | None = None
    ) -> None:
        self.redis_url, self.procs, self.pids, self.logs = redis_url, [], {}, logs
        # keep-alive beyond the longest think time: wrk sends a request at once on a connection it
        # had to open again while a think-time delay is pending, and sends again when the delay
        # ends, so a server that closed idle connections (5 s by default) would see a command
        # twice and the script count the second answer as its next command's (1,000 paced games:
        # ~1 socket error per connection and 1-3% of commands refused out of order)
        self.env = dict(
            os.environ,
            REDIS_URL=redis_url,
            PANTHEON_PREFIX=PREFIX,
            **RELAXED_ENV,
            PANTHEON_MAX_CONNECTIONS="5000",
            PANTHEON_KEEP_ALIVE_S=str(int(keep_alive_s)),
        )
        if wait_replicas is not None:
            self.env["PANTHEON_WAIT_REPLICAS"] = str(wait_replicas)

    def _output(self, name: str) -> Any:
        """Where a server's output goes: nowhere, or a file of its own under --logs."""
        if self.logs is None:
            return subprocess.DEVNULL
        self.logs.mkdir(parents=True, exist_ok=True)
        return (self.logs / f"{name}.log").open("ab")

    def api(self) -> int:
        port = free_port()
        output = self._output(f"api-{port}")
        self.procs.append(
            subprocess.Popen(
                [sys.executable, "-m", "service.cli", "api"],
                env=dict(self.env, PANTHEON_PORT=str(port)),
                stdout=output,
                stderr=subprocess.STDOUT,
            )
        )
        _wait(f"http://127.0.0.1:{port}/health/ready")
        self.pids[port] = self.procs[-1].pid
        return port

    def projector(self) -> int:
        """A projector (the paced runs keep read models as production does); its pid."""
        output = self._output("projector")
        self.procs.append(
            subprocess.Popen(
                [sys.executable, "-m", "service.cli", "projector"],
                env=self.env,
                stdout=output,
                stderr=subprocess.STDOUT,
            )
        )
        return self.procs[-1].pid

    def bare(self) -> int:
        """The bare baseline, with the API's settings and server (bench/bare_app.py)."""
        port = free_port()
        self.procs.append(
            subprocess.Popen(
                [sys.executable, "-m", "bench.bare_app"],
                env=dict(self.env, PANTHEON_PORT=str(port)),
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )
        _wait(f"http://127.0.0.1:{port}/xadd")
        self.pids[port] = self.procs[-1].pid
        return port

    def close(self) -> None:
        for p in reversed(self.procs):
            p.terminate()
        for p in self.procs:
            p.wait(timeout=10)
        self.procs.clear()


Request = tuple[str, str, str, str]  # kind ("C" a command, "R" a read), path, token, body


async def prepare(
    redis_url: str, count: int, wire_seat: bool, seed: int, separate: bool = False
) -> list[list[Request]]:
    """`count` new 2-player games (both seats claimed); for each, every command of a whole random
    game, decided offline from its seed, each followed by the reads the web client makes after a move
    (game.js `load`: each seat's page reads GET /page at least at the new version; `separate`: as
    the client did before that route, the game and its view, and the awaited seat's page its choices)."""
    game_spec = games.default()
    decider, rnd = game_spec.decider, random.Random(seed)
    client = Redis.from_url(redis_url)
    service = GameService(EventStore(client, prefix=PREFIX, partitions=16))
    played = []
    try:
        for _ in range(count):
            created = await service.create(game_spec.kind, {}, [SeatSpec(type="human")] * 2, claim=[0, 1])
            game, tokens = created.game, created.tokens
            secret = bytes.fromhex((await service.meta(game))["seed"].decode())
            version, state = await service.state_at(game)
            commands = []
            while not decider.is_terminal(state):
                seat = decider.awaited(state).seat
                command = game_spec.random_command(state, seat, rnd)
                for event in decide(decider, state, command, secret, game, version):
                    state, version = decider.evolve(state, event), version + 1
                body = msgspec.to_builtins(command)
                if not wire_seat:
                    body.pop("seat", None)
                commands.append(("C", f"/games/{game}/commands", tokens[seat], msgspec.json.encode(body).decode()))
                if separate:  # the web client before GET /page: the game, the view, the awaited seat's choices
                    commands += [("R", f"/games/{game}", "", "")] * 2
                    commands += [("R", f"/games/{game}/view?min_version={version}", tokens[s], "") for s in (0, 1)]
                    if not decider.is_terminal(state):
                        commands.append(("R", f"/games/{game}/options", tokens[decider.awaited(state).seat], ""))
                else:  # each seat's page reads the game, its view and its choices in one (game.js `load`)
                    commands += [("R", f"/games/{game}/page?min_version={version}", tokens[s], "") for s in (0, 1)]
            played.append(commands)
    finally:
        await client.aclose()
    return played


def write_files(
    directory: Path, played: list[list[Request]], threads: int, *, bare: bool = False, reads: bool = False
) -> None:
    """Thread i's file: games i, i+threads, ... one after the other, with the web client's reads after
    each command when `reads` (bare: the same command bodies to /xadd, ten times over, since the bare
    endpoint answers several times faster)."""
    directory.mkdir(parents=True, exist_ok=True)
    for t in range(threads):
        with open(directory / f"t{t}.txt", "w") as out:
            for requests in played[t::threads] * (10 if bare else 1):
                for kind, path, token, body in requests:
                    if kind == "C" or (reads and not bare):
                        out.write(f"{kind}\t{'/xadd' if bare else path}\t{token}\t{body}\n")


def wrk(port: int, directory: Path, threads: int, seconds: float, think_ms: int, nice: int = 0) -> subprocess.Popen:
    return subprocess.Popen(
        [
            *(["nice", "-n", str(nice)] if nice else []),
            "wrk",
            "-t",
            str(threads),
            "-c",
            str(threads),
            "-d",
            f"{seconds:.0f}s",
            "--timeout",
            "30s",
            "-s",
            str(LUA),
            f"http://127.0.0.1:{port}",
            "--",
            str(directory),
            str(think_ms),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def result(process: subprocess.Popen) -> dict:
    out, err = process.communicate()
    if process.returncode != 0:
        raise RuntimeError(f"wrk failed: {err}")
    report = json.loads(out.strip().splitlines()[-1])
    report["per_s"] = round(report["commands"] / report["seconds"], 1)
    if report["exhausted"]:  # latency figures then include health reads: prepare more games
        report["warning"] = "some connections ran out of prepared commands"
    if err.strip():
        report["stderr"] = err.strip()[:300]
    return report


def cpu_s(pid: int) -> float:
    """CPU seconds (user + system) a process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def redis_cpu_s(redis_url: str) -> float:
    """CPU seconds the Redis server has used so far (its main thread and the rest, user + system)."""
    client = sync_redis.Redis.from_url(redis_url)
    try:
        info = client.info("cpu")
    finally:
        client.close()
    return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


def settle(pid: int, most_s: float = 120) -> None:
    """Wait until the process is idle (under 5% of a core over half a second), at most `most_s`."""
    until = time.perf_counter() + most_s
    used = cpu_s(pid)
    while time.perf_counter() < until:
        time.sleep(0.5)
        now = cpu_s(pid)
        if now - used < 0.025:
            return
        used = now


class CpuMeter:
    """CPU time per command of each part (ms; a part may be several processes), over one run: on shared
    cores wall-clock rates swing, CPU time per command is what a capacity model can multiply."""

    def __init__(self, redis_url: str, parts: dict[str, int | list[int]]) -> None:
        self.redis_url = redis_url
        self.parts = {name: pids if isinstance(pids, list) else [pids] for name, pids in parts.items()}
        self.start = self._now()

    def _now(self) -> dict[str, float]:
        used = {name: sum(cpu_s(pid) for pid in pids) for name, pids in self.parts.items()}
        return {"redis": redis_cpu_s(self.redis_url), **used}

    def per_command(self, commands: int) -> dict[str, float]:
        end = self._now()
        return {
            f"{name}_cpu_ms_per_command": round(1000 * (end[name] - self.start[name]) / max(commands, 1), 3)
            for name in end
        }


def server_side(port: int, redis_url: str) -> dict:
    """What the servers saw of a run: the API's command histogram (decide and append, in the handler:
    a tail here is the store's or the API's, a tail only in wrk's figures is the queue before the
    handler), its non-2xx/304 answers by route and status, and Redis's slow log and latency events."""
    text = httpx.get(f"http://127.0.0.1:{port}/metrics").text
    buckets, answers = [], {}
    for line in text.splitlines():
        if line.startswith("pantheon_command_seconds_bucket"):
            bound = line.split('le="')[1].split('"')[0]
            buckets.append((bound, int(float(line.rsplit(" ", 1)[1]))))
        elif (
            line.startswith("pantheon_http_requests_total{") and 'status="2' not in line and 'status="304"' not in line
        ):
            answers[line.split("{", 1)[1].rsplit("}", 1)[0]] = int(line.rsplit(" ", 1)[1])
    client = sync_redis.Redis.from_url(redis_url)
    try:
        slow = [
            {"ms": round(e["duration"] / 1000, 1), "command": e["command"][:80].decode(errors="replace")}
            for e in client.slowlog_get(10)
        ]
        latency = client.execute_command("LATENCY", "LATEST")
    finally:
        client.close()
    return {
        "command_seconds_le": dict(buckets),
        "answers_not_ok": answers,
        "redis_slowlog": slow,
        "redis_latency": [[x.decode() if isinstance(x, bytes) else x for x in event] for event in latency],
    }


def saturated(servers: Processes, ports: list[int], dirs: list[Path], threads: int, seconds: float, name: str) -> dict:
    """A saturated run of `run` with the CPU time per command of these servers (`name`) and Redis, and
    the machine's 1-minute load average before and after."""
    before = os.getloadavg()[0]
    meter = CpuMeter(servers.redis_url, {name: [servers.pids[port] for port in ports]})
    report = run(ports, dirs, threads, seconds, 0)
    report.update(meter.per_command(report["commands"]))
    report["load_average"] = [round(before, 2), round(os.getloadavg()[0], 2)]
    return report


def run(ports: list[int], dirs: list[Path], threads: int, seconds: float, think_ms: int, nice: int = 0) -> dict:
    """One wrk per port at once (at `nice`); their figures summed (rates) or from the first (latency)."""
    reports = [result(p) for p in [wrk(port, d, threads, seconds, think_ms, nice) for port, d in zip(ports, dirs)]]
    total = dict(reports[0])
    total["per_s"] = round(sum(r["per_s"] for r in reports), 1)
    for key in ("commands", "refused", "exhausted", "socket_errors", "reads", "not_modified", "reads_failed"):
        total[key] = sum(r[key] for r in reports)
    return total


async def main_async(args: argparse.Namespace) -> dict:
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is not installed: apt-get install -y wrk")
    out: dict = {"seconds": args.seconds, "threads_saturated": args.threads, "think_s": args.think}
    with contextlib.ExitStack() as stack:
        redis_url = stack.enter_context(private_redis())
        with sync_redis.Redis.from_url(redis_url) as client:  # Redis's own account of its stalls, in the report
            client.config_set("latency-monitor-threshold", 20)
        tmp = stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-load-"))
        if args.replica:  # acknowledged means replicated: every write waits for the replica (WAIT 1)
            out["replica"] = stack.enter_context(replica_of(redis_url))
        servers = Processes(
            redis_url, keep_alive_s=args.think * 1.5 + 10, wait_replicas=1 if args.replica else None, logs=args.logs
        )
        try:
            most = max(args.processes + [1])
            api = [servers.api() for _ in range(most)]
            bare = [servers.bare() for _ in range(most)]
            version = httpx.get(f"http://127.0.0.1:{api[0]}/schema/openapi.json").json()["info"]["version"]
            wire_seat = version.startswith("1.")
            # enough games that no connection runs out in a saturated run (about 90 commands each)
            per_run = args.threads * 2 + 40
            need = max(args.paced + [0]) + (sum(args.processes) + 1) * per_run
            started = time.perf_counter()
            played = await prepare(redis_url, need, wire_seat, args.seed, args.separate_reads)
            out["prepared_games"], out["prepare_s"] = len(played), round(time.perf_counter() - started, 1)
            out["commands_per_game"] = round(sum(kind == "C" for game in played for kind, *_ in game) / len(played), 1)
            taken = 0

            def take(n: int, name: str, threads: int, bare_too: bool = False, reads: bool = False) -> Path:
                nonlocal taken
                d = Path(tmp) / name
                write_files(d, played[taken : taken + n], threads, bare=bare_too, reads=reads)
                taken += 0 if bare_too else n
                return d

            # saturated: the bare baseline and ours, with 1 and then 2 processes
            t, s = args.threads, args.seconds
            for n in [] if args.paced_only else args.processes:
                bare_dirs = [take(per_run, f"bare{n}{i}", t, True) for i in range(n)]
                out[f"bare_{n}"] = saturated(servers, bare[:n], bare_dirs, t, s, "bare")
                api_dirs = [take(per_run, f"api{n}{i}", t) for i in range(n)]
                out[f"api_{n}"] = saturated(servers, api[:n], api_dirs, t, s, "api")
                out[f"ratio_{n}"] = round(out[f"api_{n}"]["per_s"] / out[f"bare_{n}"]["per_s"], 3)
            # a human pace: every game its own connection, thinking between commands
            think_ms = int(args.think * 1000)
            projector = servers.projector()  # from here on, read models are kept as in production
            settle(projector)  # its catching up on the games made so far is no paced command's cost
            for n in args.paced:
                meter = CpuMeter(redis_url, {"api": servers.pids[api[0]], "projector": projector})
                paced_dir = take(n, f"paced{n}", n, reads=args.reads)
                out[f"paced_{n}"] = report = run(
                    api[:1], [paced_dir], n, args.paced_seconds, think_ms, args.client_nice
                )
                report.update(meter.per_command(report["commands"]))
                # the share of a core the API process used: its CPU per command times commands per second
                report["api_cores"] = round(report["api_cpu_ms_per_command"] * report["per_s"] / 1000, 3)
                report["server"] = server_side(api[0], redis_url)
        finally:
            servers.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=15, help="length of each saturated run")
    parser.add_argument(
        "--threads", type=int, default=32, help="wrk threads (= connections = games at once) in the saturated runs"
    )
    parser.add_argument("--think", type=float, default=5.0, help="mean seconds between a game's commands (paced)")
    parser.add_argument(
        "--paced",
        type=lambda s: [int(x) for x in s.split(",") if x],
        default=[100, 1000],
        help="numbers of concurrent games at a human pace",
    )
    parser.add_argument("--paced-seconds", type=float, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--paced-only", action="store_true", help="skip the saturated runs")
    parser.add_argument(
        "--replica",
        action="store_true",
        help="give the private Redis a replica and make the servers wait for it (PANTHEON_WAIT_REPLICAS=1)",
    )
    parser.add_argument(
        "--no-reads",
        dest="reads",
        action="store_false",
        help="paced runs send commands only (without the web client's reads after each move)",
    )
    parser.add_argument(
        "--separate-reads",
        action="store_true",
        help="the reads as the web client made them before GET /page: the game twice, each seat's view, the "
        "awaited seat's choices (five a move; the only reads a server without /page answers)",
    )
    parser.add_argument(
        "--client-nice",
        type=int,
        default=10,
        help="the niceness of wrk in the paced runs: its 1,000 threads (one per game) would otherwise take the cores "
        "from the server they measure (measured: the API process runnable but waiting for a core 37%% of the time), "
        "where real players' browsers run on their own machines; 0 for the runs before 2026-11-28",
    )
    parser.add_argument(
        "--logs", type=Path, help="keep the API's and the projector's output in files in this directory"
    )
    parser.add_argument(
        "--processes",
        type=lambda s: [int(x) for x in s.split(",") if x],
        default=[1, 2],
        help="numbers of processes (of each server) in the saturated runs",
    )
    print(json.dumps(asyncio.run(main_async(parser.parse_args())), indent=1))


if __name__ == "__main__":
    main()
