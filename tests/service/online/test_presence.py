"""players[].connected, true to the moment: when a seat's stream opens or closes, every other open
stream of the match hears it within a few seconds (a ``presence`` frame), on SSE and WebSocket, on
one gateway (fakeredis and a real Redis) and across two gateways on a real Redis; a seat streamed
through two gateways stays connected until its last stream closes; nothing is left behind."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time

import httpx
import pytest
import redis.asyncio
import websockets

from services.store import keys
from tests.service.client import bearer, create, seat_token, sse_frames, view
from tests.service.conftest import serve_healthy, service_env, start_redis

pytestmark = pytest.mark.anyio
BOUND_S = 5.0  # a notice's round trip takes milliseconds; this leaves room for a loaded machine


class Watch:
    """One open stream read in a task: the tables (each seat's ``connected``) it was sent, in order."""

    def __init__(self, reader) -> None:
        self.tables: list[list[bool]] = []
        self.task = asyncio.create_task(reader)

    def saw(self, envelope: dict) -> None:
        self.tables.append([player["connected"] for player in envelope["players"]])

    async def sees(self, connected: list[bool], what: str) -> None:
        deadline = time.monotonic() + BOUND_S
        while not (self.tables and self.tables[-1] == connected):
            assert not self.task.done(), f"{what}: the stream ended"
            assert time.monotonic() < deadline, f"{what}: {self.tables[-1:]} after {BOUND_S} s, not {connected}"
            await asyncio.sleep(0.01)

    async def close(self) -> None:
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.task


def sse(client: httpx.AsyncClient, created: dict, token: str) -> Watch:
    async def read() -> None:
        url = f"/v1/matches/{created['match_id']}/stream"
        async with client.stream("GET", url, headers=bearer(token), timeout=None) as response:
            assert response.status_code == 200
            async for frame in sse_frames(response):
                if frame.get("event") in ("view", "presence"):
                    watch.saw(json.loads(frame["data"]))

    watch = Watch(read())
    return watch


def socket(client: httpx.AsyncClient, created: dict, token: str) -> Watch:
    async def read() -> None:
        base = str(client.base_url).replace("http://", "ws://").rstrip("/")
        async with websockets.connect(f"{base}/v1/matches/{created['match_id']}/ws?access_token={token}") as ws:
            async for raw in ws:
                message = json.loads(raw)
                if message["kind"] in ("view", "presence"):
                    watch.saw(message[message["kind"]])

    watch = Watch(read())
    return watch


async def connected(client: httpx.AsyncClient, created: dict, token: str) -> list[bool]:
    return [player["connected"] for player in (await view(client, created, token))["players"]]


async def test_every_stream_hears_a_seat_come_and_go(served, app):
    created = await create(served, seats=3, bots=[2])
    one = sse(served, created, seat_token(created, 1))
    await one.sees([False, True, False], "seat 1 alone")
    zero = sse(served, created, seat_token(created, 0))
    await one.sees([True, True, False], "seat 0 opened its stream")
    await zero.sees([True, True, False], "seat 0's own stream")
    spectator = sse(served, created, created["spectator_token"])
    await spectator.sees([True, True, False], "the spectator")

    await zero.close()
    await one.sees([False, True, False], "seat 0 closed its stream")
    await spectator.sees([False, True, False], "the spectator, seat 0 gone")
    assert await connected(served, created, seat_token(created, 2)) == [False, True, False]

    zero = socket(served, created, seat_token(created, 0))  # back, on a WebSocket
    await one.sees([True, True, False], "seat 0 back on a WebSocket")
    await zero.sees([True, True, False], "seat 0's socket")
    await one.close()
    await zero.sees([True, False, False], "seat 1 closed its stream: the socket hears it")
    await zero.close()
    await spectator.sees([False, False, False], "both gone")
    await spectator.close()
    assert await connected(served, created, created["spectator_token"]) == [False, False, False]
    assert not await app.state.runtime.events.exists(keys.presence(created["match_id"]))  # nothing left behind


async def test_two_gateways_tell_each_other(tmp_path, processes):
    server, url = start_redis(tmp_path)
    try:
        env = service_env(url)
        base_a, _ = serve_healthy(processes, env)
        base_b, _ = serve_healthy(processes, env)
        processes(["worker"], env)
        async with httpx.AsyncClient(base_url=base_a) as a, httpx.AsyncClient(base_url=base_b) as b:
            created = await create(a, seats=3, bots=[2])
            one = sse(b, created, seat_token(created, 1))
            await one.sees([False, True, False], "seat 1 alone, on gateway B")
            zero = sse(a, created, seat_token(created, 0))
            await one.sees([True, True, False], "seat 0 opened on gateway A")
            await zero.close()
            await one.sees([False, True, False], "seat 0 closed on gateway A")
            assert await connected(a, created, seat_token(created, 0)) == [False, True, False]

            # seat 0 in two tabs, one through each gateway: closing one leaves it connected
            on_a, on_b = sse(a, created, seat_token(created, 0)), sse(b, created, seat_token(created, 0))
            await one.sees([True, True, False], "seat 0 on both gateways")
            await on_b.sees([True, True, False], "seat 0's tab on B")
            await on_a.close()
            await asyncio.sleep(1.0)  # were the closing to count, the notice would have come by now
            assert one.tables[-1] == [True, True, False]
            assert await connected(a, created, seat_token(created, 1)) == [True, True, False]
            await on_b.close()
            await one.sees([False, True, False], "seat 0's last tab closed")
            await one.close()
        client = redis.asyncio.Redis.from_url(url)
        for _ in range(200):  # the last stream's closing runs just after its client went
            if not await client.exists(keys.presence(created["match_id"])):
                break
            await asyncio.sleep(0.02)
        assert not await client.exists(keys.presence(created["match_id"]))
        await client.aclose()
    finally:
        server.terminate()
        server.wait(10)
