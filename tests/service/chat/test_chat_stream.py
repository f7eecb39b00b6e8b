"""A line said in a table's chat is told on the streams of its channel's readers (a `chat` event on
/stream, a `chat` frame on /ws; docs/chat.md), never on the other channel's, and never as a view:
the line itself is read with GET /chat."""

from __future__ import annotations

import asyncio
import json

import pytest
import websockets

from tests.service.backends import BACKENDS
from tests.service.client import bearer, create, seat_token, sse_frames, wait_for
from tests.service.gateway.test_ws import ws_url

pytestmark = [pytest.mark.anyio, pytest.mark.parametrize("settings", BACKENDS, indirect=True)]


async def next_chat(frames) -> dict:
    async for frame in frames:
        if frame.get("event") == "chat":
            return json.loads(frame["data"])
    raise AssertionError("the stream ended")


async def test_a_line_is_told_on_its_channels_streams_only(served):
    created = await create(served, seats=3)
    chat = f"/v1/matches/{created['match_id']}/chat"
    stream = f"/v1/matches/{created['match_id']}/stream"
    seat, watcher = bearer(seat_token(created, 1)), bearer(created["spectator_token"])
    await wait_for(served, created, seat_token(created, 1), 1)
    async with served.stream("GET", stream, headers=seat) as playing, served.stream(
        "GET", stream, headers=watcher
    ) as watching, websockets.connect(ws_url(served, created, access_token=seat_token(created, 0))) as socket:
        seat_frames, watcher_frames = sse_frames(playing), sse_frames(watching)
        said = await served.post(chat, json={"text": "hello"}, headers=bearer(seat_token(created, 0)))
        assert said.status_code == 201
        assert await asyncio.wait_for(next_chat(seat_frames), 10) == {"channel": "players"}
        while (frame := json.loads(await asyncio.wait_for(socket.recv(), 10)))["kind"] != "chat":
            pass
        assert frame == {"kind": "chat", "chat": {"channel": "players"}}
        # the spectators' stream heard nothing of it: the first chat event it gets is its own channel's
        await served.post(chat, json={"text": "hi"}, headers=watcher)
        assert await asyncio.wait_for(next_chat(watcher_frames), 10) == {"channel": "spectators"}
        lines = (await served.get(chat, headers=seat)).json()["lines"]
        assert [line["text"] for line in lines] == ["hello"]
