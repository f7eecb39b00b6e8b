"""/livez, /readyz and /healthz: ready while this process's links to both Redis answer, with the
projection backlog and the workers' heartbeats reported; a backlog is a metric, not unreadiness."""

from __future__ import annotations

import asyncio
import re
import uuid

import httpx
import pytest

from services.gateway.app import create_app
from services.ops.settings import Settings
from tests.service.client import create

pytestmark = pytest.mark.anyio
BEHIND_S = 10.5


async def serve(embedded_worker: bool):
    settings = Settings(redis_url=None, queue_url=None, queue_name=f"health-{uuid.uuid4().hex[:8]}")
    app = create_app(settings, embedded_worker=embedded_worker)
    return app, httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://tavern")


async def test_ready_with_a_worker_keeping_up():
    app, api = await serve(embedded_worker=True)
    async with app.router.lifespan_context(app), api:
        await create(api, seats=3)
        await asyncio.sleep(0.8)
        ready = await api.get("/readyz")
        assert ready.status_code == 200, ready.text
        assert ready.json() == {"status": "ok", "redis": "ok", "queue": "ok", "backlog_s": 0.0, "workers": 1}
        assert (await api.get("/healthz")).json() == {"status": "ok"}
        assert (await api.get("/livez")).json() == {"status": "ok"}


async def test_a_backlog_is_reported_and_gauged_while_the_gateway_stays_ready():
    app, api = await serve(embedded_worker=False)
    async with app.router.lifespan_context(app), api:
        await create(api, seats=3)  # no worker: its views are never written
        # past the 10 s at which readiness used to fail (TAVERN_READY_BACKLOG_S's default, gone)
        for _ in range(60):
            ready = await api.get("/readyz")
            assert ready.status_code == 200, ready.text  # the workers' backlog is not this gateway's readiness
            if ready.json()["backlog_s"] >= BEHIND_S:
                break
            await asyncio.sleep(0.25)
        body = ready.json()
        assert body["status"] == "ok" and body["backlog_s"] >= BEHIND_S and body["workers"] == 0
        assert (await api.get("/healthz")).json() == {"status": "ok"}
        scraped = (await api.get("/metrics")).text  # the sweeper gauges it each second, for the alert
        backlog = re.search(r"^tavern_projector_backlog (\S+)$", scraped, re.M)
        age = re.search(r"^tavern_projector_backlog_age_seconds (\S+)$", scraped, re.M)
        assert backlog and float(backlog[1]) == 1.0, scraped
        assert age and float(age[1]) >= BEHIND_S - 1.5, scraped  # as of the sweeper's last second
