"""Every connection of one process, built from its Settings: the events' Redis (a client, and the
hot paths' own link to it), the queue's (async and RQ's synchronous clients, its link and the
projector's waiter), and RQ's queue. (The notices to the gateways go beside the views, each
match's on its own shard channel: notices.py.)

Without ``REDIS_URL`` everything runs on one embedded fakeredis server (its Lua runs in lupa).
With ``QUEUE_URL`` (or Sentinel) the queue lives on a Redis of its own; beside a Redis Cluster it
must (RQ speaks no cluster). Several (QUEUE_URL's or QUEUE_MASTER's comma-separated list) are
several queue instances: each match's projector bookkeeping and jobs on one of them by its hash
(services/store/projector_queue.py's ``instance_of``), the process holding links to every one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import fakeredis
import redis
import redis.asyncio
import redis.asyncio.sentinel
import redis.sentinel
from rq import Queue

from services.ops.settings import Settings
from services.store import cluster, delivery_jobs, resp, wire
from services.store.cluster_client import ClusterClient

EmbeddedServer = fakeredis.FakeServer  # the embedded Redis's data, which several clients may share
POOL_SIZE = 128  # connections a process holds to one Redis at most
POOL_WAIT_S = 10  # how long a command waits for one of them in a burst, then fails (a 503)


@dataclass(frozen=True, slots=True)
class QueueLinks:
    """One queue instance's connections."""

    client: Any  # async
    sync: Any  # synchronous, for RQ's enqueues
    link: resp.Link  # the hot paths' connection (marks, claims)
    waiter: resp.Link  # the projector's wake-up wait, which blocks and so gets one to itself


class Connections:
    queues: list[QueueLinks]  # every queue instance (the first also keeps the workers' heartbeats)
    events: Any  # the events' client (redis-py's, fakeredis's, or the ClusterClient)
    queue: Any  # the queue's async client
    queue_sync: Any  # the queue's synchronous client, for RQ's enqueues
    events_link: resp.Link  # the hot paths' connection to the events' Redis
    queue_link: resp.Link  # the same to the queue's
    waiter: resp.Link  # the projector's wake-up wait, which blocks and so gets one to itself
    acked: resp.Link | None  # a cluster's appends: answered once replicas hold them (WAIT)

    def __init__(self, settings: Settings, server: EmbeddedServer | None = None) -> None:
        self.settings = settings
        self.server = server
        self.acked = None
        if settings.embedded:
            self.server = server or EmbeddedServer()
            self.events = self.queue = fakeredis.FakeAsyncRedis(server=self.server)
            self.queue_sync = fakeredis.FakeRedis(server=self.server)
            self.events_link = resp.Pooled(self.events)
            self.queues = [QueueLinks(self.events, self.queue_sync, self.events_link, self.events_link)]
        elif cluster.is_cluster(settings.redis_url):
            assert settings.queue_url or settings.queue_sentinels, "checked by settings.from_env"
            self.queues = [_queue(settings, index) for index in range(settings.queue_count)]
            self.events_link = link = cluster.ClusterWire.from_url(settings.redis_url or "", settings.redis_timeout_s)
            replicas = settings.replicas_to_wait
            self.acked = link.acknowledged(replicas, round(settings.wait_timeout_s * 1000)) if replicas else link
            self.events = ClusterClient(link, self.acked)
        else:
            self._on_redis(settings)
        first = self.queues[0]
        self.queue, self.queue_sync, self.queue_link, self.waiter = first.client, first.sync, first.link, first.waiter
        self.rqs = [Queue(settings.queue_name, connection=queue.sync) for queue in self.queues]  # RQ's, each instance's
        # the notifications' deliveries, on the first instance (services/store/delivery_jobs.py)
        self.notify_rq = Queue(delivery_jobs.queue_name(settings.queue_name), connection=self.queues[0].sync)

    def _on_redis(self, settings: Settings) -> None:
        # a blocking pool: a burst beyond it waits for a connection instead of failing. RESP2:
        # under RESP3 redis-py formats every pub/sub push into a debug string, logged or not,
        # which for the projector's batch notices cost the gateway 7% of its CPU.
        # every reply has a timeout (TAVERN_REDIS_TIMEOUT_S): a stalled Redis is an error, not a hang
        timeout_s = settings.redis_timeout_s
        timeouts: dict[str, Any] = {"socket_timeout": timeout_s, "socket_connect_timeout": timeout_s}
        url = settings.redis_url or ""
        self.events = _pooled(url, timeouts)
        self.events_link = _link(url, self.events, timeout_s)
        if self.same:
            sync, waiter = redis.Redis.from_url(url, **timeouts), _link(url, self.events, timeout_s)
            self.queues = [QueueLinks(self.events, sync, self.events_link, waiter)]
        else:
            self.queues = [_queue(settings, index) for index in range(settings.queue_count)]

    @property
    def same(self) -> bool:
        """The queue's Redis is the events': the projector's keys sit beside the logs."""
        settings = self.settings
        if settings.embedded:
            return True
        if cluster.is_cluster(settings.redis_url):
            return False
        return not settings.queue_sentinels and settings.queue_urls in ((), (settings.redis_url,))

    @property
    def restarts_unseen(self) -> bool:
        """Whether a restart of the events' Redis goes unseen by ``run_id``: the embedded Redis
        lives and dies with this process (and has no INFO); a cluster's nodes each have their
        own run, and a failover is not a loss (its replica holds the data)."""
        return self.settings.embedded or cluster.is_cluster(self.settings.redis_url)

    async def ping_events(self) -> None:
        await self.events.ping()

    async def ping_queue(self) -> None:
        await self.queue.ping()

    async def run_id(self) -> str | None:
        """The events' Redis's run: a new one is a restart (without persistence it holds nothing of before)."""
        if self.restarts_unseen:
            return None
        run_id: str | None = (await self.events.info("server")).get("run_id")
        return run_id

    def rq_connection(self, socket_timeout_s: float, index: int = 0) -> Any:
        """A synchronous client of queue instance ``index``'s Redis for an RQ worker alone: its
        blocking dequeue needs a socket timeout longer than the wait, which no other client here should have."""
        settings = self.settings
        if settings.embedded:
            return fakeredis.FakeRedis(server=self.server)
        if settings.queue_sentinels:
            return _sentinel(settings).master_for(
                settings.queue_masters[index],
                socket_timeout=socket_timeout_s,
                socket_connect_timeout=settings.redis_timeout_s,
                socket_keepalive=True,
            )
        return redis.Redis.from_url(
            settings.queue_urls[index] if settings.queue_urls else settings.redis_url or "",
            socket_timeout=socket_timeout_s,
            socket_connect_timeout=settings.redis_timeout_s,
            socket_keepalive=True,
            health_check_interval=10,  # a connection idle that long is pinged before use: a dead one is replaced
        )

    def rq_queue(self, connection: Any, notify: bool = False) -> Queue:
        """RQ's queue of drain jobs on ``connection`` (``rq_connection``'s), or of deliveries (``notify``)."""
        name = self.settings.queue_name
        return Queue(delivery_jobs.queue_name(name) if notify else name, connection=connection)

    async def close(self) -> None:
        queues = [link for queue in self.queues for link in (queue.link, queue.waiter)]
        links = [self.events_link, *queues, *([self.acked] if self.acked else [])]
        for link in dict.fromkeys(links):
            link.close()
        await self.events.aclose()
        for queue in self.queues:
            if queue.client is not self.events:
                await queue.client.aclose()


