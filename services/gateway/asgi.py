"""Bare ASGI for the two endpoints every move goes through (POST commands, GET stream): the
gateway hands them their requests, with ``path_params`` set as Starlette's router would, before
Starlette's middleware and router, whose layers cost more per request than deciding the command.
Starlette's route table still lists them (and takes what the gateway does not, such as a HEAD)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from services.commands.schemas import error
from services.gateway.access import ApiError

PREFIX = "/v1/matches/"
JSON = (b"content-type", b"application/json")
Scope = dict[str, Any]
Handle = Callable[[Scope, Any, Any], Awaitable[None]]


def match_in(path: str, leaf: str) -> str | None:
    """The match id of ``/v1/matches/{id}/{leaf}``, else None."""
    if path.startswith(PREFIX) and path.endswith(leaf) and path[-len(leaf) - 1] == "/":
        match_id = path[len(PREFIX) : -len(leaf) - 1]
        if match_id and "/" not in match_id:
            return match_id
    return None


async def answer(send: Any, status: int, body: bytes) -> None:
    length = (b"content-length", b"%d" % len(body))
    await send({"type": "http.response.start", "status": status, "headers": [JSON, length]})
    await send({"type": "http.response.body", "body": body})


async def refuse(send: Any, problem: ApiError) -> None:
    await answer(send, problem.status, error(problem.code, problem.message))


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
