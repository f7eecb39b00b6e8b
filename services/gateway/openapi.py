"""/openapi.json (OpenAPI 3.1): the API's own messages from their msgspec Structs, the games' schemas
from contract.py (the same source as GET /v1/games). docs/API.md explains the design."""

from __future__ import annotations

import copy
import json
from typing import Any

import msgspec

from domain.games import game_ids, get_game
from projections.content.model import Content
from projections.i18n import LANGUAGES
from projections.receipts import SIGNING_KEY_PATH, SigningKey
from services.commands.entropy import Contributed, Contribution
from services.gateway import contract, openapi_chat, openapi_notify, openapi_online, reads, stream_schemas
from services.gateway.contract import REF, any_of_games, nullable, ref
from services.gateway.health import Readiness
from services.gateway.schemas import (
    CreateMatch,
    ErrorBody,
    GameInfo,
    Health,
    MatchCreated,
)

ERRORS = {
    400: "malformed request (bad_request, bad_command, bad_query, bad_last_event_id, unknown_game)",
    401: "no bearer token (no_token); creating: no valid X-API-Key where one is needed (api_key_required), "
    "neither a player's token nor a key where either is (identity_required), a token that is no player's "
    "(unknown_player)",
    403: "a token that is not this match's, or a spectator's where a seat's is needed (wrong_token, spectator)",
    404: "no such match (no_such_match)",
    409: "stale_version (expected_version was not the match's: `version` says the current one, `view` the "
    "seat's view at it when the gateway holds it), contention, match_running",
    413: "the body is over its cap (body_too_large: docs/LIMITS.md)",
    422: "refused by the rules: the code is the game's (docs/API.md lists them)",
    429: "past a rate, with Retry-After (rate_limited); creating: past the creator's quota of open matches "
    "(open_matches_quota: docs/LIMITS.md)",
}


def _json(schema: dict[str, Any]) -> dict[str, Any]:
    return {"content": {"application/json": {"schema": schema}}}


def _ok(description: str, schema: dict[str, Any], media: str = "application/json") -> dict[str, Any]:
    return {"description": description, "content": {media: {"schema": schema}}}


def _op(summary: str, status: int, ok: dict[str, Any], errors: tuple[int, ...], **extra: Any) -> dict[str, Any]:
    responses = {str(status): ok}
    responses |= {str(code): {"description": ERRORS[code], **_json(ref("ErrorBody"))} for code in errors}
    return {"summary": summary, "operationId": extra.pop("operation_id"), "responses": responses, **extra}


def _ready(summary: str, schema: dict[str, Any], operation_id: str) -> dict[str, Any]:
    """A readiness answer: 200 when ready, 503 (with Retry-After) when not, the same body."""
    operation = _op(summary, 200, _ok("ready", schema), (), operation_id=operation_id)
    operation["responses"]["503"] = _ok("not ready", schema)
    return operation


def _content() -> dict[str, Any]:
    game_id = {"name": "game_id", "in": "path", "required": True, "schema": {"type": "string"}}
    operation = _op(
        "The game's cards, tiles, spaces and tracks with effect texts, and a rules summary (ETag)",
        200,
        _ok("the content", ref("Content")),
        (),
        operation_id="getContent",
        parameters=[game_id],
    )
    operation["responses"]["304"] = {"description": "not modified (If-None-Match held its ETag)"}
    operation["responses"]["404"] = {"description": "no such game (unknown_game)", **_json(ref("ErrorBody"))}
    return operation


MATCH_ID = {"name": "match_id", "in": "path", "required": True, "schema": {"type": "string"}}
AUTHED = (401, 403, 404)


def _match_op(summary: str, status: int, ok: dict[str, Any], errors: tuple[int, ...], **extra: Any) -> dict:
    parameters = [MATCH_ID, *extra.pop("parameters", [])]
    return _op(summary, status, ok, (*AUTHED, *errors), parameters=parameters, security=[{"bearer": []}], **extra)


