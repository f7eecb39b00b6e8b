"""/livez, /readyz and /healthz: ready while both Redis answer and the views keep up with the
logs (a backlog older than TAVERN_READY_BACKLOG_S is not), with the workers' heartbeats counted."""

from __future__ import annotations

import asyncio
import uuid

import httpx
import pytest

from services.gateway.app import create_app
from services.ops.settings import Settings
from tests.service.client import create

pytestmark = pytest.mark.anyio


async def serve(embedded_worker: bool):
    settings = Settings(
        redis_url=None, queue_url=None, queue_name=f"health-{uuid.uuid4().hex[:8]}", ready_backlog_s=0.5
    )
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


async def test_not_ready_once_views_lag_past_the_threshold():
    app, api = await serve(embedded_worker=False)
    async with app.router.lifespan_context(app), api:
        await create(api, seats=3)  # no worker: its views are never written
        assert (await api.get("/readyz")).status_code == 200  # not behind for long yet
        await asyncio.sleep(0.6)
        ready = await api.get("/readyz")
        assert ready.status_code == 503 and ready.headers["retry-after"] == "1"
        body = ready.json()
        assert body["status"] == "unavailable" and body["backlog_s"] >= 0.5 and body["workers"] == 0
        healthz = await api.get("/healthz")
        assert healthz.status_code == 503 and healthz.json() == {"status": "unavailable"}
        assert (await api.get("/livez")).status_code == 200
