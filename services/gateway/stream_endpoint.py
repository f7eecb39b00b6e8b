"""GET /v1/matches/{match_id}/stream, as a bare ASGI endpoint (services/gateway/asgi.py): the seat's
views as Server-Sent Events, from the gateway's hub (services/gateway/sse.py)."""

from __future__ import annotations

from typing import Any

from services.commands.strict import MAX_VERSION
from services.gateway import asgi, outage, sse
from services.gateway.access import ApiError, authorize
from services.gateway.rate_limit import address_of

LEAF = "stream"  # the path's last segment


async def get_stream(scope: asgi.Scope, receive: Any, send: Any) -> None:
    app = scope["app"]
    authorization = asgi.header(scope, b"authorization") or ""
    try:
        match_id = scope["path_params"]["match_id"]
        match, seat = await authorize(app.state.runtime, match_id, authorization)
        try:
            # without one, every view is new to the client, the waiting one at version 0 too
            last_id = int(asgi.header(scope, b"last-event-id") or -1)
            if abs(last_id) > MAX_VERSION:
                raise ValueError(last_id)
        except ValueError as problem:
            raise ApiError(400, "bad_last_event_id", "Last-Event-ID is a version number") from problem
        counted = app.state.stream_caps.take(authorization, seat, address_of(scope))  # past a cap: 429
    except ApiError as problem:
        await asgi.refuse(send, problem, scope=scope)
        return
    except outage.REDIS_DOWN as problem:
        await outage.answer(send, problem)
        return
    unsent_bytes = app.state.runtime.settings.limits.stream_unsent_bytes
    try:
        await sse.serve(app.state.hub, match.id, seat, last_id, receive, send, unsent_bytes)
    except outage.REDIS_DOWN as problem:  # its first read: before the answer has started
        await outage.answer(send, problem)
    finally:
        app.state.stream_caps.give(counted)
