"""A create flood from one client against a gateway with the default limits on (docs/LIMITS.md):
the rates and the quota of open matches; prints what was accepted and refused per second (by
code), the gateway's memory and Redis's bytes before and after, and how a 200 MB body fares.

    python tests/bench/bench_flood.py --seconds 10 --concurrency 32
    python tests/bench/bench_flood.py --no-quota    # the rates alone
    python tests/bench/bench_flood.py --no-limits   # neither
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import redis

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.service.conftest import free_port  # noqa: E402


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def flood(base: str, seconds: float, concurrency: int) -> dict[tuple[int, str], int]:
    counts: dict[tuple[int, str], int] = {}
    deadline = time.monotonic() + seconds
    body = {"game": "mercenaries", "seats": 2}
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:

        async def one() -> None:
            while time.monotonic() < deadline:
                answer = await client.post("/v1/matches", json=body)
                code = answer.json()["error"]["code"] if answer.status_code >= 400 else ""
                counts[answer.status_code, code] = counts.get((answer.status_code, code), 0) + 1

        await asyncio.gather(*(one() for _ in range(concurrency)))
    return counts


async def huge_body(base: str, megabytes: int) -> tuple[int, float]:
    chunk = b"x" * (1 << 20)

    async def body():
        yield b'{"game": "mercenaries", "seats": 2, "options": {"pad": "'
        for _ in range(megabytes):
            yield chunk
        yield b'"}}'

    started = time.monotonic()
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        try:
            status = (await client.post("/v1/matches", content=body())).status_code
        except httpx.HTTPError:
            status = -1  # the server closed the connection before the body ended
    return status, time.monotonic() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--no-limits", action="store_true", help="rates and quota off: the flood without them")
    parser.add_argument("--no-quota", action="store_true", help="the quota of open matches off, the rates on")
    options = parser.parse_args()
    workdir = tempfile.mkdtemp()
    redis_port, port = free_port(), free_port()
    server = subprocess.Popen([shutil.which("redis-server"), "--port", str(redis_port), "--save", "", "--appendonly",
                               "no", "--dir", workdir], stdout=subprocess.DEVNULL)
    url = f"redis://127.0.0.1:{redis_port}/0"
    env = dict(os.environ, REDIS_URL=url, LOG_LEVEL="warning", PYTHONPATH=str(ROOT))
    if options.no_limits:
        env |= {"TAVERN_CREATES_PER_S": "0", "TAVERN_CREATE_BODY_BYTES": str(1 << 30)}
    if options.no_limits or options.no_quota:
        env |= {"TAVERN_OPEN_MATCHES": "0"}
    gateway = subprocess.Popen([sys.executable, "-m", "services.cli", "serve", "--port", str(port)], cwd=ROOT, env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                if httpx.get(f"{base}/healthz").status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.05)
        client = redis.Redis.from_url(url)
        before_redis, before_rss = client.info("memory"), rss_mb(gateway.pid)
        before_keys = client.dbsize()
        counts = asyncio.run(flood(base, options.seconds, options.concurrency))
        after_redis, after_rss = client.info("memory"), rss_mb(gateway.pid)
        after_keys = client.dbsize()
        huge_status, took = asyncio.run(huge_body(base, 200))
        huge_rss = rss_mb(gateway.pid)
        total = sum(counts.values())
        limits = "off" if options.no_limits else "rates on, quota off" if options.no_quota else "on (defaults)"
        print(f"load average {os.getloadavg()[0]:.1f}; limits {limits}; create flood, one client, "
              f"{options.concurrency} connections, {options.seconds:.0f} s: "
              f"{total / options.seconds:.0f} requests/s")
        for (status, code), count in sorted(counts.items()):
            print(f"  {status} {code}: {count} ({count / options.seconds:.1f}/s)")
        print(f"gateway RSS {before_rss:.1f} MB -> {after_rss:.1f} MB; Redis used_memory "
              f"{before_redis['used_memory'] / 1e6:.2f} MB -> {after_redis['used_memory'] / 1e6:.2f} MB, of it the "
              f"data set {before_redis['used_memory_dataset'] / 1e6:.2f} MB -> "
              f"{after_redis['used_memory_dataset'] / 1e6:.2f} MB (the rest: connections' buffers, overhead); "
              f"keys {before_keys} -> {after_keys}")
        print(f"a 200 MB create body: status {huge_status} after {took:.2f} s; gateway RSS then {huge_rss:.1f} MB")
    finally:
        gateway.kill()
        server.kill()
        gateway.wait(10)
        server.wait(10)


if __name__ == "__main__":
    main()
