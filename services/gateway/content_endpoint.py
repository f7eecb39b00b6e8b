"""``GET /v1/games/{game_id}/content``: a game's cards, tiles, board spaces and tracks with their effect
texts and a rules summary (projections/content/), in the caller's language (language.py). The body
never changes while the code does not, so it is cacheable: a strong ETag per language, and 304 Not
Modified when the client already holds it."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from domain.games import game_ids
from projections.content import encoded
from services.gateway import language
from services.gateway.access import ApiError
from services.gateway.online import player_setting

CACHE = "public, max-age=3600"


async def get_content(request: Request) -> Response:
    game_id = request.path_params["game_id"]
    if game_id not in game_ids():
        raise ApiError(
            404, "unknown_game", "no game {game!r}; games: {games}", game=game_id, games=", ".join(game_ids())
        )
    lang = language.choose(request.query_params, request.headers.get("accept-language"), await player_setting(request))
    body, etag = encoded(game_id, lang)
    headers = {"ETag": etag, "Cache-Control": CACHE, "Content-Language": lang, "Vary": language.VARY_WITH_TOKEN}
    given = [tag.strip() for tag in request.headers.get("if-none-match", "").split(",")]
    if etag in given or "*" in given:
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="application/json", headers=headers)
