"""A synchronous client beside a backend's own, for what a repository's conformance suite does
outside the repository: look at a key's time to live, or write as a rival would between a
repository's read and its write (from inside a decision, which cannot await)."""

from __future__ import annotations

import fakeredis
import redis
from redis.cluster import RedisCluster

from tests.service.backends import Backend


def events_of(backend: Backend) -> redis.Redis | RedisCluster:
    """The events' Redis of ``backend``, reached synchronously."""
    if backend.kind == "fakeredis":
        return fakeredis.FakeRedis(server=backend.events.connection_pool.connection_kwargs["server"])
    if backend.kind == "redis":
        return redis.Redis.from_url(backend.url)
    first = (backend.url or "").removeprefix("redis+cluster://").split(",")[0]
    return RedisCluster.from_url(f"redis://{first}")


def queue_of(backend: Backend) -> redis.Redis:
    """The queue's Redis of ``backend``, reached synchronously."""
    if backend.kind == "fakeredis":
        return fakeredis.FakeRedis(server=backend.queue.connection_pool.connection_kwargs["server"])
    return redis.Redis.from_url(backend.queue_url or backend.url)
