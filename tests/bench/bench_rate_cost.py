"""What the rate check costs on the command path: gateway CPU microseconds and Redis commands per
command, with the per-token and per-address rate limits on (their defaults) and off, in one run.

One redis-server and three gateways, no worker (so a view is computed from the log when asked,
always current): gateway ON (the default limits), gateway OFF (the command rates at 0), and a
third that serves the views the driver reads and the creations. The driver plays Hero's Tavern
matches (three seats, no bots) by sending random elements of ``legal``; the commands go to ON and
to OFF in alternating phases, then to both at once (half the matches each, swapped each phase: the
machine's load falls on both alike). Per phase: the commanding gateway's CPU time (/proc), less what it
spends idle (its CPU while the other one is commanded: the sweeper, the subscription), and Redis's
``INFO commandstats`` (reset at the start; it also counts the views' reads, the same in both
phases, and the commands Lua scripts run). Then the rate check alone, in this process: the
gateway's own RateLimiter, and a shared bucket's take, called back to back on the same
Redis, their CPU time per call beside a PING's through the same client. Printed, never
asserted; the machine is shared, so the load average is printed too and the phases alternate.

    python tests/bench/bench_rate_cost.py --phases 6 --seconds 5 --matches 12
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import redis
import redis.asyncio as aioredis

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from services.gateway.rate_limit import RateLimiter  # noqa: E402
from services.ops.limits import Limits  # noqa: E402
from services.store.bucket import Bucket, digest  # noqa: E402
from services.store.rate_limits import RateLimits  # noqa: E402
from services.store.wire import Wire  # noqa: E402
from tests.bench.bench_service import cpu_seconds  # noqa: E402
from tests.service.conftest import free_port  # noqa: E402

OFF = {"TAVERN_COMMANDS_PER_S_TOKEN": "0", "TAVERN_COMMANDS_PER_S_ADDRESS": "0"}
UNLIMITED = {**OFF, "TAVERN_CREATES_PER_S": "0", "TAVERN_OPEN_MATCHES": "0"}


class Driver:
    def __init__(self, views: httpx.AsyncClient, seed: int) -> None:
        self.views = views
        self.rng = random.Random(seed)
        self.target: httpx.AsyncClient | None = None
        self.sent = 0

    async def play(self, stop: asyncio.Event) -> None:
        """Matches one after another, each seat's command sent to the current target."""
        while not stop.is_set():
            body = {"game": "heros-tavern", "seats": 3, "bots": []}
            created = (await self.views.post("/v1/matches", json=body)).json()
            url = f"/v1/matches/{created['match_id']}"
            tokens = [{"authorization": f"Bearer {seat['token']}"} for seat in created["seats"]]
            finished = False
            while not finished and not stop.is_set():
                for token in tokens:
                    seen = (await self.views.get(f"{url}/view", headers=token)).json()
                    if seen["status"] == "finished":
                        finished = True
                        break
                    if seen["legal"] and self.target is not None:
                        await self.target.post(f"{url}/commands", json=self.rng.choice(seen["legal"]), headers=token)
                        self.sent += 1


def start(args: list[str], env: dict[str, str]) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "services.cli", *args], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def wait_healthy(base: str) -> None:
    for _ in range(600):
        try:
            if httpx.get(f"{base}/healthz").status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.05)
    raise SystemExit(f"{base} did not become healthy")


def command_calls(client: redis.Redis) -> dict[str, int]:
    return command_calls_of(client.info("commandstats"))


def command_calls_of(info: dict) -> dict[str, int]:
    return {name.removeprefix("cmdstat_"): stats["calls"] for name, stats in info.items()}


