"""Bare ASGI for the two endpoints every move goes through (POST commands, GET stream): the
gateway hands them their requests, with ``path_params`` set as Starlette's router would, before
Starlette's middleware and router, whose layers cost more per request than deciding the command.
Starlette's route table still lists them (and takes what the gateway does not, such as a HEAD)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from projections.i18n import DEFAULT, texts
from services.gateway import language
from services.gateway.access import ApiError
from services.gateway.schemas import error

PREFIX = "/v1/matches/"
JSON = (b"content-type", b"application/json")
Scope = MutableMapping[str, Any]  # an ASGI scope: Starlette's, or the bare endpoints' own
Handle = Callable[[Scope, Any, Any], Awaitable[None]]


def match_in(path: str, leaf: str) -> str | None:
    """The match id of ``/v1/matches/{id}/{leaf}``, else None."""
    if path.startswith(PREFIX) and path.endswith(leaf) and path[-len(leaf) - 1] == "/":
        match_id = path[len(PREFIX) : -len(leaf) - 1]
        if match_id and "/" not in match_id:
            return match_id
    return None


async def answer(send: Any, status: int, body: bytes, *extra: tuple[bytes, bytes]) -> None:
    length = (b"content-length", b"%d" % len(body))
    await send({"type": "http.response.start", "status": status, "headers": [JSON, length, *extra]})
    await send({"type": "http.response.body", "body": body})


def refusal_headers(problem: ApiError) -> list[tuple[bytes, bytes]]:
    return [] if problem.retry_after_s is None else [(b"retry-after", b"%d" % problem.retry_after_s)]


async def refuse(send: Any, problem: ApiError, *extra: tuple[bytes, bytes], scope: Scope | None = None) -> None:
    """The error's answer; its message in the language ``scope`` asks for (English without one)."""
    lang = language.of_scope(scope) if scope is not None else DEFAULT
    said = (b"content-language", lang.encode())
    body = error(problem.code, problem.said(texts(lang)))
    await answer(send, problem.status, body, *refusal_headers(problem), said, *extra)


def header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope["headers"]:
        if key == name:
            return value.decode("latin-1")
    return None


class Endpoint:
    """A bare endpoint as a class instance, so that Starlette's Route takes it as an ASGI app."""

    def __init__(self, handle: Handle) -> None:
        self.handle = handle

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        await self.handle(scope, receive, send)
