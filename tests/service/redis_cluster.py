"""A real Redis Cluster for tests: 6 redis-servers (3 primaries, 3 replicas) on free ports, made by
``redis-cli --cluster create``, with a short cluster-node-timeout so a failover takes a second or
two. Every step is bounded in time; ``stop`` kills every process it started."""

from __future__ import annotations

import random
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest
import redis
from redis.crc import key_slot

NODE_TIMEOUT_MS = 1000
BUS_OFFSET = 10_000  # a cluster node also listens on its port + 10000 (the cluster bus)


def _ephemeral_low() -> int:
    """The lowest port the kernel hands out to outgoing connections (Linux's default 32768)."""
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32_768


def free_node_port() -> int:
    """A free port whose cluster-bus port is free too, both below the kernel's ephemeral range: a
    port probed free there can be taken by any test's outgoing connection before the node binds it
    (CI once lost every cluster test to a node that found its port so taken)."""
    high = min(_ephemeral_low(), 65_536) - BUS_OFFSET
    for _ in range(200):
        port = random.randrange(10_000, max(high, 10_001))
        try:
            for candidate in (port, port + BUS_OFFSET):
                with socket.socket() as sock:
                    sock.bind(("127.0.0.1", candidate))
        except OSError:
            continue
        return port
    pytest.fail("no free port pair for a cluster node")


def _binary(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is missing: install redis-server and redis-tools (.ci/run does)")
    return found


class Cluster:
    def __init__(
        self, directory: Path, nodes: int = 6, node_timeout_ms: int = NODE_TIMEOUT_MS, extra: tuple[str, ...] = ()
    ) -> None:
        self.directory = directory
        self.node_timeout_ms = node_timeout_ms
        self.extra = extra  # more redis-server arguments for every node
        self.ports = [free_node_port() for _ in range(nodes)]
        self.processes: dict[int, subprocess.Popen] = {}

    @property
    def url(self) -> str:
        return "redis+cluster://" + ",".join(f"127.0.0.1:{port}" for port in self.ports[:3])

    def start_node(self, port: int) -> None:
        args = [
            _binary("redis-server"),
            "--port", str(port), "--bind", "127.0.0.1", "--dir", str(self.directory),
            "--cluster-enabled", "yes", "--cluster-config-file", f"nodes-{port}.conf",
            "--cluster-node-timeout", str(self.node_timeout_ms),
            "--cluster-replica-validity-factor", "0",  # a replica always may take over (the test kills at will)
            "--save", "", "--appendonly", "no", "--logfile", f"redis-{port}.log", *self.extra,
        ]  # fmt: skip
        self.processes[port] = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        client = self.client(port)
        for _ in range(250):
            if self.processes[port].poll() is not None:
                pytest.fail(f"redis-server on {port} exited: see {self.directory}/redis-{port}.log")
            try:
                client.ping()
                return
            except redis.ConnectionError:
                time.sleep(0.02)
        pytest.fail(f"redis-server on {port} did not answer")

    def client(self, port: int) -> redis.Redis:
        return redis.Redis(host="127.0.0.1", port=port, socket_timeout=2, socket_connect_timeout=2, retry=None)

    def start(self) -> Cluster:
        for port in self.ports:
            self.start_node(port)
        nodes = [f"127.0.0.1:{port}" for port in self.ports]
        create = [_binary("redis-cli"), "--cluster", "create", *nodes, "--cluster-replicas", "1", "--cluster-yes"]
        made = subprocess.run(create, capture_output=True, timeout=60)
        if made.returncode != 0:
            self.stop()
            pytest.fail(f"redis-cli --cluster create failed: {made.stdout.decode()} {made.stderr.decode()}")
        self.wait_healthy()
        return self

    def wait_healthy(self, timeout_s: float = 30.0) -> None:
        """Until every running node says the cluster is ok, and each primary has a replica in sync."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if all(self._ok(port) for port in self.running()) and self._replicated():
                return
            time.sleep(0.05)
        pytest.fail("the cluster did not become healthy in time")

    def _ok(self, port: int) -> bool:
        try:
            return b"cluster_state:ok" in self.client(port).execute_command("CLUSTER", "INFO")
        except redis.RedisError:
            return False

    def _replicated(self) -> bool:
        for port in self.primaries():
            info = self.client(port).info("replication")
            if not any(info.get(f"slave{i}", {}).get("state") == "online" for i in range(info["connected_slaves"])):
                return False
        return True

    def running(self) -> list[int]:
        return [port for port, process in self.processes.items() if process.poll() is None]

    def primaries(self) -> list[int]:
        found = []
        for port in self.running():
            try:
                if self.client(port).info("replication")["role"] == "master":
                    found.append(port)
            except redis.RedisError:
                continue
        return found

    def primary_of(self, key: str) -> int:
        """The port of the primary serving ``key``'s slot, as the running nodes see it."""
        slot = key_slot(key.encode())
        for port in self.running():
            try:
                for start, end, primary, *_ in self.client(port).execute_command("CLUSTER", "SLOTS"):
                    if start <= slot <= end:
                        return int(primary[1])
            except redis.RedisError:
                continue
        pytest.fail(f"no node knows slot {slot}")

    def node_id(self, port: int) -> str:
        return self.client(port).execute_command("CLUSTER", "MYID").decode()

    def move_slot(self, key: str, target: int, pause_s: float = 0.0) -> None:
        """Move ``key``'s slot to the primary ``target`` as ``redis-cli --cluster reshard`` does:
        IMPORTING / MIGRATING, MIGRATE the keys a few at a time (``pause_s`` between batches, so
        that commands meet the slot half moved: ASK, TRYAGAIN), then SETSLOT NODE everywhere."""
        slot, source = key_slot(key.encode()), self.primary_of(key)
        to, frm = self.client(target), self.client(source)
        to.execute_command("CLUSTER", "SETSLOT", slot, "IMPORTING", self.node_id(source))
        frm.execute_command("CLUSTER", "SETSLOT", slot, "MIGRATING", self.node_id(target))
        while keys := frm.execute_command("CLUSTER", "GETKEYSINSLOT", slot, 2):
            frm.execute_command("MIGRATE", "127.0.0.1", target, "", 0, 5000, "KEYS", *keys)
            time.sleep(pause_s)
        for port in (target, source, *self.primaries()):
            self.client(port).execute_command("CLUSTER", "SETSLOT", slot, "NODE", self.node_id(target))

    def kill(self, port: int) -> None:
        self.processes[port].kill()
        self.processes[port].wait(10)

    def wait_promoted(self, dead: int, key: str, timeout_s: float = 30.0) -> float:
        """Until a replica serves ``key``'s slot in place of the dead primary and every live node
        says the cluster is ok; the seconds it took. (A node without persistence must not come
        back before this: as the primary it still claims to be, it would hand its replica an
        empty data set.)"""
        started = time.monotonic()
        while time.monotonic() - started < timeout_s:
            if self.primary_of(key) != dead and all(self._ok(port) for port in self.running()):
                return time.monotonic() - started
            time.sleep(0.02)
        pytest.fail(f"no replica took over from {dead} in time")

    def stop(self) -> None:
        for process in self.processes.values():
            process.kill()
        for process in self.processes.values():
            process.wait(10)
