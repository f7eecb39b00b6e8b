"""The online-play endpoints in /openapi.json (docs/online-play.md): kept apart from openapi.py,
which adds them with one call."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.games import game_ids
from services.commands.challenges import Accepted, Answered, Challenge, NewChallenge, PlayerEvent
from services.commands.inbox import InboxPage
from services.commands.lobby import Joined, Left, LivePage, LobbyPage, Started
from services.commands.matchmaker import TICKET_EVENTS, NewTicket, Ticket
from services.commands.tournaments import NewTournament, TournamentInfo, TournamentSummary
from services.gateway.bots import BotsPage
from services.gateway.contract import REF, any_of_games
from services.gateway.online import (
    Join,
    LeaderboardRow,
    NewPlayer,
    PlayerCreated,
    PlayerInfo,
    PlayerSet,
    PlayerSettings,
    ProfileInfo,
)

TYPES = [
    NewPlayer,
    PlayerCreated,
    PlayerInfo,
    PlayerSettings,
    PlayerSet,
    Join,
    Joined,
    Left,
    Started,
    LobbyPage,
    LivePage,
    LeaderboardRow,
    ProfileInfo,
]
# every event of a player's stream (GET /v1/events), each its own schema
EVENT_TYPES = (*PlayerEvent.__args__, *TICKET_EVENTS)
BOT_TYPES = [BotsPage, NewChallenge, Challenge, Accepted, Answered, *EVENT_TYPES, InboxPage]
MATCHMAKING_TYPES = [NewTicket, Ticket]
TOURNAMENT_TYPES = [NewTournament, TournamentInfo, TournamentSummary]


def _json(schema: dict[str, Any]) -> dict[str, Any]:
    return {"content": {"application/json": {"schema": schema}}}


def _ref(name: str) -> dict[str, Any]:
    return {"$ref": REF + name}


def _op(summary: str, ok: str, status: str, errors: tuple[int, ...], **extra: Any) -> dict[str, Any]:
    responses = {status: {"description": ok, **_json(_ref(ok))}}
    responses |= {str(code): {"description": "an error", **_json(_ref("ErrorBody"))} for code in errors}
    return {"summary": summary, "responses": responses, **extra}


def _leave(match: dict[str, Any]) -> dict[str, Any]:
    """Leaving before the start answers ``Left``; after it, ``Leave`` is a command of the match's log
    and answers as POST /commands does (``<game>.Accepted``: the version, the TakenOver event, a receipt)."""
    operation = _op(
        "Before the start: free the seat (the host's leaving closes the match), answered `Left`; after: a bot"
        " plays it, answered as the command `Leave` would be (`<game>.Accepted`)",
        "Left",
        "200",
        (401, 403, 404, 409, 422),
        **match,
    )
    left = {"anyOf": [_ref("Left"), *any_of_games("Accepted")["anyOf"]]}
    operation["responses"]["200"]["content"]["application/json"]["schema"] = left
    return operation


def _sse(summary: str, schema: dict[str, Any]) -> dict[str, Any]:
    """A player's Server-Sent Events stream (player token, resumed with Last-Event-ID)."""
    return {
        "summary": summary,
        "parameters": [{"name": "Last-Event-ID", "in": "header", "schema": {"type": "string"}}],
        "responses": {
            "200": {"description": "events", "content": {"text/event-stream": {"schema": schema}}},
            **{str(code): {"description": "an error", **_json(_ref("ErrorBody"))} for code in (400, 401, 429)},
        },
        "security": [{"bearer": []}],
    }


def _path(name: str) -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}


# each operation's name in generated clients
OPERATION_IDS = {
    ("/v1/players", "post"): "createPlayer",
    ("/v1/players/{player_id}", "get"): "getPlayer",
    ("/v1/players/{player_id}", "patch"): "setPlayer",
    ("/v1/players/{player_id}/profile", "get"): "getProfile",
    ("/v1/lobby", "get"): "listLobby",
    ("/v1/lobby/live", "get"): "listLiveMatches",
    ("/v1/matches/{match_id}/join", "post"): "joinMatch",
    ("/v1/matches/{match_id}/leave", "post"): "leaveMatch",
    ("/v1/matches/{match_id}/start", "post"): "startMatch",
    ("/v1/matches/{match_id}/rematch", "post"): "rematch",
    ("/v1/games/{game_id}/leaderboard", "get"): "getLeaderboard",
    ("/v1/bots", "get"): "listBots",
    ("/v1/challenges", "post"): "challengeBot",
    ("/v1/challenges/{challenge_id}", "get"): "getChallenge",
    ("/v1/challenges/{challenge_id}/accept", "post"): "acceptChallenge",
    ("/v1/challenges/{challenge_id}/decline", "post"): "declineChallenge",
    ("/v1/challenges/{challenge_id}/cancel", "post"): "cancelChallenge",
    ("/v1/events", "get"): "streamPlayerEvents",
    ("/v1/matchmaking/tickets", "post"): "askTicket",
    ("/v1/matchmaking/tickets/{ticket_id}", "get"): "getTicket",
    ("/v1/matchmaking/tickets/{ticket_id}", "delete"): "cancelTicket",
    ("/v1/players/me/inbox", "get"): "getInbox",
    ("/v1/players/me/inbox/stream", "get"): "streamInbox",
    ("/v1/tournaments", "post"): "createTournament",
    ("/v1/tournaments", "get"): "listTournaments",
    ("/v1/tournaments/{tournament_id}", "get"): "getTournament",
    ("/v1/tournaments/{tournament_id}/register", "post"): "registerInTournament",
    ("/v1/tournaments/{tournament_id}/withdraw", "post"): "withdrawFromTournament",
    ("/v1/tournaments/{tournament_id}/start", "post"): "startTournament",
}