def _query(name: str, description: str) -> dict[str, Any]:
    return {"name": name, "in": "query", "required": False, "schema": {"type": "integer"}, "description": description}


def _header(name: str, description: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "in": "header", "required": False, "schema": schema, "description": description}


LANG = {
    "name": "lang",
    "in": "query",
    "required": False,
    "schema": {"type": "string", "enum": list(LANGUAGES)},
    "description": "the texts' language, over the player's setting and Accept-Language (docs/i18n.md)",
}
ACCEPT_LANGUAGE = _header(
    "Accept-Language",
    "the texts' language (en, fr; q-values weighed; default en) unless ?lang= or the player's setting says",
    {"type": "string"},
)
LANGUAGE_HEADERS = {
    "Content-Language": {"description": "the texts' language", "schema": {"type": "string"}},
    "Vary": {"description": "Accept-Language, Authorization", "schema": {"type": "string"}},
}


def _with_language(operation: dict[str, Any]) -> dict[str, Any]:
    """An answer whose texts are in the caller's language (docs/i18n.md)."""
    operation["parameters"] = [*operation.get("parameters", []), LANG, ACCEPT_LANGUAGE]
    operation["responses"]["200"]["headers"] = LANGUAGE_HEADERS
    return operation


def paths() -> dict[str, Any]:
    return {
        "/v1/games": {
            "get": _op(
                "The games: seats, options, bots and schemas",
                200,
                _ok("the games", {"type": "array", "items": ref("GameInfo")}),
                (),
                operation_id="listGames",
            )
        },
        "/v1/games/{game_id}/content": {"get": _with_language(_content())},
        "/v1/matches": {
            "post": _op(
                "Create a match",
                201,
                _ok("created: the seats' tokens and the seed's commitment", ref("MatchCreated")),
                (400, 401, 413, 422, 429),
                operation_id="createMatch",
                requestBody={"required": True, **_json(ref("CreateMatch"))},
            )
        },
        "/v1/matches/{match_id}/commands": {
            "post": _match_op(
                "Send a command of the match's game (an element of `legal`), optionally with expected_version",
                200,
                _ok("accepted", any_of_games("Accepted")),
                (400, 409, 413, 422, 429),
                operation_id="sendCommand",
                parameters=[
                    _header(
                        "Idempotency-Key",
                        "a retry with the same key gets the first answer again, and is not decided twice",
                        {"type": "string"},
                    ),
                    _header(
                        "Prefer",
                        "handling=strict: a stale expected_version is a 409 even where the seat's options are"
                        " unchanged (docs/API.md)",
                        {"type": "string"},
                    ),
                ],
                requestBody={"required": True, **_json(ref("Command"))},
            )
        },
        "/v1/matches/{match_id}/view": {
            "get": _match_op(
                "The caller's view envelope",
                200,
                _ok("the view", ref("ViewEnvelope")),
                (),
                operation_id="getView",
            )
        },
        "/v1/matches/{match_id}/stream": {
            "get": _match_op(
                "Server-Sent Events: `event: view`, `id: <version>`, `data: <ViewEnvelope>`; `event: presence`,"
                " `data: <PresenceFrame>` when a seat connects or disconnects; `event: lost`, `data: <ErrorBody>`"
                " (match_lost) as the last word of a match the store lost; keep-alive comments",
                200,
                _ok(
                    "the caller's views, newest only, in version order (docs/API.md: the stream)",
                    {"type": "string", "description": "text/event-stream; each view's data line is a ViewEnvelope"},
                    "text/event-stream",
                ),
                (400,),
                operation_id="streamViews",
                parameters=[
                    _header(
                        "Last-Event-ID",
                        "resume: only views newer than this version are sent",
                        {"type": "string", "pattern": "^[0-9]+$"},
                    )
                ],
            )
        },
        "/v1/matches/{match_id}/events": {
            "get": _with_language(
                _match_op(
                    "The log's entries after a version, as the caller may see them",
                    200,
                    _ok("the entries, in version order", any_of_games("EventEnvelope", array=True)),
                    (400,),
                    operation_id="listEvents",
                    parameters=[_query("after", "only entries with a version above this (default 0)")],
                )
            )
        },
        "/v1/matches/{match_id}/replay": {
            "get": _with_language(
                _match_op(
                    "One frame per version, the caller's view at each",
                    200,
                    _ok("frames 0 to the current version", any_of_games("Frame", array=True)),
                    (400,),
                    operation_id="getReplay",
                    parameters=[_query("seat", "once finished: whose view the frames show (default the caller's)")],
                )
            )
        },
        "/v1/matches/{match_id}/export": {
            "get": _match_op(
                "JSON Lines export of a finished match, its head signed (docs/AUDIT.md)",
                200,
                _ok("the export", {"type": "string"}, "application/x-ndjson"),
                (409,),
                operation_id="exportMatch",
            )
        },
        "/v1/matches/{match_id}/entropy": {
            "post": _match_op(
                "A seat's entropy, before the opening deal of a match created with seat_entropy (docs/AUDIT.md)",
                200,
                _ok("kept", ref("Contributed")),
                (400, 422),
                operation_id="giveEntropy",
                requestBody={"required": True, **_json(ref("Contribution"))},
            )
        },
        "/healthz": {"get": _ready("Readiness, its status only (as /readyz)", ref("Health"), "health")},
        "/livez": {"get": _op("Liveness: the process answers", 200, _ok("ok", ref("Health")), (), operation_id="live")},
        "/readyz": {"get": _ready("Readiness: this process's links to both Redis answer", ref("Readiness"), "ready")},
        "/metrics": {
            "get": _op(
                "Prometheus metrics", 200, _ok("metrics", {"type": "string"}, "text/plain"), (), operation_id="metrics"
            )
        },
        SIGNING_KEY_PATH: {
            "get": _op(
                "The public key that signs finished matches' exports (docs/AUDIT.md: tavern audit --key)",
                200,
                _ok("the key", ref("SigningKey")),
                (),
                operation_id="signingKey",
            )
        },
        "/openapi.json": {
            "get": _op(
                "This document",
                200,
                _ok("OpenAPI 3.1", {"type": "object", "additionalProperties": True}),
                (),
                operation_id="openapi",
            )
        },
        "/asyncapi.json": {
            "get": _op(
                "The streams (/stream and /ws): their frames, resuming and close codes, as AsyncAPI 3.1",
                200,
                _ok("AsyncAPI 3.1: its payloads are schemas of this", {"type": "object", "additionalProperties": True}),
                (),
                operation_id="asyncapi",
            )
        },
    }


