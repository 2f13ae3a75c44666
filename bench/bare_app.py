"""The baseline for the API benchmark: a bare Litestar endpoint doing one XADD (and WAIT for the
replicas when PANTHEON_WAIT_REPLICAS says), served by the API's own
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
# with PANTHEON_WAIT_REPLICAS (bench_load --replica), the write is acknowledged once replicated, as ours
_REPLICAS = int(os.environ.get("PANTHEON_WAIT_REPLICAS") or 0)


@post("/xadd", status_code=201)
async def xadd(data: dict) -> dict:
    key, fields = f"bench-bare:{data.get('game', 'g')}", {"e": str(data)}
    if not _REPLICAS:
        entry = await _redis.xadd(key, fields)
    else:
        async with _redis.pipeline(transaction=False) as pipe:
            pipe.xadd(key, fields).execute_command("WAIT", _REPLICAS, 1000)
            entry, _ = await pipe.execute()
    return {"id": entry.decode()}


app = Litestar([xadd])

if __name__ == "__main__":
    run_server(app, Settings.from_environ(os.environ))
