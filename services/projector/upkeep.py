"""A process's duties towards the projector, gateway or worker alike: after each append, the match
marked dirty on its queue instance (``appended``); and every second, a sweep of every queue
instance: a drain job queued where none holds a slot (or a dead worker's lapsed), the matches appended
to while that instance was away are marked dirty once it is back; then the process's own periodic
duty runs (the clocks' deadlines) and a Redis that restarted empties the caches."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

from domain.games import game_ids
from services.ops import logs, metrics
from services.store.drain_jobs import DrainJobs
from services.store.lifecycle import Lifecycle
from services.store.outage import REDIS_DOWN, redis_error
from services.store.projector_queue import Backlog, ProjectorQueue, instance_of
from services.store.unmarked import Unmarked

log = logs.get("tavern.runtime")
RECENT_S = 60.0  # how far back a process re-marks its matches after the queue's Redis was lost
SWEEP_EVERY_S = 1.0  # how often a process sweeps


class Upkeep:
    def __init__(
        self,
        queues: list[ProjectorQueue],
        lifecycle: Lifecycle,
        unmarked: list[Unmarked],
        jobs: list[DrainJobs],
        run_id: Callable[[], Awaitable[str | None]],
        on_restart: Callable[[], None],
        apart: bool,
    ) -> None:
        """Per queue instance (a match's by ``instance_of``): its bookkeeping, its deferred marks
        and its drain jobs."""
        self.queues = queues
        self.lifecycle = lifecycle
        self.unmarked = unmarked
        self.jobs = jobs
        self._run_id = run_id  # the events' Redis's run (None: not watched)
        self._on_restart = on_restart  # drops the process's caches
        self._apart = apart  # the queue on a Redis of its own, which may be away while the events' is not
        self.run_id: str | None = None  # the Redis run this process's caches were filled from
        self._kicks = [asyncio.Event() for _ in queues]
        self._tasks: list[asyncio.Task[None]] = []
        self._stopping = False
        self._recent: dict[str, float] = {}  # match id -> when this process last appended to it
        self._queue_lost = [False] * len(queues)  # a sweep failed: that instance was down (a failover?)

    def start(self, *duties: Callable[[float], Awaitable[object]]) -> None:
        """Run, with each ``duty(now)`` in every sweep (the clocks' deadlines, hibernation)."""

        async def duty(now: float) -> None:
            for each in duties:
                await each(now)

        self._kicks = [asyncio.Event() for _ in self.queues]
        self._tasks = [
            *(asyncio.create_task(self._kick_forever(index)) for index in range(len(self.queues))),
            asyncio.create_task(self._sweep_forever(duty)),
        ]
        # whatever a previous process left dirty: the first sweep, at once, queues a drain if no
        # job runs (not one per process started: a drain job waits for work through its budget)

    def stop(self) -> None:
        # the flag too: a cancellation that lands in some awaited call of a duty can be lost there
        # (seen at shutdown: the sweep looping on, and the event loop's closing waiting for it forever)
        self._stopping = True
        for task in self._tasks:
            task.cancel()

    def instance(self, match_id: str) -> int:
        return instance_of(match_id, len(self.queues))

    async def appended(self, match_id: str, marked: bool = False) -> None:
        """After an append: the match's views are behind; mark it dirty on its queue instance
        (unless the append did, ``marked``), where the running drain job is woken. Nothing here
        costs the command an answer: a queue instance away only delays the projection."""
        self._recent[match_id] = time.monotonic()
        if marked:
            return
        index = self.instance(match_id)
        try:
            await self.queues[index].mark_dirty(match_id)
        except REDIS_DOWN:
            # the queue's Redis is away, the events are stored: the command is answered, and
            # the match noted beside its events, where any process's sweeper finds it and
            # marks it once the queue's Redis is back (this process may be gone by then)
            log.warning("mark_deferred", match_id=match_id, queue=index)
            await self.unmarked[index].note(match_id)

    async def _mark_deferred(self, index: int) -> None:
        marking = await self.unmarked[index].all()
        if marking:
            await asyncio.gather(*map(self.queues[index].mark_dirty, marking))
            await self.unmarked[index].marked(marking)

    async def _kick_forever(self, index: int) -> None:
        # One enqueue per wake-up, however many matches turned dirty meanwhile: an RQ enqueue
        # costs several Redis commands and runs in a thread (RQ is synchronous). A match marked
        # dirty before the flag is cleared is seen by the job queued after it.
        kick = self._kicks[index]
        while True:
            await kick.wait()
            kick.clear()
            try:
                await asyncio.to_thread(self.jobs[index].enqueue)
            except REDIS_DOWN as problem:  # an outage: one line, no traceback, every half second
                redis_error("enqueue", problem)
                log.warning("enqueue_failed", error=str(problem), queue=index)
                await asyncio.sleep(0.5)
                kick.set()
            except Exception:
                log.exception("enqueue_failed", queue=index)
                await asyncio.sleep(0.5)
                kick.set()

    async def _sweep_forever(self, duty: Callable[[float], Awaitable[object]], every_s: float = SWEEP_EVERY_S) -> None:
        # A worker killed mid-projection leaves a claim (and its job's slot) behind and maybe no
        # job to come: once the lease has expired, queue a drain, which puts the match back and
        # projects it again. And a Redis that restarted empties this process's caches. Each queue
        # instance is swept on its own: one being away delays only its own matches.
        while not self._stopping:  # the first sweep at once: a job queued for the first command
            now = time.time()
            dirty, oldest = 0, now
            for index in range(len(self.queues)):
                backlog = await self._sweep_queue(index, now)
                if backlog is not None:
                    dirty += backlog.dirty
                    oldest = min(oldest, backlog.oldest_at or now)
            try:
                await duty(now)
                metrics.gauge_lifecycle(dirty, now - oldest, await self.lifecycle.playing(game_ids()))
                await self._check_run()
                if len(self._recent) > 10_000 and not any(self._queue_lost):
                    since = time.monotonic() - RECENT_S
                    self._recent = {match_id: at for match_id, at in self._recent.items() if at >= since}
            except REDIS_DOWN as problem:
                redis_error("sweeper", problem)
                log.warning("sweep_failed", error=str(problem))
            except Exception:
                log.exception("sweep_failed")
            await asyncio.sleep(every_s)

    async def _sweep_queue(self, index: int, now: float) -> Backlog | None:
        """Queue instance ``index``'s share of a sweep: its deferred marks, a job where one is
        due, its matches marked again after it was lost. None: it is away."""
        try:
            if self._apart:
                await self._mark_deferred(index)
            backlog = await self.queues[index].backlog(now)
            # a drain job always runs (it waits for work through its budget; the marks queue
            # none): one is queued where none holds a slot, or a dead worker's slot lapsed
            if backlog.expired or not backlog.running:
                self._kicks[index].set()
            if self._queue_lost[index]:
                await self._mark_recent_again(index)
            return backlog
        except REDIS_DOWN as problem:
            self._queue_lost[index] = True
            redis_error("sweeper", problem)
            log.warning("sweep_failed", error=str(problem), queue=index)
        except Exception:
            self._queue_lost[index] = True
            log.exception("sweep_failed", queue=index)
        return None

    async def _check_run(self) -> None:
        """A new Redis run (a restart: without persistence it holds nothing of before): drop the caches."""
        run_id = await self._run_id()
        if run_id is not None and self.run_id is not None and run_id != self.run_id:
            log.warning("redis_restarted", previous=self.run_id, run_id=run_id)
            self._on_restart()
        self.run_id = run_id

    async def _mark_recent_again(self, index: int, within_s: float = RECENT_S) -> None:
        """Queue instance ``index`` came back, maybe a promoted replica that missed the last marks:
        mark every match of it this process appended to lately dirty again (the streams are the
        truth; a match already projected costs a fold and writes nothing)."""
        since = time.monotonic() - within_s
        self._recent = {match_id: at for match_id, at in self._recent.items() if at >= since}
        again = [match_id for match_id in self._recent if self.instance(match_id) == index]
        await asyncio.gather(*map(self.queues[index].mark_dirty, again))
        self._queue_lost[index] = False
        log.info("marked_again", matches=len(again), queue=index)
