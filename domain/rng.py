"""A deterministic, auditable random source: every draw is HMAC-SHA256(seed, context || index)."""

from __future__ import annotations

import hashlib
import hmac


class SeededRng:
    """Draws uniform integers from a secret seed; the same seed and context give the same draws.

    `context` names where the draws happen (for a game: its id and the stream version), so
    deciding the same command at the same version always gives the same outcome.
    """

    __slots__ = ("_key", "_context", "draws")

    def __init__(self, seed: bytes, context: bytes = b"") -> None:
        self._key = seed
        self._context = context
        self.draws = 0

    def _block(self) -> int:
        message = self._context + b"|" + self.draws.to_bytes(8, "big")
        self.draws += 1
        return int.from_bytes(hmac.digest(self._key, message, "sha256"), "big")

    def randbelow(self, n: int) -> int:
        """A uniform integer in [0, n), by rejection sampling on 256-bit blocks."""
        if n <= 0:
            raise ValueError("randbelow needs a positive bound")
        limit = (1 << 256) - (1 << 256) % n
        while True:
            value = self._block()
            if value < limit:
                return value % n


def commitment(seed: bytes) -> str:
    """The public commitment to a secret seed: its SHA-256 in hex."""
    return hashlib.sha256(seed).hexdigest()
