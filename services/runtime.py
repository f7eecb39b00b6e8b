"""One process's wiring: Redis clients, the store, the caches, the handler, projector and bots.

Without ``REDIS_URL`` everything runs on one embedded fakeredis server (its Lua runs in lupa).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import fakeredis
import redis
import redis.asyncio
import redis.asyncio.sentinel
import redis.sentinel
from rq import Queue

from services.commands.bots import Bots
from services.commands.folds import Folds
from services.commands.handling import Handler
from services.commands.matches import Matches
from services.ops import logs
from services.ops.metrics import Metrics
from services.ops.settings import Settings
from services.projector.jobs import enqueue_drain
from services.projector.projector import Projector
from services.store import cluster, keys, resp, wire
from services.store.cluster_client import ClusterClient
from services.store.event_store import EventStore

log = logs.get("tavern.runtime")
RECENT_S = 60.0  # how far back a process re-marks its matches after the queue's Redis was lost


class Runtime:
    def __init__(self, settings: Settings, server: fakeredis.FakeServer | None = None) -> None:
        self.settings = settings
        if settings.embedded:
            self.server = server or fakeredis.FakeServer()
            same = True
            self.events: Any = fakeredis.FakeAsyncRedis(server=self.server)
            self.queue_async: Any = self.events
            self.queue_sync: Any = fakeredis.FakeRedis(server=self.server)
            self.links: list[resp.Link] = [resp.Pooled(self.events)] * 3
        elif cluster.is_cluster(settings.redis_url):
            self._on_cluster(settings)
        else:
            # a blocking pool: a burst beyond it waits for a connection instead of failing. RESP2:
            # under RESP3 redis-py formats every pub/sub push into a debug string, logged or not,
            # which for the projector's batch notices cost the gateway 7% of its CPU.
            pool = redis.asyncio.BlockingConnectionPool.from_url(
                settings.redis_url, max_connections=128, timeout=10, protocol=2
            )
            self.events = redis.asyncio.Redis(connection_pool=pool)
            # the hot paths' own connections (services/store/wire.py): events, queue, and the projector's
            # wake-up wait, which blocks and so gets one to itself
            events_link = _link(settings.redis_url, self.events)
            if settings.queue_sentinels or settings.queue_url not in (None, settings.redis_url):
                self.queue_async, self.queue_sync, queue_link, waiter = _queue(settings)
            else:
                self.queue_async, self.queue_sync = self.events, redis.Redis.from_url(settings.redis_url)
                queue_link, waiter = events_link, _link(settings.redis_url, self.events)
            self.links = [events_link, queue_link, waiter]
        same = self.queue_async is self.events
        # where the notices to the gateways' streams are published (and subscribed to): beside the
        # views, but a cluster's PUBLISH would go to every node, so there on the queue's Redis
        self.notices: Any = self.queue_async if cluster.is_cluster(settings.redis_url) else self.events
        self.rq = Queue(settings.queue_name, connection=self.queue_sync)
        self.metrics = Metrics()
        events_link, queue_link, waiter, *acked = self.links
        self.store = EventStore(
            self.events,
            settings.idempotency_ttl_s,
            marks_dirty=same,
            link=events_link,
            acked=acked[0] if acked else None,
            notices=queue_link if self.notices is not self.events else None,
        )
        self.matches = Matches(self.events, self.store)
        self.folds = Folds(self.store)
        self.handler = Handler(self.store, self.folds, self.metrics, settings.append_attempts, self)
        self.bots = Bots(self.handler)
        self.projector = Projector(
            self.matches,
            self.folds,
            self.store,
            self.queue_async,
            self.bots,
            settings.lease_s,
            settings.tick_s,
            settings.min_tick_s,
            tails_in_claim=same,
            link=queue_link,
            waiter=waiter,
        )
        self.loop: asyncio.AbstractEventLoop | None = None
        self._kick = asyncio.Event()
        self._kicker: asyncio.Task | None = None
        self._sweeper: asyncio.Task | None = None
        self._recent: dict[str, float] = {}  # match id -> when this process last appended to it
        self._queue_lost = False  # the sweep failed: the queue's Redis was down (a failover?)

    def _on_cluster(self, settings: Settings) -> None:
        """Cluster mode: the events on a Redis Cluster, the queue (RQ, the projector's bookkeeping,
        the notices) on a plain Redis of its own, which RQ needs (it speaks no cluster)."""
        if settings.queue_url is None and not settings.queue_sentinels:
            raise ValueError(
                "REDIS_URL names a Redis Cluster: set QUEUE_URL (or QUEUE_SENTINELS) to a plain Redis for "
                "the queue (RQ and the projector's bookkeeping cannot live on a cluster)"
            )
        self.queue_async, self.queue_sync, queue_link, waiter = _queue(settings)
        events_link = cluster.ClusterWire.from_url(settings.redis_url or "", settings.redis_timeout_s)
        replicas = settings.replicas_to_wait
        acked = events_link.acknowledged(replicas, settings.wait_timeout_ms) if replicas else events_link
        self.events = ClusterClient(events_link, acked)
        self.links = [events_link, queue_link, waiter, acked]

    async def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        self._kick = asyncio.Event()
        self._kicker = asyncio.create_task(self._kick_forever(enqueue_drain))
        self._sweeper = asyncio.create_task(self._sweep_forever())
        self._kick.set()  # a first drain picks up whatever a previous process left dirty

    async def stop(self) -> None:
        for task in (self._kicker, self._sweeper):
            if task is not None:
                task.cancel()
        for link in dict.fromkeys(self.links):
            link.close()
        await self.events.aclose()
        if self.queue_async is not self.events:
            await self.queue_async.aclose()

    async def appended(self, match_id: str, enqueue: bool | None = None) -> None:
        """After an append: the match's views are behind; make sure a drain job will run.
        ``enqueue``: the append marked the match dirty itself, and said whether a job is needed."""
        self._recent[match_id] = time.monotonic()
        if enqueue is None:
            enqueue = await self.projector.mark_dirty(match_id)
        if enqueue:
            self._kick.set()

    async def _kick_forever(self, enqueue: Any) -> None:
        # One enqueue per wake-up, however many matches turned dirty meanwhile: an RQ enqueue
        # costs several Redis commands and runs in a thread (RQ is synchronous). A match marked
        # dirty before the flag is cleared is seen by the job queued after it.
        while True:
            await self._kick.wait()
            self._kick.clear()
            try:
                await asyncio.to_thread(enqueue, self.rq)
            except Exception:
                log.exception("enqueue_failed")
                await asyncio.sleep(0.5)
                self._kick.set()

    async def _sweep_forever(self, every_s: float = 1.0) -> None:
        # A worker killed mid-projection leaves a claim (and its job's slot) behind and maybe no
        # job to come: once the lease has expired, queue a drain, which puts the match back and
        # projects it again.
        while True:
            await asyncio.sleep(every_s)
            try:
                now = time.time()
                async with self.queue_async.pipeline(transaction=False) as pipe:
                    pipe.zcount(keys.CLAIMED, "-inf", now).zcard(keys.DIRTY).zcount(keys.ACTIVE, now, "+inf")
                    expired, dirty, running = await pipe.execute()
                if expired or (dirty and not running):
                    self._kick.set()
                if self._queue_lost:
                    await self._mark_recent_again()
                elif len(self._recent) > 10_000:
                    since = time.monotonic() - RECENT_S
                    self._recent = {match_id: at for match_id, at in self._recent.items() if at >= since}
            except Exception:
                self._queue_lost = True
                log.exception("sweep_failed")

    async def _mark_recent_again(self, within_s: float = RECENT_S) -> None:
        """The queue's Redis came back, maybe a promoted replica that missed the last marks: mark
        every match this process appended to lately dirty again (the streams are the truth; a
        match already projected costs a fold and writes nothing)."""
        since = time.monotonic() - within_s
        self._recent = {match_id: at for match_id, at in self._recent.items() if at >= since}
        await asyncio.gather(*(self.projector.mark_dirty(match_id) for match_id in self._recent))
        self._queue_lost = False
        self._kick.set()
        log.info("marked_again", matches=len(self._recent))


def _queue(settings: Settings) -> tuple[Any, Any, resp.Link, resp.Link]:
    """The queue's Redis apart from the events': async and sync (RQ's) clients, its link and the
    projector's waiter. Through Sentinel: redis-py's clients ask the sentinels for the master
    on each new connection, so after a failover they reconnect to the promoted replica."""
    if not settings.queue_sentinels:
        url = settings.queue_url or ""
        queue_async = redis.asyncio.Redis.from_url(url, protocol=2)
        return queue_async, redis.Redis.from_url(url), _link(url, queue_async), _link(url, queue_async)
    timeouts = {"socket_connect_timeout": settings.redis_timeout_s}
    sentinels = list(settings.queue_sentinels)
    queue_async = redis.asyncio.sentinel.Sentinel(sentinels, socket_timeout=settings.redis_timeout_s, **timeouts)
    queue_async = queue_async.master_for(settings.queue_master, protocol=2, **timeouts)
    # no socket timeout on RQ's connection: its dequeue blocks for minutes
    queue_sync = redis.sentinel.Sentinel(sentinels, **timeouts).master_for(settings.queue_master, **timeouts)
    return queue_async, queue_sync, resp.Pooled(queue_async), resp.Pooled(queue_async)


def _link(url: str, client: Any) -> resp.Link:
    return wire.Wire(url) if wire.supports(url) else resp.Pooled(client)
