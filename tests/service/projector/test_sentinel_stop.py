"""SIGTERM on `tavern worker`s whose queue is found through Sentinel (QUEUE_SENTINELS, as the kit
runs it), one waiting in RQ's blocking dequeue and the other running the drain job that always
runs (waiting for work on the wake-up): both stop cleanly, status 0, with no `stop_overdue` (one
in the dequeue used to read its late reply in RQ's teardown, run to the bound and exit 1; the
drain job lets go at once). A real redis-server and a real redis-sentinel, on free ports."""

from __future__ import annotations

import signal
import time

import redis

from services.store import keys
from tests.service.conftest import service_env, start_redis
from tests.service.sentinel import MASTER, start_sentinel


def test_a_worker_under_sentinel_stops_cleanly_on_sigterm(processes, tmp_path):
    server, url = start_redis(tmp_path)
    sentinel, port = start_sentinel(tmp_path, url)
    try:
        env = service_env(url, TAVERN_QUEUE="sentinel-stop", QUEUE_SENTINELS=f"127.0.0.1:{port}",
                          QUEUE_MASTER=MASTER, LOG_LEVEL="info")
        workers = [processes(["worker"], env), processes(["worker"], env)]
        client = redis.Redis.from_url(url)
        deadline = time.monotonic() + 30
        # both in RQ's loop (registered, so past the start: a SIGTERM before RQ's handlers would kill it)
        while client.scard("rq:workers:sentinel-stop") < 2:
            assert time.monotonic() < deadline, "the workers did not both start"
            time.sleep(0.05)
        # in RQ's blocking dequeue (BLMOVE; the projector's wake-up wait is a BLPOP): where a SIGTERM
        # used to leave the connection with a reply to come
        while not any(entry.get("cmd") in ("blmove", "brpoplpush") for entry in client.client_list()):
            assert time.monotonic() < deadline, "no worker waited for a job"
            time.sleep(0.05)
        while not client.zcard(keys.ACTIVE):  # the other runs the drain job
            assert time.monotonic() < deadline, "no drain job ran"
            time.sleep(0.05)
        for worker in workers:
            worker.send_signal(signal.SIGTERM)
        for n, worker in enumerate(workers):
            code = worker.wait(30)
            log = (tmp_path / f"{n}-worker.log").read_text()
            assert code == 0, log
            assert "stop_overdue" not in log and "worker_stopped" in log, log
    finally:
        for process in (sentinel, server):
            process.kill()
            process.wait(10)
