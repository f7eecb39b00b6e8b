"""A real Redis (with AOF) restarted under load, two `tavern worker`s running and no supervisor:
both workers ride it out, and every match's views catch up to its log."""

from __future__ import annotations

import asyncio
import signal
import time

import httpx
import pytest
import redis

from services.store import keys
from tests.service.client import create, view
from tests.service.conftest import serve_healthy, service_env, start_redis

pytestmark = pytest.mark.anyio
MATCHES = 8
DOWN_S = 2.0
AOF = ("--appendonly", "yes")


async def caught_up(api: httpx.AsyncClient, client: redis.Redis, created: dict) -> bool:
    """The match is over and its spectator's stored view shows its whole log."""
    stored = client.hget(keys.views(created["match_id"]), "v")
    seen = await view(api, created, created["spectator_token"])
    return (
        seen["status"] == "finished"
        and stored is not None
        and int(stored) == client.xlen(keys.log(created["match_id"]))
    )


async def test_workers_ride_out_a_redis_restart_under_load(processes, tmp_path):
    server, url = start_redis(tmp_path, *AOF)
    try:
        port = redis.Redis.from_url(url).connection_pool.connection_kwargs["port"]
        client = redis.Redis.from_url(url)
        env = service_env(url, TAVERN_QUEUE="restart", TAVERN_REDIS_TIMEOUT_S="1")
        base, _ = serve_healthy(processes, env)
        workers = [processes(["worker"], env), processes(["worker"], env)]
        async with httpx.AsyncClient(base_url=base, timeout=10) as api:
            matches = [await create(api, seats=3, bots=[0, 1, 2]) for _ in range(MATCHES)]
            # the bots play: kill once every match has begun (a fixed pause let fast workers end them all)
            began = time.monotonic()
            while min(client.xlen(keys.log(created["match_id"])) for created in matches) < 5:
                assert time.monotonic() - began < 30, "the bots never began"
                await asyncio.sleep(0.02)
            versions = [client.xlen(keys.log(created["match_id"])) for created in matches]
            server.send_signal(signal.SIGKILL)  # mid-job: nothing flushed but what the AOF holds
            server.wait(10)
            await asyncio.sleep(DOWN_S)
            server, _ = start_redis(tmp_path, *AOF, port=port)
            restarted = time.monotonic()
            unfinished = [c for c in matches if (await view(api, c, c["spectator_token"]))["status"] != "finished"]
            assert unfinished, "every match ended before the restart: no load to ride out"
            deadline = restarted + 90
            for created in matches:
                while not await caught_up(api, client, created):
                    assert time.monotonic() < deadline, "a match's views never caught up after the restart"
                    await asyncio.sleep(0.1)
            took = time.monotonic() - restarted
            grown = [client.xlen(keys.log(c["match_id"])) for c in matches]
        print(f"restart: {len(unfinished)} of {MATCHES} matches running, all caught up {took:.1f} s after it")
        assert all(after >= before for before, after in zip(versions, grown, strict=True))
        assert [worker.poll() for worker in workers] == [None, None], "a worker exited"
        assert client.zcard(keys.DIRTY) == 0
        # a job waiting for work lets go of its last step's claims at its next claim, within a
        # third of a lease (services/projector/projector.py)
        time.sleep(1.0)  # the lease is 1 s (service_env)
        assert client.hlen(keys.CLAIMS) == 0
    finally:
        server.kill()
        server.wait(10)
