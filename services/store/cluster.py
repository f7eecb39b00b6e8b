"""Redis Cluster on the hot paths: ``REDIS_URL=redis+cluster://h1:p1,h2:p2`` names some of its nodes.

A ClusterWire keeps the slot map (CLUSTER SLOTS), one pipelined Wire (services/store/wire.py) per
primary, and splits each exchange by its commands' slots: one write per node, sent at once, the
replies put back in the commands' order. A match's keys share its hash tag (keys.py), so the keys
of one script always sit on one slot.

Why our own and not redis-py's async RedisCluster: on a connection error or a timeout RedisCluster
reinitialises its map and sends the command again, which for an append is a command decided and
appended twice (resp.py); and it runs a pipeline's commands through its per-command stack, the
cost the Wire was written to avoid. The few plain commands off the hot path go through a
ClusterWire too (cluster_client.py says why).

Redirections are followed for every command, writes included: a node that answers MOVED, ASK,
TRYAGAIN or CLUSTERDOWN has not run it. A connection lost (or a reply not come in time) on the
way is not: a write then gets a ConnectionError in its place (the gateway's 503; its idempotency
key makes a retry safe), only reads are sent again, and the map is read again (a failover).

With ``wait`` (N replicas, a timeout), each node's share of an exchange of writes ends with a
WAIT on the same connection: a write's reply stands only once N replicas hold it, else it is
answered ``Unreplicated`` (a 503: it may survive or not, the retry with its key tells).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any
from urllib.parse import unquote, urlsplit

from redis.crc import key_slot
from redis.exceptions import ConnectionError, ResponseError

from services.store.wire import Wire

SLOTS = 16384
ATTEMPTS = 8  # redirections followed per command before it is answered ClusterDown
PAUSE_S = 0.05  # before resending what TRYAGAIN or CLUSTERDOWN refused (a slot migrating, a failover)
REFRESH_EVERY_S = 0.1  # the map is read at most this often, however many errors ask for it
SCHEME = "redis+cluster://"

Address = tuple[str, int]


class ClusterDown(ConnectionError):
    """No primary answers for a slot (a failover under way): the gateway's 503."""


class Unreplicated(ConnectionError):
    """Written on the primary, but fewer replicas than asked held it within the WAIT's timeout."""


def is_cluster(url: str | None) -> bool:
    return bool(url) and url.startswith(SCHEME)  # type: ignore[union-attr]


def parse(url: str) -> tuple[list[Address], str | None, str | None]:
    """The nodes, username and password of ``redis+cluster://[user:password@]h1:p1,h2:p2``."""
    rest = url[len(SCHEME) :].split("/", 1)[0]
    username = password = None
    if "@" in rest:
        credentials, rest = rest.rsplit("@", 1)
        username, _, password = credentials.rpartition(":")
        username, password = unquote(username) or None, unquote(password)
    nodes = []
    for part in rest.split(","):
        split = urlsplit(f"//{part}")
        if not split.hostname:
            raise ValueError(f"{url!r}: a cluster node is host:port")
        nodes.append((split.hostname, split.port or 6379))
    return nodes, username, password


def key_of(command: list[Any]) -> Any:
    """The key a command is routed by; None for one that has none (SCRIPT, PUBLISH, PING)."""
    name = str(command[0]).upper()
    if name in ("EVALSHA", "EVAL"):
        return command[3] if int(command[2]) else None
    if name in ("SCRIPT", "PUBLISH", "PING", "WAIT"):
        return None
    if name == "MEMORY":  # MEMORY USAGE key
        return command[2]
    return command[1]


def slot_of(key: Any) -> int:
    return key_slot(key if type(key) is bytes else str(key).encode())


class Topology:
    """The slot map and a Wire per node, shared by every ClusterWire of a process."""

    def __init__(self, seeds: list[Address], username: str | None, password: str | None, timeout_s: float) -> None:
        self.seeds = seeds
        self.credentials = f"{username or ''}:{password}@" if password is not None else ""
        self.timeout_s = timeout_s
        self.slots: list[Address | None] = [None] * SLOTS
        self.wires: dict[Address, Wire] = {}
        self._refreshing: asyncio.Task[None] | None = None
        self._refreshed = 0.0

    def wire(self, address: Address) -> Wire:
        wire = self.wires.get(address)
        if wire is None:
            wire = self.wires[address] = Wire(f"redis://{self.credentials}{address[0]}:{address[1]}", self.timeout_s)
        return wire

    async def node(self, slot: int) -> Address | None:
        if self.slots[slot] is None:
            await self.refresh()
        return self.slots[slot]

    def primaries(self) -> set[Address]:
        return {address for address in self.slots if address is not None}

    def moved(self, slot: int, address: Address) -> None:
        self.slots[slot] = address

    async def refresh(self, force: bool = False) -> None:
        """Read the slot map again (one reading at a time; at most every REFRESH_EVERY_S)."""
        loop = asyncio.get_running_loop()
        running = self._refreshing
        if running is None or running.done() or running.get_loop() is not loop:
            if not force and time.monotonic() - self._refreshed < REFRESH_EVERY_S and any(self.slots):
                return
            running = self._refreshing = loop.create_task(self._refresh())
        await asyncio.shield(running)

    async def _refresh(self) -> None:
        # known primaries first (a dead one fails fast), then the nodes the URL names
        for address in [*self.primaries(), *self.seeds]:
            try:
                (answer,) = await self.wire(address).exchange([["CLUSTER", "SLOTS"]], reads=True)
            except (ConnectionError, TimeoutError):
                continue
            if isinstance(answer, Exception):
                continue
            slots: list[Address | None] = [None] * SLOTS
            for start, end, primary, *_ in answer:
                host = primary[0].decode() or address[0]
                slots[start : end + 1] = [(host, int(primary[1]))] * (end - start + 1)
            self.slots = slots
            self._refreshed = time.monotonic()
            for gone in set(self.wires) - set(slots) - set(self.seeds):
                self.wires.pop(gone).close()
            return
        self._refreshed = time.monotonic()  # none answered: the callers' commands fail (a 503)

    def close(self) -> None:
        for wire in self.wires.values():
            wire.close()
        self.wires.clear()


