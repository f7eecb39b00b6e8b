"""/openapi.json, built from the msgspec schemas of the API's messages and of every game."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.games import game_ids, get_game
from projections.content.model import Content
from projections.replay import Frame
from projections.views import ViewEnvelope
from services.commands.entropy import Contributed, Contribution
from services.commands.schemas import Accepted, CreateMatch, ErrorBody, GameInfo, Health, MatchCreated
from services.gateway.health import Readiness

REF = "#/components/schemas/"


def _ref(name: str) -> dict[str, str]:
    return {"$ref": REF + name}


def _json(schema: dict[str, Any]) -> dict[str, Any]:
    return {"content": {"application/json": {"schema": schema}}}


def _errors(*statuses: int) -> dict[str, Any]:
    return {str(status): {"description": "an error", **_json(_ref("ErrorBody"))} for status in statuses}


def _ready(schema: dict[str, Any]) -> dict[str, Any]:
    """A readiness answer: 200 when ready, 503 (with Retry-After) when not, the same body."""
    return {"200": {"description": "ready", **_json(schema)}, "503": {"description": "not ready", **_json(schema)}}


def document() -> dict[str, Any]:
    games = [get_game(game_id) for game_id in game_ids()]
    types: list[Any] = [CreateMatch, MatchCreated, ErrorBody, Accepted, GameInfo, ViewEnvelope, Frame, Health, Content]
    _, components = msgspec.json.schema_components(types, ref_template=REF + "{name}")
    commands: dict[str, Any] = {"oneOf": []}
    for game in games:
        # each game's schemas are named "<game id>.<Name>": games share words (PickCard), and the
        # public name must not depend on where a class lives in our code
        (command, _), own = msgspec.json.schema_components(
            [game.command_type, game.view_type], ref_template=f"{REF}{game.id}.{{name}}"
        )
        components.update({f"{game.id}.{name}": schema for name, schema in own.items()})
        commands["oneOf"].append(command)
    match_id = [{"name": "match_id", "in": "path", "required": True, "schema": {"type": "string"}}]
    bearer = [{"bearer": []}]

    def op(summary: str, ok: dict[str, Any], *errors: int, **extra: Any) -> dict[str, Any]:
        return {"summary": summary, "responses": {**ok, **_errors(*errors)}, **extra}

    authed = {"parameters": match_id, "security": bearer}
    paths = {
        "/v1/games": {"get": op("The games, their seats, options and schemas", {"200": {"description": "games"}})},
        "/v1/games/{game_id}/content": {
            "get": op(
                "The game's cards, tiles, spaces and tracks with effect texts, and a rules summary (ETag; 304)",
                {"200": {"description": "content", **_json(_ref("Content"))}, "304": {"description": "not modified"}},
                404,
                parameters=[{"name": "game_id", "in": "path", "required": True, "schema": {"type": "string"}}],
            )
        },
        "/v1/matches": {
            "post": op(
                "Create a match",
                {"201": {"description": "created", **_json(_ref("MatchCreated"))}},
                400,
                422,
                requestBody=_json(_ref("CreateMatch")),
            )
        },
        "/v1/matches/{match_id}/commands": {
            "post": op(
                "Send a command (body: a command of the match's game, optionally with expected_version)",
                {"200": {"description": "accepted", **_json(_ref("Accepted"))}},
                400,
                401,
                403,
                404,
                409,
                422,
                requestBody=_json(commands),
                **authed,
            )
        },
        "/v1/matches/{match_id}/view": {
            "get": op(
                "The caller's view",
                {"200": {"description": "view", **_json(_ref("ViewEnvelope"))}},
                401,
                403,
                404,
                **authed,
            )
        },
        "/v1/matches/{match_id}/stream": {
            "get": op(
                "Server-Sent Events of the caller's view",
                {"200": {"description": "text/event-stream"}},
                401,
                403,
                404,
                **authed,
            )
        },
        "/v1/matches/{match_id}/events": {
            "get": op("Event envelopes after a version", {"200": {"description": "envelopes"}}, 401, 403, 404, **authed)
        },
        "/v1/matches/{match_id}/replay": {
            "get": op(
                "One frame per version",
                {"200": {"description": "frames", **_json({"type": "array", "items": _ref("Frame")})}},
                401,
                403,
                404,
                **authed,
            )
        },
        "/v1/matches/{match_id}/export": {
            "get": op(
                "JSON Lines export of a finished match",
                {"200": {"description": "application/x-ndjson"}},
                401,
                403,
                404,
                409,
                **authed,
            )
        },
        "/v1/matches/{match_id}/entropy": {
            "post": op(
                "A seat's entropy, before the opening deal of a match created with seat_entropy (docs/AUDIT.md)",
                {"200": {"description": "kept", **_json(msgspec.json.schema(Contributed))}},
                400,
                401,
                403,
                404,
                422,
                requestBody=_json(msgspec.json.schema(Contribution)),
                **authed,
            )
        },
        "/healthz": {"get": op("Readiness, its status only (as /readyz)", _ready(_ref("Health")))},
        "/livez": {"get": op("Liveness: the process answers", {"200": {"description": "ok", **_json(_ref("Health"))}})},
        "/readyz": {
            "get": op("Readiness: both Redis answer, the projector keeps up", _ready(msgspec.json.schema(Readiness)))
        },
        "/metrics": {"get": op("Prometheus metrics", {"200": {"description": "text/plain"}})},
        "/openapi.json": {"get": op("This document", {"200": {"description": "OpenAPI 3.1"}})},
    }
    return {
        "openapi": "3.1.0",
        "info": {"title": "Tavern", "version": "1"},
        "paths": paths,
        "components": {"schemas": components, "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}}},
    }
