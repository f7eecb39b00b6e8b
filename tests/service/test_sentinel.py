"""The queue's Redis behind Sentinel: two gateways and a worker find it through 3 redis-sentinels;
its primary SIGKILLed mid-play, Sentinel promotes the replica, the processes reconnect by
themselves, every match finishes (none left unprojected: each process marks the matches it
appended to lately dirty again) and every 200 is in the exported log."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from tests.service.conftest import service_env
from tests.service.durable_play import Tally
from tests.service.redis_sentinel import Sentinels
from tests.service.test_cluster import check_exports, create_all, play_all, serve

pytestmark = pytest.mark.anyio


@pytest.fixture
def sentinels(tmp_path):
    started = Sentinels(tmp_path).start()
    yield started
    started.stop()


async def test_the_queue_primary_killed_mid_play(sentinels, plain_url, processes, tmp_path):
    env = service_env(plain_url, TAVERN_QUEUE="sentinel", **sentinels.env)
    bases = serve(processes, env)
    tally = Tally()
    async with httpx.AsyncClient(base_url=bases[0], timeout=30) as api:
        created = await create_all(api, tally, copies=2)
    playing = asyncio.create_task(play_all(bases, created, tally))
    while len(tally.acknowledged) < 20 and not playing.done():
        await asyncio.sleep(0.01)
    dead = sentinels.kill_master()
    await asyncio.to_thread(sentinels.wait, lambda: sentinels.master() not in (None, dead), "no promotion")
    await asyncio.wait_for(playing, 90)
    await check_exports(bases[1], created, tally, tmp_path)
    assert tally.statuses <= {200, 201, 409, 422, 503}
