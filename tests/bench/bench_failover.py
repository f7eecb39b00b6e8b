"""Failover on a Redis Cluster, measured (printed, not asserted): a gateway and a worker on a local
6-node cluster (tests/service/redis_cluster.py, cluster-node-timeout 1 s), matches played by clients
that retry each 503 after 0.1 s; a primary SIGKILLed, ``--kills`` times. Per kill: the seconds from
the kill to the first command accepted on a match of the killed primary's slots, the 503s answered
meanwhile, and the acknowledged commands then missing from the logs (WAIT off: replication is
asynchronous). The killed node is restarted once its replica serves, as a supervisor would.

    python -m tests.bench.bench_failover --kills 10 --wait 1
    python -m tests.bench.bench_failover --kills 10 --wait 0
    python -m tests.bench.bench_failover --kills 10 --wait 1 --sync-delay 0
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

import httpx

from services.store import keys
from services.store.cluster import ClusterWire
from services.store.event_store import records_of
from tests.service.client import bearer, seat_token
from tests.service.conftest import free_port, service_env, spawn, start_redis, wait_healthy
from tests.service.durable_play import GAMES
from tests.service.redis_cluster import Cluster


class Round:
    def __init__(self) -> None:
        self.killed_at: float | None = None
        self.victim_matches: set[str] = set()
        self.first_accepted: float | None = None
        self.unavailable = 0
        self.acknowledged: list[tuple[str, int, str]] = []


async def player(api: httpx.AsyncClient, created: dict, run: Round, stop: asyncio.Event, seed: int) -> None:
    rng = random.Random(seed)
    match_id = created["match_id"]
    headers = bearer(seat_token(created, 0))
    while not stop.is_set():
        try:
            seen = await api.get(f"/v1/matches/{match_id}/view", headers=headers)
            if seen.status_code != 200:
                run.unavailable += run.killed_at is not None and seen.status_code == 503
                await asyncio.sleep(0.1)
                continue
            view = seen.json()
            if view["status"] == "finished":
                return
            if not view["legal"]:
                await asyncio.sleep(0.01)
                continue
            key, sent_at = uuid.uuid4().hex, time.monotonic()
            answer = await api.post(
                f"/v1/matches/{match_id}/commands",
                json=rng.choice(view["legal"]),
                headers={**headers, "Idempotency-Key": key},
            )
        except httpx.TransportError:
            await asyncio.sleep(0.1)
            continue
        if answer.status_code == 503:
            run.unavailable += run.killed_at is not None
            await asyncio.sleep(0.1)
        elif answer.status_code == 200:
            run.acknowledged.append((match_id, answer.json()["version"], key))
            killed = run.killed_at is not None and sent_at > run.killed_at  # sent after the kill
            if killed and run.first_accepted is None and match_id in run.victim_matches:
                run.first_accepted = time.monotonic()


async def lost(link: ClusterWire, run: Round) -> int:
    """Acknowledged commands whose entry (version, idempotency key) is not in their match's log."""
    missing = 0
    for match_id in {match for match, _, _ in run.acknowledged}:
        (entries,) = await link.exchange([["XRANGE", keys.log(match_id), "-", "+"]], reads=True)
        logged = {(r.envelope.version, r.envelope.command.idempotency_key) for r in records_of(entries)}
        missing += sum((v, k) not in logged for m, v, k in run.acknowledged if m == match_id)
    return missing


async def one_kill(base: str, cluster: Cluster, link: ClusterWire) -> tuple[float, int, int]:
    run, stop = Round(), asyncio.Event()
    async with httpx.AsyncClient(base_url=base, timeout=30) as api:
        created = []
        for game, seats in GAMES * 2:
            answer = await api.post("/v1/matches", json={"game": game, "seats": seats, "bots": list(range(1, seats))})
            created.append(answer.json())
        players = [asyncio.create_task(player(api, match, run, stop, i)) for i, match in enumerate(created)]
        while len(run.acknowledged) < 30:
            await asyncio.sleep(0.01)
        victim = cluster.primary_of(keys.log(created[0]["match_id"]))
        run.victim_matches = {m["match_id"] for m in created if cluster.primary_of(keys.log(m["match_id"])) == victim}
        run.killed_at = time.monotonic()
        cluster.kill(victim)
        await asyncio.to_thread(cluster.wait_promoted, victim, keys.log(created[0]["match_id"]))
        cluster.start_node(victim)  # it comes back as a replica of its successor (WAIT needs one)
        while run.first_accepted is None and time.monotonic() - run.killed_at < 60:
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.5)
        stop.set()
        await asyncio.gather(*players)
    await asyncio.to_thread(cluster.wait_healthy)
    took = (run.first_accepted or float("nan")) - run.killed_at
    return took, run.unavailable, await lost(link, run)


async def main(kills: int, wait: int, sync_delay_s: int | None) -> None:
    extra = () if sync_delay_s is None else ("--repl-diskless-sync-delay", str(sync_delay_s))
    with tempfile.TemporaryDirectory() as directory:
        cluster = Cluster(Path(directory), extra=extra).start()
        queue, queue_url = start_redis(directory)
        # each kill leaves its 8 matches unfinished: one address's quota of open matches (50) is full by the 7th
        env = service_env(cluster.url, QUEUE_URL=queue_url, TAVERN_WAIT_REPLICAS=str(wait), TAVERN_QUEUE="bench",
                          TAVERN_OPEN_MATCHES="0")
        port = free_port()
        log = open(Path(directory) / "services.log", "wb")  # noqa: SIM115 (closed below)
        started: list[subprocess.Popen] = [spawn(["serve", "--port", str(port)], env, log), spawn(["worker"], env, log)]
        link = ClusterWire.from_url(cluster.url, 5)
        try:
            wait_healthy(f"http://127.0.0.1:{port}", started[0])
            results = [await one_kill(f"http://127.0.0.1:{port}", cluster, link) for _ in range(kills)]
        finally:
            link.close()
            for process in started:
                process.kill()
                process.wait(10)
            log.close()
            queue.kill()
            cluster.stop()
    times = [took for took, _, _ in results]
    delay = "Redis's default (5 s)" if sync_delay_s is None else f"{sync_delay_s} s"
    print(f"WAIT replicas: {wait}; kills: {kills}; cluster-node-timeout: {cluster.node_timeout_ms} ms", end="; ")
    print(f"diskless sync delay: {delay}")
    print("kill -> first accepted command (s):", " ".join(f"{t:.2f}" for t in times))
    print(f"  median {statistics.median(times):.2f} s, max {max(times):.2f} s")
    print(
        "503s answered per failover:", [u for _, u, _ in results], "median", statistics.median(u for _, u, _ in results)
    )
    print(
        "acknowledged commands lost per kill:", [lost_ for _, _, lost_ in results], "total", sum(r[2] for r in results)
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kills", type=int, default=10)
    parser.add_argument("--wait", type=int, default=1, help="TAVERN_WAIT_REPLICAS (0: off)")
    parser.add_argument(
        "--sync-delay", type=int, help="the nodes' repl-diskless-sync-delay (s): a primary's wait for more replicas"
    )
    arguments = parser.parse_args()
    asyncio.run(main(arguments.kills, arguments.wait, arguments.sync_delay))
