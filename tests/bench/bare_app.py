"""The baseline for the API benchmark: a bare Litestar endpoint doing one XADD."""

from __future__ import annotations

import os

from litestar import Litestar, post
from redis.asyncio import Redis

_redis = Redis.from_url(os.environ["REDIS_URL"])


@post("/xadd", status_code=201)
async def xadd(data: dict) -> dict:
    entry = await _redis.xadd(f"bench-bare:{data.get('game', 'g')}", {"e": str(data)})
    return {"id": entry.decode()}


app = Litestar([xadd])