def _redirection(error: Exception) -> tuple[str, int, Address] | None:
    """(kind, slot, node) of a MOVED or ASK error; (kind, -1, ("", 0)) for TRYAGAIN, CLUSTERDOWN."""
    if not isinstance(error, ResponseError):
        return None
    message = str(error)
    if message.startswith(("MOVED ", "ASK ")):
        kind, slot, node = message.split(" ", 2)
        host, _, port = node.rpartition(":")
        return kind, int(slot), (host, int(port))
    if message.startswith(("TRYAGAIN", "CLUSTERDOWN")):
        return message.split(" ", 1)[0], -1, ("", 0)
    return None


class ClusterWire:
    """What the hot paths send through on a Redis Cluster (the Link of services/store/resp.py)."""

    def __init__(self, topology: Topology, wait: tuple[int, int] = (0, 0)) -> None:
        self.topology = topology
        self.wait_replicas, self.wait_timeout_ms = wait

    @classmethod
    def from_url(cls, url: str, timeout_s: float) -> ClusterWire:
        return cls(Topology(*parse(url), timeout_s))

    def acknowledged(self, replicas: int, timeout_ms: int) -> ClusterWire:
        """A ClusterWire on the same nodes whose writes stand once ``replicas`` replicas hold them."""
        return ClusterWire(self.topology, (replicas, timeout_ms))

    async def exchange(self, commands: list[list[Any]], reads: bool = False) -> list[Any]:
        replies: list[Any] = [None] * len(commands)
        todo = list(range(len(commands)))
        asking: dict[int, Address] = {}
        for attempt in range(ATTEMPTS):
            groups = await self._route(commands, todo, asking)
            sent = [(address, indices) for address, indices in groups.items() if address is not None]
            for index in groups.get(None, ()):
                replies[index] = ClusterDown("no primary serves this slot")
            results = await asyncio.gather(
                *(self._send(address, [commands[i] for i in ids], ids, asking, reads) for address, ids in sent),
                return_exceptions=True,
            )
            again, pause, lost = [], False, False
            for (_, indices), result in zip(sent, results, strict=True):
                if isinstance(result, BaseException):
                    if not isinstance(result, Exception):
                        raise result
                    lost = True
                    for index in indices:
                        if reads and attempt == 0:
                            again.append(index)  # a read runs twice harmlessly
                        else:
                            replies[index] = result
                    continue
                for index, answer in zip(indices, result, strict=True):
                    redirection = _redirection(answer) if isinstance(answer, Exception) else None
                    asking.pop(index, None)
                    if redirection is None:
                        replies[index] = answer
                        continue
                    kind, slot, address = redirection
                    if kind == "MOVED":
                        self.topology.moved(slot, address)
                        lost = True  # more slots may have moved: read the whole map again
                    elif kind == "ASK":
                        asking[index] = address
                    else:
                        pause = True
                    replies[index] = ClusterDown(str(answer))
                    again.append(index)
            if lost:
                await self.topology.refresh()
            if not again:
                return replies
            if pause:
                await asyncio.sleep(PAUSE_S * (attempt + 1))
            todo = sorted(set(again))  # in the commands' order: a staged hash before the script that takes it
        return replies

    async def _route(
        self, commands: list[list[Any]], todo: list[int], asking: dict[int, Address]
    ) -> dict[Address | None, list[int]]:
        groups: dict[Address | None, list[int]] = {}
        everywhere = []
        for index in todo:
            key = key_of(commands[index])
            if index in asking:
                groups.setdefault(asking[index], []).append(index)
            elif key is None:
                everywhere.append(index)
            else:
                groups.setdefault(await self.topology.node(slot_of(key)), []).append(index)
        if everywhere:
            if not self.topology.primaries():
                await self.topology.refresh()
            # SCRIPT LOAD goes to every primary (each runs its slots' scripts); PUBLISH and PING to any one
            primaries: set[Address | None] = {*self.topology.primaries()} or {None}
            for index in everywhere:
                scripted = str(commands[index][0]).upper() == "SCRIPT"
                for address in primaries if scripted else [next(iter(primaries))]:
                    groups.setdefault(address, []).append(index)
        return groups

    async def _send(
        self, address: Address, commands: list[list[Any]], indices: list[int], asking: dict[int, Address], reads: bool
    ) -> list[Any]:
        sent: list[list[Any]] = []
        for index, command in zip(indices, commands, strict=True):
            if index in asking:
                sent.append(["ASKING"])
            sent.append(command)
        waits = self.wait_replicas > 0 and not reads
        if waits:
            sent.append(["WAIT", self.wait_replicas, self.wait_timeout_ms])
        replies = await self.topology.wire(address).exchange(sent)
        if waits:
            held = replies.pop()
            if isinstance(held, Exception) or held < self.wait_replicas:
                problem = Unreplicated(f"{held} of {self.wait_replicas} replicas acknowledged the write in time")
                replies = [answer if isinstance(answer, Exception) else problem for answer in replies]
        return [answer for command, answer in zip(sent, replies, strict=False) if command[0] != "ASKING"]

    def close(self) -> None:
        self.topology.close()
