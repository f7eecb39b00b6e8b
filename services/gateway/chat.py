"""The table chat's endpoints (docs/chat.md): read and say on the caller's channel, block a sender,
report a line; a moderator (a trusted frontend's ``X-API-Key``) reads the reports and removes
lines; the chat's export beside the match's. Each write takes from the sender's chat bucket, never
from its commands' (rate_limit.py)."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable

import msgspec
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from services.commands.chat import CHANNELS, Chat, channel_of, sender_of
from services.commands.matches import Match
from services.commands.refused import Refused
from services.gateway import access, answers, creators
from services.gateway.access import ApiError
from services.gateway.endpoints import int_query, json_body, json_response, runtime_of
from services.gateway.online import PAGE_MAX
from services.gateway.rate_limit import address_of

Endpoint = Callable[[Request], Awaitable[Response]]


class Say(msgspec.Struct, forbid_unknown_fields=True):
    text: str
    name: str = ""  # a spectator's name as shown (a seat's is its player's)


class Block(msgspec.Struct, forbid_unknown_fields=True):
    sender: str
    blocked: bool = True  # false: unblock


class ReportLine(msgspec.Struct, forbid_unknown_fields=True):
    id: str
    reason: str = ""


class Removal(msgspec.Struct, forbid_unknown_fields=True):
    channel: str
    id: str
    reason: str = ""


def moderator(request: Request) -> bool:
    """Whether the request bears a trusted frontend's key (``TAVERN_API_KEYS``): its operators moderate."""
    return creators.known_key(request.headers.get("x-api-key"), runtime_of(request).settings.limits) is not None


async def at_table(request: Request) -> tuple[Chat, Match, int | None]:
    match, seat = await access.authorize(runtime_of(request), request.path_params["match_id"],
                                         request.headers.get("authorization", ""))
    return runtime_of(request).chat, match, seat


def moderating(request: Request) -> Chat:
    """The chat, to a moderator; anyone else the API's 401."""
    if not moderator(request):
        raise ApiError(401, "moderator_required", "moderating the chat needs a valid X-API-Key")
    return runtime_of(request).chat


async def moderated(request: Request) -> tuple[Chat, Match]:
    """The match a moderator acts on, or the API's 401 (no key) / 404."""
    moderating(request)
    match = await runtime_of(request).matches.get(request.path_params["match_id"])
    if match is None:
        raise ApiError(404, "no_such_match", "no such match")
    return runtime_of(request).chat, match


async def writing(request: Request, match: Match, seat: int | None) -> str:
    """The sender of a chat write, once its chat bucket gave it a token (else the API's 429)."""
    sender = sender_of(match, seat, address_of(request.scope))
    await request.app.state.rate.chat(match.id, sender)
    return sender


async def read(request: Request) -> Response:
    after = request.query_params.get("after", "0-0")
    asked = request.query_params.get("channel")
    if asked is not None and asked not in CHANNELS:
        raise ApiError(400, "bad_query", "channel is players or spectators")
    if request.headers.get("x-api-key") is not None and moderator(request):
        chat, match = await moderated(request)
        return json_response(await chat.read(match, None, asked or CHANNELS[0], after))
    chat, match, seat = await at_table(request)
    if asked not in (None, channel_of(seat)):
        raise ApiError(403, "chat_channel", "a seat reads the players' channel, the spectator token the "
                       "spectators'")
    return json_response(await chat.read(match, seat, channel_of(seat), after))


async def say(request: Request) -> Response:
    chat, match, seat = await at_table(request)
    sender = await writing(request, match, seat)
    asked = await json_body(request, Say)
    name = ""
    if seat is not None:
        name = (await runtime_of(request).seating.names(match))[seat] or ""
    return json_response(await chat.say(match, seat, sender, name if seat is not None else asked.name,
                                         asked.text), 201)


async def block(request: Request) -> Response:
    chat, match, seat = await at_table(request)
    await writing(request, match, seat)
    asked = await json_body(request, Block)
    return json_response(await chat.block(match, seat, asked.sender, asked.blocked))


async def report(request: Request) -> Response:
    chat, match, seat = await at_table(request)
    sender = await writing(request, match, seat)
    asked = await json_body(request, ReportLine)
    return json_response(await chat.report(match, seat, sender, asked.id, asked.reason), 201)


async def reports(request: Request) -> Response:
    chat, match = await moderated(request)
    return json_response(await chat.reports(match, request.query_params.get("after", "0-0")))


async def open_reports(request: Request) -> Response:
    """The moderators' open list of reports, across matches, the oldest first."""
    chat = moderating(request)
    offset = int_query(request, "offset", 0, 0, 1_000_000)
    limit = int_query(request, "limit", 20, 1, PAGE_MAX)
    return json_response(await chat.open_reports(offset, limit))


async def handled(request: Request) -> Response:
    """A report handled: off the open list (it stays in the match's reports). By the match's id
    alone: a report is handled whatever became of its match."""
    await moderating(request).handled(request.path_params["match_id"], request.path_params["report_id"])
    return Response(status_code=204)


async def remove(request: Request) -> Response:
    chat, match = await moderated(request)
    asked = await json_body(request, Removal)
    return json_response(await chat.remove(match, asked.channel, asked.id, asked.reason), 201)


async def export(request: Request) -> Response:
    """The chat of a finished match (``tavern-chat/1``), beside its export: any holder of one of the
    match's tokens, or a moderator."""
    if request.headers.get("x-api-key") is not None and moderator(request):
        _, match = await moderated(request)
    else:
        _, match, _ = await at_table(request)
    runtime = runtime_of(request)
    match = await runtime.history.current(match)
    if match.game.result((await runtime.history.load(match)).state) is None:
        raise ApiError(409, "match_running", "a match is exported once it is finished (the seed is revealed then)")
    return Response(await runtime.chat.exported(match), media_type="application/x-ndjson")


def answering(endpoint: Endpoint) -> Endpoint:
    """The endpoint, the service's refusals answered as the API's (answers.py)."""

    @functools.wraps(endpoint)
    async def answered(request: Request) -> Response:
        try:
            return await endpoint(request)
        except Refused as refusal:
            raise answers.refused(refusal) from refusal

    return answered


ROUTES = [
    Route("/v1/matches/{match_id}/chat", answering(read)),
    Route("/v1/matches/{match_id}/chat", answering(say), methods=["POST"]),
    Route("/v1/matches/{match_id}/chat/blocks", answering(block), methods=["POST"]),
    Route("/v1/matches/{match_id}/chat/reports", answering(report), methods=["POST"]),
    Route("/v1/matches/{match_id}/chat/reports", answering(reports)),
    Route("/v1/matches/{match_id}/chat/reports/{report_id}", answering(handled), methods=["DELETE"]),
    Route("/v1/moderation/reports", answering(open_reports)),
    Route("/v1/matches/{match_id}/chat/removals", answering(remove), methods=["POST"]),
    Route("/v1/matches/{match_id}/chat/export", export),
]
