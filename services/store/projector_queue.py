"""The projector's bookkeeping on a queue instance's Redis: which matches are dirty (their views
behind their log), which each drain job holds under its lease, which jobs hold a slot, the
wake-up a waiting job blocks on, and the workers' heartbeats. With several queue instances a
match's bookkeeping is on one of them (``instance_of``).

The dirty set is a zset (match id -> when it turned dirty), drained oldest first: a random pick
(a set's SPOP) left some matches waiting step after step under load. Marking (two plain
commands here, or dirty.lua's function inside append.lua) wakes a waiting job; a job always runs
(services/projector/upkeep.py queues one where none holds a slot), so a mark queues none.
Claiming (claim.lua) puts a lapsed job's matches back at the front first; a job finding nothing
lets go of its slot only if nothing turned dirty meanwhile (release.lua), so no wake-up is lost;
a job that another live job makes surplus stands down (retire.lua), the other woken.
A match is held by one live job at a time (held.lua): one marked dirty again while its job
projects it is left to that job, which is woken on its own wake-up to take it again; another job
takes it only once that job's slot has lapsed.

What an accepted command costs this Redis (tests/service/projector/test_queue_calls.py counts
it): its mark (ZADD twice, shared by the commands answered meanwhile), and its share of a drain
step (the wake-up's BZPOPMIN, the claim's EVALSHA, ZRANGE, ZPOPMIN and HSET, and an HMGET where
other jobs run, shared by the matches and commands of a step).
"""

from __future__ import annotations

import time
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from services.store import keys, resp
from services.store.batching import Batched
from services.store.connections import link_to
from services.store.event_store import Call, Record, records_of, reply, run_scripts, script

_HERE = Path(__file__).parent
BEAT_S = 2.0  # a worker's heartbeat: readiness counts the workers heard within three
BEATS_KEPT_S = 60.0  # a heartbeat older than this is dropped


def instance_of(match_id: str, count: int) -> int:
    """The queue instance (of ``count``) that keeps ``match_id``'s bookkeeping and jobs: by a hash
    of its id, the same in every process (Python's ``hash`` of a str is salted per process)."""
    return zlib.crc32(match_id.encode()) % count if count > 1 else 0


@dataclass(frozen=True, slots=True)
class Claim:
    match_ids: list[str]  # claimed, dirty longest first
    tails: dict[str, tuple[int, list[Record]]]  # where the logs live on this Redis: checkpoint and entries after it
    since: list[float]  # when each claimed match turned dirty (unix s; 0: put back after a lapsed claim)
    others: int = 0  # other jobs holding a live slot


@dataclass(frozen=True, slots=True)
class Backlog:
    dirty: int  # matches whose views are behind their log
    oldest_at: float | None  # when the longest-waiting of them turned dirty (unix s)
    expired: int  # jobs whose lease has lapsed (their worker died), their claims not yet put back
    running: int  # drain jobs holding a live slot


