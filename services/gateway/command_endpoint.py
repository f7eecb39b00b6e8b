"""POST /v1/matches/{match_id}/commands, as a bare ASGI endpoint (services/gateway/asgi.py)."""

from __future__ import annotations

import re
from typing import Any

from services.commands import stale
from services.commands.folds import MatchLost
from services.commands.handling import BadCommand, decode_command
from services.commands.schemas import error
from services.gateway import access, asgi, outage
from services.gateway.access import ApiError, authorize
from services.gateway.rate_limit import address_of
from services.ops import logs
from services.ops.metrics import redis_error
from services.runtime import Runtime

log = logs.get("tavern.gateway")
LEAF = "commands"  # the path's last segment
ROUTE = f"/v1/matches/{{id}}/{LEAF}"
IDEMPOTENCY_KEY = re.compile(r"[!-~]{1,200}")


async def post_command(scope: asgi.Scope, receive: Any, send: Any) -> None:
    runtime: Runtime = scope["app"].state.runtime
    try:
        status, body = await _answer(runtime, scope, receive)
    except ApiError as problem:  # with its headers (a 429's Retry-After)
        runtime.metrics.request(ROUTE, "POST", problem.status)
        await asgi.refuse(send, problem)
        return
    except outage.REDIS_DOWN as problem:
        redis_error("command", problem)
        runtime.metrics.request(ROUTE, "POST", 503)
        await outage.answer(send, problem)
        return
    except MatchLost as lost:
        runtime.metrics.request(ROUTE, "POST", 410)
        await asgi.refuse(send, access.gone(lost))
        return
    except Exception as problem:
        redis_error("command", problem)
        log.exception("command_failed", match_id=scope["path_params"]["match_id"])
        status, body = 500, error("internal", "the server failed; the command may or may not have been taken")
    runtime.metrics.request(ROUTE, "POST", status)  # counted here: the hot path skips the gateway's wrapper
    await asgi.answer(send, status, body)


async def _answer(runtime: Runtime, scope: asgi.Scope, receive: Any) -> tuple[int, bytes]:
    match_id = scope["path_params"]["match_id"]
    authorization = asgi.header(scope, b"authorization") or ""
    match, seat = await authorize(runtime, match_id, authorization)
    if seat is None:
        raise ApiError(403, "spectator", "a spectator token cannot send commands")
    await scope["app"].state.rate.commands(address_of(scope), authorization)
    idempotency = asgi.header(scope, b"idempotency-key")
    if idempotency is not None and not IDEMPOTENCY_KEY.fullmatch(idempotency):
        raise ApiError(400, "bad_idempotency_key", "an Idempotency-Key is 1 to 200 printable ASCII characters")
    try:
        command, expected = decode_command(match, await _body(receive), runtime.settings.limits.json_depth)
    except BadCommand as problem:
        runtime.metrics.command(match.game.id, "undecodable", "bad_request", "bad_command")
        raise ApiError(400, "bad_command", str(problem)) from problem
    exact = stale.strict(asgi.header(scope, b"prefer"))  # Prefer: handling=strict
    answer = await runtime.handler.submit(match, seat, command, expected, idempotency, exact=exact)
    return answer.status, answer.body


async def _body(receive: Any) -> bytes:
    message = await receive()
    body = message.get("body", b"")
    while message.get("more_body"):
        message = await receive()
        body += message.get("body", b"")
    return body
