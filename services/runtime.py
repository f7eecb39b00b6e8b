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

from domain.games import game_ids
from services.commands.bots import Bots
from services.commands.folds import Folds
from services.commands.handling import Handler
from services.commands.history import History
from services.commands.lobby import Lobby
from services.commands.matches import Matches
from services.commands.open_matches import OpenMatches
from services.commands.players import Players
from services.commands.ratings import Ratings
from services.commands.seating import Seating
from services.commands.timeouts import Timeouts
from services.ops import logs, metrics
from services.ops.metrics import Metrics
from services.ops.settings import Settings
from services.projector.archiver import Archiver
from services.projector.jobs import enqueue_drain
from services.projector.projector import Projector
from services.store import archive, cluster, keys, resp, wire
from services.store.cluster_client import ClusterClient
from services.store.event_store import EventStore

log = logs.get("tavern.runtime")
# an outage, as redis-py and the Wires raise it: also a cluster's node down or failover under way
# (no primary for a slot), and a write its replicas did not acknowledge (cluster.Unreplicated)
REDIS_DOWN = (
    redis.ConnectionError,
    redis.TimeoutError,
    redis.exceptions.ClusterError,
    redis.exceptions.TryAgainError,
    redis.exceptions.RedisClusterException,
)
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
            same = False
            self._on_cluster(settings)
        else:
            queue_url = settings.queue_url or settings.redis_url
            # a blocking pool: a burst beyond it waits for a connection instead of failing. RESP2:
            # under RESP3 redis-py formats every pub/sub push into a debug string, logged or not,
            # which for the projector's batch notices cost the gateway 7% of its CPU.
            # every reply has a timeout (TAVERN_REDIS_TIMEOUT_S): a stalled Redis is an error, not a hang
            timeouts = {"socket_timeout": settings.redis_timeout_s, "socket_connect_timeout": settings.redis_timeout_s}
            pool = redis.asyncio.BlockingConnectionPool.from_url(
                settings.redis_url, max_connections=128, timeout=10, protocol=2, **timeouts
            )
            self.events = redis.asyncio.Redis(connection_pool=pool)
            same = not settings.queue_sentinels and settings.queue_url in (None, settings.redis_url)
            # the hot paths' own connections (services/store/wire.py): events, queue, and the projector's
            # wake-up wait, which blocks and so gets one to itself
            events_link = _link(settings.redis_url, self.events, settings.redis_timeout_s)
            if same:
                self.queue_async, self.queue_sync = self.events, redis.Redis.from_url(queue_url, **timeouts)
                queue_link, waiter = events_link, _link(queue_url, self.events, settings.redis_timeout_s)
            else:
                self.queue_async, self.queue_sync, queue_link, waiter = _queue(settings)
            self.links = [events_link, queue_link, waiter]
        # where the notices to the gateways' streams are published (and subscribed to): beside the
        # views, but a cluster's PUBLISH would go to every node, so there on the queue's Redis
        self.notices: Any = self.queue_async if cluster.is_cluster(settings.redis_url) else self.events
        self.rq = Queue(settings.queue_name, connection=self.queue_sync)
        self.metrics = Metrics()
        metrics.prime(game_ids())
        events_link, queue_link, waiter, *acked = self.links
        self.queue_link = queue_link  # the queue's Redis, for what lives beside it (the rate limits)
        self.store = EventStore(
            self.events,
            settings.idempotency_ttl_s,
            marks_dirty=same,
            link=events_link,
            refusal_ttl_s=settings.idempotency_refusal_ttl_s,
            acked=acked[0] if acked else None,
            notices=queue_link if self.notices is not self.events else None,
        )
        self.archive = _archive(settings)
        # the open-matches quota's slots lapse once a match would have been ended as idle
        quota = OpenMatches(self.queue_async, self.events, settings.idle_limit_s)
        self.matches = Matches(self.events, self.store, archived=self.archive, open_matches=quota)
        self.folds = Folds(self.store, on_lost=self.matches.forget)
        self.players = Players(self.events)
        self.lobby = Lobby(self.events, self.matches, self.players, self.folds)
        self.run_id: str | None = None  # the Redis run this process's caches were filled from
        self.history = History(self.matches, self.store, self.folds, self.events)
        self.handler = Handler(self.store, self.folds, self.metrics, settings.append_attempts, self)
        self.bots = Bots(self.handler)
        self.timeouts = Timeouts(self.events, self.matches, self.folds, self.handler)
        self.archiver = self.archive and Archiver(
            self.events,
            self.queue_async,
            self.matches,
            self.store,
            self.archive,
            settings.archive_grace_s,
            settings.idle_limit_s,
            self.timeouts.abandon_idle,
            self.lobby.close_waiting,
        )
        self.seating = Seating(self.players)
        self.ratings = Ratings(self.events)
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
            seating=self.seating,
            timeouts=self.timeouts,
            ratings=self.ratings,
        )
        self.loop: asyncio.AbstractEventLoop | None = None
        self._kick = asyncio.Event()
        self._kicker: asyncio.Task | None = None
        self._sweeper: asyncio.Task | None = None
        self._recent: dict[str, float] = {}  # match id -> when this process last appended to it
        self._queue_lost = False  # the sweep failed: the queue's Redis was down (a failover?)
        self._archiving: asyncio.Task | None = None
        self._apart = not same  # the queue on a Redis of its own, which may be away while the events' is not

    def _on_cluster(self, settings: Settings) -> None:
        """Cluster mode: the events on a Redis Cluster, the queue (RQ, the projector's bookkeeping,
        the notices) on a plain Redis of its own, which RQ needs (it speaks no cluster)."""
        assert settings.queue_url or settings.queue_sentinels, "checked by settings.from_env"
        self.queue_async, self.queue_sync, queue_link, waiter = _queue(settings)
        events_link = cluster.ClusterWire.from_url(settings.redis_url or "", settings.redis_timeout_s)
        replicas = settings.replicas_to_wait
        acked = events_link.acknowledged(replicas, round(settings.wait_timeout_s * 1000)) if replicas else events_link
        self.events = ClusterClient(events_link, acked)
        self.links = [events_link, queue_link, waiter, acked]

    def rq_connection(self, socket_timeout_s: float) -> Any:
        """A synchronous client of the queue's Redis for an RQ worker alone: its blocking dequeue
        needs a socket timeout longer than the wait, which no other client here should have."""
        if self.settings.embedded:
            return fakeredis.FakeRedis(server=self.server)
        if self.settings.queue_sentinels:
            return _sentinel(self.settings).master_for(
                self.settings.queue_master,
                socket_timeout=socket_timeout_s,
                socket_connect_timeout=self.settings.redis_timeout_s,
                socket_keepalive=True,
            )
        return redis.Redis.from_url(
            self.settings.queue_url or self.settings.redis_url,
            socket_timeout=socket_timeout_s,
            socket_connect_timeout=self.settings.redis_timeout_s,
            socket_keepalive=True,
            health_check_interval=10,  # a connection idle that long is pinged before use: a dead one is replaced
        )

    async def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        self._kick = asyncio.Event()
        self._kicker = asyncio.create_task(self._kick_forever(enqueue_drain))
        self._sweeper = asyncio.create_task(self._sweep_forever())
        self._kick.set()  # a first drain picks up whatever a previous process left dirty

    def start_archiving(self) -> None:
        """In a worker: archive and evict finished matches, end idle ones (projector/archiver.py)."""
        if self.archiver is not None:
            assert self.loop is not None, "start() first"
            self._archiving = self.loop.create_task(self.archiver.run_forever(self.settings.archive_every_s))

    async def stop(self) -> None:
        for task in (self._kicker, self._sweeper, self._archiving):
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
            try:
                enqueue = await self.projector.mark_dirty(match_id)
            except REDIS_DOWN:
                # the queue's Redis is away, the events are stored: the command is answered, and
                # the match noted beside its events, where any process's sweeper finds it and
                # marks it once the queue's Redis is back (this process may be gone by then)
                log.warning("mark_deferred", match_id=match_id)
                await self.events.sadd(keys.UNMARKED, match_id)
                return
        if enqueue:
            self._kick.set()

    async def _mark_deferred(self) -> None:
        marking = [raw.decode() for raw in await self.events.smembers(keys.UNMARKED)]
        if marking:
            enqueue = await asyncio.gather(*map(self.projector.mark_dirty, marking))
            await self.events.srem(keys.UNMARKED, *marking)
            if any(enqueue):
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
            except REDIS_DOWN as problem:  # an outage: one line, no traceback, every half second
                metrics.redis_error("enqueue", problem)
                log.warning("enqueue_failed", error=str(problem))
                await asyncio.sleep(0.5)
                self._kick.set()
            except Exception:
                log.exception("enqueue_failed")
                await asyncio.sleep(0.5)
                self._kick.set()

    async def _sweep_forever(self, every_s: float = 1.0) -> None:
        # A worker killed mid-projection leaves a claim (and its job's slot) behind and maybe no
        # job to come: once the lease has expired, queue a drain, which puts the match back and
        # projects it again. And a Redis that restarted empties this process's caches.
        while True:
            await asyncio.sleep(every_s)
            try:
                if self._apart:
                    await self._mark_deferred()
                now = time.time()
                async with self.queue_async.pipeline(transaction=False) as pipe:
                    pipe.zcount(keys.CLAIMED, "-inf", now).zcard(keys.DIRTY).zcount(keys.ACTIVE, now, "+inf")
                    pipe.zrange(keys.DIRTY, 0, 0, withscores=True)  # the oldest: the backlog's age
                    for game_id in game_ids():
                        pipe.zcard(keys.live(game_id))
                    expired, dirty, running, oldest, *live = await pipe.execute()
                if expired or (dirty and not running):
                    self._kick.set()
                await self.timeouts.sweep(now)
                metrics.gauge_lifecycle(
                    dirty, now - oldest[0][1] if oldest else 0.0, dict(zip(game_ids(), live, strict=True))
                )
                await self._check_run()
                if self._queue_lost:
                    await self._mark_recent_again()
                elif len(self._recent) > 10_000:
                    since = time.monotonic() - RECENT_S
                    self._recent = {match_id: at for match_id, at in self._recent.items() if at >= since}
            except REDIS_DOWN as problem:
                self._queue_lost = True
                metrics.redis_error("sweeper", problem)
                log.warning("sweep_failed", error=str(problem))
            except Exception:
                self._queue_lost = True
                log.exception("sweep_failed")

    async def _check_run(self) -> None:
        """A new Redis run (a restart: without persistence it holds nothing of before): drop the caches."""
        if self.settings.embedded or (self.settings.redis_url or "").startswith("redis+cluster://"):
            # the embedded Redis lives and dies with this process (and has no INFO); a cluster's
            # nodes each have their own run, and a failover is not a loss (its replica holds the data)
            return
        run_id = (await self.events.info("server")).get("run_id")
        if run_id is not None and self.run_id is not None and run_id != self.run_id:
            log.warning("redis_restarted", previous=self.run_id, run_id=run_id)
            self.forget_all()
        self.run_id = run_id

    def forget_all(self) -> None:
        self.folds.clear()
        self.matches.clear()
        self.handler.forget_tips()

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
    timeout = settings.redis_timeout_s
    timeouts = {"socket_timeout": timeout, "socket_connect_timeout": timeout}
    if not settings.queue_sentinels:
        url = settings.queue_url or ""
        queue_async = redis.asyncio.Redis.from_url(url, protocol=2, **timeouts)
        links = _link(url, queue_async, timeout), _link(url, queue_async, timeout)
        return queue_async, redis.Redis.from_url(url, **timeouts), *links
    sentinels = list(settings.queue_sentinels)
    queue_async = redis.asyncio.sentinel.Sentinel(sentinels, **timeouts).master_for(
        settings.queue_master, protocol=2, **timeouts
    )
    queue_sync = _sentinel(settings).master_for(settings.queue_master, **timeouts)
    return queue_async, queue_sync, resp.Pooled(queue_async), resp.Pooled(queue_async)


def _sentinel(settings: Settings) -> redis.sentinel.Sentinel:
    """The queue's sentinels, asked for its master (RQ's clients, which are synchronous)."""
    timeout = settings.redis_timeout_s
    return redis.sentinel.Sentinel(
        list(settings.queue_sentinels), socket_timeout=timeout, socket_connect_timeout=timeout
    )


def _archive(settings: Settings) -> archive.Archive | None:
    if settings.archive_s3_bucket:
        return archive.S3Archive(settings.archive_s3_bucket, settings.archive_s3_endpoint, settings.archive_s3_prefix)
    return archive.DirectoryArchive(settings.archive_dir) if settings.archive_dir else None


def _link(url: str, client: Any, timeout_s: float) -> resp.Link:
    return wire.Wire(url, timeout_s) if wire.supports(url) else resp.Pooled(client)
