"""POST /v1/matches/{match_id}/commands, as a bare ASGI endpoint (services/gateway/asgi.py):
the HTTP side of services/gateway/command_path.py."""

from __future__ import annotations

from typing import Any

from services.commands.matches import Match
from services.gateway import asgi, command_path
from services.gateway.access import authorize
from services.gateway.command_path import Sent
from services.runtime import Runtime

LEAF = "commands"  # the path's last segment
ROUTE = f"/v1/matches/{{id}}/{LEAF}"
STRICT = "handling=strict"  # a Prefer header's preference (RFC 7240): every stale version is a 409


def strict(prefer: str | None) -> bool:
    """Whether a ``Prefer`` header asks for a plain 409 on any stale ``expected_version``."""
    return prefer is not None and STRICT in prefer.replace(" ", "").lower().split(",")


async def post_command(scope: asgi.Scope, receive: Any, send: Any) -> None:
    runtime: Runtime = scope["app"].state.runtime
    authorization = asgi.header(scope, b"authorization") or ""

    async def caller() -> tuple[Match, int | None]:
        return await authorize(runtime, scope["path_params"]["match_id"], authorization)

    key = asgi.header(scope, b"idempotency-key")
    sent = Sent(await _body(receive), key, "an Idempotency-Key", strict(asgi.header(scope, b"prefer")))
    reply = await command_path.take(scope, authorization, caller, sent)
    runtime.metrics.request(ROUTE, "POST", reply.status)  # counted here: the hot path skips the gateway's wrapper
    await asgi.answer(send, reply.status, reply.body, *reply.headers)


async def _body(receive: Any) -> bytes:
    message = await receive()
    body = message.get("body", b"")
    while message.get("more_body"):
        message = await receive()
        body += message.get("body", b"")
    return body