def _reads_limited(found: dict[str, Any]) -> dict[str, Any]:
    """Every read under /v1/ may be answered 429 past the reads' rates (services/gateway/reads.py)."""
    for path, operations in found.items():
        if path.startswith(reads.PREFIX) and "get" in operations:
            operations["get"]["responses"].setdefault("429", {"description": ERRORS[429], **_json(ref("ErrorBody"))})
    return found


def _create_match(base: dict[str, Any]) -> dict[str, Any]:
    """CreateMatch, one schema per game (``<game>.CreateMatch``: its seats, options, bots), by ``game``."""
    out = {}
    for game_id in game_ids():
        game = get_game(game_id)
        schema = copy.deepcopy(base) | {"title": f"{game_id}.CreateMatch"}
        seat = {"type": "integer", "minimum": 0, "maximum": game.max_seats - 1}
        properties = schema["properties"]
        properties["game"] = {"enum": [game_id]}
        properties["seats"] = {"type": "integer", "minimum": game.min_seats, "maximum": game.max_seats}
        properties["options"] = {**ref(f"{game_id}.Options"), "default": {}}
        properties["bots"]["items"] = properties["open"]["items"] = seat
        properties["bot"] |= nullable({"enum": ["random", *game.bots]})
        properties["clock"] |= nullable(ref("ClockOption"))
        out[f"{game_id}.CreateMatch"] = schema
    out["CreateMatch"] = {
        "oneOf": [ref(name) for name in out],
        "discriminator": {
            "propertyName": "game",
            "mapping": {game_id: REF + f"{game_id}.CreateMatch" for game_id in game_ids()},
        },
    }
    return out


