"""A queue instance's Redis failing over under Sentinel, measured (printed, not asserted) on
deploy/local.sh's topology (tests/deploy/local_topology.py: 2 queue instances, down-after 1 s, the
kit's settings: the limits on as shipped), played through its nginx by bench_failover.py's
clients; the first instance's primary SIGKILLed ``--kills`` times (brought back by ``local.sh up``
each time, as a replica of its successor). Per kill: the seconds until the sentinels name a new
primary; the views' stall (the longest time a match's spectator view did not move, among the
pauses between its moves that overlap the time from the kill to the promotion: projection of
that instance's matches waits for it); the commands answered 503 meanwhile (commands need only
the cluster and the gateways' memory: none); and the acknowledged commands then missing from
the logs. Each round also counts, for 5 s before the kill, the calls each queue instance's
primary served per event appended to the matches' logs (the clients' commands and the bots', which
the workers send; INFO commandstats, the scripts' own calls included): their shares (8 matches:
a match's instance is a hash of its id, so the split itself varies from round to round).

    python -m tests.bench.bench_queue_failover --kills 3
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import statistics
import tempfile
import time
from pathlib import Path

import httpx
import redis

from services.store import keys
from services.store.cluster import ClusterWire
from tests.bench.bench_failover import Round, lost, player
from tests.deploy.local_topology import KEY, MASTER, Local, until
from tests.service.client import bearer
from tests.service.durable_play import GAMES

MASTERS = (MASTER, f"{MASTER}-2")  # local.sh's two queue instances


def queue_calls(local: Local) -> list[int]:
    """The calls each queue instance's primary has served (INFO commandstats, INFO itself left out)."""
    counts = []
    for name in MASTERS:
        host, port = redis.Redis(port=local.sentinels[0]).sentinel_get_master_addr_by_name(name)
        stats = redis.Redis(host=host, port=int(port)).info("commandstats")
        counts.append(sum(int(each["calls"]) for command, each in stats.items() if command != "cmdstat_info"))
    return counts


async def events(link: ClusterWire, created: list[dict]) -> int:
    """The events in the matches' logs."""
    return sum(await link.exchange([["XLEN", keys.log(match["match_id"])] for match in created]))


async def watch(api: httpx.AsyncClient, created: dict, moves: list[float], stop: asyncio.Event) -> None:
    """When the match's spectator view moved, polled every 20 ms."""
    url, headers, seen = f"/v1/matches/{created['match_id']}/view", bearer(created["spectator_token"]), -1
    while not stop.is_set():
        try:
            answer = await api.get(url, headers=headers)
        except httpx.TransportError:
            answer = None
        if answer is not None and answer.status_code == 200:
            view = answer.json()
            if view["version"] != seen:
                seen = view["version"]
                moves.append(time.monotonic())
            if view["status"] == "finished":
                return
        await asyncio.sleep(0.02)


def stall(moves: list[float], start: float, end: float) -> float:
    """The longest time the view did not move that overlaps [start, end] (0: it never moved there)."""
    gaps = [later - earlier for earlier, later in itertools.pairwise(moves) if later > start and earlier < end]
    return max(gaps, default=0.0)


async def one_kill(local: Local, link: ClusterWire) -> tuple[float, float, int, int, list[float]]:
    run, stop = Round(), asyncio.Event()
    # created as a trusted frontend would (local.sh runs the kit's settings: creation needs an identity)
    async with httpx.AsyncClient(base_url=local.nginx, timeout=30, headers={"X-API-Key": KEY}) as api:
        created = []
        for game, seats in GAMES * 2:
            answer = await api.post("/v1/matches", json={"game": game, "seats": seats, "bots": list(range(1, seats))})
            created.append(answer.json())
        moves: list[list[float]] = [[] for _ in created]
        tasks = [asyncio.create_task(player(api, match, run, stop, i)) for i, match in enumerate(created)]
        tasks += [asyncio.create_task(watch(api, match, moves[i], stop)) for i, match in enumerate(created)]
        while len(run.acknowledged) < 30:
            await asyncio.sleep(0.01)
        appended, before = await events(link, created), queue_calls(local)
        await asyncio.sleep(5)  # the instances' shares, before the kill
        spent = [after - was for after, was in zip(queue_calls(local), before, strict=True)]
        shares = [count / max(1, await events(link, created) - appended) for count in spent]
        dead = local.queue_master()
        run.killed_at = time.monotonic()
        local.kill(f"queue-{dead}")
        while local.queue_master() in (None, dead):
            await asyncio.sleep(0.02)
        promoted = time.monotonic() - run.killed_at
        await asyncio.sleep(3)
        stop.set()
        await asyncio.gather(*tasks)
    stalls = [stall(match_moves, run.killed_at, run.killed_at + promoted) for match_moves in moves]
    await asyncio.to_thread(local.up)  # the old primary back, as a replica (Sentinel turns it round)
    await asyncio.to_thread(until, local.queue_replicated, "the old queue primary did not come back as a replica")
    return promoted, max(stalls, default=float("nan")), run.unavailable, await lost(link, run), shares


async def main(kills: int) -> None:
    with tempfile.TemporaryDirectory() as directory:
        local = Local(Path(directory))
        local.up()
        link = ClusterWire.from_url("redis+cluster://" + ",".join(f"127.0.0.1:{p}" for p in local.nodes), 5)
        try:
            results = [await one_kill(local, link) for _ in range(kills)]
        finally:
            link.close()
            local.down()
    promoted = [result[0] for result in results]
    stalls = [result[1] for result in results]
    print(f"queue primary SIGKILLed {kills} times; sentinel down-after 1000 ms")
    print("kill -> sentinels name a new primary (s):", " ".join(f"{t:.2f}" for t in promoted))
    print(f"  median {statistics.median(promoted):.2f} s, max {max(promoted):.2f} s")
    print("views' longest stall from the kill to the promotion (s):", " ".join(f"{t:.2f}" for t in stalls))
    print(f"  median {statistics.median(stalls):.2f} s, max {max(stalls):.2f} s")
    print("503s answered per failover:", [result[2] for result in results])
    print("acknowledged commands lost per kill:", [result[3] for result in results])
    print("calls per event appended on each queue instance, 5 s before each kill:",
          [[round(share, 2) for share in result[4]] for result in results])


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kills", type=int, default=10)
    asyncio.run(main(parser.parse_args().kills))
