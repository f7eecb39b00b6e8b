"""SIGTERM on a gateway with open streams and commands in flight: it stops accepting, answers the
commands it has, ends every stream with a retry hint and exits within TAVERN_STOP_S; every command
it acknowledged is in the log."""

from __future__ import annotations

import asyncio
import json
import signal
import time
from collections import Counter

import httpx
import pytest
import redis

from services.store import keys
from tests.service.client import bearer, create, seat_token, view
from tests.service.conftest import serve_healthy, service_env, start_redis
from tests.service.ops.streams import Frames

pytestmark = pytest.mark.anyio
MATCHES = 6
STREAMS_PER_MATCH = 3
STOP_S = 5


async def post(base: str, created: dict, seat: int, command: dict, key: str) -> httpx.Response | None:
    """A command on a connection of its own; None if the gateway would not take it."""
    async with httpx.AsyncClient(base_url=base, timeout=10) as api:
        try:
            return await api.post(
                f"/v1/matches/{created['match_id']}/commands",
                json=command,
                headers={**bearer(seat_token(created, seat)), "Idempotency-Key": key},
            )
        except httpx.TransportError:
            return None


def logged_keys(client: redis.Redis, match_id: str) -> set[str]:
    entries = client.xrange(keys.log(match_id))
    return {json.loads(fields[b"b"])["command"]["idempotency_key"] for _, fields in entries} - {None}


async def test_sigterm_ends_streams_with_a_retry_hint_and_keeps_every_acknowledged_command(processes, tmp_path):
    server, url = start_redis(tmp_path)
    try:
        env = service_env(url, TAVERN_QUEUE="sigterm", TAVERN_STOP_S=str(STOP_S))
        base, gateway = serve_healthy(processes, env)
        processes(["worker"], env)
        async with httpx.AsyncClient(base_url=base, timeout=10) as api:
            matches = [await create(api, seats=3) for _ in range(MATCHES)]
            streams = [
                Frames(api, f"/v1/matches/{created['match_id']}/stream", seat_token(created, seat))
                for created in matches
                for seat in range(STREAMS_PER_MATCH)
            ]
            await asyncio.wait_for(asyncio.gather(*(stream.opened.wait() for stream in streams)), 10)
            sends = []
            for created in matches:
                for seat in range(3):
                    seen = await view(api, created, seat_token(created, seat))
                    for index, command in enumerate(seen["legal"][:3]):
                        key = f"{created['match_id']}-{seat}-{index}"
                        sends.append((created, key, asyncio.create_task(post(base, created, seat, command, key))))
            await asyncio.sleep(0.01)  # the first are being answered, most are in flight
            gateway.send_signal(signal.SIGTERM)
            began = time.monotonic()
            code = await asyncio.to_thread(gateway.wait, 30)
            took = time.monotonic() - began
            answers = [(created, key, await task) for created, key, task in sends]
            await asyncio.wait_for(asyncio.gather(*(stream.task for stream in streams), return_exceptions=True), 5)
        acknowledged = [(c, k) for c, k, answer in answers if answer is not None and answer.status_code == 200]
        print(
            f"SIGTERM with {len(streams)} streams open, {len(sends)} commands sent: exit {code} in {took:.2f} s, "
            f"answers {Counter(str(a and a.status_code) for _, _, a in answers)}"
        )
        assert code in (0, -signal.SIGTERM) and took < STOP_S  # uvicorn raises the signal again once stopped
        assert all(answer is None or answer.status_code in (200, 409, 422) for _, _, answer in answers)
        assert acknowledged, "no command was answered: nothing was in flight"
        client = redis.Redis.from_url(url)
        for created, key in acknowledged:
            assert key in logged_keys(client, created["match_id"])
        for stream in streams:
            assert stream.ended and stream.frames and stream.frames[-1][1] == {"retry": "1000"}
    finally:
        server.kill()
        server.wait(10)
