"""The API's edges: every answer JSON (unknown routes and methods included), CORS for the origins
allowed, and the requests counted by route template."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest
from starlette.routing import Route

from services.gateway import cors
from services.gateway.app import create_app
from services.ops.metrics import CONTENT_TYPE as METRICS
from services.ops.settings import Settings

pytestmark = pytest.mark.anyio

METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")
UNKNOWN = ("/nope", "/v1", "/v1/nope", "/v1/matches/m1", "/v1/matches/m1/nope", "/v1/games/mercenaries", "/x/y.js")
WEB = Path(__file__).parents[3] / "services/gateway/web"
# the answers that are not JSON, each named: the web client's files, and Prometheus' text format
NOT_JSON = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    "/metrics": METRICS,  # Prometheus' text format
}
ORIGIN = "https://app.example"


def settings(*origins: str) -> Settings:
    # the embedded store, no worker: these requests only reach the gateway's edges
    return Settings(redis_url=None, queue_url=None, queue_name="edges", lease_s=1.0, cors_origins=origins)


@pytest.fixture
async def gateway(request):
    app = create_app(settings(*getattr(request, "param", ())), embedded_worker=False)
    transport = httpx.ASGITransport(app=app)
    async with app.router.lifespan_context(app), httpx.AsyncClient(transport=transport, base_url="http://t") as api:
        api.app = app  # type: ignore[attr-defined]
        yield api


def concrete(template: str) -> str:
    return re.sub(r"\{(\w+)\}", lambda name: "mercenaries" if name[1] == "game_id" else "m1", template)


def paths(app, document: dict) -> set[str]:
    templates = {route.path for route in app.routes if isinstance(route, Route)} | set(document["paths"])
    files = {"/" + str(path.relative_to(WEB)) for path in WEB.rglob("*") if path.is_file()}
    return {concrete(template) for template in templates} | set(UNKNOWN) | files | {"/"}


def expected_type(path: str, status: int) -> str:
    if status < 400:
        for suffix, kind in NOT_JSON.items():
            if path.endswith(suffix) or (path == "/" and suffix == ".html"):
                return kind
    return "application/json"


async def test_no_route_answers_plain_text_every_other_answer_is_json(gateway):
    document = (await gateway.get("/openapi.json")).json()
    answered = 0
    for path in sorted(paths(gateway.app, document)):
        for method in METHODS:
            answer = await gateway.request(method, path)
            if answer.status_code in (204, 304):  # no body
                continue
            kind = answer.headers.get("content-type", "")
            assert kind == expected_type(path, answer.status_code), (method, path, answer.status_code, kind)
            if kind == "application/json" and method != "HEAD":
                body = answer.json()
                if answer.status_code >= 400:
                    assert set(body) == {"error"} and body["error"]["code"], (method, path, body)
            answered += 1
    assert answered > 300


async def test_unknown_routes_and_methods_answer_the_error_body_with_a_stable_code(gateway):
    missing = await gateway.get("/v1/nope")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    wrong = await gateway.delete("/v1/games")
    assert wrong.status_code == 405 and wrong.json()["error"]["code"] == "method_not_allowed"
    assert set(wrong.headers["allow"].split(", ")) == {"GET", "HEAD"}
    posted = await gateway.get("/v1/matches")  # POST only
    assert posted.status_code == 405 and posted.headers["allow"] == "POST"
    preflight = await gateway.options(
        "/v1/matches", headers={"Origin": ORIGIN, "Access-Control-Request-Method": "POST"}
    )
    assert preflight.status_code == 405 and preflight.json()["error"]["code"] == "method_not_allowed"
    assert not [name for name in preflight.headers if name.startswith("access-control-")]  # none allowed by default


PREFLIGHT = {"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization,idempotency-key"}


@pytest.mark.parametrize("gateway", [(ORIGIN, "http://localhost:5173")], indirect=True)
async def test_a_preflight_from_an_allowed_origin_is_answered_for_every_route(gateway):
    document = (await gateway.get("/openapi.json")).json()
    for path in sorted(paths(gateway.app, document)):
        answer = await gateway.options(path, headers={"Origin": ORIGIN, **PREFLIGHT})
        assert answer.status_code == 204, path
        assert answer.headers["access-control-allow-origin"] == ORIGIN and answer.headers["vary"] == "Origin"
        # every method the API has: a frontend elsewhere also PATCHes a player and DELETEs a webhook
        assert set(answer.headers["access-control-allow-methods"].split(", ")) == {"GET", "POST", "PATCH", "DELETE"}
        taken = {name.lower() for name in answer.headers["access-control-allow-headers"].split(", ")}
        assert {"authorization", "idempotency-key", "prefer", "x-api-key", "if-none-match", "last-event-id"} <= taken
    refused = await gateway.options("/v1/matches", headers={"Origin": "https://evil.example", **PREFLIGHT})
    assert refused.status_code == 405 and refused.json()["error"]["code"] == "method_not_allowed"
    assert not [name for name in refused.headers if name.startswith("access-control-")]


@pytest.mark.parametrize("gateway", [(ORIGIN,)], indirect=True)
async def test_cross_origin_reads_and_writes_name_the_origin_and_show_the_headers_clients_need(gateway):
    created = await gateway.post("/v1/matches", json={"game": "mercenaries", "seats": 2}, headers={"Origin": ORIGIN})
    assert created.status_code == 201, created.text
    assert created.headers["access-control-allow-origin"] == ORIGIN
    content = await gateway.get("/v1/games/mercenaries/content", headers={"Origin": ORIGIN})
    assert content.status_code == 200 and content.headers["access-control-allow-origin"] == ORIGIN
    shown = set(content.headers["access-control-expose-headers"].split(", "))
    assert shown == set(cors.SHOWS) and "ETag" in shown and content.headers["etag"]
    match_id = created.json()["match_id"]
    for method, leaf in (("POST", "commands"), ("GET", "stream")):  # the bare endpoints, behind CORS too
        bare = await gateway.request(method, f"/v1/matches/{match_id}/{leaf}", headers={"Origin": ORIGIN})
        assert bare.status_code == 401 and bare.headers["access-control-allow-origin"] == ORIGIN
    refused = await gateway.get("/v1/nope", headers={"Origin": ORIGIN})  # an error is readable too
    assert refused.status_code == 404 and refused.headers["access-control-allow-origin"] == ORIGIN
    other = await gateway.get("/v1/games", headers={"Origin": "https://evil.example"})
    assert other.status_code == 200 and "access-control-allow-origin" not in other.headers
    plain = await gateway.get("/v1/games")  # no Origin: not a cross-origin request
    assert not [name for name in plain.headers if name.startswith("access-control-")]


@pytest.mark.parametrize("gateway", [("*",)], indirect=True)
async def test_any_origin_when_allowed_so(gateway):
    answer = await gateway.options("/v1/lobby", headers={"Origin": "https://any.example", **PREFLIGHT})
    assert answer.status_code == 204 and answer.headers["access-control-allow-origin"] == "*"
    assert "vary" not in answer.headers


def test_origins_are_checked_when_read():
    from services.ops.settings import BadSetting, from_env

    assert from_env({"TAVERN_CORS_ORIGINS": " https://a.example/, http://b:8080 "}).cors_origins == (
        "https://a.example",
        "http://b:8080",
    )
    assert from_env({}).cors_origins == ()
    for bad in ("a.example", "https://a.example/path", "ftp://a.example"):
        with pytest.raises(BadSetting):
            from_env({"TAVERN_CORS_ORIGINS": bad})


async def test_every_route_is_counted_by_its_template(gateway):
    routes = [route for route in gateway.app.routes if isinstance(route, Route)]
    for route in routes:
        method = sorted(route.methods or {"GET"})[0]
        await gateway.request(method, concrete(route.path))
    await gateway.get("/app.js")
    text = (await gateway.get("/metrics")).text
    counted = set(re.findall(r'tavern_http_requests_total\{[^}]*route="([^"]+)"', text))
    expected = {route.path.replace("{match_id}", "{id}") for route in routes} | {"web"}
    assert counted >= expected
    assert counted - expected == set(), counted - expected  # nothing else: no id, no "other"
