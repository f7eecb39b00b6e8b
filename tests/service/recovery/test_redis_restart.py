"""Redis restarts without persistence under load: every gateway's caches notice (the cached entry
is read back with each tail, and Redis's run id is watched), a match Redis no longer holds is
answered 404 or 410 (never a stale view), and new matches play to the end."""

from __future__ import annotations

import asyncio
import itertools
import random
import shutil
import subprocess
import uuid

import httpx
import pytest
import redis

from services.gateway.app import create_app
from services.ops.limits import Limits
from services.ops.settings import Settings
from tests.service.client import bearer, create, play_to_end, seat_token, send, view
from tests.service.conftest import free_port

pytestmark = pytest.mark.anyio


def redis_on(port: int, directory) -> subprocess.Popen:
    binary = shutil.which("redis-server")
    assert binary, "redis-server is missing (apt-get install redis-server)"
    args = [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
            "--dir", str(directory)]
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    client = redis.Redis(port=port)
    for _ in range(200):
        try:
            client.ping()
            return process
        except redis.ConnectionError:
            import time

            time.sleep(0.02)
    process.kill()
    pytest.fail("redis-server did not start")


async def load(api: httpx.AsyncClient, created: dict, stop: asyncio.Event, seen: list[int]) -> None:
    """Keep sending legal commands and reading views, whatever the answers, until told to stop."""
    rng = random.Random(1)
    while not stop.is_set():
        for seat in range(len(created["seats"])):
            try:
                answer = await api.get(f"/v1/matches/{created['match_id']}/view",
                                       headers=bearer(seat_token(created, seat)))
                seen.append(answer.status_code)
                if answer.status_code == 200 and answer.json()["legal"]:
                    sent = await send(api, created, seat, rng.choice(answer.json()["legal"]))
                    seen.append(sent.status_code)
            except httpx.HTTPError:
                seen.append(-1)
        await asyncio.sleep(0.005)


async def test_gateways_recover_by_themselves_after_redis_restarts_empty(tmp_path):
    port = free_port()
    server = redis_on(port, tmp_path)
    url = f"redis://127.0.0.1:{port}/0"
    # limits off: this is about recovery, and its players send from one address as fast as views
    # allow, past the shipped per-address and per-token buckets (429s would hide a lost answer)
    limits = Limits(creates_per_s=0, commands_per_s_token=0, commands_per_s_address=0, open_matches=0)
    apps = [create_app(Settings(redis_url=url, queue_url=None, queue_name=f"r-{uuid.uuid4().hex[:6]}", lease_s=1.0,
                                limits=limits), embedded_worker=index == 0) for index in range(2)]
    try:
        async with apps[0].router.lifespan_context(apps[0]), apps[1].router.lifespan_context(apps[1]):
            clients = [httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://tavern")
                       for app in apps]
            one = clients[0]
            old = await create(one, seats=3)
            for api in clients:  # both gateways cache the match and its fold
                await view(api, old, seat_token(old, 0))
            stop = asyncio.Event()
            seen: list[int] = []
            loaders = [asyncio.create_task(load(api, old, stop, seen)) for api in clients]
            await asyncio.sleep(1.0)
            before = len([s for s in seen if s == 200])
            server.kill()
            server.wait(10)
            server = redis_on(port, tmp_path)  # the same address, nothing of before
            await asyncio.sleep(2.5)  # the sweepers see the new run id meanwhile, the load goes on
            stop.set()
            await asyncio.gather(*loaders)
            assert before > 0 and 500 not in seen
            for api, token in itertools.product(clients, [seat_token(old, 0), old["spectator_token"]]):
                answer = await api.get(f"/v1/matches/{old['match_id']}/view", headers=bearer(token))
                assert answer.status_code in (404, 410), answer.text  # never the stale view
                answer = await api.post(f"/v1/matches/{old['match_id']}/commands", json={"type": "x"},
                                        headers=bearer(seat_token(old, 0)))
                assert answer.status_code in (404, 410)
            # new matches play to the end, through either gateway
            for api in clients:
                fresh = await create(api, seats=3)
                final = await play_to_end(api, fresh, [0, 1, 2], seed=7, timeout=90)
                assert final["status"] == "finished"
            for api in clients:
                await api.aclose()
    finally:
        server.kill()
        server.wait(10)