def paths(components: dict[str, Any]) -> dict[str, Any]:
    """The online-play paths, each operation named; their messages' schemas are added to ``components``."""
    declared = (
        _paths(components) | _bot_paths(components) | _matchmaking_paths(components) | _tournament_paths(components)
    )
    for (path, method), name in OPERATION_IDS.items():
        declared[path][method]["operationId"] = name
    return declared


def _typed_game(schema: dict[str, Any], options: str) -> None:
    """``schema``'s ``game`` one of the games' ids and its ``options`` that game's Options."""
    branches = [_ref(f"{game_id}.Options") for game_id in game_ids()]
    schema["properties"]["options"] = {"anyOf": branches, "description": options}
    schema["properties"]["game"] = {"enum": game_ids()}


def _paths(components: dict[str, Any]) -> dict[str, Any]:
    _, own = msgspec.json.schema_components(TYPES, ref_template=REF + "{name}")
    _typed_game(own["LobbyEntry"], "the match's options, each filled in: `<game>.Options` of the entry's game")
    _typed_game(own["LiveEntry"], "the match's options, each filled in: `<game>.Options` of the entry's game")
    own["PlayedMatch"]["properties"]["game"] = {"enum": game_ids()}
    own["PlayedMatch"]["properties"]["ended"] = {"enum": ["", "conceded", "abandoned"]}
    own.pop("ClockOption")  # contract.py's
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
            "get": _op("A player's name and ratings", "PlayerInfo", "200", (404,), parameters=[_path("player_id")]),
            "patch": _op(
                "The player's settings, with its own token: the language of its texts (docs/i18n.md)",
                "PlayerSet",
                "200",
                (400, 401, 403, 422),
                parameters=[_path("player_id")],
                requestBody=_json(_ref("PlayerSettings")),
                security=[{"bearer": []}],
            ),
        },
        "/v1/players/{player_id}/profile": {
            "get": _op(
                "A player's profile: name, ratings per game, recent finished matches (newest first), each with"
                " its standing and, for a public match, the spectator token that replays it",
                "ProfileInfo",
                "200",
                (400, 404),
                parameters=[
                    _path("player_id"),
                    {"name": "recent", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 50}},
                ],
            )
        },
        "/v1/lobby": {"get": _op("Open public matches, oldest first", "LobbyPage", "200", (400,), parameters=query)},
        "/v1/lobby/live": {
            "get": _op(
                "Public matches being played, the latest started first, each with its spectator token (to watch)",
                "LivePage",
                "200",
                (400,),
                parameters=query,
            )
        },
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
        "/v1/matches/{match_id}/leave": {"post": _leave(match)},
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


