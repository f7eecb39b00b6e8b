"""A worker SIGKILLed while a seat's deadline is pending (and the gateway with it, since every
process sweeps): a worker started afterwards times the seat out, the deadline being kept in Redis,
not in any process's memory. Real processes on a real Redis; it waits out a short clock (20 s)."""

from __future__ import annotations

import json
import signal
import time

import httpx
import redis

from services.ops.settings import Settings
from services.store import keys
from services.store.partitions import Partitions
from tests.service.client import bearer, seat_token
from tests.service.conftest import serve_healthy, service_env, start_redis

# 20 s from the deal to the deadline: room for a slow projection on a loaded machine, and the wait
CLOCK = {"per_move_s": 5, "bank_s": 15}


def test_a_killed_worker_loses_no_deadline(tmp_path, processes):
    server, url = start_redis(tmp_path)
    client = redis.Redis.from_url(url)
    try:
        env = service_env(url)
        base, gateway = serve_healthy(processes, env)
        worker = processes(["worker"], env)
        body = {"game": "heros-tavern", "seats": 3, "bots": [1, 2], "clock": CLOCK}
        created = httpx.post(f"{base}/v1/matches", json=body, timeout=10).json()
        match_id = created["match_id"]
        deadline = time.monotonic() + 60
        clocks = Partitions(Settings(redis_url=url, queue_url=None).partitions).key(keys.CLOCKS, match_id)
        while (pending := client.zscore(clocks, match_id)) is None:  # seat 0 is due: its deadline kept
            assert time.monotonic() < deadline, "no deadline was ever kept"
            time.sleep(0.02)
        assert pending > time.time(), "the projection came after the deadline: nothing left to show"
        for process in (worker, gateway):
            process.send_signal(signal.SIGKILL)
            process.wait(10)
        versions = client.xlen(keys.log(match_id))
        processes(["worker"], env)  # knows nothing of the match but what Redis holds
        while not any(
            json.loads(fields[b"b"])["type"] == "SeatTimedOut" for _, fields in client.xrange(keys.log(match_id))
        ):
            assert time.monotonic() < deadline, "the seat was never timed out"
            time.sleep(0.1)
        entries = [json.loads(fields[b"b"]) for _, fields in client.xrange(keys.log(match_id))]
        (timed_out,) = [entry for entry in entries if entry["type"] == "SeatTimedOut"]
        assert timed_out["event"] == {"type": "SeatTimedOut", "seat": 0, "streak": 1}
        assert timed_out["version"] > versions and timed_out["time"] >= pending  # after the kill and the deadline
        fresh, _ = serve_healthy(processes, env)
        seen = httpx.get(f"{fresh}/v1/matches/{match_id}/view", headers=bearer(seat_token(created, 0))).json()
        assert seen["version"] >= timed_out["version"]
    finally:
        client.close()
        server.terminate()
        server.wait(10)
