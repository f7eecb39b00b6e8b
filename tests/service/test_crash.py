"""A `tavern worker` killed with SIGKILL in the middle of projecting loses nothing: once another
worker has taken over, every stored view is the projection of the fold of the whole log; with
several queue instances too, whichever instance the dead worker's claims were on."""

from __future__ import annotations

import asyncio
import signal
import time

import httpx
import msgspec
import pytest
import redis

from domain.games import get_game
from domain.kernel import fold
from projections.views import envelope
from services.store import keys
from services.store.projector_queue import instance_of
from tests.service.client import bearer, create, seat_token, view
from tests.service.conftest import free_port, serve_healthy, service_env, start_redis, wait_healthy

pytestmark = pytest.mark.anyio
MATCHES = 12


def kill_mid_projection(start_worker, client: redis.Redis, attempts: int = 20) -> None:
    """Start a worker and SIGKILL it while it holds a claim on ``client``'s queue instance (so,
    mid-projection): a claim by a job other than those holding one before (a dead worker's)."""
    before = set(client.hkeys(keys.CLAIMS))
    for _ in range(attempts):
        worker = start_worker()
        deadline = time.monotonic() + 10
        while not set(client.hkeys(keys.CLAIMS)) - before and time.monotonic() < deadline:
            time.sleep(0.0005)
        worker.send_signal(signal.SIGKILL)
        worker.wait(10)
        if set(client.hkeys(keys.CLAIMS)) - before:  # the dead cannot release: the kill fell inside a claim
            return
    pytest.fail("never caught the worker holding a claim")


async def expected_views(api: httpx.AsyncClient, created: dict, seats: int) -> dict:
    game = get_game("heros-tavern")
    url = f"/v1/matches/{created['match_id']}/events"
    log = (await api.get(url, headers=bearer(created["spectator_token"]))).json()
    events = [msgspec.convert(envelope_["event"], game.event_type) for envelope_ in log]
    state = fold(game, game.setup(seats), events)
    holders = [*range(seats), None]
    return {
        h: msgspec.json.decode(msgspec.json.encode(envelope(game, created["match_id"], state, len(log), h)))
        for h in holders
    }


async def test_views_converge_after_a_worker_is_killed_mid_projection(processes, redis_url):
    client = redis.Redis.from_url(redis_url)
    client.flushall()
    env = service_env(redis_url, TAVERN_QUEUE="crash")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    wait_healthy(base, processes(["serve", "--port", str(port)], env))
    async with httpx.AsyncClient(base_url=base, timeout=30) as api:
        matches = [await create(api, seats=3, bots=[0, 1, 2]) for _ in range(MATCHES)]
        await asyncio.to_thread(kill_mid_projection, lambda: processes(["worker"], env), client)
        processes(["worker"], env)
        processes(["worker"], env)
        await converged(api, matches)
    settled(client)


async def converged(api: httpx.AsyncClient, matches: list[dict]) -> None:
    """Every match (of 3 bots) played to its end, and every view the fold of its whole log."""
    deadline = time.monotonic() + 120
    for created in matches:
        while (await view(api, created, created["spectator_token"]))["status"] != "finished":
            assert time.monotonic() < deadline, "a match stopped progressing after the crash"
            await asyncio.sleep(0.1)
    for created in matches:
        expected = await expected_views(api, created, 3)
        tokens = {seat: seat_token(created, seat) for seat in range(3)} | {None: created["spectator_token"]}
        for holder, token in tokens.items():
            seen = await view(api, created, token)
            # who sits where (tests/service/online) is no fold of the log's events alone
            assert [(p["seat"], p["bot"]) for p in seen.pop("players")] == [(0, True), (1, True), (2, True)]
            assert seen == {key: value for key, value in expected[holder].items() if key != "players"}


def settled(*clients: redis.Redis) -> None:
    """Nothing left dirty, and no claim held, on each queue instance."""
    assert [client.zcard(keys.DIRTY) for client in clients] == [0] * len(clients)
    # a job waiting for work lets go of its last step's claims at its next claim, within a third
    # of a lease (1 s here: service_env)
    time.sleep(1.0)
    assert [client.hlen(keys.CLAIMS) for client in clients] == [0] * len(clients)


async def test_a_dead_workers_matches_are_taken_over_on_each_queue_instance(processes, tmp_path):
    """Two queue instances: a worker SIGKILLed while it holds a claim on the first, another while
    it holds one on the second; a worker started after takes both over (their leases lapse)."""
    for n in range(3):
        (tmp_path / f"redis-{n}").mkdir()
    servers = [start_redis(tmp_path / f"redis-{n}") for n in range(3)]
    try:
        (_, events), queues = servers[0], [redis.Redis.from_url(url) for _, url in servers[1:]]
        env = service_env(events, TAVERN_QUEUE="crash", QUEUE_URL=",".join(url for _, url in servers[1:]))
        base, _ = serve_healthy(processes, env)
        async with httpx.AsyncClient(base_url=base, timeout=30) as api:
            matches: list[dict] = []
            while min(sum(instance_of(m["match_id"], 2) == i for m in matches) for i in (0, 1)) < 2:
                matches.append(await create(api, seats=3, bots=[0, 1, 2]))  # 2 a queue instance at least
            for queue in queues:
                await asyncio.to_thread(kill_mid_projection, lambda: processes(["worker"], env), queue)
            processes(["worker"], env)
            await converged(api, matches)
        settled(*queues)
    finally:
        for server, _ in servers:
            server.kill()
            server.wait(10)
