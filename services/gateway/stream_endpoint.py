"""GET /v1/matches/{match_id}/stream, as a bare ASGI endpoint (services/gateway/asgi.py): the seat's
views as Server-Sent Events, from the gateway's hub (services/gateway/sse.py)."""

from __future__ import annotations

from typing import Any

from services.gateway import asgi, outage
from services.gateway.access import ApiError, authorize

LEAF = "stream"  # the path's last segment


async def get_stream(scope: asgi.Scope, receive: Any, send: Any) -> None:
    app = scope["app"]
    try:
        match_id = scope["path_params"]["match_id"]
        match, seat = await authorize(app.state.runtime, match_id, asgi.header(scope, b"authorization") or "")
        try:
            last_id = int(asgi.header(scope, b"last-event-id") or 0)
        except ValueError as problem:
            raise ApiError(400, "bad_last_event_id", "Last-Event-ID is a version number") from problem
    except ApiError as problem:
        await asgi.refuse(send, problem)
        return
    except outage.REDIS_DOWN as problem:
        await outage.answer(send, problem)
        return
    try:
        await app.state.hub.serve(match.id, seat, last_id, receive, send)
    except outage.REDIS_DOWN as problem:  # its first read: before the answer has started
        await outage.answer(send, problem)
