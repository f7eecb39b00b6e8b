"""/livez (the process answers), /readyz (it can do its work: both Redis answer, and the
projector keeps up) and /healthz (API.md's; the readiness, status only). Not ready is a 503 with
Retry-After: a load balancer sends the gateway no traffic until it is ready again by itself."""

from __future__ import annotations

import asyncio
import time

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from services.commands.schemas import Health
from services.gateway import outage
from services.projector import worker
from services.runtime import Runtime
from services.store import keys


class Readiness(msgspec.Struct):
    status: str  # "ok" or "unavailable"
    redis: str  # "ok", or why REDIS_URL's Redis did not answer
    queue: str  # the same for the queue's (QUEUE_URL, else REDIS_URL)
    backlog_s: float  # how long the match waiting longest has had views behind its log (0: none)
    workers: int  # workers whose heartbeat is fresh (services/projector/worker.py); reported, not required


async def _answers(client: object, timeout_s: float) -> str:
    try:
        async with asyncio.timeout(timeout_s):
            await client.ping()  # type: ignore[attr-defined]
        return "ok"
    except (*outage.REDIS_DOWN, TimeoutError) as problem:
        return f"unreachable: {problem or 'no reply'}"


async def readiness(runtime: Runtime) -> Readiness:
    timeout_s = runtime.settings.redis_timeout_s
    redis, queue = await asyncio.gather(_answers(runtime.events, timeout_s), _answers(runtime.queue_async, timeout_s))
    backlog_s, workers = 0.0, 0
    if queue == "ok":
        now = time.time()
        try:
            async with asyncio.timeout(timeout_s), runtime.queue_async.pipeline(transaction=False) as pipe:
                pipe.zrange(keys.DIRTY, 0, 0, withscores=True).zcount(keys.WORKERS, now - worker.BEAT_S * 3, "+inf")
                oldest, workers = await pipe.execute()
            backlog_s = round(max(0.0, now - oldest[0][1]), 3) if oldest else 0.0
        except (*outage.REDIS_DOWN, TimeoutError) as problem:
            queue = f"unreachable: {problem or 'no reply'}"
    ready = redis == queue == "ok" and backlog_s < runtime.settings.ready_backlog_s
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
