"""The deadlines every process's sweeper acts on (services/commands/timeouts.py), kept in Redis so
that a restart of any process loses none: match id -> a time (unix seconds), in zsets split into
partitions by match id (services/store/partitions.py), of which each process sweeps its share.
``clocks`` (family ``keys.CLOCKS``): the earliest deadline of a match's seats' clocks, written by
the projector; ``abandonments`` (``keys.ABANDON``): when a match every played seat has left is
abandoned."""

from __future__ import annotations

from typing import Any

from services.store import keys, resp
from services.store.connections import link_to
from services.store.partitions import Partitions, Shares, earliest


class DeadlineSet:
    def __init__(self, redis: Any, partitions: Partitions, shares: Shares, family: str, link: resp.Link) -> None:
        self.redis = redis
        self.link = link
        self.partitions = partitions
        self.shares = shares
        self.family = family

    def _key(self, match_id: str) -> str:
        return self.partitions.key(self.family, match_id)

    async def due(self, now: float, count: int) -> list[str]:
        """The matches of this process's share whose deadline is at or before ``now``, the
        earliest first, at most ``count``."""
        return await earliest(self.link, self.partitions.keys(self.family, await self.shares.held()), now, count)

    async def of(self, match_id: str) -> float | None:
        """The match's deadline, None if it has none."""
        at = await self.redis.zscore(self._key(match_id), match_id)
        return None if at is None else float(at)

    async def set(self, match_id: str, at: float) -> None:
        """The match's deadline is ``at``, whatever it was."""
        await self.redis.zadd(self._key(match_id), {match_id: at})

    async def set_once(self, match_id: str, at: float) -> None:
        """The match's deadline is ``at`` unless it has one already (that one is kept)."""
        await self.redis.zadd(self._key(match_id), {match_id: at}, nx=True)

    async def drop(self, match_id: str) -> None:
        await self.redis.zrem(self._key(match_id), match_id)


class Deadlines:
    def __init__(self, redis: Any, partitions: Partitions, shares: Shares, link: resp.Link | None = None) -> None:
        link = link or link_to(redis)
        self.clocks = DeadlineSet(redis, partitions, shares, keys.CLOCKS, link)
        self.abandonments = DeadlineSet(redis, partitions, shares, keys.ABANDON, link)
