"""GET /v1/games/{id}/content: the content with a strong ETag, 304 when the client holds it, 404 for
an unknown game; its schema is listed with the game's others."""

from __future__ import annotations

import httpx
import msgspec
import pytest

from domain.games import game_ids
from projections.content.model import Content
from services.gateway.app import create_app
from services.ops.settings import Settings

pytestmark = pytest.mark.anyio


@pytest.fixture
async def api():
    settings = Settings(redis_url=None, queue_url=None, queue_name="content", lease_s=1.0)
    app = create_app(settings, embedded_worker=False)
    transport = httpx.ASGITransport(app=app)
    async with app.router.lifespan_context(app), httpx.AsyncClient(transport=transport, base_url="http://t") as client:
        yield client


@pytest.mark.parametrize("game", game_ids())
async def test_content_is_served_with_an_etag_and_304_when_held(api, game):
    first = await api.get(f"/v1/games/{game}/content")
    assert first.status_code == 200 and first.headers["content-type"] == "application/json"
    content = msgspec.json.decode(first.content, type=Content)
    assert content.game == game and content.items and content.rules
    etag = first.headers["etag"]
    assert etag.startswith('"') and "max-age" in first.headers["cache-control"]
    again = await api.get(f"/v1/games/{game}/content", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == etag
    stale = await api.get(f"/v1/games/{game}/content", headers={"If-None-Match": '"old", "older"'})
    assert stale.status_code == 200 and stale.content == first.content


async def test_an_unknown_game_has_no_content(api):
    answer = await api.get("/v1/games/chess/content")
    assert answer.status_code == 404 and answer.json()["error"]["code"] == "unknown_game"


async def test_the_content_schema_is_listed_with_the_games_others(api):
    games = (await api.get("/v1/games")).json()
    for game in games:
        schema = game["schemas"]["content"]
        assert "Content" in schema["$defs"] and "Item" in schema["$defs"]
    document = (await api.get("/openapi.json")).json()
    assert "/v1/games/{game_id}/content" in document["paths"] and "Content" in document["components"]["schemas"]
