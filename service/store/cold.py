"""Games moved out of Redis: what the event store asks of an archive (the archive itself, its files
in the export format, lives in service.audit.cold), so that every read of an archived game is
answered from it the same way as from Redis."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from .codec import Envelope


@dataclass(frozen=True)
class ColdGame:
    """An archived game as Redis held it: its metadata hash, its events, its refused commands (each
    the fields of its stream entry)."""

    meta: dict[str, bytes]
    envelopes: list[Envelope]
    rejected: list[dict[bytes, bytes]] = field(default_factory=list)


class ArchiveUnreadable(Exception):
    """The archive holds the game but cannot be read now (a volume away, a file damaged)."""


class ColdReader(Protocol):
    async def load(self, game: str) -> ColdGame | None:
        """The archived game, or None when the archive does not hold it; ArchiveUnreadable when it
        holds it but cannot read it."""
        ...
