"""What a command costs in round trips to Redis (issue 26): one to the game's shard before deciding
(the token's seat, its record of the Idempotency-Key), the rate limit counted at the same time on
its own Redis, and one to append (which also says who plays the awaited seat). Counted with
MONITOR on the test's Redis: a command a client sent, not one a script ran inside Redis."""

from __future__ import annotations

import asyncio
import random
import threading
from collections import Counter

import pytest
import redis as sync_redis

from ..api_helpers import bearer, new_game, next_command


class Monitor:
    """The commands clients send to Redis while it runs, by what they touch: 'game' (the game's keys),
    'limits' (its rate-limit counters), else 'other'."""

    def __init__(self, redis_url: str, game: str) -> None:
        self.game, self.counts, self.names = game, Counter(), []
        self._client = sync_redis.Redis.from_url(redis_url)
        self._monitor = self._client.monitor().__enter__()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._listen, daemon=True)
        self._thread.start()

    def _listen(self) -> None:
        while not self._stop.is_set():
            try:
                entry = self._monitor.next_command()
            except (sync_redis.ConnectionError, ValueError):
                return
            if entry.get("client_type") == "lua":
                continue  # inside a script: no round trip of its own
            command = entry["command"]
            if "MONITOR_MARK" in command:
                self.names.append("mark")
            elif f"LIMITER/commands/{self.game}" in command:
                self.counts["limits"] += 1
            elif f"game:{self.game}:" in command:
                self.counts["game"] += 1
                self.names.append(command[:90])

    def mark(self) -> None:
        """Wait until every command sent so far was seen (a marker goes through MONITOR last)."""
        seen = len(self.names)
        self._client.get("MONITOR_MARK")
        while "mark" not in self.names[seen:]:
            threading.Event().wait(0.01)
        self.names.remove("mark")

    def close(self) -> None:
        self._stop.set()
        self._monitor.__exit__(None, None, None)
        self._client.close()


@pytest.fixture
async def monitored(client, referee, redis_url):
    game, _, tokens = await new_game(client)
    monitor = Monitor(redis_url, game)
    yield game, tokens, monitor
    monitor.close()


async def _count(monitor: Monitor, client, game: str, command: dict, headers: dict) -> Counter:
    await asyncio.to_thread(monitor.mark)
    monitor.counts.clear()
    monitor.names.clear()
    answer = await client.post(f"/games/{game}/commands", json=command, headers=headers)
    assert answer.status_code == 201, answer.text
    await asyncio.to_thread(monitor.mark)
    return Counter(monitor.counts)


async def test_a_command_costs_one_round_trip_to_the_game_before_deciding_and_one_to_append(client, referee, monitored):
    game, tokens, monitor = monitored
    rnd, sent = random.Random(3), {}
    for key in ("warm", None, "first-key"):  # the first loads the scripts into Redis (EVALSHA, then again)
        seat, command, _ = await next_command(client, referee, game, rnd)
        headers = bearer(tokens[seat]) | ({"Idempotency-Key": key} if key else {})
        counts = await _count(monitor, client, game, command, headers)
        if key != "warm":
            assert counts == {"game": 2, "limits": 1}, (key, counts, monitor.names)
        sent[key] = command, headers
    # a retry is answered from the first answer once that is proven replicated: one more trip
    for key in ("warm", "first-key"):
        command, headers = sent[key]
        retry = await _count(monitor, client, game, command, headers)
        if key != "warm":
            assert retry == {"game": 2, "limits": 1}, (retry, monitor.names)
