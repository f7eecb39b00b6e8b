"""/openapi.json is a valid OpenAPI 3.1 document that declares every route of the gateway, and
GET /v1/games serves the same schemas."""

from __future__ import annotations

import json

import pytest
from jsonschema import ValidationError
from openapi_spec_validator import validate
from starlette.routing import Route

from domain.games import game_ids
from services.gateway.app import ROUTES
from services.ops.settings import Settings
from tests.service.contract.published import Published

pytestmark = pytest.mark.anyio


@pytest.fixture
def settings() -> Settings:
    return Settings(redis_url=None, queue_url=None, queue_name="openapi", lease_s=1.0)


async def test_the_document_is_valid_openapi_3_1_without_root_defs(api):
    document = (await api.get("/openapi.json")).json()
    validate(document)
    assert document["openapi"] == "3.1.0"
    assert "$defs" not in json.dumps(document)


async def test_every_route_and_method_is_declared_with_its_errors(api):
    document = (await api.get("/openapi.json")).json()
    for route in ROUTES:
        if not isinstance(route, Route):
            continue  # the WebSocket: OpenAPI has no words for it (docs/API.md has)
        declared = document["paths"][route.path]
        for method in route.methods or ["GET"]:
            if method == "HEAD":
                continue
            operation = declared[method.lower()]
            assert operation["operationId"] and operation["responses"]
            if route.path.startswith("/v1/matches/"):
                assert {"401", "403", "404"} <= set(operation["responses"]), route.path
                assert operation["security"] == [{"bearer": []}]


async def test_a_command_body_validates_under_exactly_one_branch(api):
    published = Published((await api.get("/openapi.json")).json(), discriminating=False)  # plain oneOf
    body = published.document["components"]["schemas"]["Command"]
    pick = {"type": "PickCard", "card": "x", "expected_version": 4}  # a word two games share
    published.component("Command", pick)
    published.component("heros-tavern.Command", pick)
    by_tag = Published(published.document)  # as test_answers_match_schemas.py reads a discriminator
    by_tag.component("Command", pick)
    for wrong in ({"type": "PickCard", "card": 7}, {"type": "Nope"}, {"type": "FinishPurchases", "extra": 1}):
        for checker in (published, by_tag):
            with pytest.raises(ValidationError):
                checker.component("Command", wrong)
            with pytest.raises(ValidationError):
                checker.component("heros-tavern.Command", wrong)
    assert body["discriminator"]["propertyName"] == "type"
    tags = list(body["discriminator"]["mapping"])
    assert len(tags) == len(set(tags)) == len(body["oneOf"])


async def test_games_serve_the_same_schemas_as_the_document(api):
    document = (await api.get("/openapi.json")).json()
    components = document["components"]["schemas"]
    games = {game["id"]: game for game in (await api.get("/v1/games")).json()}
    assert set(games) == set(game_ids())
    for game_id, game in games.items():
        schemas = game["schemas"]
        assert schemas["rules_version"] == game["rules_version"] == document["info"]["x-rules-versions"][game_id]
        for key, name in (("commands", "Command"), ("events", "Event"), ("view", "View")):
            own = schemas[key]
            assert own["$ref"] == f"#/$defs/{game_id}.{name}"
            as_published = json.dumps(components[f"{game_id}.{name}"]).replace("#/components/schemas/", "#/$defs/")
            assert json.dumps(own["$defs"][f"{game_id}.{name}"]) == as_published
        assert all(option["description"] for option in game["options"])