GAME_SCHEMAS = {
    "type": "object",
    "properties": {
        "rules_version": {"type": "integer", "description": "the rules version these schemas describe"},
        **{
            name: {"type": "object", "additionalProperties": True, "description": f"a JSON Schema (2020-12): {text}"}
            for name, text in [
                ("commands", "`<game>.Command`"),
                ("events", "`<game>.Event`"),
                ("view", "`<game>.View`"),
                ("envelope", "`<game>.ViewEnvelope`"),
                ("content", "`Content`"),
            ]
        },
    },
    "required": ["rules_version", "commands", "events", "view", "envelope", "content"],
    "additionalProperties": False,
}


def _request_bodies(found: dict[str, Any]) -> list[str]:
    """The component schemas a request body names (WsCommand too: the socket's)."""
    named = ["WsCommand"]
    for operations in found.values():
        for operation in operations.values():
            schema = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
            if schema is not None:
                named.append(schema["$ref"].removeprefix(REF))
    return named


def _defaults_described(components: dict[str, Any], requested: list[str]) -> None:
    """No property of what a request may send has a ``default`` unless it is required: generators
    (openapi-typescript's defaultNonNullable, its default) make a property with a default required,
    right for an answer, which has them all, wrong for a body that may leave them out. The default
    is said in the description instead."""
    for name in contract.reachable(requested, components):
        schema = components[name]
        required = set(schema.get("required", ()))
        for field, value in schema.get("properties", {}).items():
            if "default" in value and field not in required:
                default = json.dumps(value.pop("default"))
                said = value.get("description")
                value["description"] = f"{said} (default {default})" if said else f"default {default}"


def document() -> dict[str, Any]:
    types: list[Any] = [
        *(CreateMatch, MatchCreated, ErrorBody, GameInfo, Health, Readiness, Contribution, Contributed, Content),
        SigningKey,
    ]
    _, components = msgspec.json.schema_components(types, ref_template=REF + "{name}")
    components |= _create_match(components.pop("CreateMatch"))
    components["GameInfo"]["properties"]["schemas"] = GAME_SCHEMAS
    # a 409 stale_version's view (its game's envelope): typed as every game's, as the answers are
    stale_view = any_of_games("ViewEnvelope")
    stale_view["anyOf"].append({"type": "null"})
    components["ErrorBody"]["properties"]["view"] = stale_view | {"default": None}
    components |= stream_schemas.components()
    components.update(copy.deepcopy(contract.components()))  # a copy: the cached one serves GET /v1/games
    rules = {game_id: get_game(game_id).rules_version for game_id in game_ids()}
    found = _reads_limited(
        paths() | openapi_online.paths(components) | openapi_chat.paths(components) | openapi_notify.paths(components)
    )
    _defaults_described(components, _request_bodies(found))
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Tavern",
            "version": "1",
            "description": "The HTTP API of docs/API.md. Games' schemas are named `<game id>.<Name>`; "
            "`x-rules-versions` gives the rules version each game's schemas describe.",
            "x-rules-versions": rules,
        },
        "paths": found,
        "webhooks": openapi_notify.webhooks(),
        "components": {
            "schemas": components,
            "securitySchemes": {
                "bearer": {"type": "http", "scheme": "bearer", "description": "a seat's or the spectator's token"},
                "moderator": openapi_chat.MODERATOR,
            },
        },
    }
