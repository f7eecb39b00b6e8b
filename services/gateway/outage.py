"""A Redis outage as the API says it: 503 with Retry-After and the JSON error body, never a 500
or a hang (every reply from Redis has a timeout: TAVERN_REDIS_TIMEOUT_S). Nothing to recover:
the next request after Redis is back opens new connections."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from services.gateway import asgi
from services.gateway.schemas import error
from services.ops import logs
from services.runtime import REDIS_DOWN  # redis-py's errors of an outage, which the Wire raises too

__all__ = ["REDIS_DOWN", "answer", "handler", "logged"]

log = logs.get("tavern.gateway")
RETRY_AFTER_S = 1
BODY = error("unavailable", "the store cannot be reached; try again (with the same Idempotency-Key)")
RETRY_AFTER = (b"retry-after", b"%d" % RETRY_AFTER_S)
HEADERS = [asgi.JSON, RETRY_AFTER, (b"content-length", b"%d" % len(BODY))]


def logged(problem: Exception) -> None:
    log.warning("redis_unavailable", error=str(problem))


async def answer(send: Any, problem: Exception) -> None:
    """The 503 on a bare endpoint (services/gateway/asgi.py)."""
    logged(problem)
    await send({"type": "http.response.start", "status": 503, "headers": HEADERS})
    await send({"type": "http.response.body", "body": BODY})


async def handler(request: Request, problem: Exception) -> Response:
    """The 503 on Starlette's routes."""
    log.warning("redis_unavailable", error=str(problem), path=request.url.path)
    return Response(BODY, 503, {"retry-after": str(RETRY_AFTER_S)}, media_type="application/json")
