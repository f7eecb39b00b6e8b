"""The gateway's side of what the projector and the gateways publish about a match: its views were
written (the projector's notice: version and time, no view; ``encode``) or a seat came or went
(services/store/presence.py). Each match has its own shard channel (``keys.notices``, the match's
hash tag: on a Redis Cluster it lives on the match's shard, SSUBSCRIBE/SPUBLISH), and a gateway
subscribes to the channels of the matches it has open streams of, and to no other: what it hears
grows with its own share of the matches, not with the deployment's traffic.

A gateway reads the views notices announce in one HMGET a match, those of all the matches it heard
of meanwhile in one round trip (``views``). It reads them as well each time a channel's
subscription is confirmed (``Subscribed``: first, again after a reconnection or a slot moved): a
notice published before the subscription took is then not missed, since the views are written
before their notice is published.

On a single Redis (or the embedded fakeredis) one pub/sub connection carries every channel; on a
cluster, one per primary that owns a subscribed channel's slot, found from the slot map the hot
paths keep (cluster.py). A slot that moves ends its channels' subscriptions (Redis says
``sunsubscribe``): they are taken again on the slot's new primary. A connection lost, or a
subscription refused (MOVED), raises from ``batch``: the hub subscribes anew and reads again."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Hashable
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass
from typing import Any

import msgspec
import redis.asyncio

from services.store import keys, resp
from services.store.clients import Events
from services.store.cluster import slot_of
from services.store.cluster_client import ClusterClient
from services.store.connections import link_to

MOVED = b"moved"  # published on a match's channel when one of its seats came or went (never a notice's bytes)
CHATTED = b"chat:"  # and this, then the channel's name, when a line was added to its table chat (chat.py)


@dataclass(frozen=True, slots=True)
class Written:
    """The match's views were written up to ``version``; its newest event appended at ``appended_at``."""

    match_id: str
    version: int
    appended_at: float


@dataclass(frozen=True, slots=True)
class Moved:
    """A seat of the match came or went somewhere: who is connected is to be read again."""

    match_id: str


@dataclass(frozen=True, slots=True)
class Chatted:
    """A line was added to one of the match's chat channels: its readers are to read it."""

    match_id: str
    channel: str


@dataclass(frozen=True, slots=True)
class Subscribed:
    """The match's channel is subscribed (again): its views are to be read, a notice may have gone by."""

    match_id: str


Heard = Written | Moved | Chatted | Subscribed
_encode = msgspec.msgpack.Encoder().encode
_notice = msgspec.msgpack.Decoder(tuple[int, float])


def encode(version: int, appended_at: float) -> bytes:
    """The projector's notice of a match's views written up to ``version``, whose newest event was
    appended at ``appended_at`` (a gateway's projection lag is when it hears it minus this):
    11-13 bytes of MessagePack, where the views themselves used to ride along (9.8 KB a match)."""
    return _encode((version, appended_at))


def heard(match_id: str, data: bytes) -> Written | Moved | Chatted:
    if data == MOVED:
        return Moved(match_id)
    if data.startswith(CHATTED):
        return Chatted(match_id, data[len(CHATTED):].decode())
    version, appended_at = _notice.decode(data)
    return Written(match_id, version, appended_at)


class Subscription:
    """The channels of the matches ``want``ed, one pub/sub connection per node they live on;
    ``want`` and ``drop`` return at once, and one task sends them in order, the newest wish of
    each match winning (a stream closed and another opened meanwhile leave it subscribed)."""

    def __init__(self, node_of: Any, per_slot: bool = False) -> None:
        self._node_of = node_of  # (channel, whether its node may have changed) -> (node, its client), awaited
        self._per_slot = per_slot  # a cluster: one call's channels share a slot (a single Redis takes any)
        self._nodes: dict[Hashable, Any] = {}  # node -> its pub/sub
        self._on: dict[str, Hashable] = {}  # match id -> the node its channel is subscribed on
        self._wanted: set[str] = set()
        self._todo: set[str] = set()
        self._moved: set[str] = set()  # the matches whose slot moved: their node is asked again
        self._changed = asyncio.Event()
        # what was heard and not yet taken, and the first problem of a link (raised once that is taken)
        self._heard: list[Heard] = []
        self._problem: BaseException | None = None
        self._arrived = asyncio.Event()
        self.messages = self.bytes = 0  # published messages heard, and their bytes (channel and payload)
        self._tasks: list[asyncio.Task[None]] = [asyncio.create_task(self._send())]

    def want(self, match_id: str) -> None:
        self._wanted.add(match_id)
        self._todo.add(match_id)
        self._changed.set()

    def drop(self, match_id: str) -> None:
        self._wanted.discard(match_id)
        self._todo.add(match_id)
        self._changed.set()

    async def batch(self) -> list[Heard]:
        """Everything heard since the last batch, once there is something: the hub handles all of
        it in one turn (under load, taking one message a turn let notices wait seconds in line,
        issue 31); raises once a link is lost, after what was heard before."""
        while not self._heard:
            if self._problem is not None:
                raise self._problem
            await self._arrived.wait()
            self._arrived.clear()
        batch, self._heard = self._heard, []
        return batch

    def _hear(self, heard: Heard) -> None:
        self._heard.append(heard)
        self._arrived.set()

    def _fail(self, problem: BaseException) -> None:
        self._problem = self._problem or problem
        self._arrived.set()

    async def _send(self) -> None:
        try:
            while True:
                await self._changed.wait()
                self._changed.clear()
                todo, self._todo = self._todo, set()
                await self._apply(todo)
        except Exception as problem:
            self._fail(problem)

    async def _apply(self, match_ids: set[str]) -> None:
        """Subscribe the channels of ``match_ids`` wanted and not subscribed, leave those no longer
        wanted: one call for all of a node's (of a slot's, on a cluster). A call a channel took a
        turn of the event loop each, and under load the matches created at once were subscribed
        one by one for seconds, their moves' views unheard meanwhile (issue 31)."""
        joining: dict[tuple[Hashable, int | None], tuple[Any, list[str]]] = {}  # (node, slot) -> client, channels
        leaving: dict[tuple[Hashable, int | None], list[str]] = {}
        for match_id in match_ids:
            channel = keys.notices(match_id)
            on = self._on.get(match_id)
            if match_id in self._wanted and on is None:
                node, client = await self._node_of(channel, match_id in self._moved)
                self._moved.discard(match_id)
                self._on[match_id] = node
                joining.setdefault((node, self._slot(channel)), (client, []))[1].append(channel)
            elif match_id not in self._wanted and on is not None:
                del self._on[match_id]
                leaving.setdefault((on, self._slot(channel)), []).append(channel)
        for (node, _), channels in leaving.items():
            await self._nodes[node].sunsubscribe(*channels)
        for (node, _), (client, channels) in joining.items():
            pubsub = self._nodes.get(node)
            if pubsub is None:
                pubsub = self._nodes[node] = client.pubsub()
                await pubsub.ssubscribe(*channels)
                self._tasks.append(asyncio.create_task(self._read(node, pubsub)))
            else:
                await pubsub.ssubscribe(*channels)

    def _slot(self, channel: str) -> int | None:
        return slot_of(channel) if self._per_slot else None

    async def _read(self, node: Hashable, pubsub: Any) -> None:
        try:
            while True:
                message = await pubsub.get_message(timeout=None)
                if message is None:
                    continue
                kind, channel = message["type"], message["channel"]
                match_id = keys.notices_of(channel)
                if kind == "smessage":
                    self.messages += 1
                    self.bytes += len(channel) + len(message["data"])
                    self._hear(heard(match_id, message["data"]))
                elif kind == "ssubscribe":
                    self._hear(Subscribed(match_id))
                elif kind == "sunsubscribe" and self._on.get(match_id) == node and match_id in self._wanted:
                    # not ours to end: its slot moved to another primary; subscribe there
                    pubsub.shard_channels.pop(channel, None)  # nor again here on a reconnection
                    del self._on[match_id]
                    self._moved.add(match_id)
                    self.want(match_id)
        except Exception as problem:
            self._fail(problem)

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for pubsub in self._nodes.values():
            with suppress(Exception):
                await pubsub.aclose()


