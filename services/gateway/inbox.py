"""A registered player's inbox (docs/online-play.md): ``GET /v1/players/me/inbox``, and the same
live over one Server-Sent Events stream, ``GET /v1/players/me/inbox/stream``."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import msgspec
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from services.gateway import sse
from services.gateway.access import ApiError
from services.gateway.endpoints import json_response, runtime_of
from services.gateway.online import caller
from services.gateway.rate_limit import address_of

# how often an open inbox stream looks at its player's inbox revision (one GET); a change is sent
# within this, the whole inbox read only then
POLL_S = 0.5
KEEPALIVE_S = 15.0
_encode = msgspec.json.Encoder().encode


async def inbox(request: Request) -> Response:
    player = await caller(request)
    assert player is not None
    return json_response(await runtime_of(request).inbox.page(player.id))


async def inbox_stream(request: Request) -> Response:
    """``event: inbox``, ``id: <revision>``, ``data``: the inbox as ``GET /v1/players/me/inbox``
    answers it; first the current one (unless Last-Event-ID names its revision), then each change."""
    player = await caller(request)
    assert player is not None
    last = request.headers.get("last-event-id")
    if last is not None and not (last.isdigit() and len(last) <= 20):
        raise ApiError(400, "bad_last_event_id", "Last-Event-ID is an event's id, as the stream sent it")
    caps = request.app.state.stream_caps
    counted = caps.take(request.headers.get("authorization", ""), None, address_of(request.scope))
    runtime, hub = runtime_of(request), request.app.state.hub

    async def frames(told: int) -> AsyncIterator[bytes]:
        quiet_since = time.monotonic()
        while not hub.closing:
            if await runtime.inbox.revision(player.id) != told:
                page = await runtime.inbox.page(player.id)
                told, quiet_since = page.revision, time.monotonic()
                yield b"event: inbox\nid: %d\ndata: %s\n\n" % (told, _encode(page))
            elif time.monotonic() - quiet_since > KEEPALIVE_S:
                quiet_since = time.monotonic()
                yield sse.Events.keepalive
            await asyncio.sleep(POLL_S)
        yield sse.GOODBYE  # the gateway is stopping: the client reconnects, with Last-Event-ID

    return sse.Counted(frames(-1 if last is None else int(last)), lambda: caps.give(counted))


ROUTES = [
    Route("/v1/players/me/inbox", inbox),
    Route("/v1/players/me/inbox/stream", inbox_stream),
]
