"""The online-play endpoints (docs/online-play.md): players, the lobby, join, leave, start."""

from __future__ import annotations

from typing import Any

import msgspec
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from domain.games import game_ids
from domain.kernel import RulesError
from domain.kernel.online import Leave
from services.commands.players import NAME_MAX, Player
from services.commands.ratings import Rating
from services.commands.refused import Refused
from services.gateway import creators
from services.gateway.access import ApiError
from services.gateway.rate_limit import address_of
from services.runtime import Runtime

PAGE_MAX = 100


class NewPlayer(msgspec.Struct, forbid_unknown_fields=True):
    name: str


class PlayerCreated(msgspec.Struct):
    player_id: str
    name: str
    token: str  # the player's bearer secret: answered this once, kept only as its hash


class RatingInfo(msgspec.Struct):
    mu: float
    sigma: float
    ordinal: float  # mu - 3 sigma: what the leaderboard orders by
    matches: int


class PlayerInfo(msgspec.Struct):
    player_id: str
    name: str
    created: float
    ratings: dict[str, RatingInfo]  # game id -> this player's rating, for the games it has a rated match of


class LeaderboardRow(msgspec.Struct):
    rank: int
    player_id: str
    name: str
    rating: RatingInfo


class Join(msgspec.Struct, forbid_unknown_fields=True):
    seat: int | None = None  # any free seat if left out
    invite: str | None = None  # a private match's invite code


def _runtime(request: Request) -> Runtime:
    return request.app.state.runtime


def _answer(value: Any, status: int = 200) -> Response:
    return Response(msgspec.json.encode(value), status_code=status, media_type="application/json")


def _body(raw: bytes, kind: Any) -> Any:
    try:
        return msgspec.json.decode(raw or b"{}", type=kind)
    except (msgspec.DecodeError, msgspec.ValidationError) as problem:
        raise ApiError(400, "bad_request", str(problem)) from problem


async def caller(request: Request, required: bool = True) -> Player | None:
    """The registered player whose token the request bears; 401 without one (when required) or
    with a token that is no player's."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        if not required:
            return None
        raise ApiError(401, "no_player_token", "send Authorization: Bearer <player token> (POST /v1/players)")
    player = await _runtime(request).players.by_token(token.strip())
    if player is None:
        raise ApiError(401, "unknown_player", "this token is no player's")
    return player


async def create_player(request: Request) -> Response:
    await request.app.state.rate.players(address_of(request.scope))
    asked = _body(await request.body(), NewPlayer)
    if len(asked.name) > 4 * NAME_MAX:  # refused before any further look
        raise ApiError(422, "name_too_long", f"a name has at most {NAME_MAX} characters")
    try:
        player, token = await _runtime(request).players.register(asked.name)
    except RulesError as refusal:
        raise ApiError(422, refusal.code, refusal.message) from refusal
    return _answer(PlayerCreated(player.id, player.name, token), 201)


async def get_player(request: Request) -> Response:
    runtime = _runtime(request)
    player = await runtime.players.get(request.path_params["player_id"])
    if player is None:
        raise ApiError(404, "no_such_player", "no such player")
    ratings = await runtime.ratings.of(player.id, game_ids())
    shown = {game: _rating(rating) for game, rating in ratings.items()}
    return _answer(PlayerInfo(player.id, player.name, player.created, shown))


def _rating(rating: Rating) -> RatingInfo:
    return RatingInfo(rating.mu, rating.sigma, rating.ordinal, rating.matches)


async def leaderboard(request: Request) -> Response:
    game = request.path_params["game_id"]
    if game not in game_ids():
        raise ApiError(404, "unknown_game", f"no game {game!r}")
    runtime = _runtime(request)
    best = await runtime.ratings.leaderboard(game, _int(request, "limit", 20, 1, PAGE_MAX))
    rows = []
    for n, (player_id, rating) in enumerate(best):
        player = await runtime.players.get(player_id)
        rows.append(LeaderboardRow(n + 1, player_id, player.name if player else "", _rating(rating)))
    return _answer(rows)


def _int(request: Request, name: str, default: int, low: int, high: int) -> int:
    text = request.query_params.get(name)
    try:
        value = default if text is None else int(text)
    except ValueError as problem:
        raise ApiError(400, "bad_query", f"{name} is an integer") from problem
    if not low <= value <= high:
        raise ApiError(400, "bad_query", f"{name} is from {low} to {high}")
    return value


async def lobby(request: Request) -> Response:
    game = request.query_params.get("game")
    if game is not None and game not in game_ids():
        raise ApiError(400, "unknown_game", f"no game {game!r}")
    offset = _int(request, "offset", 0, 0, 1_000_000)
    limit = _int(request, "limit", 20, 1, PAGE_MAX)
    return _answer(await _runtime(request).lobby.page(game, offset, limit))


async def _act(request: Request, act: Any) -> Response:
    runtime = _runtime(request)
    player = await caller(request)
    assert player is not None
    try:
        answer = await act(runtime, request.path_params["match_id"], player)
    except Refused as refusal:
        raise ApiError(refusal.status, refusal.code, refusal.message) from refusal
    await runtime.appended(answer.match_id)  # a start opened the log: its views are due
    return _answer(answer)


async def join(request: Request) -> Response:
    asked = _body(await request.body(), Join)
    return await _act(
        request, lambda runtime, match_id, player: runtime.lobby.join(match_id, player, asked.seat, asked.invite)
    )


async def leave(request: Request) -> Response:
    """Before the start: the seat is free again. After: a ``Leave`` in the log hands it to a bot."""
    runtime = _runtime(request)
    match = await runtime.matches.get(request.path_params["match_id"])
    if match is None or match.lobby != "started":
        return await _act(request, lambda runtime, match_id, player: runtime.lobby.leave(match_id, player))
    player = await caller(request)
    assert player is not None
    seats = [seat for seat, held in match.players.items() if held == player.id]
    if not seats:
        raise ApiError(409, "not_seated", "this player holds no seat of this match")
    answer = await runtime.handler.submit(match, seats[0], Leave())
    return Response(answer.body, status_code=answer.status, media_type="application/json")


async def start(request: Request) -> Response:
    return await _act(request, lambda runtime, match_id, player: runtime.lobby.start(match_id, player))


async def rematch(request: Request) -> Response:
    """A rematch is a creation: it counts in its player's (and address's or API key's) open-matches quota."""
    limits = _runtime(request).settings.limits
    key = creators.known_key(request.headers.get("x-api-key"), limits)  # a player's act: a key is not needed
    address = address_of(request.scope)

    def again(runtime: Runtime, match_id: str, player: Player) -> Any:
        return runtime.lobby.rematch(match_id, player, creators.holders(address, key, player.id, limits))

    return await _act(request, again)


ROUTES = [
    Route("/v1/players", create_player, methods=["POST"]),
    Route("/v1/players/{player_id}", get_player),
    Route("/v1/lobby", lobby),
    Route("/v1/games/{game_id}/leaderboard", leaderboard),
    Route("/v1/matches/{match_id}/join", join, methods=["POST"]),
    Route("/v1/matches/{match_id}/leave", leave, methods=["POST"]),
    Route("/v1/matches/{match_id}/start", start, methods=["POST"]),
    Route("/v1/matches/{match_id}/rematch", rematch, methods=["POST"]),
]
