"""A crowd of spectators on raw sockets: many Server-Sent Events streams of a real API process, held
open on an event loop of their own (a thread), each remembering only its status and the last event
id it received. Far lighter than an HTTP client per stream, so a thousand fit beside the test."""

from __future__ import annotations

import asyncio
import re
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field

_ID = re.compile(rb"\nid: (\d+)\r")


@dataclass
class Spectator(asyncio.Protocol):
    """One stream: its request, the status of its answer, the last event id seen, whether it ended."""

    game: str
    request: bytes
    status: int | None = None
    last_id: int = 0
    ended: bool = False
    _head: bytes = b""
    _tail: bytes = b"\n"  # the end of what came before, so an id split across two reads is found
    transport: asyncio.Transport | None = field(default=None, repr=False)

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        transport.write(self.request)  # type: ignore[attr-defined]

    def data_received(self, data: bytes) -> None:
        if self.status is None:
            self._head += data
            if b"\r\n\r\n" not in self._head:
                return
            head, _, data = self._head.partition(b"\r\n\r\n")
            self.status, self._head = int(head.split(b" ", 2)[1]), b""
        text = self._tail + data
        for found in _ID.finditer(text):
            self.last_id = max(self.last_id, int(found.group(1)))
        self._tail = text[-40:]

    def connection_lost(self, exc: Exception | None) -> None:
        self.ended = True


class Crowd:
    """Spectator streams to a server at host:port, opened and read on a thread's event loop."""

    def __init__(self, port: int, host: str = "127.0.0.1") -> None:
        self.host, self.port = host, port
        self.spectators: list[Spectator] = []
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True, name="crowd")
        self.thread.start()

    def open(self, games: Iterable[str], each: int, after: dict[str, int] | None = None) -> None:
        """Open `each` streams of every game (from `after[game]`, default 0), a few at a time."""
        asyncio.run_coroutine_threadsafe(self._open(list(games), each, after or {}), self.loop).result(120)

    async def _open(self, games: list[str], each: int, after: dict[str, int]) -> None:
        pending = [g for _ in range(each) for g in games]
        for start in range(0, len(pending), 50):
            await asyncio.gather(*(self._connect(g, after.get(g, 0)) for g in pending[start : start + 50]))

    async def _connect(self, game: str, after: int) -> None:
        request = (
            f"GET /games/{game}/stream?after={after} HTTP/1.1\r\nHost: {self.host}\r\nAccept: text/event-stream\r\n\r\n"
        ).encode()
        spectator = Spectator(game, request)
        await self.loop.create_connection(lambda: spectator, self.host, self.port)
        self.spectators.append(spectator)

    def wait(self, condition, within: float, every: float = 0.05) -> bool:
        """Wait until `condition(spectators)` holds (True), or `within` seconds have passed (False)."""
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            if condition(self.spectators):
                return True
            time.sleep(every)
        return condition(self.spectators)

    def of(self, game: str) -> list[Spectator]:
        return [s for s in self.spectators if s.game == game]

    def close(self) -> None:
        def shut() -> None:
            for spectator in self.spectators:
                if spectator.transport is not None:
                    spectator.transport.close()

        self.loop.call_soon_threadsafe(shut)
        time.sleep(0.2)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
