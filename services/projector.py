"""The projector: fold each dirty match from where the views stand and write every seat's view
and the spectator's together with the new checkpoint (views.lua), then publish a notice.

Coalescing spreads a job's cost over many events and matches: an append marks its match dirty
(a set member, so a busy match is marked once however many commands arrive), and one job drains
up to ``batch`` dirty matches at a time, as long as there are any, for up to ``budget_s``.
A match is claimed under a lease (claim.lua): a worker killed mid-projection leaves the claim to
expire, the next job puts it back in the dirty set and projects it again from the log; the views
of a version are a pure function of the log, so the redo writes the same views.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from projections.views import all_views
from services import keys, logs
from services.bots import Bots
from services.folds import Folds
from services.matches import Matches
from services.store import EventStore, script

log = logs.get("tavern.projector")


class Projector:
    def __init__(
        self,
        matches: Matches,
        folds: Folds,
        store: EventStore,
        queue: Any,
        bots: Bots,
        lease_s: float = 5.0,
        batch: int = 64,
    ) -> None:
        self.bots = bots
        self.matches = matches
        self.folds = folds
        self.store = store
        self.queue = queue
        self.lease_s = lease_s
        self.batch = batch
        self._claim = queue.register_script(script("claim.lua"))
        self._projected: dict[str, int] = {}  # match id -> version this process last wrote

    async def mark_dirty(self, match_id: str) -> bool:
        """True if the match was clean: then a drain job must be queued."""
        return bool(await self.queue.sadd(keys.DIRTY, match_id))

    async def drain(self, budget_s: float = 0.5) -> bool:
        """Project dirty matches until none is left or the budget is spent; True if work is left."""
        deadline = time.monotonic() + budget_s
        while True:
            claimed = await self._claim(keys=[keys.DIRTY, keys.CLAIMED], args=[time.time(), self.lease_s, self.batch])
            if not claimed:
                return False
            ids = [raw.decode() for raw in claimed]
            await asyncio.gather(*(self.project(match_id) for match_id in ids))
            await self.queue.zrem(keys.CLAIMED, *ids)
            if time.monotonic() > deadline:
                return True

    async def project(self, match_id: str) -> None:
        match = await self.matches.get(match_id)
        if match is None:
            return
        folded = await self.folds.load(match)
        if folded.version <= self._projected.get(match_id, 0):
            return
        with logs.bind(match_id=match_id):
            views = all_views(match.game, match_id, folded.state, folded.version, match.setup.seats)
            notice = f"{match_id} {folded.version} {folded.last_time}"
            await self.store.write_views(match_id, folded.version, views, notice)
            log.debug("projected", version=folded.version)
            if match.bots:
                await self.bots.play(match, folded.version, views)
            if len(self._projected) > 100_000:
                self._projected.clear()  # only a cache: a miss costs one recompute of the views
            self._projected[match_id] = folded.version  # only now: a failed bot turn is redone
