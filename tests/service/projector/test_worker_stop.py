"""SIGTERM on a `tavern worker` in the middle of bot matches: it finishes its job and exits within
TAVERN_STOP_S, and another worker takes the matches to their end from the log."""

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
STOP_S = 5


async def test_a_worker_stops_on_sigterm_within_the_bound(processes, tmp_path):
    server, url = start_redis(tmp_path)
    try:
        env = service_env(url, TAVERN_QUEUE="stop", TAVERN_STOP_S=str(STOP_S))
        base, _ = serve_healthy(processes, env)
        worker = processes(["worker"], env)
        client = redis.Redis.from_url(url)
        async with httpx.AsyncClient(base_url=base, timeout=10) as api:
            matches = [await create(api, seats=3, bots=[0, 1, 2]) for _ in range(4)]
            deadline = time.monotonic() + 10
            while not client.zcard(keys.ACTIVE):  # a drain job is running
                assert time.monotonic() < deadline, "no drain job ever ran"
                await asyncio.sleep(0.01)
            worker.send_signal(signal.SIGTERM)
            began = time.monotonic()
            code = await asyncio.to_thread(worker.wait, 30)
            took = time.monotonic() - began
            processes(["worker"], env)
            deadline = time.monotonic() + 60
            for created in matches:
                while (await view(api, created, created["spectator_token"]))["status"] != "finished":
                    assert time.monotonic() < deadline, "a match stopped with the worker"
                    await asyncio.sleep(0.1)
        print(f"worker SIGTERM mid-job: exit {code} in {took:.2f} s")
        assert code == 0 and took < STOP_S
    finally:
        server.kill()
        server.wait(10)
