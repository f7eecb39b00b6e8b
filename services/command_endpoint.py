"""POST /v1/matches/{match_id}/commands as a bare ASGI app: the one endpoint every move goes
through. The gateway hands it such requests before Starlette's middleware and router (whose
layers cost more than deciding the command); Starlette still routes the path, for its 405s."""

from __future__ import annotations

from typing import Any

from services import logs
from services.access import ApiError, authorize
from services.handling import BadCommand, decode_command
from services.runtime import Runtime
from services.schemas import error

log = logs.get("tavern.gateway")
PREFIX, SUFFIX = "/v1/matches/", "/commands"
JSON = (b"content-type", b"application/json")


def commanded_match(path: str) -> str | None:
    """The match id of a commands path, else None."""
    if path.startswith(PREFIX) and path.endswith(SUFFIX):
        match_id = path[len(PREFIX) : -len(SUFFIX)]
        if match_id and "/" not in match_id:
            return match_id
    return None


class CommandEndpoint:
    """A class, so that Starlette's Route takes it as an ASGI app, not a request handler."""

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        await post_command(scope, receive, send)


async def post_command(scope: dict[str, Any], receive: Any, send: Any) -> None:
    runtime: Runtime = scope["app"].state.runtime
    headers = dict(scope["headers"])
    try:
        status, body = await _answer(runtime, scope["path"], headers, receive)
    except ApiError as problem:
        status, body = problem.status, error(problem.code, problem.message)
    except Exception:
        log.exception("command_failed", match_id=commanded_match(scope["path"]))
        status, body = 500, error("internal", "the server failed; the command may or may not have been taken")
    length = (b"content-length", b"%d" % len(body))
    await send({"type": "http.response.start", "status": status, "headers": [JSON, length]})
    await send({"type": "http.response.body", "body": body})


async def _answer(runtime: Runtime, path: str, headers: dict[bytes, bytes], receive: Any) -> tuple[int, bytes]:
    authorization = headers.get(b"authorization", b"").decode("latin-1")
    match, seat = await authorize(runtime, commanded_match(path) or "", authorization)
    if seat is None:
        raise ApiError(403, "spectator", "a spectator token cannot send commands")
    try:
        command, expected = decode_command(match, await _body(receive))
    except BadCommand as problem:
        runtime.metrics.commands.inc("bad_request")
        raise ApiError(400, "bad_command", str(problem)) from problem
    key = headers.get(b"idempotency-key")
    idempotency = None if key is None else key.decode("latin-1")
    answer = await runtime.handler.submit(match, seat, command, expected, idempotency)
    return answer.status, answer.body


async def _body(receive: Any) -> bytes:
    message = await receive()
    body = message.get("body", b"")
    while message.get("more_body"):
        message = await receive()
        body += message.get("body", b"")
    return body