class Notices:
    def __init__(self, views: Events, timeout_s: float = 5.0, link: resp.Link | None = None) -> None:
        self.views_redis = views  # where a match's views are, and its notices' channel
        self.timeout_s = timeout_s  # a cluster node's connections: to connect (reads wait for messages)
        # the views' reads: the process's pipelined link (a read per notice: a third of redis-py's CPU)
        self.link = link or link_to(views)

    @asynccontextmanager
    async def subscribed(self) -> AsyncIterator[Subscription]:
        """A subscription (no channel yet; raises if Redis does not answer) until the block ends."""
        redis = self.views_redis
        if isinstance(redis, ClusterClient):
            await redis.ping()
            nodes = _Nodes(redis, self.timeout_s)
            subscription = Subscription(nodes.node_of, per_slot=True)
        else:
            await redis.ping()
            nodes, subscription = None, Subscription(_one(redis))
        try:
            yield subscription
        finally:
            await subscription.close()
            if nodes is not None:
                await nodes.aclose()

    async def views(self, wanted: list[tuple[str, list[str]]]) -> list[Views | Exception]:
        """Each match's stored views of its ``fields`` (storage fields: ``s:{seat}``, ``spectator``),
        one HMGET a match, all in one round trip; a match's error reply (its slot down) in its place."""
        commands = [["HMGET", keys.views(match_id), VERSION, *fields] for match_id, fields in wanted]
        found = await self.link.exchange(commands, reads=True)
        return [
            reply if isinstance(reply, Exception) else _views(fields, reply)
            for (_, fields), reply in zip(wanted, found, strict=True)
        ]


VERSION = "v"  # the views hash's version field: every view in it is of this version (promote.lua)


@dataclass(frozen=True, slots=True)
class Views:
    """A match's views as read: their version (None: none stored), and each field's view or None."""

    version: int | None
    fields: dict[str, bytes | None]


def _views(fields: list[str], found: list[bytes | None]) -> Views:
    version, *views = found
    return Views(None if version is None else int(version), dict(zip(fields, views, strict=True)))


def _one(client: Any) -> Any:
    """A single Redis: every channel on the one client's pub/sub."""

    async def node_of(channel: str, moved: bool) -> tuple[Hashable, Any]:
        return "", client

    return node_of


class _Nodes:
    """A cluster: a channel's node is its slot's primary (the hot paths' slot map), a client each."""

    def __init__(self, cluster: ClusterClient, timeout_s: float) -> None:
        self.topology = cluster.link.topology
        self.timeout_s = timeout_s
        self.clients: dict[Hashable, Any] = {}

    async def node_of(self, channel: str, moved: bool) -> tuple[Hashable, Any]:
        if moved:
            await self.topology.refresh(force=True)
        address = await self.topology.node(slot_of(channel))
        if address is None:
            raise ConnectionError(f"no primary serves the slot of {channel}")
        client = self.clients.get(address)
        if client is None:
            host, port = address
            url = f"redis://{self.topology.credentials}{host}:{port}"
            client = self.clients[address] = redis.asyncio.Redis.from_url(
                url, protocol=2, socket_connect_timeout=self.timeout_s
            )
        return address, client

    async def aclose(self) -> None:
        for client in self.clients.values():
            await client.aclose()
