"""players[].connected: a seat with an open stream is connected in the views written while it is."""

from __future__ import annotations

import asyncio

import pytest

from tests.service.client import bearer, create, seat_token, send, view, wait_for

pytestmark = pytest.mark.anyio


async def test_a_seat_with_an_open_stream_is_shown_connected(app, api):
    runtime = app.state.runtime
    created = await create(api, seats=3, bots=[2])
    url = f"/v1/matches/{created['match_id']}/stream"

    async def listen():
        async with api.stream("GET", url, headers=bearer(seat_token(created, 0)), timeout=None) as response:
            async for _ in response.aiter_lines():
                pass

    listener = asyncio.create_task(listen())
    try:
        key = f"match:{{{created['match_id']}}}:here:0"
        for _ in range(1000):
            if await runtime.events.exists(key):
                break
            await asyncio.sleep(0.01)
        seen = await view(api, created, seat_token(created, 1))
        answer = await send(api, created, 1, seen["legal"][0])
        assert answer.status_code == 200, answer.text
        after = await wait_for(api, created, seat_token(created, 1), answer.json()["version"])
        assert [p["connected"] for p in after["players"]] == [True, False, False]
    finally:
        listener.cancel()
        with pytest.raises(asyncio.CancelledError):
            await listener
