"""The online-play endpoints in /openapi.json (docs/online-play.md): kept apart from openapi.py,
which adds them with one call."""

from __future__ import annotations

from typing import Any

import msgspec

from services.commands.lobby import Joined, Left, LobbyPage, Started
from services.gateway.online import Join, LeaderboardRow, NewPlayer, PlayerCreated, PlayerInfo

REF = "#/components/schemas/"
TYPES = [NewPlayer, PlayerCreated, PlayerInfo, Join, Joined, Left, Started, LobbyPage, LeaderboardRow]


def _json(schema: dict[str, Any]) -> dict[str, Any]:
    return {"content": {"application/json": {"schema": schema}}}


def _ref(name: str) -> dict[str, Any]:
    return {"$ref": REF + name}


def _op(summary: str, ok: str, status: str, errors: tuple[int, ...], **extra: Any) -> dict[str, Any]:
    responses = {status: {"description": ok, **_json(_ref(ok))}}
    responses |= {str(code): {"description": "an error", **_json(_ref("ErrorBody"))} for code in errors}
    return {"summary": summary, "responses": responses, **extra}


def _path(name: str) -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}


# each operation's name in generated clients
OPERATION_IDS = {
    ("/v1/players", "post"): "createPlayer",
    ("/v1/players/{player_id}", "get"): "getPlayer",
    ("/v1/lobby", "get"): "listLobby",
    ("/v1/matches/{match_id}/join", "post"): "joinMatch",
    ("/v1/matches/{match_id}/leave", "post"): "leaveMatch",
    ("/v1/matches/{match_id}/start", "post"): "startMatch",
    ("/v1/matches/{match_id}/rematch", "post"): "rematch",
    ("/v1/games/{game_id}/leaderboard", "get"): "getLeaderboard",
}


def paths(components: dict[str, Any]) -> dict[str, Any]:
    """The online-play paths, each operation named; their messages' schemas are added to ``components``."""
    declared = _paths(components)
    for (path, method), name in OPERATION_IDS.items():
        declared[path][method]["operationId"] = name
    return declared


def _paths(components: dict[str, Any]) -> dict[str, Any]:
    _, own = msgspec.json.schema_components(TYPES, ref_template=REF + "{name}")
    components.update(own)
    match = {"parameters": [_path("match_id")], "security": [{"bearer": []}]}
    query = [
        {"name": "game", "in": "query", "schema": {"type": "string"}},
        {"name": "offset", "in": "query", "schema": {"type": "integer", "minimum": 0}},
        {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 100}},
    ]
    board = {"type": "array", "items": _ref("LeaderboardRow")}
    return {
        "/v1/players": {
            "post": _op(
                "Register a player: its id and bearer token (kept hashed)",
                "PlayerCreated",
                "201",
                (400, 422),
                requestBody=_json(_ref("NewPlayer")),
            )
        },
        "/v1/players/{player_id}": {
            "get": _op("A player's name and ratings", "PlayerInfo", "200", (404,), parameters=[_path("player_id")])
        },
        "/v1/lobby": {"get": _op("Open public matches, oldest first", "LobbyPage", "200", (400,), parameters=query)},
        "/v1/matches/{match_id}/join": {
            "post": _op(
                "Take a free seat (player token): answers that seat's token to the joiner only; a seated"
                " player who joins again before the start gets its seat with a new token (the old one ends)",
                "Joined",
                "200",
                (400, 401, 403, 404, 409),
                requestBody=_json(_ref("Join")),
                **match,
            )
        },
        "/v1/matches/{match_id}/leave": {
            "post": _op(
                "Before the start: free the seat (the host's leaving closes the match); after: a bot plays it",
                "Left",
                "200",
                (401, 403, 404, 409, 422),
                **match,
            )
        },
        "/v1/matches/{match_id}/start": {
            "post": _op("The host starts: free seats are bots", "Started", "200", (401, 403, 404, 409), **match)
        },
        "/v1/matches/{match_id}/rematch": {
            "post": _op(
                "The finished match again, seats rotated: the caller's seat and token",
                "Joined",
                "200",
                (401, 403, 404, 409, 429),
                **match,
            )
        },
        "/v1/games/{game_id}/leaderboard": {
            "get": {
                "summary": "The game's ratings, best first",
                "parameters": [_path("game_id"), query[2]],
                "responses": {
                    "200": {"description": "rows", **_json(board)},
                    "404": {"description": "an error", **_json(_ref("ErrorBody"))},
                },
            }
        },
    }
