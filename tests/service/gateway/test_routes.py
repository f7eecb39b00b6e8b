"""The web client's mount at "/" answers every path it reaches, so it must come after every route."""

from __future__ import annotations

import httpx
import pytest

from services.gateway.app import create_app
from services.ops.settings import Settings

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize("bench", ["0", "1"])
async def test_the_web_client_is_mounted_after_every_route(monkeypatch, bench):
    monkeypatch.setenv("TAVERN_BENCH", bench)
    settings = Settings(redis_url=None, queue_url=None, queue_name="routes", lease_s=1.0)
    app = create_app(settings, embedded_worker=False)
    assert app.routes[-1].path == "" and app.routes[-1].name == "web"
    transport = httpx.ASGITransport(app=app)
    async with app.router.lifespan_context(app), httpx.AsyncClient(transport=transport, base_url="http://t") as api:
        assert (await api.get("/")).status_code == 200
        assert (await api.get("/healthz")).json() == {"status": "ok"}
        floor = await api.post("/bench/floor", content=b'{"type": "PickCard", "card": "c", "expected_version": 3}')
        assert floor.status_code == (200 if bench == "1" else 405)  # the yardstick exists only for benchmarks
