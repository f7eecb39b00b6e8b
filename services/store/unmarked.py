"""Matches appended to while the queue's Redis was away (QUEUE_URL set): noted beside their events,
in sets split into partitions by match id (services/store/partitions.py), where the sweeper of
the process whose share holds it marks it dirty once the queue's Redis is back (the process that
appended may be gone by then)."""

from __future__ import annotations

from typing import Any

from services.store import keys, resp
from services.store.connections import link_to
from services.store.event_store import reply
from services.store.partitions import Partitions, Shares


class Unmarked:
    def __init__(
        self, redis: Any, partitions: Partitions, shares: Shares, link: resp.Link | None = None, instance: int = 0
    ) -> None:
        self.redis = redis  # the events' Redis
        self.link = link or link_to(redis)
        self.partitions = partitions
        self.shares = shares
        self.family = keys.unmarked(instance)  # those of one queue instance

    async def note(self, match_id: str) -> None:
        await self.redis.sadd(self.partitions.key(self.family, match_id), match_id)

    async def all(self) -> list[str]:
        """The matches noted in this process's share."""
        names = self.partitions.keys(self.family, await self.shares.held())
        found = await self.link.exchange([["SMEMBERS", name] for name in names], True) if names else []
        return sorted(raw.decode() for members in found for raw in reply(members))

    async def marked(self, match_ids: list[str]) -> None:
        """``match_ids`` have been marked dirty: no longer noted."""
        commands = [["SREM", self.partitions.key(self.family, match_id), match_id] for match_id in match_ids]
        for answer in await self.link.exchange(commands) if commands else []:
            reply(answer)
