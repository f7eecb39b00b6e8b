"""A Redis stalled or gone: the gateway answers 503 with Retry-After and the JSON error body
within its reply timeout, never a 500 or a hang; /readyz says so and /livez does not; once Redis
is back everything works again by itself, and every match's views catch up to its log."""

from __future__ import annotations

import asyncio
import json
import signal
import time

import httpx
import pytest
import redis
import websockets

from services.store import keys
from tests.service.client import bearer, create, seat_token, send, view
from tests.service.conftest import serve_healthy, service_env, start_redis
from tests.service.gateway.test_ws import ws_url

pytestmark = pytest.mark.anyio
AOF = ("--appendonly", "yes")
TIMEOUT_S = 1  # TAVERN_REDIS_TIMEOUT_S


def port_of(url: str) -> int:
    return redis.Redis.from_url(url).connection_pool.connection_kwargs["port"]


async def first_legal(api: httpx.AsyncClient, created: dict) -> tuple[int, dict]:
    for seat in range(3):
        legal = (await view(api, created, seat_token(created, seat)))["legal"]
        if legal:
            return seat, legal[0]
    raise AssertionError("no seat may act")


def assert_unavailable(answer: httpx.Response) -> None:
    assert answer.status_code == 503, answer.text
    assert answer.headers["retry-after"] == "1"
    assert answer.json()["error"]["code"] == "unavailable"


async def until_ready(api: httpx.AsyncClient, within_s: float = 20) -> float:
    began = time.monotonic()
    while (await api.get("/readyz")).status_code != 200:
        assert time.monotonic() - began < within_s, (await api.get("/readyz")).text
        await asyncio.sleep(0.1)
    return time.monotonic() - began


async def caught_up(client: redis.Redis, matches: list[dict], within_s: float = 20) -> float:
    """Seconds until every match's stored views show its whole log."""
    began = time.monotonic()
    for created in matches:
        match_id = created["match_id"]
        while int(client.hget(keys.views(match_id), "v") or -1) != client.xlen(keys.log(match_id)):
            assert time.monotonic() - began < within_s, f"the views of {match_id} never caught up"
            await asyncio.sleep(0.05)
    return time.monotonic() - began


async def test_a_stalled_then_lost_redis_is_503_and_recovers(processes, tmp_path):
    server, url = start_redis(tmp_path, *AOF)
    try:
        env = service_env(url, TAVERN_QUEUE="outage", TAVERN_REDIS_TIMEOUT_S=str(TIMEOUT_S))
        base, _ = serve_healthy(processes, env)
        processes(["worker"], env)
        async with httpx.AsyncClient(base_url=base, timeout=30) as api:
            created = await create(api, seats=3)
            await caught_up(redis.Redis.from_url(url), [created])  # the worker is up before Redis stalls
            seat, command = await first_legal(api, created)
            path = f"/v1/matches/{created['match_id']}"

            socket = await websockets.connect(ws_url(api, created, access_token=seat_token(created, seat)))
            assert json.loads(await socket.recv())["kind"] == "view"

            server.send_signal(signal.SIGSTOP)  # stalled: connections open, no replies
            began = time.monotonic()
            assert_unavailable(await send(api, created, seat, command, idempotency_key="stalled"))
            stalled_s = time.monotonic() - began
            # a command on the WebSocket: the answer POST gives, on the socket still open
            await socket.send(json.dumps({"id": "w", "command": command, "idempotency_key": "stalled-ws"}))
            while (answer := json.loads(await asyncio.wait_for(socket.recv(), 10)))["kind"] != "answer":
                pass
            assert (answer["id"], answer["status"], answer["body"]["error"]["code"]) == ("w", 503, "unavailable")
            await socket.close()
            assert_unavailable(await api.get(f"{path}/view", headers=bearer(created["spectator_token"])))
            assert_unavailable(await api.get(f"{path}/stream", headers=bearer(created["spectator_token"])))
            ready = await api.get("/readyz")
            assert ready.status_code == 503 and ready.json()["redis"].startswith("unreachable")
            assert (await api.get("/healthz")).json() == {"status": "unavailable"}
            assert (await api.get("/livez")).status_code == 200
            server.send_signal(signal.SIGCONT)
            resumed_s = await until_ready(api)

            server.kill()  # gone: connections refused
            server.wait(10)
            assert_unavailable(await send(api, created, seat, command, idempotency_key="gone"))
            assert_unavailable(await api.post("/v1/matches", json={"game": "heros-tavern", "seats": 3}))
            server, _ = start_redis(tmp_path, *AOF, port=port_of(url))
            back_s = await until_ready(api)
            answer = await send(api, created, seat, command, idempotency_key="gone")
            assert answer.status_code in (200, 422), answer.text  # 422: the stalled one was taken after all
            caught_s = await caught_up(redis.Redis.from_url(url), [created])
        print(
            f"stalled Redis: 503 in {stalled_s:.2f} s; ready {resumed_s:.2f} s after it resumed; "
            f"restarted: ready in {back_s:.2f} s, views caught up {caught_s:.2f} s later"
        )
        assert stalled_s < TIMEOUT_S + 1
    finally:
        server.send_signal(signal.SIGCONT)
        server.kill()
        server.wait(10)


async def test_the_queues_redis_down_and_back(processes, tmp_path):
    """Commands are stored and answered (never 500, never 503), with the shipped limits on, while the
    queue's Redis is away, and the gateway stays ready; their matches are marked dirty once it is
    back, and their views catch up."""
    (tmp_path / "events").mkdir()
    (tmp_path / "queue").mkdir()
    events, events_url = start_redis(tmp_path / "events")
    queue, queue_url = start_redis(tmp_path / "queue", *AOF)
    try:
        env = service_env(events_url, QUEUE_URL=queue_url, TAVERN_REDIS_TIMEOUT_S="1", TAVERN_QUEUE="apart")
        base, _ = serve_healthy(processes, env)
        processes(["worker"], env)
        client = redis.Redis.from_url(events_url)
        async with httpx.AsyncClient(base_url=base, timeout=30) as api:
            matches = [await create(api, seats=3) for _ in range(4)]
            await caught_up(client, matches)
            queue.kill()
            queue.wait(10)
            for created in matches:
                seat, command = await first_legal(api, created)
                answer = await send(api, created, seat, command)
                assert answer.status_code == 200, answer.text
            ready = await api.get("/readyz")
            assert ready.status_code == 200 and ready.json()["queue"].startswith("unreachable")
            assert ready.json()["redis"] == "ok"
            queue, _ = start_redis(tmp_path / "queue", *AOF, port=port_of(queue_url))
            caught_s = await caught_up(client, matches)
            assert (await api.get("/readyz")).json()["queue"] == "ok"
        print(f"queue's Redis back: views caught up in {caught_s:.2f} s")
    finally:
        for server in (events, queue):
            server.kill()
            server.wait(10)
