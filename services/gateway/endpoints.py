"""What the gateway's Starlette endpoints (app.py, online.py) share: the runtime, a JSON answer, a
JSON body and an integer query parameter, each refused the same way."""

from __future__ import annotations

from typing import Any, TypeVar

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from services.commands import strict
from services.gateway.access import ApiError
from services.runtime import Runtime

JSON = "application/json"
D = TypeVar("D", bound=int | None)


def runtime_of(request: Request) -> Runtime:
    return request.app.state.runtime


def json_response(value: Any, status: int = 200) -> Response:
    return Response(msgspec.json.encode(value), status_code=status, media_type=JSON)


async def json_body(request: Request, kind: Any) -> Any:
    """The body as a ``kind`` (no body: ``{}``), or the API's 400 ``bad_request``."""
    depth = runtime_of(request).settings.limits.json_depth
    try:
        return strict.decode(await request.body() or b"{}", kind, depth)
    except strict.Malformed as problem:
        raise ApiError(400, "bad_request", str(problem)) from problem


def int_query(request: Request, name: str, default: D, low: int, high: int) -> int | D:
    """The query parameter ``name``, from ``low`` to ``high``; ``default`` without one."""
    text = request.query_params.get(name)
    if text is None:
        return default
    try:
        value = int(text)
    except ValueError as problem:
        raise ApiError(400, "bad_query", "{name} is an integer", name=name) from problem
    if not low <= value <= high:
        raise ApiError(400, "bad_query", "{name} is from {low} to {high}", name=name, low=low, high=high)
    return value
