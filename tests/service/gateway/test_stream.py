"""The SSE stream: the current view first, a new one on every change, ``Last-Event-ID`` resume."""

from __future__ import annotations

import asyncio
import json

import fakeredis
import pytest

from services.gateway.app import create_app
from services.gateway.hub import TICKS, Hub
from services.ops.metrics import Metrics
from services.ops.settings import Settings
from services.store.notices import Notices
from tests.service.client import bearer, create, seat_token, send, view, wait_for
from tests.service.probe import Probe

pytestmark = pytest.mark.anyio


async def next_event(lines) -> dict:
    event: dict[str, str] = {}
    async for line in lines:
        if line.startswith(":"):
            continue
        if not line:
            if event.get("event") == "view":  # not "presence": who is connected
                return {"id": int(event["id"]), "event": event["event"], "view": json.loads(event["data"])}
            event = {}
            continue
        name, _, value = line.partition(": ")
        event[name] = value
    raise AssertionError("the stream ended")


async def test_stream_sends_the_current_view_then_each_newer_one(served):
    created = await create(served)
    token = seat_token(created, 0)
    url = f"/v1/matches/{created['match_id']}/stream"
    current = await wait_for(served, created, token, 1)
    async with served.stream("GET", url, headers=bearer(token)) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        lines = response.aiter_lines()
        first = await asyncio.wait_for(next_event(lines), 10)
        assert first["event"] == "view" and first["id"] == first["view"]["version"] >= current["version"]
        assert first["view"]["seat"] == 0 and first["view"]["legal"]
        answer = await send(served, created, 0, first["view"]["legal"][0])
        assert answer.status_code == 200
        second = await asyncio.wait_for(next_event(lines), 10)
        assert second["id"] > first["id"]
        assert second["view"]["version"] == second["id"] == answer.json()["version"]


async def test_last_event_id_resumes(served):
    created = await create(served)
    token = seat_token(created, 1)
    url = f"/v1/matches/{created['match_id']}/stream"
    current = await wait_for(served, created, token, 1)
    async with served.stream("GET", url, headers=bearer(token) | {"Last-Event-ID": "1"}) as response:
        newer = await asyncio.wait_for(next_event(response.aiter_lines()), 10)
        assert newer["id"] == current["version"]  # the client is behind: the current view at once
    resume = bearer(token) | {"Last-Event-ID": str(current["version"])}
    async with served.stream("GET", url, headers=resume) as response:
        lines = response.aiter_lines()
        pending = asyncio.ensure_future(next_event(lines))
        await asyncio.sleep(0.3)
        assert not pending.done()  # up to date: nothing until the view changes
        answer = await send(served, created, 1, current["legal"][0])
        changed = await asyncio.wait_for(pending, 10)
        assert changed["id"] == answer.json()["version"]


async def test_stream_needs_a_token_of_the_match(served):
    created = await create(served)
    url = f"/v1/matches/{created['match_id']}/stream"
    assert (await served.get(url)).status_code == 401
    assert (await served.get(url, headers=bearer("wrong"))).status_code == 403
    assert (await served.get("/v1/matches/nope/stream", headers=bearer("x"))).status_code == 404
    spectator = await view(served, created, created["spectator_token"])
    assert spectator["seat"] is None


async def test_a_stream_opened_before_any_projection_starts_with_the_current_view():
    # no worker: the projector never writes a view, yet the stream's first message is the fold's
    settings = Settings(redis_url=None, queue_url=None, queue_name="unworked", lease_s=1.0)
    app = create_app(settings, embedded_worker=False)
    async with app.router.lifespan_context(app):
        runtime = app.state.runtime
        created = await runtime.matches.create("heros-tavern", 4, {}, [], None, False)
        assert await runtime.store.view(created.match.id, "s:2") is None
        probe = Probe(app.state.hub, created.match.id, 2, 0)
        try:
            chunk = await probe.chunk()
        finally:
            await probe.close()
        version = (await runtime.folds.load(created.match)).version
        # the first frame tells the client when to reconnect (a stream that stalls is closed)
        assert chunk.startswith(b"retry: 3000\nevent: view\nid: %d\ndata: " % version) and version > 0
        assert json.loads(chunk.split(b"data: ", 1)[1])["seat"] == 2


