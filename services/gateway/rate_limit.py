"""Rate limits per seat token and per client address, as token buckets in Redis (rate_limit.lua),
so that they hold across every gateway. Past one: the API's 429 with ``Retry-After``."""

from __future__ import annotations

import hashlib
import math
from pathlib import Path
from typing import Any

from services.gateway.access import ApiError
from services.ops.limits import Limits
from services.store import resp
from services.store.event_store import Call, reply, run_scripts

_SCRIPT = (Path(__file__).parent / "rate_limit.lua").read_text()


def _who(secret: str) -> str:
    """A token's name in a key: its digest, so that Redis's key space never holds a token."""
    return hashlib.blake2b(secret.encode("utf-8", "replace"), digest_size=12).hexdigest()


def address_of(scope: dict[str, Any]) -> str:
    client = scope.get("client")
    return client[0] if client else "unknown"


class RateLimiter:
    def __init__(self, redis: Any, limits: Limits, link: resp.Link | None = None) -> None:
        """On ``redis``'s Redis, through ``link`` (the hot paths' own connection to it: a command's
        check costs the gateway a third of the CPU it does through redis-py's script object)."""
        self.limits = limits
        self._script = redis.register_script(_SCRIPT)
        self._link = link or resp.Pooled(redis)

    async def creates(self, address: str, creator: str | None, authorization: str | None = None) -> None:
        """Per address, and per API key and per bearer token (a player's) when sent, wherever they
        call from; the token is not looked up first: a bucket per token sent is as cheap."""
        buckets = []
        if self.limits.creates_per_s > 0:
            rate = self.limits.creates_per_s, self.limits.creates_burst
            buckets.append((f"rate:create:{address}", *rate))
            if creator is not None:
                buckets.append((f"rate:create:key:{_who(creator)}", *rate))
            if authorization:
                buckets.append((f"rate:create:token:{_who(authorization)}", *rate))
        await self._check(buckets, "matches created")

    async def players(self, address: str) -> None:
        """Registering a player is a creation too (its record is kept): per address, at the creates' rate."""
        if self.limits.creates_per_s > 0:
            await self._check([(f"rate:player:{address}", self.limits.creates_per_s, self.limits.creates_burst)],
                              "players registered")

    async def commands(self, address: str, token: str) -> None:
        limits, buckets = self.limits, []
        if limits.commands_per_s_token > 0:
            buckets.append((f"rate:cmd:token:{_who(token)}", limits.commands_per_s_token, limits.commands_burst_token))
        if limits.commands_per_s_address > 0:
            buckets.append((f"rate:cmd:addr:{address}", limits.commands_per_s_address, limits.commands_burst_address))
        await self._check(buckets, "commands")

    async def _check(self, buckets: list[tuple[str, float, int]], what: str) -> None:
        if not buckets:
            return
        args: list[Any] = []
        for _, per_s, burst in buckets:
            args += (per_s, burst)
        call = Call(self._script, [key for key, _, _ in buckets], args)
        taken, wait_ms = reply((await run_scripts(self._link, [call]))[0])
        if not int(taken):
            retry = max(1, math.ceil(int(wait_ms) / 1000))
            raise ApiError(429, "rate_limited", f"too many {what}: retry after {retry} s", retry)
