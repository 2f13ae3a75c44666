"""Acknowledged means replicated: the one place that decides whether the store may answer "stored".

A write (or a read of a stored outcome that a retry is answered from) runs as a Lua script on the
master of its keys, followed in one pipeline, on the same connection, by a proof write in the keys'
hash tag and `WAIT n timeout`: WAIT counts only the writes of its own connection, and the proof write
comes after whatever the script wrote or found, so a replica that acknowledged it holds all of that.
How many replicas must confirm is the deployment's promise (PANTHEON_WAIT_REPLICAS: by default 1 on a
Redis Cluster, 0 on a single Redis), never the number that happens to be connected. Fewer in time, or
a master that refuses the write itself for want of replicas (NOREPLICAS: min-replicas-to-write), is
ReplicationUnconfirmed: answered 503 `not_replicated`, never as stored."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from redis.asyncio import Redis, RedisCluster
from redis.commands.core import AsyncScript
from redis.exceptions import AskError, MovedError, RedisError, ResponseError

from service.config import default

from .connection import BoundedCluster, connect_node

# the defaults of PANTHEON_WAIT_REPLICAS (None: by deployment) and PANTHEON_WAIT_TIMEOUT_MS: each
# role passes its own settings' values
WAIT_REPLICAS: int | None = default("wait_replicas")
WAIT_TIMEOUT_MS: int = default("wait_timeout_ms")
PROOF_TTL_MS = 60_000  # the proof key is one per hash tag, overwritten by every proof; it expires when idle


class ReplicationUnconfirmed(RedisError):
    """Fewer replicas than the deployment requires confirmed a write (or the stored outcome a retry
    is answered from) in time, or the master refused the write for want of replicas (`refused`): it
    may or may not be stored, and may not survive a failover (503 `not_replicated`)."""

    def __init__(self, wanted: int, confirmed: int, *, refused: bool = False) -> None:
        said = (
            "the master refused the write: too few replicas"
            if refused
            else f"{confirmed} of {wanted} replicas confirmed the write in time"
        )
        super().__init__(said)
        self.wanted, self.confirmed, self.refused = wanted, confirmed, refused


def refused_for_replicas(error: RedisError) -> bool:
    """Whether Redis refused a write because too few replicas are connected (min-replicas-to-write).
    (redis-py has no class of its own for NOREPLICAS, and a pipeline prefixes the message.)"""
    return isinstance(error, ReplicationUnconfirmed) or (
        isinstance(error, ResponseError) and "NOREPLICAS" in str(error)
    )


def default_replicas(redis: Redis | RedisCluster) -> int:
    """The replicas an acknowledgement needs when PANTHEON_WAIT_REPLICAS is unset: every master of a
    Redis Cluster has one; a single Redis (the embedded default) has none unless its operator says."""
    return 1 if isinstance(redis, RedisCluster) else 0


def proof_key(key: str) -> str:
    """A key in `key`'s hash slot written to prove it: `{tag}:proof` (a key without a tag is its own)."""
    tag = key[1 : key.index("}")] if key.startswith("{") and "}" in key else key
    return f"{{{tag}}}:proof"


Stored = Callable[[Any], bool]  # which results of a script say "stored" (and need the proof)


class Acknowledger:
    """Runs the store's writes on the master of their keys and proves them replicated."""

    def __init__(
        self,
        redis: Redis | RedisCluster,
        wait_replicas: int | None = WAIT_REPLICAS,
        wait_timeout_ms: int = WAIT_TIMEOUT_MS,
    ) -> None:
        self.redis = redis
        self.wanted = default_replicas(redis) if wait_replicas is None else wait_replicas
        self.wait_timeout_ms = wait_timeout_ms
        self._nodes: dict[str, Redis] = {}  # on a cluster: a plain client per master, for script + WAIT

    async def run(self, script: AsyncScript, keys: list[str], args: list, stored: Stored = bool) -> Any:
        """May I acknowledge this? `script`'s result, once `wanted` replicas confirmed it where
        `stored(result)` says it is stored; ReplicationUnconfirmed otherwise (a result that stores
        nothing is returned anyway). A slot that moved meanwhile (MOVED: nothing ran) is tried once
        more on its new master."""
        for attempt in (1, 2):
            client = await self._master_of(keys[0])
            try:
                return await self._proven(client, script, keys, args, stored)
            except (MovedError, AskError):
                if attempt == 2:
                    raise
                await self._relearn_slots()
            except ResponseError as error:
                if refused_for_replicas(error):  # nothing written: the master refused its first write
                    raise ReplicationUnconfirmed(self.wanted, 0, refused=True) from error
                raise
            except ReplicationUnconfirmed:
                raise
            except RedisError:
                await self._relearn_slots()  # a master gone: its replica may be promoted by the next write
                raise
        raise AssertionError("unreachable")

    async def _proven(self, client: Redis, script: AsyncScript, keys: list[str], args: list, stored: Stored) -> Any:
        if not self.wanted:
            return await script(keys=keys, args=args, client=client)
        async with client.pipeline(transaction=False) as pipe:
            await script(keys=keys, args=args, client=pipe)
            pipe.set(proof_key(keys[0]), 1, px=PROOF_TTL_MS)
            pipe.execute_command("WAIT", self.wanted, self.wait_timeout_ms)
            result, _, confirmed = await pipe.execute()
        if stored(result) and int(confirmed) < self.wanted:
            raise ReplicationUnconfirmed(self.wanted, int(confirmed))
        return result

    async def _master_of(self, key: str) -> Redis:
        if not isinstance(self.redis, RedisCluster):
            return self.redis
        await self.redis.initialize()  # learns the slots once (a no-op after)
        node = self.redis.get_node_from_key(key)
        assert node is not None  # None only when a replica is asked for
        client = self._nodes.get(node.name)
        if client is None:
            # with the cluster client's timeout and pool (the role's settings), as `connect` made it
            options: dict[str, Any] = (
                {"timeout_s": self.redis.timeout_s, "pool_size": self.redis.pool_size}
                if isinstance(self.redis, BoundedCluster)
                else {}
            )
            # redis-py types a node's port str | int
            client = self._nodes[node.name] = connect_node(node.host, int(node.port), **options)
        return client

    async def _relearn_slots(self) -> None:
        if isinstance(self.redis, RedisCluster):
            with contextlib.suppress(RedisError):
                await self.redis.nodes_manager.initialize()

    async def close(self) -> None:
        """Close the clients of the cluster's masters (the caller closes `redis`)."""
        for client in self._nodes.values():
            await client.aclose()
        self._nodes.clear()