async def run(options: argparse.Namespace, bases: dict[str, str], pids: dict[str, int], url: str) -> None:
    store = redis.Redis.from_url(url)
    clients = {name: httpx.AsyncClient(base_url=base, timeout=30) for name, base in bases.items()}
    drivers = [Driver(clients["views"], seed) for seed in range(options.matches)]
    stop = asyncio.Event()
    playing = [asyncio.create_task(driver.play(stop)) for driver in drivers]
    results: dict[str, list[tuple[float, float, dict[str, int]]]] = {"on": [], "off": []}
    idle = {"on": 0.0, "off": 0.0}  # CPU seconds a gateway spent while the other was commanded
    load = [os.getloadavg()[0]]
    try:
        for phase in range(options.phases + 1):
            name = "on" if phase % 2 else "off"
            for driver in drivers:
                driver.target = clients[name]
            await asyncio.sleep(0.5)  # the commands in flight to the other gateway land
            other = "off" if name == "on" else "on"
            store.config_resetstat()
            sent, cpu, resting = sum(d.sent for d in drivers), cpu_seconds(pids[name]), cpu_seconds(pids[other])
            await asyncio.sleep(options.seconds)
            calls = command_calls(store)
            commands = sum(d.sent for d in drivers) - sent
            if phase:  # the first phase warms the caches up
                results[name].append((commands, cpu_seconds(pids[name]) - cpu, calls))
                idle[other] += cpu_seconds(pids[other]) - resting
            load.append(os.getloadavg()[0])
        together = await side_by_side(options, drivers, clients, pids, load)
    finally:
        stop.set()
        for task in playing:
            task.cancel()
        await asyncio.gather(*playing, return_exceptions=True)
        for client in clients.values():
            await client.aclose()
    idle_per_s = {name: idle[name] / (options.seconds * len(results[name])) for name in idle}
    report(results, idle_per_s, load, options)
    cpu_us = {name: [cpu * 1e6 / commands for commands, cpu in runs] for name, runs in together.items()}
    print(f"side by side (half the matches on each gateway, swapped each phase; idle CPU not taken off): "
          f"gateway CPU per command off {' '.join(f'{v:.0f}' for v in cpu_us['off'])} us, "
          f"on {' '.join(f'{v:.0f}' for v in cpu_us['on'])} us; on / off, median of the phases' ratios: "
          f"{statistics.median(on / off for on, off in zip(cpu_us['on'], cpu_us['off'], strict=True)):.3f}")
    await check_alone(url, options.checks)


async def side_by_side(options: argparse.Namespace, drivers: list[Driver], clients: dict, pids: dict,
                       load: list[float]) -> dict[str, list[tuple[int, float]]]:
    """Both gateways commanded at once, each by half the matches, in the same window: the
    machine's load falls on both alike. (commands, CPU seconds) per gateway and phase."""
    together: dict[str, list[tuple[int, float]]] = {"on": [], "off": []}
    for phase in range(options.phases + 1):
        split = {n: "on" if (n + phase) % 2 else "off" for n in range(len(drivers))}
        for n, driver in enumerate(drivers):
            driver.target = clients[split[n]]
        await asyncio.sleep(0.5)
        sent = [driver.sent for driver in drivers]
        cpu = {name: cpu_seconds(pids[name]) for name in together}
        await asyncio.sleep(options.seconds)
        if phase:
            for name in together:
                commands = sum(d.sent - s for n, (d, s) in enumerate(zip(drivers, sent, strict=True))
                               if split[n] == name)
                together[name].append((commands, cpu_seconds(pids[name]) - cpu[name]))
        load.append(os.getloadavg()[0])
    return together


async def check_alone(url: str, checks: int) -> None:
    """The rate check by itself: the gateway's RateLimiter (its buckets in memory), and a token taken
    from a seat token's shared bucket on its own (as a command that reads its log first does; an
    append takes it inside its own call) through the link the gateway gives it (a Wire:
    services/store/wire.py) and through a redis-py client's pool, beside a bare PING."""
    client = aioredis.Redis.from_url(url, protocol=2)
    wire = Wire(url)
    limits = Limits(commands_per_s_token=1e9, commands_burst_token=10**9, commands_per_s_address=1e9,
                    commands_burst_address=10**9)
    limiter = RateLimiter(RateLimits(client, wire), limits)
    on_wire, on_pool = RateLimits(client, wire), RateLimits(client)
    bucket = Bucket("cmd:token", digest("Bearer t"), 1e9, 10**9, match_id="m1")

    async def in_memory() -> None:
        limiter.commands("10.0.0.1", "Bearer t", "m1")

    calls = {
        "PING (redis-py)": client.ping,
        "the gateway's rate check (in memory)": in_memory,
        "a shared bucket's take through a Wire (as the gateway)": lambda: on_wire.take([bucket]),
        "a shared bucket's take through redis-py's pool": lambda: on_pool.take([bucket]),
    }
    for name, call in calls.items():
        for _ in range(200):
            await call()  # warm
        await client.config_resetstat()
        began = time.process_time()
        for _ in range(checks):
            await call()
        took = (time.process_time() - began) * 1e6 / checks
        counted = sum(command_calls_of(await client.info("commandstats")).values()) - 1  # less the INFO
        print(f"{name}, {checks} back to back in one process: {took:.0f} us of CPU each, "
              f"{counted / checks:.2f} Redis commands each (those its script runs included)")
    wire.close()
    await client.aclose()


