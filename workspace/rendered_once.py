"""Work done once for the whole deployment, not once per server process: a value made by the first
process that needs it and kept for a short while in the Redis the channel layer already uses.

The first process to ask takes a lock (``SET NX`` with an expiry), makes the value and stores it,
compressed, under a key that expires; the others find the lock taken and read the value once it is
there. What is stored is bounded: a value larger than ``MAX_STORED_BYTES`` compressed is not kept
(each process then makes what it needs itself, as with one process), and every key expires. A lock
whose holder died expires too, and the next asker takes it. When Redis cannot be reached the value is
made here: delivery never waits on the store.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import zlib
from collections.abc import Callable, Coroutine
from typing import Any

from channels.layers import get_channel_layer
from channels_redis.core import RedisChannelLayer
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

TTL_MS = 120_000  # a page that fell behind catches up from the log for a while: it finds them still stored
LOCK_MS = 10_000  # a holder that takes longer (or died) lets the next asker make it
MAX_STORED_BYTES = 512 * 1024  # compressed; the roles' variants of one message are nearly alike
TOO_LARGE = b"-"  # stored instead of a value past the bound: every process makes its own, at once
FIRST_POLL_S, MAX_POLL_S = 0.002, 0.025


class DeploymentOnce:
    """``get(key, make)``: the JSON value of ``key``, made by ``make`` in one process of the deployment
    and read by the others from Redis; None when it is too large to share (the caller makes its own)."""

    def __init__(self, layer: RedisChannelLayer, *, ttl_ms: int = TTL_MS, max_bytes: int = MAX_STORED_BYTES) -> None:
        self.layer, self.ttl_ms, self.max_bytes = layer, ttl_ms, max_bytes
        self.prefix = f"{layer.prefix}:once:"

    async def get(self, key: str, make: Callable[[], Coroutine[Any, Any, Any]]) -> Any:
        name = self.prefix + key
        try:
            return await self._shared(name, make)
        except (RedisError, OSError) as lost:
            logger.warning("the shared store is out of reach (%s); made here", lost)
            return await make()

    async def _shared(self, name: str, make: Callable[[], Coroutine[Any, Any, Any]]) -> Any:
        redis = self.layer.connection(self.layer.consistent_hash(name))
        wait = FIRST_POLL_S
        for _ in range(3):  # a holder that died, twice over: then made here
            stored = await redis.get(name)
            if stored is not None:
                return self._decoded(stored)
            token = secrets.token_hex(8)
            if await redis.set(name + ":lock", token, nx=True, px=LOCK_MS):
                return await self._make_and_store(redis, name, token, make)
            while await redis.exists(name + ":lock"):  # another process makes it: read it once it is there
                stored = await redis.get(name)
                if stored is not None:
                    return self._decoded(stored)
                await asyncio.sleep(wait)
                wait = min(wait * 1.5, MAX_POLL_S)
        return await make()

    async def _make_and_store(
        self, redis: Any, name: str, token: str, make: Callable[[], Coroutine[Any, Any, Any]]
    ) -> Any:
        try:
            value = await make()
        except BaseException:
            await redis.delete(name + ":lock")  # the next asker tries at once, not after the lock's expiry
            raise
        packed = zlib.compress(json.dumps(value, ensure_ascii=False).encode(), 1)
        await redis.set(name, packed if len(packed) <= self.max_bytes else TOO_LARGE, px=self.ttl_ms)
        return value

    def _decoded(self, stored: bytes) -> Any:
        if stored == TOO_LARGE:
            return None
        return json.loads(zlib.decompress(stored))


def deployment_once() -> DeploymentOnce | None:
    """The deployment's shared store, on the channel layer's Redis; None with the in-memory layer (one
    process: what the process makes once is already made once for the deployment)."""
    layer = get_channel_layer()
    return DeploymentOnce(layer) if isinstance(layer, RedisChannelLayer) else None
