"""POST /v1/matches/{match_id}/commands, as a bare ASGI endpoint (services/gateway/asgi.py)."""

from __future__ import annotations

from typing import Any

from services.commands.handling import BadCommand, decode_command
from services.commands.schemas import error
from services.gateway import asgi, outage
from services.gateway.access import ApiError, authorize
from services.ops import logs
from services.ops.metrics import redis_error
from services.runtime import Runtime

log = logs.get("tavern.gateway")
LEAF = "commands"  # the path's last segment
ROUTE = f"/v1/matches/{{id}}/{LEAF}"


async def post_command(scope: asgi.Scope, receive: Any, send: Any) -> None:
    runtime: Runtime = scope["app"].state.runtime
    try:
        status, body = await _answer(runtime, scope, receive)
    except ApiError as problem:
        status, body = problem.status, error(problem.code, problem.message)
    except outage.REDIS_DOWN as problem:
        redis_error("command", problem)
        runtime.metrics.request(ROUTE, "POST", 503)
        await outage.answer(send, problem)
        return
    except Exception as problem:
        redis_error("command", problem)
        log.exception("command_failed", match_id=scope["path_params"]["match_id"])
        status, body = 500, error("internal", "the server failed; the command may or may not have been taken")
    runtime.metrics.request(ROUTE, "POST", status)  # counted here: the hot path skips the gateway's wrapper
    await asgi.answer(send, status, body)


async def _answer(runtime: Runtime, scope: asgi.Scope, receive: Any) -> tuple[int, bytes]:
    match_id = scope["path_params"]["match_id"]
    match, seat = await authorize(runtime, match_id, asgi.header(scope, b"authorization") or "")
    if seat is None:
        raise ApiError(403, "spectator", "a spectator token cannot send commands")
    try:
        command, expected = decode_command(match, await _body(receive))
    except BadCommand as problem:
        runtime.metrics.command(match.game.id, "undecodable", "bad_request", "bad_command")
        raise ApiError(400, "bad_command", str(problem)) from problem
    idempotency = asgi.header(scope, b"idempotency-key")
    answer = await runtime.handler.submit(match, seat, command, expected, idempotency)
    return answer.status, answer.body


async def _body(receive: Any) -> bytes:
    message = await receive()
    body = message.get("body", b"")
    while message.get("more_body"):
        message = await receive()
        body += message.get("body", b"")
    return body
