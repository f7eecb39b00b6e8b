"""QUEUE_URL: RQ and the projector's keys on another Redis than the events. An append then cannot
mark its match dirty in the same script; the gateway marks it on the queue's Redis after it."""

from __future__ import annotations

import uuid

import httpx
import pytest
import redis

from services.gateway.app import create_app
from services.ops.settings import Settings
from services.store import keys
from tests.service.client import create, play_to_end

pytestmark = pytest.mark.anyio


async def test_views_follow_the_log_with_the_queue_on_another_redis(redis_url):
    events_url, queue_url = redis_url, redis_url.rsplit("/", 1)[0] + "/1"
    for url in (events_url, queue_url):
        redis.Redis.from_url(url).flushdb()
    settings = Settings(redis_url=events_url, queue_url=queue_url, queue_name=f"apart-{uuid.uuid4().hex[:8]}")
    app = create_app(settings, embedded_worker=True)
    async with app.router.lifespan_context(app):
        assert not app.state.runtime.store.marks_dirty
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://tavern") as api:
            created = await create(api, seats=3)
            final = await play_to_end(api, created, [0, 1, 2], seed=3)
    assert final["status"] == "finished"
    events, queue = redis.Redis.from_url(events_url), redis.Redis.from_url(queue_url)
    assert events.xlen(keys.log(created["match_id"])) == final["version"]
    # the projector's bookkeeping went to the queue's Redis only
    assert not events.exists(keys.DIRTY, keys.ACTIVE, keys.CLAIMS, keys.WAKE)
    # RQ's registry of this app's queue, on the queue's Redis only (other tests' workers, still
    # stopping, may keep their own rq:worker keys on the events' server: those are not this app's)
    ours = f"rq:queue:{settings.queue_name}".encode()
    assert ours in queue.smembers("rq:queues") and ours not in events.smembers("rq:queues")
    assert not events.keys(f"rq:*{settings.queue_name}*")
