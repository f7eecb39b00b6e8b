"""A Redis that does not answer: every endpoint says 503 with Retry-After and a JSON error (the
client comes back), never a 500 or a hang; the command counter counts them."""

from __future__ import annotations

import httpx
import pytest

from services.gateway.app import create_app
from services.ops.settings import Settings
from tests.service.conftest import start_redis

pytestmark = pytest.mark.anyio


@pytest.fixture
async def api(tmp_path):
    process, url = start_redis(tmp_path)
    app = create_app(Settings(redis_url=url, queue_url=None, redis_timeout_s=2), embedded_worker=False)
    try:
        async with app.router.lifespan_context(app):
            process.kill()  # gone once the gateway runs: the connection is refused from now on
            process.wait(10)
            async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://tavern") as client:
                yield client
    finally:
        process.kill()


def unavailable(answer: httpx.Response) -> bool:
    return (
        answer.status_code == 503
        and answer.headers["retry-after"] == "1"
        and answer.headers["content-type"] == "application/json"
        and answer.json()["error"]["code"] == "unavailable"
    )


async def test_every_kind_of_request_is_answered_503(api):
    headers = {"Authorization": "Bearer x"}
    assert unavailable(await api.post("/v1/matches", json={"game": "taverna", "seats": 2}))
    assert unavailable(await api.post("/v1/matches/abc/commands", json={"type": "pass"}, headers=headers))
    assert unavailable(await api.get("/v1/matches/abc/view", headers=headers))
    assert unavailable(await api.get("/v1/matches/abc/stream", headers=headers))
    assert unavailable(await api.get("/healthz"))
    assert 'tavern_commands_total{outcome="unavailable"} 1' in (await api.get("/metrics")).text
