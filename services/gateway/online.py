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
from projections.i18n import texts
from services.commands.players import NAME_MAX, Player
from services.commands.ratings import Rating
from services.commands.refused import Refused
from services.gateway import answers, creators, language
from services.gateway.access import ApiError, by_rule
from services.gateway.endpoints import int_query, json_body, json_response, runtime_of
from services.gateway.rate_limit import address_of
from services.runtime import Runtime
from services.store.played import PlayedMatch

PAGE_MAX = 100
RECENT_MAX = 50  # a profile's matches at most: as many as a player's list keeps (services/store/played.py)


class NewPlayer(msgspec.Struct, forbid_unknown_fields=True):
    name: str
    bot: bool = False  # a bot account (docs/bots.md)
    language: str = ""  # en, fr; "" (none): each request's Accept-Language decides (docs/i18n.md)


class PlayerCreated(msgspec.Struct):
    player_id: str
    name: str
    token: str  # the player's bearer secret: answered this once, kept only as its hash
    language: str
    bot: bool = False


class PlayerSettings(msgspec.Struct, forbid_unknown_fields=True):
    language: str  # en, fr, or "" to let each request's Accept-Language decide


class PlayerSet(msgspec.Struct):
    player_id: str
    name: str
    language: str


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
    bot: bool = False  # a bot account: its ratings are against people and other bots alike (docs/bots.md)


class ProfileInfo(msgspec.Struct):
    player_id: str
    name: str
    bot: bool
    created: float
    ratings: dict[str, RatingInfo]  # game id -> the player's rating, for the games it has a rated match of
    recent: list[PlayedMatch]  # its newest finished matches first


class LeaderboardRow(msgspec.Struct):
    rank: int
    player_id: str
    name: str
    rating: RatingInfo
    bot: bool = False


class Join(msgspec.Struct, forbid_unknown_fields=True):
    seat: int | None = None  # any free seat if left out
    invite: str | None = None  # a private match's invite code


