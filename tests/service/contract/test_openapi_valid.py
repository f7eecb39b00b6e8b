"""/openapi.json is a valid OpenAPI 3.1 document that declares every route of the gateway, and
GET /v1/games serves the same schemas."""

from __future__ import annotations

import json

import pytest
from jsonschema import ValidationError
from openapi_spec_validator import validate
from starlette.routing import Route

from domain.games import game_ids, get_game
from services.gateway import contract
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
                # a seat's or the spectator's token; the chat's moderation takes a moderator's key
                # instead (docs/chat.md), which a token is never refused as wrong for
                assert operation["security"] in ([{"bearer": []}], [{"bearer": []}, {"moderator": []}],
                                                 [{"moderator": []}]), route.path
                bearer = {"bearer": []} in operation["security"]
                assert {"401", "404", *(("403",) if bearer else ())} <= set(operation["responses"]), route.path


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


def _schemas(node: object, path: str = "") -> list[tuple[str, dict]]:
    """Every schema object under ``node`` (a component, a property, an item, a branch...), with its place."""
    found: list[tuple[str, dict]] = []
    if isinstance(node, dict):
        found.append((path, node))
        for key in ("items", "additionalProperties", "schema"):
            if isinstance(node.get(key), dict):
                found += _schemas(node[key], f"{path}/{key}")
        for key in ("properties", "$defs"):
            for name, value in node.get(key, {}).items():
                found += _schemas(value, f"{path}/{key}/{name}")
        for key in ("anyOf", "oneOf", "allOf", "prefixItems"):
            for n, value in enumerate(node.get(key, [])):
                found += _schemas(value, f"{path}/{key}/{n}")
    return found


async def test_no_schema_is_left_untyped(api):
    """Every schema says what it holds: a type (an object its properties or its values, an array
    its items), a reference, a union or a set of values; a free-form object only where it says so."""
    document = (await api.get("/openapi.json")).json()
    every = [found for name, schema in document["components"]["schemas"].items() for found in _schemas(schema, name)]
    for operations in document["paths"].values():
        for method, operation in operations.items():
            for status, answer in operation["responses"].items():
                for media, content in answer.get("content", {}).items():
                    every += _schemas(content["schema"], f"{method} {status} {media}")
    assert len(every) > 1500
    for place, schema in every:
        assert {"type", "$ref", "anyOf", "oneOf", "allOf", "enum", "const"} & set(schema), place
        if schema.get("type") == "object":
            assert "properties" in schema or "additionalProperties" in schema, place
        if schema.get("type") == "array":
            assert "items" in schema or "prefixItems" in schema, place


async def test_no_request_property_has_a_default_unless_required(api):
    """openapi-typescript's defaults (defaultNonNullable) make a property with a default required in
    the generated type: in a body a client may leave it out, so what a request may send has none."""
    document = (await api.get("/openapi.json")).json()
    components = document["components"]["schemas"]
    sent = [
        operation["requestBody"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
        for operations in document["paths"].values()
        for operation in operations.values()
        if "requestBody" in operation
    ]
    assert {"CreateMatch", "Command", "Join", "NewPlayer", "Contribution"} <= set(sent)
    reachable = set(contract.reachable([*sent, "WsCommand"], components))
    assert {"tavern-masters.CreateMatch", "taverna.Pass", "Join", "ClockOption", "Concede"} <= reachable
    for name in reachable:
        required = set(components[name].get("required", ()))
        for field, schema in components[name].get("properties", {}).items():
            assert "default" not in schema or field in required, f"{name}.{field}"
    assert "default" in components["heros-tavern.ViewEnvelope"]["properties"]["players"]  # answers keep theirs


async def test_every_game_has_online_plays_commands_and_events_and_typed_options(api):
    components = (await api.get("/openapi.json")).json()["components"]["schemas"]
    for game_id in game_ids():
        sent = components[f"{game_id}.Command"]["discriminator"]["mapping"]
        logged = components[f"{game_id}.LoggedCommand"]["discriminator"]["mapping"]
        events = components[f"{game_id}.Event"]["discriminator"]["mapping"]
        service = {"TimedOut", "Abandon", "TakeVacation"}  # sent by the service only
        assert {"Concede", "Leave"} <= set(sent) and not service & set(sent)
        assert set(sent) | service == set(logged)
        assert {"Conceded", "TakenOver", "SeatTimedOut", "StreakEnded", "Abandoned", "VacationTaken"} <= set(events)
        options = components[f"{game_id}.Options"]["properties"]
        assert set(options) == {spec.name for spec in get_game(game_id).options}
        assert components["CreateMatch"]["discriminator"]["mapping"][game_id].endswith(f"{game_id}.CreateMatch")
    published = Published({"paths": {}, "components": {"schemas": components}})
    published.component("CreateMatch", {"game": "tavern-masters", "seats": 2, "options": {"dirty_deeds": True}})
    for wrong in (
        {"game": "tavern-masters", "seats": 2, "options": {"dirty_deeds": "yes"}},
        {"game": "mercenaries", "seats": 2, "options": {"dirty_deeds": True}},
        {"game": "mercenaries", "seats": 3},
        {"game": "taverna", "seats": 2, "clock": {"per_move": 60}},
    ):
        with pytest.raises(ValidationError):
            published.component("CreateMatch", wrong)
