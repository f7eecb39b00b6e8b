"""A chat flood from one seat beside that seat's own moves (docs/chat.md): one `tavern serve` (its
embedded Redis and worker, or --redis URL), the shipped limits but the creates' (many matches). A
seat plays against a bot, each move taken from its view's ``legal``; first alone, then while
``--flooders`` tasks of another process post chat messages as the same seat as fast as they can.
Prints the moves' latency (median, p95, max: the POST /commands alone), whether every move was
accepted, and the flood's answers by status.

    python tests/bench/bench_chat_flood.py --moves 60 --flooders 8
    python tests/bench/bench_chat_flood.py --moves 60 --flooders 8 --yardstick   # GET /healthz instead
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import queue
import statistics
import subprocess
import sys
import time
from multiprocessing.queues import Queue
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.service.conftest import NO_CREATE_LIMITS, free_port, service_env, spawn, wait_healthy  # noqa: E402


async def moves(api: httpx.AsyncClient, count: int, flooding: Queue | None) -> tuple[list[float], int]:
    """``count`` moves of seat 0 against a bot, new matches as they end: the POSTs' seconds, and refusals."""
    latencies, refused = [], 0
    while len(latencies) < count:
        created = (await api.post("/v1/matches", json={"game": "mercenaries", "seats": 2, "bots": [1]})).json()
        match_id, token = created["match_id"], created["seats"][0]["token"]
        if flooding is not None:
            flooding.put((match_id, token))  # the flood follows the match being played
        headers = {"authorization": f"Bearer {token}"}
        while len(latencies) < count:
            view = (await api.get(f"/v1/matches/{match_id}/view", headers=headers)).json()
            if view["status"] == "finished":
                break
            if not view["legal"]:
                await asyncio.sleep(0.005)
                continue
            command = {**view["legal"][0], "expected_version": view["version"]}
            started = time.perf_counter()
            answer = await api.post(f"/v1/matches/{match_id}/commands", json=command, headers=headers)
            latencies.append(time.perf_counter() - started)
            if answer.status_code != 200:
                refused += 1
            version = answer.json().get("version", view["version"])
            while (await api.get(f"/v1/matches/{match_id}/view", headers=headers)).json()["version"] < version:
                await asyncio.sleep(0.002)
    return latencies, refused


def flood(base: str, flooders: int, targets: Queue, counts: Queue, yardstick: bool) -> None:
    """In a process of its own (its CPU is not the mover's): ``flooders`` tasks posting chat as the
    seat being played (the yardstick: GET /healthz, the cheapest request), until told None; then
    the answers' count by status."""

    async def run() -> None:
        target: list[tuple[str, str] | None] = [targets.get()]
        counted: dict[int, int] = {}
        async with httpx.AsyncClient(base_url=base, timeout=30) as api:

            async def one() -> None:
                while target[0] is not None:
                    match_id, token = target[0]
                    if yardstick:
                        answer = await api.get("/healthz")
                    else:
                        answer = await api.post(f"/v1/matches/{match_id}/chat", json={"text": "spam " * 20},
                                                headers={"authorization": f"Bearer {token}"})
                    counted[answer.status_code] = counted.get(answer.status_code, 0) + 1

            async def follow() -> None:
                while target[0] is not None:
                    with contextlib.suppress(queue.Empty):
                        target[0] = targets.get_nowait()
                    await asyncio.sleep(0.01)

            await asyncio.gather(follow(), *(one() for _ in range(flooders)))
        counts.put(counted)

    asyncio.run(run())


def figures(name: str, latencies: list[float], refused: int) -> None:
    ms = sorted(1000 * s for s in latencies)
    p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
    print(f"{name:<16} moves {len(ms):>4}  refused {refused}  median {statistics.median(ms):6.2f} ms  "
          f"p95 {p95:6.2f} ms  max {ms[-1]:6.2f} ms")


async def main(args: argparse.Namespace) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    gateway = spawn(["serve", "--port", str(port)], service_env(args.redis, **NO_CREATE_LIMITS), subprocess.DEVNULL)
    try:
        wait_healthy(base, gateway)
        async with httpx.AsyncClient(base_url=base, timeout=30) as api:
            await measured(api, base, args)
    finally:
        gateway.terminate()
        gateway.wait(10)


async def measured(api: httpx.AsyncClient, base: str, args: argparse.Namespace) -> None:
    figures("alone", *await moves(api, args.moves, None))
    targets: Queue = multiprocessing.Queue()
    counts: Queue = multiprocessing.Queue()
    flooder = multiprocessing.Process(target=flood, args=(base, args.flooders, targets, counts, args.yardstick))
    flooder.start()
    started = time.perf_counter()
    played = await moves(api, args.moves, targets)
    targets.put(None)
    counted = counts.get(timeout=60)
    flooder.join(10)
    figures("with a flood", *played)
    seconds = time.perf_counter() - started
    posts = sum(counted.values())
    print(f"the flood: {posts} requests in {seconds:.1f} s, by status {dict(sorted(counted.items()))}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--flooders", type=int, default=8)
    parser.add_argument("--yardstick", action="store_true", help="flood GET /healthz instead: any request's cost")
    parser.add_argument("--redis", default=None, help="a Redis URL (default: the embedded one)")
    asyncio.run(main(parser.parse_args()))
