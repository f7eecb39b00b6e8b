"""With no worker taking jobs, the sweeper's once-a-second drain requests do not pile up in the
queue: a few wait (services/projector/jobs.py), however long the workers stay away."""

from __future__ import annotations

import asyncio
import uuid

import httpx
import pytest

from services.gateway.app import create_app
from services.ops.settings import Settings
from services.store.drain_jobs import MAX_QUEUED
from tests.service.client import create

pytestmark = pytest.mark.anyio


async def test_drain_jobs_do_not_pile_up_without_workers():
    settings = Settings(redis_url=None, queue_url=None, queue_name=f"pileup-{uuid.uuid4().hex[:8]}")
    app = create_app(settings, embedded_worker=False)
    async with app.router.lifespan_context(app):
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://tavern") as api:
            for _ in range(3):
                await create(api, seats=3)
            await asyncio.sleep(MAX_QUEUED + 2)  # a sweep a second, each finding dirty matches and no job running
        assert app.state.runtime.jobs[0].count == MAX_QUEUED
