"""The three backends every store repository is tested on (its conformance suite): the embedded
fakeredis, a real redis-server, and a real Redis Cluster of 3 primaries (each with a replica, as
deployed), with a plain Redis beside it for the queue. Each client is built as the runtime builds
it, so a command the store sends that one backend lacks fails here, not in production.

A test module takes the ``backend`` fixture; it runs once per backend, each on an empty data set."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import fakeredis
import pytest
import redis
import redis.asyncio

from services.store.cluster import ClusterWire
from services.store.cluster_client import ClusterClient
from tests.service.redis_cluster import Cluster

BACKENDS = ["fakeredis", "redis", "cluster"]


@dataclass
class Backend:
    kind: str  # one of BACKENDS
    events: Any  # the events' Redis: matches, players, lobby, ratings, clocks
    queue: Any  # the queue's Redis: the projector's bookkeeping, rate limits, notices
    url: str | None  # REDIS_URL as a process would be given it (None: embedded)
    queue_url: str | None  # QUEUE_URL beside a cluster


@pytest.fixture(scope="session")
def cluster_url(tmp_path_factory) -> Any:
    """A 6-node Redis Cluster (3 primaries, 3 replicas) for the session (one per xdist worker)."""
    started = Cluster(tmp_path_factory.mktemp("cluster")).start()
    yield started.url
    started.stop()


def flush_cluster(url: str) -> None:
    for address in url.removeprefix("redis+cluster://").split(","):
        host, port = address.split(":")
        client = redis.Redis(host=host, port=int(port))
        if client.info("replication")["role"] == "master":
            client.flushall()
        client.close()


@pytest.fixture(params=BACKENDS)
async def backend(request) -> Any:
    if request.param == "fakeredis":
        server = fakeredis.FakeServer()
        client = fakeredis.FakeAsyncRedis(server=server)
        yield Backend("fakeredis", client, client, None, None)
        await client.aclose()
        return
    url = request.getfixturevalue("redis_url")
    redis.Redis.from_url(url).flushall()
    if request.param == "redis":
        client = redis.asyncio.Redis.from_url(url, protocol=2)
        yield Backend("redis", client, client, url, None)
        await client.aclose()
        return
    cluster = request.getfixturevalue("cluster_url")
    flush_cluster(cluster)
    link = ClusterWire.from_url(cluster, timeout_s=5)
    queue = redis.asyncio.Redis.from_url(url, protocol=2)
    yield Backend("cluster", ClusterClient(link, link.acknowledged(1, 2000)), queue, cluster, url)
    link.close()
    await queue.aclose()
