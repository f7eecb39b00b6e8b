"""/livez (the process answers), /readyz (it can do its work: its own link to the events' Redis
answers) and /healthz (API.md's; the readiness, status only). Not ready is a 503 with Retry-After: a load
balancer sends the gateway no traffic until it is ready again by itself.

Readiness is this process's alone. The queue's Redis, the projection backlog and the workers are
reported (``queue``, ``backlog_s``, ``workers``) but do not decide it: commands are answered with the
queue away (their dirty marks wait beside the events, services/store/unmarked.py), and all three are
the workers' and the same for every gateway, so a readiness that failed on it
would take every gateway out at once while commands and views still answer. It is a metric
(``tavern_projector_backlog``, ``tavern_projector_backlog_age_seconds``) and an alert
(``TavernProjectorBehind``, deploy/alerts.yml) instead."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from services.gateway import outage
from services.gateway.schemas import Health
from services.runtime import Runtime


class Readiness(msgspec.Struct):
    status: str  # "ok" or "unavailable"
    redis: str  # "ok", or why REDIS_URL's Redis did not answer
    queue: str  # the same for the queue's (QUEUE_URL, else REDIS_URL); reported, not required
    backlog_s: float  # how long the match waiting longest has had views behind its log (0: none); reported
    workers: int  # workers whose heartbeat is fresh (services/store/rq_workers.py); reported, not required


# no answer in time, or none at all
UNANSWERED: tuple[type[BaseException], ...] = (*outage.REDIS_DOWN, TimeoutError)


async def _answers(ping: Callable[[], Awaitable[None]], timeout_s: float) -> str:
    try:
        async with asyncio.timeout(timeout_s):
            await ping()
        return "ok"
    except UNANSWERED as problem:
        return f"unreachable: {problem or 'no reply'}"


async def readiness(runtime: Runtime) -> Readiness:
    timeout_s = runtime.settings.redis_timeout_s
    wired = runtime.connections
    redis, queue = await asyncio.gather(_answers(wired.ping_events, timeout_s), _answers(wired.ping_queue, timeout_s))
    backlog_s, workers = 0.0, 0
    if queue == "ok":
        now = time.time()
        try:
            async with asyncio.timeout(timeout_s):
                oldest, workers = await runtime.projector_queue.readiness(now)
            backlog_s = round(max(0.0, now - oldest), 3) if oldest is not None else 0.0
        except UNANSWERED as problem:
            queue = f"unreachable: {problem or 'no reply'}"
    ready = redis == "ok"
    return Readiness("ok" if ready else "unavailable", redis, queue, backlog_s, workers)


def _answer(body: object, ready: bool) -> Response:
    headers = None if ready else {"retry-after": str(outage.RETRY_AFTER_S)}
    return Response(msgspec.json.encode(body), 200 if ready else 503, headers, media_type="application/json")


async def livez(request: Request) -> Response:
    return _answer(Health("ok"), True)


async def readyz(request: Request) -> Response:
    found = await readiness(request.app.state.runtime)
    return _answer(found, found.status == "ok")


async def healthz(request: Request) -> Response:
    found = await readiness(request.app.state.runtime)
    return _answer(Health(found.status), found.status == "ok")