class ProjectorQueue:
    def __init__(
        self, redis: Any, link: resp.Link | None = None, waiter: resp.Link | None = None, tails: bool = False
    ) -> None:
        """On ``redis``'s Redis, through ``link`` (claims and marks) and ``waiter`` (the blocking
        wait for a wake-up: a connection of its own). ``tails``: the matches' logs live on this
        Redis too, so a claim brings each claimed match's tail along."""
        self.redis = redis
        self.link = link or link_to(redis)
        self.waiter = waiter or link_to(redis)
        self.tails = tails
        # held.lua: what the other live jobs hold, which the three scripts need
        self._claim = redis.register_script(script(_HERE / "claim.lua", "held.lua"))
        self._release = redis.register_script(script(_HERE / "release.lua", "held.lua"))
        self._retire = redis.register_script(script(_HERE / "retire.lua", "held.lua"))
        self._marks = Batched(self._mark_all)

    async def mark_dirty(self, match_id: str) -> None:
        """After an append: the match is dirty (a match already dirty keeps its time), and a
        waiting job is woken. The marks of commands answered meanwhile go in one round trip."""
        await self._marks(match_id)

    async def _mark_all(self, match_ids: list[str]) -> list[None]:
        now = time.time()
        scored = [word for match_id in dict.fromkeys(match_ids) for word in (now, match_id)]
        # the wake-up even for a match dirty already: a call fewer than asking whether it was
        marked, woken = await self.link.exchange([["ZADD", keys.DIRTY, "NX", *scored], ["ZADD", keys.WAKE, 0, "w"]])
        reply(marked), reply(woken)
        return [None] * len(match_ids)

    async def claim(
        self, token: str, lease_s: float, count: int, done: list[str], now: float | None = None, renew: bool = True
    ) -> Claim:
        """Up to ``count`` dirty matches, claimed by the job ``token``, after letting go of
        ``done``, the matches it projected since its last claim. ``renew``: the job's slot (the
        lease of its claims) renewed for ``lease_s`` and lapsed jobs' matches put back first (a
        job does it every third of a lease, not every step; a job whose slot lapsed renews it
        whatever this says). A match another live job holds is not claimed."""
        now = time.time() if now is None else now
        args = [now, lease_s, count, token, int(self.tails), int(renew), int(bool(done)), keys.JOB_WAKE]
        (answer,) = await run_scripts(self.link, [Call(self._claim, [keys.DIRTY, keys.CLAIMS, keys.ACTIVE], args)])
        claimed, tails, since, others = reply(answer)
        match_ids = [raw.decode() for raw in claimed]
        read = zip(match_ids, tails, strict=True) if tails else ()
        known = {match_id: (after, records_of(entries)) for match_id, (after, entries) in read}
        return Claim(match_ids, known, [float(score) for score in since], int(others))

    async def wait(self, token: str, timeout_s: float) -> None:
        """Until a match turns dirty (a mark adds the wake-up), another job left the job ``token``
        a match it holds (its own wake-up), or ``timeout_s`` passes."""
        (woken,) = await self.waiter.exchange([["BZPOPMIN", keys.job_wake(token), keys.WAKE, timeout_s]])
        reply(woken)

    async def release(self, token: str, now: float | None = None) -> int | None:
        """The job ``token`` found nothing: it lets go of its slot, unless a match turned dirty
        meanwhile that no other live job holds (None: it must go on); how many jobs still hold a
        live slot."""
        now = time.time() if now is None else now
        call = Call(self._release, [keys.DIRTY, keys.ACTIVE, keys.CLAIMS], [token, now, keys.JOB_WAKE])
        (answer,) = await run_scripts(self.link, [call])
        left = int(reply(answer))
        return None if left < 0 else left

    async def retire(self, token: str, now: float | None = None) -> bool:
        """The job ``token`` stands down if another job holds a live slot (the one left is woken
        for what is dirty): whether it did."""
        now = time.time() if now is None else now
        named = [keys.DIRTY, keys.ACTIVE, keys.CLAIMS, keys.WAKE]
        (answer,) = await run_scripts(self.link, [Call(self._retire, named, [token, now, keys.JOB_WAKE])])
        return int(reply(answer)) > 0

    async def stop(self, token: str, now: float | None = None) -> int:
        """The job ``token`` stops with work left: lets go of its claims, its slot and its own
        wake-up; how many jobs still hold a live slot."""
        now = time.time() if now is None else now
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hdel(keys.CLAIMS, token).zrem(keys.ACTIVE, token).delete(keys.job_wake(token))
            pipe.zcount(keys.ACTIVE, now, "+inf")
            *_, running = await pipe.execute()
        return int(running)

    async def backlog(self, now: float | None = None) -> Backlog:
        """What waits, in one round trip of three calls (every process asks each second)."""
        now = time.time() if now is None else now
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zrange(keys.ACTIVE, 0, -1, withscores=True).zcard(keys.DIRTY).zrange(keys.DIRTY, 0, 0, withscores=True)
            slots, dirty, oldest = await pipe.execute()
        expired = sum(deadline <= now for _, deadline in slots)
        return Backlog(dirty, oldest[0][1] if oldest else None, expired, len(slots) - expired)

    async def beat(self, worker: str, now: float | None = None) -> None:
        """Say the worker lives (heartbeats older than ``BEATS_KEPT_S`` are dropped on the way)."""
        now = time.time() if now is None else now
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zadd(keys.WORKERS, {worker: now}).zremrangebyscore(keys.WORKERS, "-inf", now - BEATS_KEPT_S)
            await pipe.execute()

    async def readiness(self, now: float | None = None) -> tuple[float | None, int]:
        """When the longest-waiting dirty match turned dirty (None: none), and how many workers
        were heard within three heartbeats: one round trip."""
        now = time.time() if now is None else now
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zrange(keys.DIRTY, 0, 0, withscores=True).zcount(keys.WORKERS, now - BEAT_S * 3, "+inf")
            oldest, workers = await pipe.execute()
        return (oldest[0][1] if oldest else None), int(workers)
