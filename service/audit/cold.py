"""The archive of games moved out of Redis: per game, a gzip file in the export format (what
`pantheon export` writes: `zcat` it into `pantheon audit -` or `pantheon import`) and a gzip file
of the rest of what Redis held (its metadata hash and its refused commands), in a directory that
every API process reads."""

from __future__ import annotations

import asyncio
import gzip
import os
import re
import tempfile
from collections import OrderedDict
from pathlib import Path

import msgspec

from service.store.cold import ArchiveUnreadable, ColdGame

from .export import read_export

_GAME = re.compile(r"[0-9A-Za-z_-]{1,64}")  # a game id as a file name: nothing that leaves the directory


class Side(msgspec.Struct, kw_only=True):
    """What Redis held of a game besides its events: its metadata hash, its refused commands."""

    meta: dict[str, bytes]
    rejected: list[dict[str, bytes]] = []


_SIDE = msgspec.msgpack.Decoder(Side)
_PACK = msgspec.msgpack.Encoder()


def side_bytes(meta: dict[str, bytes], rejected: list[dict[bytes, bytes]]) -> bytes:
    return _PACK.encode(Side(meta=meta, rejected=[{k.decode(): v for k, v in r.items()} for r in rejected]))


class Archive:
    """The files of archived games under `directory` (`ab/abcdef….ndjson.gz` and `….redis.gz`), with
    the last `cache_size` games read kept decoded in this process."""

    def __init__(self, directory: str | os.PathLike, cache_size: int = 32) -> None:
        self.directory, self.cache_size = Path(directory), cache_size
        self._cache: OrderedDict[str, ColdGame] = OrderedDict()

    def paths(self, game: str) -> tuple[Path, Path]:
        """(the export file, the file of the rest): ValueError for an id that is no file name."""
        if not _GAME.fullmatch(game):
            raise ValueError(f"not a game id: {game!r}")
        folder = self.directory / game[:2]
        return folder / f"{game}.ndjson.gz", folder / f"{game}.redis.gz"

    def write(self, game: str, export: bytes, side: bytes) -> None:
        """Write both files, each whole or not at all (a temporary file, fsync, rename); the export
        last: its presence says the game is archived. Writing again replaces them."""
        export_path, side_path = self.paths(game)
        export_path.parent.mkdir(parents=True, exist_ok=True)
        for path, body in ((side_path, side), (export_path, export)):
            _write_atomically(path, gzip.compress(body, mtime=0))  # mtime 0: the same game, the same bytes
        self._cache.pop(game, None)

    def read(self, game: str) -> ColdGame | None:
        """The archived game read from its files now (None: not archived); an error (OSError,
        zlib.error, ExportError, …) for a file that cannot be read or is not exactly as written."""
        try:
            export_path, side_path = self.paths(game)
            export = gzip.decompress(export_path.read_bytes())
        except (ValueError, FileNotFoundError):
            return None
        side = _SIDE.decode(gzip.decompress(side_path.read_bytes()))
        _, envelopes = read_export(export.splitlines())
        return ColdGame(
            meta=side.meta, envelopes=envelopes, rejected=[{k.encode(): v for k, v in r.items()} for r in side.rejected]
        )

    def export_bytes(self, game: str) -> bytes | None:
        """The archived game's export file, uncompressed (None: not archived)."""
        try:
            return gzip.decompress(self.paths(game)[0].read_bytes())
        except (ValueError, FileNotFoundError):
            return None

    async def load(self, game: str) -> ColdGame | None:
        """Like `read`, from this process's cache when it holds the game (archived games never change)."""
        cached = self._cache.get(game)
        if cached is None:
            try:
                cached = await asyncio.to_thread(self.read, game)
            except (
                Exception
            ) as error:  # a damaged file fails in any layer (gzip, zlib, JSON, msgpack, the game's types)
                raise ArchiveUnreadable(f"the archive of game {game} cannot be read: {error!r}") from error
            if cached is None:
                return None
            self._cache[game] = cached
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)
        self._cache.move_to_end(game)
        return cached


def _write_atomically(path: Path, body: bytes) -> None:
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(body)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    directory = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(directory)  # the rename itself survives a crash
    finally:
        os.close(directory)
