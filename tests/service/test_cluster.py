"""The service on a real Redis Cluster (3 primaries, 3 replicas; the queue on a plain Redis): matches
of all four games across two gateways and a worker, every export passing ``tavern audit``; then a
primary SIGKILLed mid-play: every command is answered 200 (or a refusal of the rules) or 503, every
match finishes once a replica has taken over, and every 200 is in the exported log (WAIT on)."""

from __future__ import annotations

import asyncio
import subprocess
import sys

import httpx
import pytest

from services.store import keys
from tests.service.conftest import ROOT, free_port, service_env, wait_healthy
from tests.service.durable_play import Tally, audit, exported, lost, play
from tests.service.redis_cluster import Cluster

pytestmark = pytest.mark.anyio
GAMES = [("heros-tavern", 3), ("tavern-masters", 2), ("mercenaries", 2), ("taverna", 2)]


@pytest.fixture
def cluster(tmp_path):
    started = Cluster(tmp_path).start()
    yield started
    started.stop()


def serve(processes, env: dict[str, str], gateways: int = 2, workers: int = 1) -> list[str]:
    bases = []
    for _ in range(gateways):
        port = free_port()
        gateway = processes(["serve", "--port", str(port)], env)
        bases.append((f"http://127.0.0.1:{port}", gateway))
    for _ in range(workers):
        processes(["worker"], env)
    for base, gateway in bases:
        wait_healthy(base, gateway)
    return [base for base, _ in bases]


async def create_all(api: httpx.AsyncClient, tally: Tally, copies: int = 1) -> list[dict]:
    from tests.service.durable_play import call

    created = []
    for _ in range(copies):
        for game, seats in GAMES:
            body = {"game": game, "seats": seats, "bots": list(range(1, seats))}
            answer = await call(api, tally, "POST", "/v1/matches", json=body)
            assert answer.status_code == 201, answer.text
            created.append(answer.json())
    return created


async def play_all(bases: list[str], created: list[dict], tally: Tally) -> None:
    clients = [httpx.AsyncClient(base_url=base, timeout=30) for base in bases]
    try:
        # each match's human seat plays through one gateway, the matches alternating between them
        await asyncio.gather(
            *(play(clients[i % len(clients)], match, 0, seed=i, tally=tally) for i, match in enumerate(created))
        )
    finally:
        for client in clients:
            await client.aclose()


async def check_exports(base: str, created: list[dict], tally: Tally, directory) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=30) as api:
        for match in created:
            export = await exported(api, match, tally)
            assert lost(export, match["match_id"], tally) == [], "an acknowledged command is not in the log"
            path = directory / f"{match['match_id']}.jsonl"
            path.write_bytes(export)
            audit(path)


def test_cluster_mode_needs_a_queue_url():
    env = service_env("redis+cluster://127.0.0.1:1")  # refused before any connection
    command = [sys.executable, "-m", "services.cli", "worker"]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, timeout=60)
    assert done.returncode != 0 and b"QUEUE_URL" in done.stderr


async def test_matches_of_every_game_on_the_cluster_across_two_gateways(cluster, plain_url, processes, tmp_path):
    bases = serve(processes, service_env(cluster.url, QUEUE_URL=plain_url, TAVERN_QUEUE="cluster"))
    tally = Tally()
    async with httpx.AsyncClient(base_url=bases[0], timeout=30) as api:
        created = await create_all(api, tally, copies=2)
    slots = {cluster.primary_of(keys.log(match["match_id"])) for match in created}
    assert len(slots) > 1, "the matches should sit on more than one primary"
    await play_all(bases, created, tally)
    await check_exports(bases[1], created, tally, tmp_path)
    assert tally.unavailable == 0 and tally.acknowledged


async def test_a_primary_killed_mid_play_loses_nothing_acknowledged(cluster, plain_url, processes, tmp_path):
    bases = serve(processes, service_env(cluster.url, QUEUE_URL=plain_url, TAVERN_QUEUE="failover"))
    tally = Tally()
    async with httpx.AsyncClient(base_url=bases[0], timeout=30) as api:
        created = await create_all(api, tally, copies=2)
    victim = cluster.primary_of(keys.log(created[0]["match_id"]))
    playing = asyncio.create_task(play_all(bases, created, tally))
    while len(tally.acknowledged) < 20 and not playing.done():
        await asyncio.sleep(0.01)
    cluster.kill(victim)
    await asyncio.to_thread(cluster.wait_promoted, victim, keys.log(created[0]["match_id"]))
    # as a supervisor would: the killed node comes back, as a replica of its successor (WAIT's)
    cluster.start_node(victim)
    await asyncio.wait_for(playing, 90)
    await check_exports(bases[0], created, tally, tmp_path)
    assert tally.statuses <= {200, 201, 409, 422, 503} and tally.unavailable > 0


async def test_a_slot_resharded_mid_match_costs_only_retries(cluster, plain_url, processes, tmp_path):
    bases = serve(processes, service_env(cluster.url, QUEUE_URL=plain_url, TAVERN_QUEUE="reshard"))
    tally = Tally()
    async with httpx.AsyncClient(base_url=bases[0], timeout=30) as api:
        created = await create_all(api, tally)
    moved = keys.log(created[0]["match_id"])
    target = next(port for port in cluster.primaries() if port != cluster.primary_of(moved))
    playing = asyncio.create_task(play_all(bases, created, tally))
    while len(tally.acknowledged) < 10 and not playing.done():
        await asyncio.sleep(0.01)
    before = sum(match == created[0]["match_id"] for match, _, _ in tally.acknowledged)
    await asyncio.to_thread(cluster.move_slot, moved, target, 0.02)
    assert cluster.primary_of(moved) == target
    await asyncio.wait_for(playing, 90)
    assert sum(match == created[0]["match_id"] for match, _, _ in tally.acknowledged) > before  # played on
    await check_exports(bases[1], created, tally, tmp_path)
    assert tally.statuses <= {200, 201, 409, 422} and tally.unavailable == 0
