"""The queue's Redis made highly available for tests: a primary, a replica and 3 redis-sentinels on
free ports (down-after 1 s), each step bounded in time, every process killed by ``stop``."""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

import pytest
import redis

from tests.service.conftest import free_port, start_redis

MASTER = "tavern"


class Sentinels:
    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.processes: list[subprocess.Popen] = []
        self.ports: list[int] = []

    def start(self) -> Sentinels:
        for name in ("primary", "replica"):
            (self.directory / name).mkdir()
        primary, url = start_redis(self.directory / "primary")
        self.primary_port = redis.Redis.from_url(url).connection_pool.connection_kwargs["port"]
        replica, _ = start_redis(self.directory / "replica", "--replicaof", "127.0.0.1", str(self.primary_port))
        self.processes += [primary, replica]
        self.redis = {self.primary_port: primary}
        binary = shutil.which("redis-sentinel") or pytest.fail("redis-sentinel is missing (.ci/run installs it)")
        for index in range(3):
            port = free_port()
            config = self.directory / f"sentinel-{index}.conf"
            config.write_text(
                f"port {port}\nbind 127.0.0.1\ndir {self.directory}\n"
                f"sentinel monitor {MASTER} 127.0.0.1 {self.primary_port} 2\n"
                f"sentinel down-after-milliseconds {MASTER} 1000\n"
                f"sentinel failover-timeout {MASTER} 5000\n"
            )
            self.processes.append(subprocess.Popen([binary, str(config)], stdout=subprocess.DEVNULL))
            self.ports.append(port)
        self.wait(lambda: all(map(self._sees_replica, self.ports)), "the sentinels did not find the replica")
        return self

    @property
    def env(self) -> dict[str, str]:
        return {"QUEUE_SENTINELS": ",".join(f"127.0.0.1:{port}" for port in self.ports), "QUEUE_MASTER": MASTER}

    def master(self) -> int | None:
        for port in self.ports:
            try:
                found = redis.Redis(port=port, socket_timeout=1).sentinel_get_master_addr_by_name(MASTER)
                return int(found[1]) if found else None
            except redis.RedisError:
                continue
        return None

    def _sees_replica(self, port: int) -> bool:
        try:
            return bool(redis.Redis(port=port, socket_timeout=1).sentinel_slaves(MASTER))
        except redis.RedisError:
            return False

    def kill_master(self) -> int:
        self.processes[0].kill()
        self.processes[0].wait(10)
        return self.primary_port

    def wait(self, done, message: str, timeout_s: float = 30.0) -> float:
        started = time.monotonic()
        while time.monotonic() - started < timeout_s:
            if done():
                return time.monotonic() - started
            time.sleep(0.05)
        pytest.fail(message)

    def stop(self) -> None:
        for process in self.processes:
            process.kill()
        for process in self.processes:
            process.wait(10)
