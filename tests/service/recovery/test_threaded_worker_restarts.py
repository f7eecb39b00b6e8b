"""A worker in a thread (the embedded default's, and `tavern worker`'s queue instances beyond the
first) that meets Redis away as it starts is made again after a back-off, and serves its queue once
Redis is there (services/store/rq_workers.py, Serving). The embedded one's thread used to die on
that error (RQ raises it outside its own retry loop), leaving the queue unserved for the process's
life; CI saw it as an unhandled thread exception."""

from __future__ import annotations

import os
import time

import redis
from rq import Queue

from services.store.rq_workers import start_delivery_worker
from tests.service.conftest import free_port
from tests.service.recovery.test_redis_restart import redis_on


def test_a_threaded_worker_that_met_redis_away_serves_its_queue_once_redis_is_back(tmp_path):
    port = free_port()
    rq = Queue("restarts", connection=redis.Redis(port=port))
    serving = start_delivery_worker(rq)
    server = None
    try:
        time.sleep(1.5)  # it met Redis away, once at least
        assert serving.thread.is_alive()
        server = redis_on(port, tmp_path)
        job = rq.enqueue("os.getpid")
        deadline = time.monotonic() + 30
        while job.get_status(refresh=True) != "finished":
            assert time.monotonic() < deadline, f"the job was never served: {job.get_status()}"
            time.sleep(0.1)
        assert job.return_value() == os.getpid()  # run by the thread, in this process
    finally:
        serving.stop()
        serving.thread.join(10)
        if server is not None:
            server.kill()
            server.wait(10)
    assert not serving.thread.is_alive()