async def caller(request: Request, required: bool = True) -> Player | None:
    """The registered player whose token the request bears; 401 without one (when required) or
    with a token that is no player's."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        if not required:
            return None
        raise ApiError(401, "no_player_token", "send Authorization: Bearer <player token> (POST /v1/players)")
    player = await runtime_of(request).players.by_token(token.strip())
    if player is None:
        raise ApiError(401, "unknown_player", "this token is no player's")
    return player


async def player_setting(request: Request) -> str:
    """The language chosen by the player whose token the request bears ("" for none, or a token
    that is no player's: a seat token, say)."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return ""
    players = runtime_of(request).players
    player = await players.by_token(token.strip())
    return "" if player is None else await players.language(player.id)


async def create_player(request: Request) -> Response:
    await request.app.state.rate.players(address_of(request.scope))
    asked = await json_body(request, NewPlayer)
    if len(asked.name) > 4 * NAME_MAX:  # refused before any further look
        raise ApiError(422, "name_too_long", "a name has at most {most} characters", most=NAME_MAX)
    try:
        player, token = await runtime_of(request).players.register(asked.name, asked.bot, asked.language)
    except RulesError as refusal:
        raise by_rule(422, refusal) from refusal
    return json_response(PlayerCreated(player.id, player.name, token, player.language, player.bot), 201)


async def set_player(request: Request) -> Response:
    """``PATCH /v1/players/{id}`` with the player's own token: its settings (the language)."""
    player = await caller(request)
    assert player is not None
    if player.id != request.path_params["player_id"]:
        raise ApiError(403, "not_this_player", "a player's settings are set with that player's own token")
    asked = await json_body(request, PlayerSettings)
    try:
        await runtime_of(request).players.set_language(player, asked.language)
    except RulesError as refusal:
        raise by_rule(422, refusal) from refusal
    return json_response(PlayerSet(player.id, player.name, asked.language))


async def get_player(request: Request) -> Response:
    runtime = runtime_of(request)
    player = await runtime.players.get(request.path_params["player_id"])
    if player is None:
        raise ApiError(404, "no_such_player", "no such player")
    ratings = await runtime.ratings.of(player.id, game_ids())
    shown = {game: _rating(rating) for game, rating in ratings.items()}
    return json_response(PlayerInfo(player.id, player.name, player.created, shown, player.bot))


async def get_profile(request: Request) -> Response:
    """``GET /v1/players/{id}/profile``: anyone may look (no token), as at a leaderboard."""
    recent = int_query(request, "recent", 20, 1, RECENT_MAX)
    profile = await runtime_of(request).profiles.of(request.path_params["player_id"], recent)
    if profile is None:
        raise ApiError(404, "no_such_player", "no such player")
    shown = {game: _rating(rating) for game, rating in profile.ratings.items()}
    return json_response(ProfileInfo(profile.player_id, profile.name, profile.bot, profile.created, shown,
                                     profile.recent))


def _rating(rating: Rating) -> RatingInfo:
    return RatingInfo(rating.mu, rating.sigma, rating.ordinal, rating.matches)


async def leaderboard(request: Request) -> Response:
    game = request.path_params["game_id"]
    if game not in game_ids():
        raise ApiError(404, "unknown_game", "no game {game!r}", game=game)
    runtime = runtime_of(request)
    best = await runtime.ratings.leaderboard(game, int_query(request, "limit", 20, 1, PAGE_MAX))
    rows = []
    for n, (player_id, rating) in enumerate(best):
        player = await runtime.players.get(player_id)
        name, bot = (player.name, player.bot) if player else ("", False)
        rows.append(LeaderboardRow(n + 1, player_id, name, _rating(rating), bot))
    return json_response(rows)


def _listing(request: Request) -> tuple[str | None, int, int]:
    """A lobby list's query: ``game`` (one, or all), ``offset`` and ``limit``."""
    game = request.query_params.get("game")
    if game is not None and game not in game_ids():
        raise ApiError(400, "unknown_game", "no game {game!r}", game=game)
    return game, int_query(request, "offset", 0, 0, 1_000_000), int_query(request, "limit", 20, 1, PAGE_MAX)


async def lobby(request: Request) -> Response:
    return json_response(await runtime_of(request).lobby.page(*_listing(request)))


async def live(request: Request) -> Response:
    """``GET /v1/lobby/live``: the public matches being played, to watch (their spectator tokens)."""
    return json_response(await runtime_of(request).lobby.live(*_listing(request)))


async def _act(request: Request, act: Any) -> Response:
    runtime = runtime_of(request)
    player = await caller(request)
    assert player is not None
    try:
        answer = await act(runtime, request.path_params["match_id"], player)
    except Refused as refusal:
        raise answers.refused(refusal) from refusal
    await runtime.appended(answer.match_id)  # a start opened the log: its views are due
    return json_response(answer)


async def join(request: Request) -> Response:
    asked = await json_body(request, Join)
    return await _act(
        request, lambda runtime, match_id, player: runtime.lobby.join(match_id, player, asked.seat, asked.invite)
    )


async def leave(request: Request) -> Response:
    """Before the start: the seat is free again. After: a ``Leave`` in the log hands it to a bot."""
    runtime = runtime_of(request)
    match = await runtime.matches.get(request.path_params["match_id"])
    if match is None or match.lobby != "started":
        return await _act(request, lambda runtime, match_id, player: runtime.lobby.leave(match_id, player))
    player = await caller(request)
    assert player is not None
    seats = [seat for seat, held in match.players.items() if held == player.id]
    if not seats:
        raise ApiError(409, "not_seated", "this player holds no seat of this match")
    setting = await runtime.players.language(player.id)
    said = texts(language.choose(request.query_params, request.headers.get("accept-language"), setting, strict=False))
    status, body = answers.of(await runtime.handler.submit(match, seats[0], Leave()), said)
    return Response(body, status_code=status, media_type="application/json")


async def start(request: Request) -> Response:
    return await _act(request, lambda runtime, match_id, player: runtime.lobby.start(match_id, player))


async def rematch(request: Request) -> Response:
    """A rematch is a creation: it counts in its player's (and address's or API key's) open-matches quota."""
    limits = runtime_of(request).settings.limits
    key = creators.known_key(request.headers.get("x-api-key"), limits)  # a player's act: a key is not needed
    address = address_of(request.scope)

    def again(runtime: Runtime, match_id: str, player: Player) -> Any:
        return runtime.lobby.rematch(match_id, player, creators.holders(address, key, player.id, limits))

    return await _act(request, again)


ROUTES = [
    Route("/v1/players", create_player, methods=["POST"]),
    Route("/v1/players/{player_id}", get_player),
    Route("/v1/players/{player_id}", set_player, methods=["PATCH"]),
    Route("/v1/players/{player_id}/profile", get_profile),
    Route("/v1/lobby", lobby),
    Route("/v1/lobby/live", live),
    Route("/v1/games/{game_id}/leaderboard", leaderboard),
    Route("/v1/matches/{match_id}/join", join, methods=["POST"]),
    Route("/v1/matches/{match_id}/leave", leave, methods=["POST"]),
    Route("/v1/matches/{match_id}/start", start, methods=["POST"]),
    Route("/v1/matches/{match_id}/rematch", rematch, methods=["POST"]),
]
