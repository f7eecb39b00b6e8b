"""Notifications' latency: how long after the join that starts a match its first ``turn`` webhook
reaches a local receiver (the append, the projection, the delivery's record, the RQ job, the signed
POST), on the embedded default (one process: the gateway, its worker threads, fakeredis). Prints
figures, asserts nothing.

    python tests/bench/bench_notify.py [--matches 50]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
import uuid
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from services.gateway.app import create_app
from services.ops.settings import Settings
from tests.service.receiver import Receiver


async def main(matches: int) -> None:
    # the receiver is on this machine: its loopback address allowed (by default only public ones are)
    settings = Settings(redis_url=None, queue_url=None, queue_name=f"bench-{uuid.uuid4().hex[:6]}",
                        notify_networks=("127.0.0.1/32",))
    app = create_app(settings, embedded_worker=True)
    receiver = Receiver()
    waits = []
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://tavern") as api:
            for n in range(matches):
                tokens = []
                for name in (f"A{n}", f"B{n}"):
                    made = (await api.post("/v1/players", json={"name": name})).json()
                    auth = {"authorization": f"Bearer {made['token']}"}
                    hook = {"url": f"{receiver.url}/{name}", "secret": "a-bench-secret-0123456789"}
                    await api.post(f"/v1/players/{made['player_id']}/webhooks", json=hook, headers=auth)
                    tokens.append(auth)
                created = (await api.post("/v1/matches", json={"game": "mercenaries", "seats": 2, "open": [1]},
                                          headers=tokens[0])).json()
                before = len(receiver.received)
                began = time.perf_counter()
                await api.post(f"/v1/matches/{created['match_id']}/join", json={}, headers=tokens[1])
                await receiver.wait(before + 1, timeout_s=30)
                waits.append(time.perf_counter() - began)
    receiver.close()
    waits.sort()
    p99 = waits[min(len(waits) - 1, int(len(waits) * 0.99))]
    print(f"{matches} matches: join -> first turn webhook received: p50 {statistics.median(waits) * 1000:.1f} ms, "
          f"p99 {p99 * 1000:.1f} ms, max {waits[-1] * 1000:.1f} ms")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=50)
    asyncio.run(main(parser.parse_args().matches))
