"""The matchmaker's endpoints (docs/matchmaking.md): a registered player's ticket asked, read
(which keeps it from lapsing) and cancelled. Tables are formed by the processes' upkeep, not here."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from domain.kernel import RulesError
from services.commands.matchmaker import NewTicket, Ticket
from services.commands.players import Player
from services.commands.refused import Refused
from services.gateway import answers
from services.gateway.access import ApiError
from services.gateway.endpoints import json_body, json_response, runtime_of
from services.gateway.online import caller
from services.gateway.rate_limit import address_of


async def _answered(request: Request, act: Callable[[Player], Awaitable[Ticket]], status: int = 200) -> Response:
    player = await caller(request)
    assert player is not None
    try:
        return json_response(await act(player), status)
    except RulesError as refusal:
        raise ApiError(400 if refusal.code == "unknown_game" else 422, refusal.code, refusal.message) from refusal
    except Refused as refusal:
        raise answers.refused(refusal) from refusal


async def create_ticket(request: Request) -> Response:
    # a ticket ends in a match created: counted as a creation, as a challenge is
    await request.app.state.rate.creates(address_of(request.scope), None, request.headers.get("authorization"))
    asked = await json_body(request, NewTicket)
    return await _answered(request, lambda player: runtime_of(request).matchmaker.ask(player, asked), 201)


async def ticket(request: Request) -> Response:
    matchmaker, ticket_id = runtime_of(request).matchmaker, request.path_params["ticket_id"]
    if request.method == "DELETE":
        return await _answered(request, lambda player: matchmaker.cancel(ticket_id, player))
    return await _answered(request, lambda player: matchmaker.get(ticket_id, player))


ROUTES = [
    Route("/v1/matchmaking/tickets", create_ticket, methods=["POST"]),
    Route("/v1/matchmaking/tickets/{ticket_id}", ticket, methods=["GET", "DELETE"]),
]
