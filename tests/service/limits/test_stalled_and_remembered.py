"""A stream whose client stops reading is closed once a send waits past its limit (after a retry
hint); refusals are remembered briefly under their idempotency key (or not at all), accepted
commands as long as a client may retry."""

from __future__ import annotations

import asyncio
import time

import fakeredis
import pytest

from services.commands.outcomes import Accepted, Rejected
from services.gateway import answers, sse
from services.gateway.app import create_app
from services.gateway.hub import Hub
from services.ops.metrics import Metrics
from services.ops.settings import Settings
from services.store import keys
from services.store.notices import Notices

pytestmark = pytest.mark.anyio


async def test_a_stream_that_is_not_read_is_closed_after_its_limit():
    async def a_view(match_id: str, seat: int | None) -> bytes:
        return b'{"version": 3}'

    client = fakeredis.FakeAsyncRedis()
    hub = Hub(Notices(client), a_view, Metrics(), send_timeout_s=0.3, retry_ms=2500)
    await hub.start()
    sent: list[dict] = []
    stalled = asyncio.Event()

    async def send(message: dict) -> None:
        sent.append(message)
        if len(sent) >= 2:  # the client's buffers are full: the first view never leaves
            await stalled.wait()

    async def receive() -> dict:
        await asyncio.sleep(3600)  # the client never says it went away
        return {"type": "http.disconnect"}

    try:
        started = time.monotonic()
        await asyncio.wait_for(sse.serve(hub, "m", 0, -1, receive, send), 5)
        assert 0.3 <= time.monotonic() - started < 2
        assert sent[1]["body"].startswith(b"retry: 2500\nevent: view\nid: 3\n")
        assert "m" not in hub.listeners and hub.metrics.open_streams == 0
    finally:
        await hub.stop()


@pytest.mark.parametrize("refusal_ttl_s", [30, 0])
async def test_a_refusal_is_remembered_briefly_and_an_acceptance_long(refusal_ttl_s):
    settings = Settings(redis_url=None, queue_url=None, queue_name="unworked", idempotency_ttl_s=7200,
                        idempotency_refusal_ttl_s=refusal_ttl_s)
    app = create_app(settings, embedded_worker=False)
    async with app.router.lifespan_context(app):
        runtime = app.state.runtime
        created = await runtime.matches.create("heros-tavern", 3, {}, [], None, False)
        match = created.match
        folded = await runtime.folds.load(match)
        legal = match.game.legal(folded.state, 0)[0]
        accepted = await runtime.handler.submit(match, 0, legal, idempotency="accepted-1")
        refused = await runtime.handler.submit(match, 0, legal, idempotency="refused-1")  # picked already
        assert isinstance(accepted, Accepted) and isinstance(refused, Rejected)
        redis = runtime.events
        refusal_left = await redis.ttl(keys.idempotency(match.id, 0, "refused-1"))
        assert (0 < refusal_left <= refusal_ttl_s) if refusal_ttl_s else refusal_left == -2  # -2: no such key
        assert 7000 < await redis.ttl(keys.idempotency(match.id, 0, "accepted-1")) <= 7200
        again = await runtime.handler.submit(match, 0, legal, idempotency="accepted-1")
        assert answers.of(again) == answers.of(accepted)  # the same answer, from what the key kept
