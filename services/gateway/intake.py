"""What the gateway takes in before any endpoint sees a request: headers within their size, and a
body within its size, read whole within a time limit (a client that dribbles it is answered 408
and its connection closed). The endpoints then read the body from memory."""

from __future__ import annotations

import asyncio
from typing import Any

from services.gateway import asgi
from services.gateway.access import ApiError
from services.ops.limits import Limits

CREATE_PATH = "/v1/matches"
COMMANDS_LEAF = "/commands"


def body_cap(path: str, limits: Limits) -> int:
    if path == CREATE_PATH:
        return limits.create_body_bytes
    if path.endswith(COMMANDS_LEAF):
        return limits.command_body_bytes
    return limits.other_body_bytes


def check_headers(scope: asgi.Scope, limits: Limits) -> None:
    size = sum(len(name) + len(value) for name, value in scope["headers"])
    if size > limits.header_bytes:
        raise ApiError(431, "headers_too_large", "the request's headers are over {most} bytes",
                       most=limits.header_bytes)


async def read_body(scope: asgi.Scope, receive: Any, limits: Limits) -> bytes:
    """The whole body, or the API's 413 (too large) or 408 (too slow)."""
    cap = body_cap(scope["path"], limits)
    declared = asgi.header(scope, b"content-length")
    if declared is not None and declared.isdigit() and int(declared) > cap:
        raise ApiError(413, "body_too_large", "this request's body is at most {most} bytes", most=cap)
    if arrived(receive):  # nothing to wait for, so no timer to set and cancel (most requests)
        return await _take(receive, cap)
    try:
        async with asyncio.timeout(limits.body_timeout_s if limits.body_timeout_s > 0 else None):
            return await _take(receive, cap)
    except TimeoutError as problem:
        raise ApiError(408, "body_timeout", "the body was not sent within {most} s",
                       most=limits.body_timeout_s) from problem


def arrived(receive: Any) -> bool:
    """Whether the whole body is in the server's hands already, so that ``receive`` cannot wait:
    uvicorn's request cycle says so (``more_body`` False once the parser saw the message end).
    Any other server's ``receive``: not known, so False."""
    return getattr(getattr(receive, "__self__", None), "more_body", True) is False


async def _take(receive: Any, cap: int) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > cap:
            raise ApiError(413, "body_too_large", "this request's body is at most {most} bytes", most=cap)
        chunks.append(chunk)
        if not message.get("more_body"):
            break
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def replay(body: bytes, receive: Any) -> Any:
    """A ``receive`` that gives ``body`` once, then whatever the client sends next (a disconnect)."""
    pending = [{"type": "http.request", "body": body, "more_body": False}]

    async def again() -> dict[str, Any]:
        return pending.pop() if pending else await receive()

    return again


async def refuse_and_close(send: Any, problem: ApiError, scope: asgi.Scope) -> None:
    """The refusal, with ``Connection: close``: the rest of the body is never read."""
    await asgi.refuse(send, problem, (b"connection", b"close"), scope=scope)
