"""The baseline for the API benchmark: a bare Litestar endpoint doing one XADD, served by the API's own
HTTP stack (`service.http.server.run_server`: the same protocol, event loop and limits, from the same
PANTHEON_* settings), so that its ratio to our API measures our work, not the server's.

    REDIS_URL=… PANTHEON_PORT=8001 .venv/bin/python -m bench.bare_app
"""

from __future__ import annotations

import os

from litestar import Litestar, post
from redis.asyncio import Redis

from service.config import Settings
from service.http.server import run_server

_redis = Redis.from_url(os.environ["REDIS_URL"])


@post("/xadd", status_code=201)
async def xadd(data: dict) -> dict:
    entry = await _redis.xadd(f"bench-bare:{data.get('game', 'g')}", {"e": str(data)})
    return {"id": entry.decode()}


app = Litestar([xadd])

if __name__ == "__main__":
    run_server(app, Settings.from_environ(os.environ))
