"""CORS (the Fetch standard's cross-origin checks) for the origins TAVERN_CORS_ORIGINS allows, as
pure ASGI in front of everything the gateway serves, its bare endpoints included. A preflight from
an allowed origin is answered 204 with what it may send; any other request from one has its answer
name the origin and the headers a script may read. Any other origin gets no CORS header at all
(its preflight goes on to the router: a JSON 405), so the browser keeps its scripts out.

Starlette's CORSMiddleware answers preflights in text/plain (and a refused one 400 with the
allowed methods and headers): every answer of the API is JSON, so this is the gateway's own."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import Any

from starlette.routing import BaseRoute, Route

from services.gateway import asgi

# what the API reads (docs/API.md); Content-Type is listed too: JSON is not one of the simple types
TAKES = ("Authorization", "Content-Type", "Idempotency-Key", "If-None-Match", "Last-Event-ID", "Prefer", "X-API-Key")
# what it answers beyond the headers every script may read (Content-Type, Cache-Control...)
SHOWS = ("ETag", "Retry-After")
MAX_AGE_S = 600  # a browser asks again after this long


def methods(routes: Iterable[BaseRoute]) -> tuple[str, ...]:
    """Every method the routes take but HEAD and OPTIONS (which a browser never asks leave for): a
    preflight's answer, so that a script may call each route the API has (PATCH and DELETE too)."""
    taken = {method for route in routes if isinstance(route, Route) for method in route.methods or ()}
    return tuple(sorted(taken - {"HEAD", "OPTIONS"}))


class Cors:
    def __init__(self, app: Any, origins: Collection[str], allowed_methods: Sequence[str]) -> None:
        self.app = app
        self.any = "*" in origins
        self.origins = frozenset(origins)
        self.vary = [] if self.any else [(b"vary", b"Origin")]  # an answer differs by origin: caches keep each
        self.preflight = [
            (b"access-control-allow-methods", ", ".join(allowed_methods).encode()),
            (b"access-control-allow-headers", ", ".join(TAKES).encode()),
            (b"access-control-max-age", b"%d" % MAX_AGE_S),
        ]
        self.shown = [(b"access-control-expose-headers", ", ".join(SHOWS).encode())]

    def allowed(self, origin: str) -> bool:
        return self.any or origin in self.origins

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        origin = asgi.header(scope, b"origin") if scope["type"] == "http" else None
        if origin is None:
            return await self.app(scope, receive, send)
        extra = [*self.vary]
        if self.allowed(origin):
            extra.append((b"access-control-allow-origin", b"*" if self.any else origin.encode("latin-1")))
            if scope["method"] == "OPTIONS" and asgi.header(scope, b"access-control-request-method") is not None:
                await send({"type": "http.response.start", "status": 204, "headers": [*extra, *self.preflight]})
                await send({"type": "http.response.body", "body": b""})
                return
            extra += self.shown

        async def sending(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", ()), *extra]
            await send(message)

        await self.app(scope, receive, sending)
