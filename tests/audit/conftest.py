"""The gateway on fakeredis with a worker thread, and an HTTP client on it (no real server needed)."""

from __future__ import annotations

import uuid

import httpx
import pytest

from services.gateway import create_app
from services.settings import Settings


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.fixture
async def app():
    settings = Settings(redis_url=None, queue_url=None, queue_name=f"audit-{uuid.uuid4().hex[:8]}", lease_s=1.0)
    application = create_app(settings, embedded_worker=True)
    async with application.router.lifespan_context(application):
        yield application


@pytest.fixture
async def api(app):
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://tavern") as client:
        yield client
