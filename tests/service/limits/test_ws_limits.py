"""The WebSocket's commands held to the commands' limits, under `tavern serve` on a real Redis: the
per-token rate (shared with POST /commands), the Idempotency-Key's form, the JSON depth, and the body
cap (a longer message closes the socket: 1009)."""

from __future__ import annotations

import json

import httpx
import pytest
import redis
import websockets

from tests.service.conftest import serve_healthy, service_env

pytestmark = pytest.mark.anyio


async def test_a_sockets_commands_are_held_to_the_commands_limits(redis_url, processes):
    redis.Redis.from_url(redis_url).flushall()
    env = service_env(redis_url, TAVERN_QUEUE="ws-limits", TAVERN_COMMANDS_PER_S_TOKEN="0.1",
                      TAVERN_COMMANDS_BURST_TOKEN="3", TAVERN_COMMAND_BODY_BYTES="512")
    base, _ = serve_healthy(processes, env)

    created = httpx.post(f"{base}/v1/matches", json={"game": "heros-tavern", "seats": 3, "bots": [1, 2]}).json()
    token = created["seats"][0]["token"]
    url = f"{base.replace('http://', 'ws://')}/v1/matches/{created['match_id']}/ws?access_token={token}"
    # one of the burst through POST: the bucket is the token's, whichever way its commands come
    httpx.post(f"{base}/v1/matches/{created['match_id']}/commands", json={"type": "Nothing"},
               headers={"authorization": f"Bearer {token}"})

    async with websockets.connect(url) as socket:

        async def answer(message: dict | str) -> dict:
            await socket.send(message if isinstance(message, str) else json.dumps(message))
            while (heard := json.loads(await socket.recv()))["kind"] != "answer":
                pass
            return heard

        deep = {"type": "Pick", "card": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["x"]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}
        first = await answer({"id": 1, "command": deep})
        assert (first["status"], first["body"]["error"]["code"]) == (400, "bad_command"), first
        second = await answer({"id": 2, "command": {"type": "Nothing"}, "idempotency_key": "bad key\n"})
        assert (second["status"], second["body"]["error"]["code"]) == (400, "bad_idempotency_key"), second
        third = await answer({"id": 3, "command": {"type": "Nothing"}})
        assert (third["status"], third["body"]["error"]["code"]) == (429, "rate_limited"), third
        assert "retry after" in third["body"]["error"]["message"]

        await socket.send(json.dumps({"id": 4, "command": {"type": "Nothing", "pad": "x" * 2000}}))
        with pytest.raises(websockets.ConnectionClosed) as closed:
            while True:
                await socket.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
