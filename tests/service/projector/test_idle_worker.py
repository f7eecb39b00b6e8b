"""A `tavern worker` left idle past every timeout (its dequeue's, its socket's, Redis replies')
still projects the next command at once, and no drain job piles up meanwhile."""

from __future__ import annotations

import asyncio
import time

import httpx
import pytest
import redis
from rq import Queue

from services.store import keys
from tests.service.client import create, seat_token, send, view
from tests.service.conftest import serve_healthy, service_env, start_redis
from tests.service.ops.streams import Frames

pytestmark = pytest.mark.anyio
DEQUEUE_S = 1  # RQ's socket timeout is 10 s more: the idle below outlasts both
IDLE_S = 13


async def test_an_idle_worker_projects_the_next_command_within_a_second(processes, tmp_path):
    server, url = start_redis(tmp_path)
    try:
        env = service_env(url, TAVERN_QUEUE="idle", TAVERN_DEQUEUE_S=str(DEQUEUE_S), TAVERN_REDIS_TIMEOUT_S="1")
        base, _ = serve_healthy(processes, env)
        worker = processes(["worker"], env)
        client = redis.Redis.from_url(url)
        queue = Queue("idle", connection=client)
        async with httpx.AsyncClient(base_url=base, timeout=10) as api:
            # the worker up first (its heartbeat): a fresh checkout's first start compiles every module
            deadline = time.monotonic() + 60
            while (await api.get("/readyz")).json()["workers"] < 1:
                assert time.monotonic() < deadline, "the worker never started"
                await asyncio.sleep(0.1)
            created = await create(api, seats=3)
            url_ = f"/v1/matches/{created['match_id']}/stream"
            # the opening projected (its claim took it off the dirty set). Not "and no job queued":
            # the gateway's and the worker's first sweeps may each queue one (the check of the
            # queue's length and the enqueue are not one step), and the second then waits in RQ
            # behind the resident first for its budget (20 s): harmless, and bounded below
            deadline = time.monotonic() + 30
            while client.zcard(keys.DIRTY):
                assert time.monotonic() < deadline, "the opening was never projected"
                await asyncio.sleep(0.05)
            await asyncio.sleep(IDLE_S)
            views = [await view(api, created, seat_token(created, s)) for s in range(3)]
            seat, seen = next((s, v) for s, v in enumerate(views) if v["legal"])
            frames = Frames(api, url_, seat_token(created, seat))
            await asyncio.wait_for(frames.opened.wait(), 5)
            sent = time.monotonic()
            answer = await send(api, created, seat, seen["legal"][0])
            assert answer.status_code == 200, answer.text
            latency = await frames.version_at(answer.json()["version"], timeout=5) - sent
            frames.task.cancel()
            assert (await api.get("/readyz")).json()["workers"] == 1  # its heartbeat, as a gateway reports it
        print(f"idle {IDLE_S} s, then command to view on its stream: {latency * 1000:.0f} ms")
        # a worker stuck in its idle dequeue would wait out RQ's socket timeout first (DEQUEUE_S + 10 s):
        # bounded well below that, not by a speed (the machine may be loaded)
        assert latency < DEQUEUE_S + 5
        assert worker.poll() is None
        assert queue.count <= 1 and queue.failed_job_registry.count == 0  # none piled up (at most a second first)
        log = (tmp_path / "1-worker.log").read_text()
        assert "could not connect" not in log and "quitting" not in log, log
    finally:
        server.kill()
        server.wait(10)
