"""deploy/local.sh's topology for tests: brought up on free ports under a test's directory (a short
cluster-node-timeout and Sentinel down-after, 1 s, so a failover takes a second or two), its
processes found by the pid files local.sh keeps, and ``down`` checked to stop every one of them.
Its cluster is driven with tests/service/redis_cluster.py's Cluster (who serves a slot, a
promotion awaited, a slot moved), a node killed by its pid and restarted by ``up`` again, as an
operator's supervisor would."""

from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis

from tests.service.conftest import ROOT, service_env
from tests.service.redis_cluster import BUS_OFFSET, Cluster

SCRIPT = ROOT / "deploy" / "local.sh"
PORTS = 16  # nginx, 2 gateways, 6 cluster nodes, 2 queue Redis, 3 sentinels, 2 workers' metrics
SECOND_QUEUE = (40, 41)  # the second queue instance's primary and replica (TAVERN_LOCAL_QUEUES=2, local.sh's default)
MASTER = "tavern"  # the first queue instance's master name at the sentinels (local.sh's; the second's is tavern-2)
TIMEOUT_MS = 1000
KEY = "local-frontend-key"  # TAVERN_API_KEYS, which local.sh requires (as compose.yaml does)


def _free(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_base() -> int:
    """A first port with the topology's ports and the cluster's bus ports free, below the
    ephemeral range (32768 on): a connection's own port there could take a bus port."""
    for _ in range(200):
        base = random.randrange(10_000, 22_000)
        ours = [*range(PORTS), *SECOND_QUEUE]
        if all(_free(base + i) for i in ours) and all(_free(base + BUS_OFFSET + i) for i in range(3, 9)):
            return base
    pytest.fail("no free ports for the local topology")


def until(done, message: str, timeout_s: float = 30.0) -> None:
    """Until ``done()``; a failure with ``message`` after ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    while not done():
        assert time.monotonic() < deadline, message
        time.sleep(0.05)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


class Local:
    def __init__(self, directory: Path, shards: int = 3, **extra: str) -> None:
        """``shards`` (TAVERN_LOCAL_SHARDS): 1 to 3, each a primary with a replica; ``extra``, more of
        the environment local.sh and the processes it starts get."""
        self.directory = directory
        self.base = free_base()
        self.nginx = f"http://127.0.0.1:{self.base}"
        self.gateways = [self.base + 1, self.base + 2]
        self.nodes = list(range(self.base + 3, self.base + 3 + 2 * shards))
        self.queue = [self.base + 9, self.base + 10]  # the first queue instance's Redis
        self.second_queue = [self.base + port for port in SECOND_QUEUE]
        self.sentinels = [self.base + 11, self.base + 12, self.base + 13]
        bin_dir = str(Path(sys.executable).parent)  # this virtualenv's tavern
        self.env = service_env(
            None,
            TAVERN_LOCAL_DIR=str(directory),
            TAVERN_LOCAL_PORT=str(self.base),
            TAVERN_LOCAL_NODE_TIMEOUT_MS=str(TIMEOUT_MS),
            TAVERN_LOCAL_SHARDS=str(shards),
            TAVERN_API_KEYS=KEY,
            PATH=f"{bin_dir}:{os.environ['PATH']}",
            **extra,
        )
        self.cluster = LocalCluster(self)

    def run(self, command: str) -> str:
        done = subprocess.run([str(SCRIPT), command], env=self.env, capture_output=True, text=True, timeout=180)
        assert done.returncode == 0, f"local.sh {command}: {done.stdout}{done.stderr}"
        return done.stdout

    def up(self) -> str:
        return self.run("up")

    def pids(self) -> dict[str, int]:
        return {path.stem: int(path.read_text()) for path in (self.directory / "pids").glob("*.pid")}

    def kill(self, name: str) -> None:
        """SIGKILL one process of the topology (``node-PORT``, ``queue-PORT``...), once it is gone."""
        pid = self.pids()[name]
        os.kill(pid, signal.SIGKILL)
        for _ in range(500):
            if not _alive(pid):
                return
            time.sleep(0.01)
        pytest.fail(f"{name} (pid {pid}) outlived SIGKILL")

    def down(self) -> None:
        started = self.pids()
        self.run("down")
        left = [name for name, pid in started.items() if _alive(pid)]
        assert not left, f"local.sh down left {left} running"

    def upstreams(self) -> dict[str, set[int]]:
        """Per match id, the gateway ports nginx sent its requests to (its access log)."""
        found: dict[str, set[int]] = {}
        for line in (self.directory / "logs" / "nginx-access.log").read_text().splitlines():
            upstream, _, _, uri = line.split(" ", 3)
            if uri.startswith("/v1/matches/") and uri.count("/") > 3 and upstream != "-":
                found.setdefault(uri.split("/")[3], set()).add(int(upstream.rsplit(":", 1)[1]))
        return found

    def queue_master(self) -> int | None:
        """The queue's primary as the sentinels name it."""
        for port in self.sentinels:
            try:
                found = redis.Redis(port=port, socket_timeout=1).sentinel_get_master_addr_by_name(MASTER)
                return int(found[1]) if found else None
            except redis.RedisError:
                continue
        return None

    def queue_replicated(self) -> bool:
        """Whether the sentinels see a replica of the queue's primary, linked and in sync."""
        for port in self.sentinels:
            try:
                replicas = redis.Redis(port=port, socket_timeout=1).sentinel_slaves(MASTER)
            except redis.RedisError:
                continue
            return any(
                replica.get("flags") == "slave" and replica.get("master-link-status") == "ok" for replica in replicas
            )
        return False


class LocalCluster(Cluster):
    """The topology's cluster nodes, as Cluster drives its own: started and stopped by local.sh."""

    def __init__(self, local: Local) -> None:
        self.local = local
        self.directory = local.directory
        self.node_timeout_ms = TIMEOUT_MS
        self.ports = local.nodes

    def running(self) -> list[int]:
        pids = self.local.pids()
        return [port for port in self.ports if f"node-{port}" in pids and _alive(pids[f"node-{port}"])]

    def kill(self, port: int) -> None:
        self.local.kill(f"node-{port}")

    def start_node(self, port: int) -> None:
        self.local.up()  # starts what is not running: the node comes back, as a replica of its successor
