"""The tournaments' endpoints (docs/tournaments.md): create, list, read (standings and pairings),
register, withdraw, start."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from domain.kernel import RulesError
from services.commands.players import Player
from services.commands.refused import Refused
from services.commands.tournaments import NewTournament, Tournaments
from services.gateway import answers
from services.gateway.access import by_rule
from services.gateway.endpoints import int_query, json_body, json_response, runtime_of
from services.gateway.online import PAGE_MAX, caller
from services.gateway.rate_limit import address_of


async def _done(request: Request, act: Any, status: int = 200) -> Response:
    player = await caller(request)
    assert player is not None
    try:
        answer = await act(runtime_of(request).tournaments, player)
    except Refused as refusal:
        raise answers.refused(refusal) from refusal
    except RulesError as refusal:
        raise by_rule(422, refusal) from refusal
    return json_response(answer, status)


async def create(request: Request) -> Response:
    """A creation: at the creations' rate (per address and per player token), as a match's."""
    await request.app.state.rate.creates(address_of(request.scope), None, request.headers.get("authorization"))
    asked = await json_body(request, NewTournament)

    async def act(tournaments: Tournaments, player: Player) -> Any:
        return await tournaments.create(player, asked)

    return await _done(request, act, 201)


async def listing(request: Request) -> Response:
    offset = int_query(request, "offset", 0, 0, 1_000_000)
    limit = int_query(request, "limit", 20, 1, PAGE_MAX)
    return json_response(await runtime_of(request).tournaments.page(offset, limit))


async def get(request: Request) -> Response:
    try:
        return json_response(await runtime_of(request).tournaments.info(request.path_params["tournament_id"]))
    except Refused as refusal:
        raise answers.refused(refusal) from refusal


def _player_act(name: str) -> Any:
    async def endpoint(request: Request) -> Response:
        tournament_id = request.path_params["tournament_id"]

        async def act(tournaments: Tournaments, player: Player) -> Any:
            return await getattr(tournaments, name)(tournament_id, player)

        return await _done(request, act)

    return endpoint


ROUTES = [
    Route("/v1/tournaments", create, methods=["POST"]),
    Route("/v1/tournaments", listing),
    Route("/v1/tournaments/{tournament_id}", get),
    Route("/v1/tournaments/{tournament_id}/register", _player_act("register"), methods=["POST"]),
    Route("/v1/tournaments/{tournament_id}/withdraw", _player_act("withdraw"), methods=["POST"]),
    Route("/v1/tournaments/{tournament_id}/start", _player_act("start"), methods=["POST"]),
]
