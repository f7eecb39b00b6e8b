"""The process's connections (services/store/connections.py), built from the settings an operator
gives for each backend: no REDIS_URL (the embedded Redis), a Redis, a Redis Cluster with the
queue's Redis beside it. Each answers, says where the projector's keys live, gives
RQ a connection of its own, and closes."""

from __future__ import annotations

import asyncio

import pytest

from services.ops.settings import Settings
from services.store.connections import POOL_SIZE, Connections, SentinelBlockingPool
from services.store.event_store import reply
from services.store.outage import REDIS_DOWN
from tests.service.conftest import start_redis
from tests.service.sentinel import MASTER, start_sentinel

pytestmark = pytest.mark.anyio


async def test_connections_from_the_settings_of_each_backend(backend):
    wired = Connections(Settings(redis_url=backend.url, queue_url=backend.queue_url))
    try:
        assert await wired.events.ping() and await wired.queue.ping()
        (pong,) = await wired.events_link.exchange([["PING"]])
        assert pong in (b"PONG", "PONG", True)
        # beside a cluster the queue lives on a plain Redis of its own (RQ needs one)
        assert wired.same is (backend.kind != "cluster")
        assert (wired.queue is wired.events) is wired.same
        rq = wired.rq_queue(wired.rq_connection(5.0))
        assert rq.connection.ping() and rq.count == 0
        run_id = await wired.run_id()
        assert (run_id is None) is (backend.kind != "redis")  # a restart is watched on a plain Redis only
    finally:
        await wired.close()


@pytest.mark.parametrize("url", ["redis://127.0.0.1:9/0", "redis+cluster://127.0.0.1:9"])
async def test_an_unreachable_redis_is_an_outage(url):
    """A Redis (or a cluster) that does not answer raises one of ``REDIS_DOWN`` (the gateway's
    503), through its client and its link alike."""
    wired = Connections(Settings(redis_url=url, queue_url="redis://127.0.0.1:9/1", redis_timeout_s=0.5))
    try:
        with pytest.raises(REDIS_DOWN):
            await wired.events.ping()
        with pytest.raises(REDIS_DOWN):
            await wired.queue.ping()
        with pytest.raises(REDIS_DOWN):  # raised, or answered in the command's place (a cluster's)
            (answer,) = await wired.events_link.exchange([["GET", "tavern:probe"]])
            reply(answer)
    finally:
        await wired.close()


async def test_a_burst_past_the_pool_waits_for_a_connection_under_sentinel(tmp_path):
    """The queue found through Sentinel (QUEUE_SENTINELS, as the kit runs it): more commands at once
    than the pool holds wait for a connection, as on a plain URL, instead of failing with redis-py's
    "Too many connections" (each command's rate check is on the queue: 503s at 200 matches)."""
    server, url = start_redis(tmp_path)
    sentinel, port = start_sentinel(tmp_path, url)
    wired = Connections(
        Settings(redis_url=url, queue_url=None, queue_sentinels=(("127.0.0.1", port),), queue_master=MASTER)
    )
    try:
        assert isinstance(wired.queue.connection_pool, SentinelBlockingPool)
        answers = await asyncio.gather(*(wired.queue.ping() for _ in range(POOL_SIZE * 2)))
        assert all(answers)
        assert len(wired.queue.connection_pool._in_use_connections) == 0
    finally:
        await wired.close()
        for process in (sentinel, server):
            process.kill()
            process.wait(10)