async def known_at_1(match_id: str, seat: int | None) -> bytes:
    return b'{"version": 1}'


async def test_a_quiet_stream_gets_a_keepalive_comment_and_a_closed_one_is_forgotten():
    redis = fakeredis.FakeAsyncRedis()
    # a match that exists (a match without views nor a fold is one Redis lost: its stream ends)
    hub = Hub(Notices(redis), known_at_1, Metrics(), keepalive_s=0.05)
    await hub.start()
    try:
        probe = Probe(hub, "quiet", 0, 1)  # the client has version 1: nothing newer to send
        headers = dict((await probe.start())["headers"])
        assert headers[b"content-type"].startswith(b"text/event-stream")
        assert await probe.chunk() == b": keepalive\n\n"
        assert len(hub.listeners["quiet"]) == 1
        await probe.close()
        assert "quiet" not in hub.listeners and hub.metrics.open_streams == 0
    finally:
        await hub.stop()


async def settled(probe: Probe) -> bool:
    """Whether the stream has nothing more to send once it has run all it could."""
    for _ in range(20):
        await asyncio.sleep(0)
    return probe.sent.empty()


async def test_no_stream_is_quiet_for_longer_than_the_keepalive_period():
    # the ticks are driven by hand (the hub's own timer far away): counted, not timed
    hub = Hub(Notices(fakeredis.FakeAsyncRedis()), known_at_1, Metrics(), keepalive_s=3600)
    await hub.start()
    try:
        probe = Probe(hub, "quiet", 0, 1)
        await probe.start()
        (listener,) = hub.listeners["quiet"]
        for _ in range(2):  # from the start, then after a comment
            for _ in range(TICKS - 1):
                hub.tick()
                assert await settled(probe)
            hub.tick()  # TICKS ticks: one keepalive period at most since the last frame
            assert await probe.chunk() == b": keepalive\n\n"
        for _ in range(TICKS - 1):
            hub.tick()
        listener.offer(b'{"version": 2}')  # a view resets the count: the next comment is a period after it
        assert (await probe.chunk()).startswith(b"event: view\nid: 2\n")
        for _ in range(TICKS - 1):
            hub.tick()
            assert await settled(probe)
        hub.tick()
        assert await probe.chunk() == b": keepalive\n\n"
        await probe.close()
    finally:
        await hub.stop()


@pytest.mark.parametrize("game,seats", [("mercenaries", 2), ("heros-tavern", 3), ("taverna", 2), ("tavern-masters", 3)])
async def test_a_match_waiting_for_entropy_streams_its_waiting_view_then_the_opening(served, game, seats):
    answer = await served.post("/v1/matches", json={"game": game, "seats": seats, "seat_entropy": True})
    assert answer.status_code == 201, answer.text
    created = answer.json()
    match_id, token = created["match_id"], seat_token(created, 0)
    waiting = await view(served, created, token)
    assert waiting["version"] == 0 and waiting["status"] == "waiting" and waiting["legal"] == []
    async with served.stream("GET", f"/v1/matches/{match_id}/stream", headers=bearer(token)) as response:
        lines = response.aiter_lines()
        first = await asyncio.wait_for(next_event(lines), 10)
        assert first["id"] == 0 and first["view"]["status"] == "waiting"
        for seat in range(seats):
            given = await served.post(f"/v1/matches/{match_id}/entropy", json={"entropy": f"e{seat}"},
                                      headers=bearer(seat_token(created, seat)))
            assert given.status_code == 200, given.text
        opened = await asyncio.wait_for(next_event(lines), 10)
        assert opened["id"] > 0 and opened["view"]["status"] == "active"