def _queue(settings: Settings, index: int) -> QueueLinks:
    """Queue instance ``index``'s Redis apart from the events': async and sync (RQ's) clients, its
    link and the projector's waiter. Through Sentinel: redis-py's clients ask the sentinels for
    the master on each new connection, so after a failover they reconnect to the promoted replica."""
    timeout = settings.redis_timeout_s
    timeouts: dict[str, Any] = {"socket_timeout": timeout, "socket_connect_timeout": timeout}
    if not settings.queue_sentinels:
        url = settings.queue_urls[index]
        queue_async = _pooled(url, timeouts)
        links = _link(url, queue_async, timeout), _link(url, queue_async, timeout)
        return QueueLinks(queue_async, redis.Redis.from_url(url, **timeouts), *links)
    sentinels = list(settings.queue_sentinels)
    # its clients of the sentinels too hold a connection per master connection being opened
    asking = {**timeouts, "max_connections": POOL_SIZE}
    master = settings.queue_masters[index]
    queue_async = redis.asyncio.sentinel.Sentinel(sentinels, sentinel_kwargs=asking, **timeouts).master_for(
        master,
        connection_pool_class=SentinelBlockingPool,
        max_connections=POOL_SIZE,
        timeout=POOL_WAIT_S,
        protocol=2,
        **timeouts,
    )
    queue_sync = _sentinel(settings).master_for(master, **timeouts)
    return QueueLinks(queue_async, queue_sync, resp.Pooled(queue_async), resp.Pooled(queue_async))


class SentinelBlockingPool(redis.asyncio.sentinel.SentinelConnectionPool, redis.asyncio.BlockingConnectionPool):
    """Sentinel's pool (the master asked for on each new connection), waiting for a free connection
    when all are in use as the other pools do: redis-py's own refuses past 100 ("Too many
    connections"), which at 200 matches answered commands 503 (when their rate check was on the
    queue's Redis; it is on the shards now, and a burst of marks or claims waits here instead)."""


def _pooled(url: str, timeouts: dict[str, Any]) -> redis.asyncio.Redis:
    """A client whose pool waits for a free connection (up to ``POOL_WAIT_S``) in a burst beyond
    ``POOL_SIZE``, instead of failing."""
    pool = redis.asyncio.BlockingConnectionPool.from_url(
        url, max_connections=POOL_SIZE, timeout=POOL_WAIT_S, protocol=2, **timeouts
    )
    return redis.asyncio.Redis(connection_pool=pool)


def _sentinel(settings: Settings) -> redis.sentinel.Sentinel:
    """The queue's sentinels, asked for its master (RQ's clients, which are synchronous)."""
    timeout = settings.redis_timeout_s
    return redis.sentinel.Sentinel(
        list(settings.queue_sentinels), socket_timeout=timeout, socket_connect_timeout=timeout
    )


def link_to(client: Any) -> resp.Link:
    """The link a repository sends its scripts through when given none: a cluster client's
    acknowledged one, else a redis-py (or fakeredis) client's pool."""
    return client.acked if isinstance(client, ClusterClient) else resp.Pooled(client)


def _link(url: str, client: Any, timeout_s: float) -> resp.Link:
    return wire.Wire(url, timeout_s) if wire.supports(url) else resp.Pooled(client)
