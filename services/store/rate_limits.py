"""Token buckets in Redis (rate_limit.lua beside it, bucket.py's), shared by every gateway: one token taken from
each of several buckets at once, or none. On the events' Redis, never on the queue's: a bucket
lives under the hash tag of whom it counts (a Cluster spreads them over its shards), a seat
token's under its match's (the command's own shard), so a queue failover costs no command a 503.

The buckets of one check on one hash tag are taken from in one script call, all or none. A check
naming several (a creation: per address, per API key, per bearer token) looks at every one first
and takes only if all hold a token: two round trips, for creations and registrations only; a
bucket emptied by another gateway between the two is refused alone, the others keeping the token
they gave (docs/LIMITS.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from services.store import resp
from services.store.bucket import Bucket
from services.store.connections import link_to
from services.store.event_store import Call, reply, run_scripts, script

_TAKE, _LOOK = 1, 0


class RateLimits:
    def __init__(self, redis: Any, link: resp.Link | None = None) -> None:
        """On ``redis``'s Redis (the events'), through ``link`` (the hot paths' own connection to
        it: a command's check costs the gateway a third of the CPU it does through redis-py's
        script object; on a Cluster, routed to each bucket's shard)."""
        self._script = redis.register_script(script(Path(__file__).parent / "rate_limit.lua", "bucket.lua"))
        self._link = link or link_to(redis)

    async def take(self, buckets: list[Bucket]) -> int:
        """A token from every bucket: 0, or none taken and the milliseconds until each holds one."""
        groups: dict[str, list[Bucket]] = {}
        for bucket in buckets:
            groups.setdefault(bucket.tag, []).append(bucket)
        if len(groups) > 1:
            wait_ms = await self._run(list(groups.values()), _LOOK)
            if wait_ms:
                return wait_ms
        return await self._run(list(groups.values()), _TAKE) if groups else 0

    async def _run(self, groups: list[list[Bucket]], mode: int) -> int:
        calls = []
        for group in groups:
            args: list[Any] = [mode]
            for bucket in group:
                args += (bucket.per_s, bucket.burst)
            calls.append(Call(self._script, [bucket.key for bucket in group], args))
        waits = [reply(answer) for answer in await run_scripts(self._link, calls)]
        return max(0 if int(taken) else int(wait_ms) for taken, wait_ms in waits)