def report(results: dict, idle_per_s: dict, load: list[float], options: argparse.Namespace) -> None:
    print(f"load average (1 min) over the run: {min(load):.1f} to {max(load):.1f} on {os.cpu_count()} cores; "
          f"{options.matches} matches played at once, {options.phases} phases of {options.seconds:.0f} s")
    per: dict[str, dict[str, float]] = {}
    for name in ("off", "on"):
        runs = results[name]
        background = idle_per_s[name] * options.seconds
        cpu_us = [(cpu - background) * 1e6 / commands for commands, cpu, _ in runs if commands]
        redis_per = [sum(calls.values()) / commands for commands, _, calls in runs if commands]
        per[name] = {"cpu": statistics.median(cpu_us), "redis": statistics.median(redis_per)}
        commands = sum(commands for commands, _, _ in runs)
        print(f"rate limits {name:>3}: {commands} commands; idle CPU {idle_per_s[name] * 1000:.0f} ms/s; "
              f"gateway CPU per command, less idle, "
              f"{' '.join(f'{value:.0f}' for value in cpu_us)} us (median {per[name]['cpu']:.0f}); "
              f"Redis commands per command {' '.join(f'{value:.2f}' for value in redis_per)} "
              f"(median {per[name]['redis']:.2f})")
    kinds: dict[str, list[float]] = {}
    for name, sign in (("on", 1), ("off", -1)):
        for commands, _, calls in results[name]:
            for kind, count in calls.items():
                kinds.setdefault(kind, []).append(sign * count / commands / len(results[name]))
    differing = {kind: sum(values) for kind, values in kinds.items() if abs(sum(values)) >= 0.05}
    print(f"the rate check: {per['on']['cpu'] - per['off']['cpu']:+.0f} us of gateway CPU per command "
          f"({(per['on']['cpu'] / per['off']['cpu'] - 1) * 100:+.1f}%), "
          f"{per['on']['redis'] - per['off']['redis']:+.2f} Redis commands per command; by command (on - off): "
          + ", ".join(f"{kind} {value:+.2f}" for kind, value in sorted(differing.items())))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--phases", type=int, default=6, help="measured phases, alternating off and on")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--matches", type=int, default=12)
    parser.add_argument("--checks", type=int, default=5000, help="rate checks timed alone")
    options = parser.parse_args()
    workdir = tempfile.mkdtemp()
    redis_port = free_port()
    server = subprocess.Popen([shutil.which("redis-server"), "--port", str(redis_port), "--save", "", "--appendonly",
                               "no", "--dir", workdir], stdout=subprocess.DEVNULL)
    url = f"redis://127.0.0.1:{redis_port}/0"
    env = dict(os.environ, REDIS_URL=url, LOG_LEVEL="warning", PYTHONPATH=str(ROOT), TAVERN_OPEN_MATCHES="0")
    settings = {"on": env, "off": env | OFF, "views": env | UNLIMITED}
    processes, bases = {}, {}
    try:
        for name, variables in settings.items():
            port = free_port()
            processes[name] = start(["serve", "--port", str(port)], variables)
            bases[name] = f"http://127.0.0.1:{port}"
        for base in bases.values():
            wait_healthy(base)
        asyncio.run(run(options, bases, {name: process.pid for name, process in processes.items()}, url))
    finally:
        for process in [*processes.values(), server]:
            process.kill()
            process.wait(10)


if __name__ == "__main__":
    main()
