"""What one stale 409 costs the gateway (``Prefer: handling=strict``, issue 31): prints, asserts nothing.

    python tests/bench/bench_refusal.py --requests 3000

One redis-server and one gateway (no worker: nothing is projected), with ``--limits``: ``off``
as bench_service.py's --limits-off (the default); ``on``, the command rates on with bursts (the
token's and the address's) past the run's requests (every answer a 409, each paying the rate
check); ``shipped``, the shipped rates (the flood past a token's burst of 200 is answered 429
``rate_limited``).
One 4-seat Hero's Tavern match; seat 0 moves, then seats 1-3,
each on its kept connection, send their first command again and again with the version before
that move: every answer is a 409 ``stale_version`` carrying the seat's view (built from the fold
the gateway keeps, no Redis read). Per request: the gateway's and Redis's CPU (/proc), and this
client's own, whose ratio to the gateway's moves less with a shared machine's load than either
(printed with the load average), and the Redis calls per request (INFO commandstats, those its
scripts run included). In exact mode each accepted command brings about 1.5 of these
(3 + 2 + 1 refusals in a round of 4 simultaneous picks), so their cost is most of what that mode
spends above strict. Run it from two checkouts to compare them, in turns.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench.bench_service import (  # noqa: E402
    API_KEY,
    CREATES_OFF,
    RATES_OFF,
    Conn,
    cpu_seconds,
    free_port,
    redis_calls,
    wait_healthy,
)

STRICT = "Prefer: handling=strict\r\n"
SEATS = 4


async def drive(port: int, pids: dict[str, int], requests: int, redis_port: int) -> dict:
    await wait_healthy(port)
    control = await Conn(port).open()
    body = json.dumps({"game": "heros-tavern", "seats": SEATS, "bots": []}).encode()
    status, raw = await control.request("POST", "/v1/matches", body, extra=f"X-API-Key: {API_KEY}\r\n")
    assert status == 201, raw
    created = json.loads(raw)
    path = f"/v1/matches/{created['match_id']}/commands"
    tokens = [seat["token"] for seat in created["seats"]]
    conns = [await Conn(port).open() for _ in range(SEATS)]
    commands = []
    for seat in range(SEATS):  # each seat's first legal command, with the version it was chosen at
        status, raw = await conns[seat].request("GET", f"/v1/matches/{created['match_id']}/view", token=tokens[seat])
        view = json.loads(raw)
        commands.append(b'%s,"expected_version":%d}' % (json.dumps(view["legal"][0]).encode()[:-1], view["version"]))
    status, raw = await conns[0].request("POST", path, commands[0], tokens[0], STRICT)
    assert status == 200, raw

    answered: dict[int, int] = {}

    async def refused(seat: int, count: int) -> None:
        for _ in range(count):
            status, raw = await conns[seat].request("POST", path, commands[seat], tokens[seat], STRICT)
            assert (status == 409 and b'"view"' in raw) or (status == 429 and b"rate_limited" in raw), raw[:200]
            answered[status] = answered.get(status, 0) + 1

    others = range(1, SEATS)
    await asyncio.gather(*(refused(seat, 200) for seat in others))  # warm
    answered.clear()
    calls = await redis_calls(redis_port)
    before = {name: cpu_seconds(pid) for name, pid in pids.items()}
    client, began = time.process_time(), time.perf_counter()
    each = max(1, requests // len(others))
    await asyncio.gather(*(refused(seat, each) for seat in others))
    elapsed, sent = time.perf_counter() - began, each * len(others)
    used = {name: (cpu_seconds(pid) - before[name]) / sent * 1e6 for name, pid in pids.items()}
    client_us = (time.process_time() - client) / sent * 1e6
    calls = {name: count - calls.get(name, 0) for name, count in (await redis_calls(redis_port)).items()}
    calls["info"] = calls.get("info", 0) - 1  # the second INFO itself
    for conn in [control, *conns]:
        conn.close()
    return {
        "root": str(ROOT),
        "refusals": sent,
        "answered": {str(status): count for status, count in sorted(answered.items())},
        "per_s": round(sent / elapsed),
        "gateway_us_per_409": round(used["gateway"], 1),
        "redis_us_per_409": round(used["redis"], 1),
        "client_us_per_409": round(client_us, 1),
        "gateway_over_client": round(used["gateway"] / client_us, 2),
        "redis_calls_per_request": {name: round(count / sent, 3) for name, count in sorted(calls.items()) if count},
        "load": os.getloadavg()[0],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--limits", choices=("off", "on", "shipped"), default="off")
    options = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="tavern-refusal-"))
    redis_port, port = free_port(), free_port()
    binary = shutil.which("redis-server") or sys.exit("redis-server is missing")
    redis = subprocess.Popen([binary, "--port", str(redis_port), "--save", "", "--appendonly", "no", "--dir",
                              str(workdir)], stdout=subprocess.DEVNULL)  # fmt: skip
    time.sleep(0.3)
    # on: the token's burst and the address's past the run (all the seats' requests come from one
    # address: at the shipped 2,000 a third of a 3,000-request run was answered 429)
    burst = str(10 * options.requests)
    rates = {"off": RATES_OFF, "on": {"TAVERN_COMMANDS_BURST_TOKEN": burst, "TAVERN_COMMANDS_BURST_ADDRESS": burst},
             "shipped": {}}
    env = dict(os.environ, REDIS_URL=f"redis://127.0.0.1:{redis_port}/0", TAVERN_BENCH="1", LOG_LEVEL="warning",
               PYTHONPATH=str(ROOT), TAVERN_API_KEYS=API_KEY, TAVERN_CREATE_IDENTITY="player", **CREATES_OFF,
               **rates[options.limits])  # fmt: skip
    with open(workdir / "service.log", "wb") as log:
        gateway = subprocess.Popen([sys.executable, "-m", "services.cli", "serve", "--port", str(port)], cwd=ROOT,
                                   env=env, stdout=log, stderr=log)  # fmt: skip
        try:
            pids = {"gateway": gateway.pid, "redis": redis.pid}
            print(json.dumps(asyncio.run(drive(port, pids, options.requests, redis_port))))
        finally:
            for process in (gateway, redis):
                process.terminate()
                process.wait(10)


if __name__ == "__main__":
    main()
