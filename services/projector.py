"""The projector: fold each dirty match from where the views stand and write every seat's view
and the spectator's together with the new checkpoint (views.lua), then publish a notice.

Coalescing spreads a job's cost over many events and matches: an append marks its match dirty
(a set member, so a busy match is marked once however many commands arrive); a job is queued
only when no drain job is running (dirty.lua, release.lua), and one job drains up to ``batch``
dirty matches at a time, as long as there are any, for up to ``budget_s``.
A match is claimed under a lease (claim.lua): a worker killed mid-projection leaves the claim to
expire, the next job puts it back in the dirty set and projects it again from the log; the views
of a version are a pure function of the log, so the redo writes the same views.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from dataclasses import dataclass
from typing import Any

import msgspec

from projections.views import all_views
from services import keys, logs, notices
from services.bots import Bots
from services.folds import Folds
from services.matches import Matches
from services.notices import Notice
from services.store import Call, EventStore, script

log = logs.get("tavern.projector")


@dataclass(frozen=True, slots=True)
class Drained:
    again: bool  # the budget ran out with work left: queue the next drain job
    helper: bool  # a full batch was seen: queue one more job, for another worker to share the load


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
        parallel: int = 4,
    ) -> None:
        self.parallel = parallel  # drain jobs at once, at most, when there is a backlog
        self.bots = bots
        self.matches = matches
        self.folds = folds
        self.store = store
        self.queue = queue
        self.lease_s = lease_s
        self.batch = batch
        self._claim = queue.register_script(script("claim.lua"))
        self._release = queue.register_script(script("release.lua"))
        self._dirty = queue.register_script(script("dirty.lua"))
        self._projected: dict[str, int] = {}  # match id -> version this process last wrote

    def dirty_call(self, match_id: str) -> Call:
        """The dirty.lua call for an append to this match (sent along with it, or alone)."""
        return Call(self._dirty, [keys.DIRTY, keys.ACTIVE, keys.WAKE], [match_id, time.time()])

    async def mark_dirty(self, match_id: str) -> bool:
        """After an append; True if a drain job must be queued (none is running to see it)."""
        call = self.dirty_call(match_id)
        return bool(await call.script(keys=call.keys, args=call.args))

    async def drain(self, budget_s: float = 2.0, linger_s: float = 0.2) -> Drained:
        """Project dirty matches until none is left (for ``linger_s``) or the budget is spent.

        While a drain job runs, appends queue no further jobs (dirty.lua): under load one RQ job
        projects thousands of events of many matches, instead of paying RQ's ~57 Redis commands
        and a dequeue per command. Lingering a moment before letting go keeps a busy server on
        the same job between bursts."""
        token = secrets.token_hex(8)
        deadline = time.monotonic() + budget_s
        idle_since: float | None = None
        backlog = False
        while True:
            args = [time.time(), self.lease_s, self.batch, token]
            claimed = await self._claim(keys=[keys.DIRTY, keys.CLAIMED, keys.ACTIVE], args=args)
            if claimed:
                idle_since = None
                backlog = backlog or len(claimed) == self.batch
                ids = [raw.decode() for raw in claimed]
                await asyncio.gather(*(self.project(match_id) for match_id in ids))
                await self.queue.zrem(keys.CLAIMED, *ids)
                if time.monotonic() > deadline:
                    await self.queue.zrem(keys.ACTIVE, token)
                    helper = backlog and await self.queue.zcard(keys.ACTIVE) < self.parallel
                    return Drained(again=True, helper=helper)
                continue
            now = time.monotonic()
            idle_since = idle_since or now
            if now - idle_since < linger_s:
                await self.queue.blpop([keys.WAKE], timeout=linger_s)  # dirty.lua wakes us
            elif not await self._release(keys=[keys.DIRTY, keys.ACTIVE], args=[token]):
                return Drained(again=False, helper=False)

    async def project(self, match_id: str) -> None:
        match = await self.matches.get(match_id)
        if match is None:
            return
        folded = await self.folds.load(match)
        if folded.version <= self._projected.get(match_id, 0):
            return
        with logs.bind(match_id=match_id):
            views = all_views(match.game, match_id, folded.state, folded.version, match.setup.seats)
            raw = {name: msgspec.Raw(view) for name, view in views.items()}
            notice = notices.encode(Notice(match_id, folded.version, folded.last_time, raw))
            await self.store.write_views(match_id, folded.version, views, notice)
            log.debug("projected", version=folded.version)
            if match.bots:
                await self.bots.play(match, folded.version, views)
            if len(self._projected) > 100_000:
                self._projected.clear()  # only a cache: a miss costs one recompute of the views
            self._projected[match_id] = folded.version  # only now: a failed bot turn is redone
