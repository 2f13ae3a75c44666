"""A deterministic, auditable random source: draw i is read from HMAC-SHA256(seed, context | i)."""

from __future__ import annotations

import functools
import hashlib
import hmac
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hashlib import _Hash

_SPACE = 1 << 64
_IPAD = bytes(x ^ 0x36 for x in range(256))
_OPAD = bytes(x ^ 0x5C for x in range(256))


@functools.lru_cache(maxsize=1024)
def _keyed(seed: bytes) -> tuple[_Hash, _Hash]:
    """HMAC-SHA256's keyed inner and outer hash states for a seed (RFC 2104), computed once per
    seed; `hmac_sha256` below is the plain definition the tests compare the draws with."""
    key = (hashlib.sha256(seed).digest() if len(seed) > 64 else seed).ljust(64, b"\0")
    return hashlib.sha256(key.translate(_IPAD)), hashlib.sha256(key.translate(_OPAD))


class SeededRng:
    """Draws uniform integers from a secret seed; the same seed and context give the same draws.

    `context` names where the draws happen (for a game: its id and the stream version), so
    deciding the same command at the same version always gives the same outcome. Draw number i
    reads the first 8 bytes of HMAC-SHA256(seed, context || b"|" || i as 8 big-endian bytes) as
    an unsigned integer x and, for a bound n, accepts x mod n when x < 2**64 - 2**64 mod n
    (otherwise it reads the next draw number): every value in [0, n) is equally likely.
    """

    __slots__ = ("_seed", "_context", "_inner", "_outer", "draws")

    def __init__(self, seed: bytes, context: bytes = b"") -> None:
        self._seed, self._context = seed, context
        # keyed on the first draw: many commands draw nothing
        self._inner: _Hash | None = None
        self._outer: _Hash | None = None
        self.draws = 0

    def _keyed_inner(self) -> tuple[_Hash, _Hash]:
        """The HMAC's inner state after `context | ` and its outer state (made on the first draw)."""
        keyed, outer = _keyed(self._seed)
        inner = keyed.copy()
        inner.update(self._context + b"|")
        self._inner, self._outer = inner, outer
        return inner, outer

    def randbelow(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        if not 0 < n < _SPACE:
            raise ValueError("randbelow needs a bound between 1 and 2**64")
        limit = _SPACE - _SPACE % n
        inner, outer = self._inner, self._outer
        if inner is None or outer is None:
            inner, outer = self._keyed_inner()
        while True:  # one draw per pass, written out: playouts draw hundreds of times per game
            block = inner.copy()
            block.update(self.draws.to_bytes(8, "big"))
            self.draws += 1
            final = outer.copy()
            final.update(block.digest())
            value = int.from_bytes(final.digest()[:8], "big")
            if value < limit:
                return value % n


def game_rng(seed: bytes, game: str, version: int) -> SeededRng:
    """The draws for a command decided on `game` at stream `version` (the platform's rule)."""
    return SeededRng(seed, f"{game}|{version}".encode())


def hmac_sha256(seed: bytes, context: bytes, index: int) -> bytes:
    """The digest behind draw number `index`, by the book (for auditors and tests)."""
    return hmac.digest(seed, context + b"|" + index.to_bytes(8, "big"), "sha256")


def commitment(seed: bytes) -> str:
    """The public commitment to a secret seed: its SHA-256 in hex."""
    return hashlib.sha256(seed).hexdigest()