def _bot_paths(components: dict[str, Any]) -> dict[str, Any]:
    """Bot accounts' paths (docs/bots.md): the bots' list, challenges, a player's event stream."""
    _, own = msgspec.json.schema_components(BOT_TYPES, ref_template=REF + "{name}")
    for name in ("NewChallenge", "Challenge"):
        _typed_game(own[name], "the match's options: `<game>.Options` of the challenge's game")
        own[name]["properties"]["clock"] = {"anyOf": [_ref("ClockOption"), {"type": "null"}]}
    for name in ("Turn", "MatchFinished"):  # the raw envelope a seat's view stream sends
        own[name]["properties"]["view"] = _ref("ViewEnvelope")
    own.pop("ClockOption", None)  # contract.py's
    components.update(own)
    player: dict[str, Any] = {"security": [{"bearer": []}]}
    challenge = {"parameters": [_path("challenge_id")], **player}
    page = [
        {"name": "offset", "in": "query", "schema": {"type": "integer", "minimum": 0}},
        {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 100}},
    ]
    events = {"oneOf": [_ref(kind.__name__) for kind in EVENT_TYPES]}
    return {
        "/v1/bots": {
            "get": _op("Bot accounts, the first registered first", "BotsPage", "200", (400,), parameters=page)
        },
        "/v1/challenges": {
            "post": _op(
                "Challenge a bot account (player token): pending until the bot answers, lapses unanswered",
                "Challenge",
                "201",
                (400, 401, 403, 404, 422, 429),
                requestBody=_json(_ref("NewChallenge")),
                **player,
            )
        },
        "/v1/challenges/{challenge_id}": {
            "get": _op(
                "A challenge as it stands, to its challenger or its bot", "Challenge", "200", (401, 404), **challenge
            )
        },
        "/v1/challenges/{challenge_id}/accept": {
            "post": _op(
                "The bot accepts: the match is created, the bot's seat token answered (the challenger joins its seat)",
                "Accepted",
                "200",
                (401, 403, 404, 409, 422),
                **challenge,
            )
        },
        "/v1/challenges/{challenge_id}/decline": {
            "post": _op("The bot declines", "Answered", "200", (401, 403, 404, 409), **challenge)
        },
        "/v1/challenges/{challenge_id}/cancel": {
            "post": _op("The challenger takes it back", "Answered", "200", (401, 403, 404, 409), **challenge)
        },
        "/v1/events": {
            "get": _sse("The player's events as Server-Sent Events (event: the type; data: the JSON)", events)
        },
        "/v1/players/me/inbox": {
            "get": _op(
                "The caller's running matches: those where it is its turn, those waiting on others, each"
                " ordered by the time left (docs/online-play.md)",
                "InboxPage",
                "200",
                (401,),
                **player,
            )
        },
        "/v1/players/me/inbox/stream": {
            "get": _sse(
                "The caller's inbox as Server-Sent Events (event: inbox; id: its revision; data: the inbox as"
                " GET /v1/players/me/inbox answers it), at once and at each change",
                _ref("InboxPage"),
            )
        },
    }


def _matchmaking_paths(components: dict[str, Any]) -> dict[str, Any]:
    """The matchmaker's paths (docs/matchmaking.md): a player's ticket asked, read and cancelled."""
    _, own = msgspec.json.schema_components(MATCHMAKING_TYPES, ref_template=REF + "{name}")
    for name in MATCHMAKING_TYPES:
        _typed_game(own[name.__name__], "the tables' options: `<game>.Options` of the ticket's game")
    components.update(own)
    ticket = {"parameters": [_path("ticket_id")], "security": [{"bearer": []}]}
    return {
        "/v1/matchmaking/tickets": {
            "post": _op(
                "Ask the matchmaker for a table (player token): the ticket waits in its game's pool",
                "Ticket",
                "201",
                (400, 401, 403, 409, 422, 429),
                requestBody=_json(_ref("NewTicket")),
                security=[{"bearer": []}],
            )
        },
        "/v1/matchmaking/tickets/{ticket_id}": {
            "get": _op(
                "The ticket as it stands, to its player (reading it keeps it from lapsing); once matched, its"
                " match and seat to join",
                "Ticket",
                "200",
                (401, 404),
                **ticket,
            ),
            "delete": _op("Its player takes it back", "Ticket", "200", (401, 404, 409), **ticket),
        },
    }


def _tournament_paths(components: dict[str, Any]) -> dict[str, Any]:
    """Tournaments' paths (docs/tournaments.md)."""
    _, own = msgspec.json.schema_components(TOURNAMENT_TYPES, ref_template=REF + "{name}")
    for name in ("NewTournament", "TournamentInfo"):
        _typed_game(own[name], "the tables' options: `<game>.Options` of the tournament's game")
    own["NewTournament"]["properties"]["clock"] = {"anyOf": [_ref("ClockOption"), {"type": "null"}]}
    components.update(own)
    player: dict[str, Any] = {"security": [{"bearer": []}]}
    one = {"parameters": [_path("tournament_id")]}
    page = [
        {"name": "offset", "in": "query", "schema": {"type": "integer", "minimum": 0}},
        {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 100}},
    ]
    listed = {"type": "array", "items": _ref("TournamentSummary")}
    acts = {
        "register": "Register (player token), before the first round",
        "withdraw": "Withdraw (player token): out of the rounds to come",
        "start": "The host starts it now rather than at its start time",
    }
    return {
        "/v1/tournaments": {
            "post": _op(
                "Create a tournament (player token): Swiss or single elimination, registering until it starts",
                "TournamentInfo",
                "201",
                (400, 401, 422, 429),
                requestBody=_json(_ref("NewTournament")),
                **player,
            ),
            "get": {
                "summary": "Tournaments by start time",
                "parameters": page,
                "responses": {
                    "200": {"description": "tournaments", **_json(listed)},
                    "400": {"description": "an error", **_json(_ref("ErrorBody"))},
                },
            },
        },
        "/v1/tournaments/{tournament_id}": {
            "get": _op("A tournament: its standings and every round's pairings", "TournamentInfo", "200", (404,), **one)
        },
        **{
            f"/v1/tournaments/{{tournament_id}}/{act}": {
                "post": _op(summary, "TournamentInfo", "200", (401, 403, 404, 409), **one, **player)
            }
            for act, summary in acts.items()
        },
    }
