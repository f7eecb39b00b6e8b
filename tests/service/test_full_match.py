"""A whole Hero's Tavern match over HTTP, by a client that only sends elements of ``legal``, with
SSE streams open throughout: on the embedded default (`tavern serve`, no REDIS_URL), and with the
gateway and two separate `tavern worker` processes on a real Redis and on a Redis Cluster."""

from __future__ import annotations

import asyncio

import httpx
import pytest
import redis

from tests.service.backends import flush_cluster
from tests.service.client import create, play_to_end, read_stream, seat_token
from tests.service.conftest import free_port, service_env, wait_healthy

pytestmark = pytest.mark.anyio


async def play_with_streams(base_url: str) -> None:
    async with httpx.AsyncClient(base_url=base_url, timeout=30) as api:
        created = await create(api, seats=4, bots=[3])
        url = f"/v1/matches/{created['match_id']}/stream"
        holders = {0: seat_token(created, 0), 1: seat_token(created, 1), 2: seat_token(created, 2)}
        holders[None] = created["spectator_token"]
        streams: dict = {holder: [] for holder in holders}
        readers = [asyncio.create_task(read_stream(api, url, token, streams[h])) for h, token in holders.items()]
        final = await play_to_end(api, created, [0, 1, 2], seed=7)
        await asyncio.wait_for(asyncio.gather(*readers), 30)
    assert final["status"] == "finished" and final["result"]["standings"]
    for holder, views in streams.items():
        ids = [view["id"] for view in views]
        assert ids == sorted(set(ids)), f"stream of {holder}: ids not strictly increasing"
        assert all(view["view"]["version"] == view["id"] and view["view"]["seat"] == holder for view in views)
        assert ids[-1] == final["version"] and views[-1]["view"]["result"] == final["result"]
        assert len(ids) > 10


async def test_a_whole_match_on_the_embedded_default(processes):
    port = free_port()
    gateway = processes(["serve", "--port", str(port)], service_env(None))
    wait_healthy(f"http://127.0.0.1:{port}", gateway)
    await play_with_streams(f"http://127.0.0.1:{port}")


async def play_with_two_workers(processes, env: dict[str, str]) -> None:
    port = free_port()
    gateway = processes(["serve", "--port", str(port)], env)
    workers = [processes(["worker"], env) for _ in range(2)]
    wait_healthy(f"http://127.0.0.1:{port}", gateway)
    await play_with_streams(f"http://127.0.0.1:{port}")
    assert all(worker.poll() is None for worker in workers)


async def test_a_whole_match_on_redis_with_two_workers(processes, redis_url):
    redis.Redis.from_url(redis_url).flushall()
    await play_with_two_workers(processes, service_env(redis_url, TAVERN_QUEUE="full-match"))


async def test_a_whole_match_on_a_cluster_with_two_workers(processes, cluster_url, redis_url):
    redis.Redis.from_url(redis_url).flushall()  # the queue's, beside the cluster
    flush_cluster(cluster_url)
    await play_with_two_workers(processes, service_env(cluster_url, QUEUE_URL=redis_url, TAVERN_QUEUE="full-match"))
