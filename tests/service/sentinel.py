"""A real redis-sentinel for tests, on a free port, watching one Redis as the queue's master."""

from __future__ import annotations

import shutil
import subprocess
import time

import pytest
import redis

from tests.service.conftest import free_port

MASTER = "tavern"


def start_sentinel(directory, master_url: str) -> tuple[subprocess.Popen, int]:
    binary = shutil.which("redis-sentinel")
    if binary is None:
        pytest.fail("redis-sentinel is missing: apt-get install redis-sentinel (make test does it)")
    port, master_port = free_port(), redis.Redis.from_url(master_url).connection_pool.connection_kwargs["port"]
    config = directory / "sentinel.conf"  # Sentinel rewrites its file: one of its own
    config.write_text(f"port {port}\nbind 127.0.0.1\nsentinel monitor {MASTER} 127.0.0.1 {master_port} 1\n")
    process = subprocess.Popen([binary, str(config)], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    sentinel = redis.Redis(port=port)
    deadline = time.monotonic() + 20
    while True:
        try:
            if sentinel.sentinel_get_master_addr_by_name(MASTER):
                return process, port
        except redis.ConnectionError:
            pass
        assert time.monotonic() < deadline, "the sentinel never named the master"
        time.sleep(0.05)
