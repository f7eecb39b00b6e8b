"""Benchmark of the service's whole path: gateway, Redis, worker, SSE. Prints; asserts nothing.

    python tests/bench/bench_service.py --matches 10 50 200 --seconds 10

Starts a redis-server on a free port (or uses --redis-url), --gateways `tavern serve` processes
(one by default; with more, each match's requests go to one of them chosen by its id, as a
balancer hashing the path's match id would) and --workers `tavern worker` processes, then drives
N concurrent 4-seat Hero's Tavern matches from this process: every seat is a client that never
pauses, with its SSE stream open; as soon as its stream shows a view with legal commands newer
than its last answer, it sends one of them. A match that ends is replaced by a new one. It
reports accepted commands/s, p50/p99 command latency, p50/p99 from a command's 200 to the new
view on the seat's own stream and on all 4 streams, and p50/p99 from sending a command to its
version on all 4 streams (the peer's "move to its state at all 4 clients"), and each seat's mean
cycle from one move to its next: in a closed loop that is seats over rate, whatever the path, so
the share of it a move takes says where the seats wait (in flight, or in the round and the client).
In the same run it drives the bare endpoint (POST /bench/floor: decode a msgspec command, one
XADD) with as many concurrent clients; the ratio of the two rates is the figure. The two take
turns (--slices), the matches held while the floor runs: this machine's speed drifts by up to 2x
within minutes, and a floor measured after ours made the ratio swing with it. With --peer it
then measures the peer the same way, after ours, on the same cores (tests/bench/peer/: a
boardgame.io 0.50.2 server and its bot clients, which npm installs into the run's directory).

--modes: how careful the clients are, each mode a line per --matches (and for the peer). plain:
commands without a version. strict: each command carries the ``expected_version`` of the view it
was chosen from, and a 409 is retried from the newest view, the one the 409 carries if it does
(the peer: boardgame.io's stateID checked, a dropped move sent again from the newest state);
``stale_per_accepted`` counts the refusals, and a move's latency runs from its first try. exact:
strict, asking for a 409 on every stale version (``Prefer: handling=strict``; the peer has no
other strictness). Each line gives the server's CPU per accepted command (Redis, gateways,
workers: ``server_cpu_us_per_command``, the peer's server the same) and the Redis commands per
accepted command (INFO commandstats).

With --ws each seat also plays on one WebSocket (/v1/matches/{id}/ws: its views and its commands),
the two transports taking turns twice per --matches, each line saying its "transport".

The gateways run the kit's settings (deploy/tavern.env: every limit on but the rate of creation,
CREATES_OFF; creation by a frontend's key, which the client sends). The client's connections come
from --addresses loopback addresses (127.0.x.y, all this machine's), as players come from many
homes: each address's share stays within the shipped per-address limits, and within nginx's
limit_conn (1,024 connections an address).
On deploy/local.sh's topology, through its nginx or direct to its gateways (--gateway-port), the
same: bring it up as shipped, with TAVERN_BENCH=1 for the floor's route:

    export TAVERN_API_KEYS=bench-frontend-key
    TAVERN_BENCH=1 TAVERN_CREATES_PER_S=0 deploy/local.sh up
    python tests/bench/bench_service.py --matches 200 --gateway-port 17000        # through nginx
    python tests/bench/bench_service.py --matches 200 --gateway-port 17001 17002  # direct

The client is a small HTTP/1.1 keep-alive client on asyncio streams (httpx would spend more CPU
than the server on these 2 cores). It shares the cores with the service, so it reads only what a
player needs of a view (version, status, legal) and sends an element of ``legal`` back as the
very bytes it received.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import msgspec
import websockets

try:
    from uvloop import run  # the client's own CPU comes out of the same 2 cores as the service's
except ImportError:  # pragma: no cover (Windows)
    from asyncio import run

ROOT = Path(__file__).resolve().parents[2]
SETTLE_S = 0.5  # after the seats are held or let go, before a slice is measured
# the matches are created as a trusted frontend would, with its key (the kit's TAVERN_CREATE_IDENTITY
# is player): the first of TAVERN_API_KEYS, the running gateways' (--gateway-port), else one of ours
API_KEY = os.environ.get("TAVERN_API_KEYS", "bench-frontend-key").split(",")[0].strip()


# the one limit this client goes past: one frontend's key creates every match, up to 40 a second
# at 10 matches, where a key is shipped with 5 (TAVERN_CREATES_PER_S; a deployment whose frontend
# creates that fast raises it); every other limit stays on, as shipped
CREATES_OFF = {"TAVERN_CREATES_PER_S": "0"}

# where the client's connections come from, in turn (--addresses sets how many)
ADDRESSES = itertools.cycle(["127.0.0.1"])


def source_addresses(count: int) -> None:
    """Spread the client's connections over ``count`` loopback addresses (127.0.1.1, 127.0.1.2, ...)."""
    global ADDRESSES
    ADDRESSES = itertools.cycle([f"127.0.{1 + n // 250}.{1 + n % 250}" for n in range(count)])


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Conn(asyncio.Protocol):
    """One keep-alive HTTP/1.1 connection: one request at a time, or one SSE stream. A protocol,
    parsing what arrives as it arrives: the client shares the 2 cores with the service, and
    asyncio's stream reader cost it a coroutine per line."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        self.reply: asyncio.Future[tuple[int, bytes]] | None = None
        self.on_data: Callable[[bytes], None] | None = None  # a stream's: each event's data
        self.streaming = False  # a stream's head has been read: chunks follow
        self.events = bytearray()  # a stream's body not yet split into events
        self.ended: asyncio.Future[None] | None = None  # a stream's end

    async def open(self) -> Conn:
        await asyncio.get_running_loop().create_connection(
            lambda: self, "127.0.0.1", self.port, local_addr=(next(ADDRESSES), 0)
        )
        return self

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def connection_lost(self, exc: Exception | None) -> None:
        for waiter in (self.reply, self.ended):
            if waiter is not None and not waiter.done():
                waiter.set_exception(exc or ConnectionError("the server closed the connection"))

    async def request(
        self, method: str, path: str, body: bytes = b"", token: str | None = None, extra: str = ""
    ) -> tuple[int, bytes]:
        head = f"{method} {path} HTTP/1.1\r\nHost: bench\r\nContent-Length: {len(body)}\r\n{extra}"
        if token:
            head += f"Authorization: Bearer {token}\r\n"
        if body:
            head += "Content-Type: application/json\r\n"
        if self.transport.is_closing():  # the server let an idle keep-alive connection go
            self.buffer.clear()
            await self.open()
        self.reply = asyncio.get_running_loop().create_future()
        self.transport.write(head.encode() + b"\r\n" + body)
        return await self.reply

    async def stream(self, path: str, token: str, on_data: Callable[[bytes], None]) -> None:
        """Hand each data payload of the SSE stream (chunked transfer encoding) to ``on_data``."""
        self.on_data, self.ended = on_data, asyncio.get_running_loop().create_future()
        self.transport.write(f"GET {path} HTTP/1.1\r\nHost: bench\r\nAuthorization: Bearer {token}\r\n\r\n".encode())
        await self.ended

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        if self.streaming:
            self._chunks()
            return
        end = self.buffer.find(b"\r\n\r\n")
        if end < 0:
            return
        head = bytes(self.buffer[:end]).lower()
        status = int(head[9:12])
        if self.on_data is not None:
            if status != 200:
                self.ended.set_exception(AssertionError(f"the stream was answered {status}"))
                return
            del self.buffer[: end + 4]
            self.streaming = True
            self._chunks()
            return
        length = 0
        for line in head.split(b"\r\n"):
            if line.startswith(b"content-length:"):
                length = int(line[15:])
        if len(self.buffer) < end + 4 + length:
            return
        body = bytes(self.buffer[end + 4 : end + 4 + length])
        del self.buffer[: end + 4 + length]
        if not self.reply.done():  # a cancelled request (its match ended) no longer listens
            self.reply.set_result((status, body))

    def _chunks(self) -> None:
        buffer = self.buffer
        while (line := buffer.find(b"\r\n")) >= 0:
            size = int(buffer[:line], 16)
            if size == 0:
                if not self.ended.done():
                    self.ended.set_result(None)
                return
            if len(buffer) < line + size + 4:
                return
            self.events += buffer[line + 2 : line + 2 + size]
            del buffer[: line + size + 4]
        while (cut := self.events.find(b"\n\n")) >= 0:
            event = bytes(self.events[:cut])
            del self.events[: cut + 2]
            if b"event: view\n" not in event:
                continue  # a keepalive, or "presence" (who is connected)
            for line in event.split(b"\n"):
                if line.startswith(b"data: "):
                    self.on_data(line[6:])

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


class Seen(msgspec.Struct):
    """The part of a view envelope a player acts on; the rest is skipped unread."""

    version: int
    status: str
    legal: list[msgspec.Raw]


class Answered(msgspec.Struct):
    version: int


class Refused(msgspec.Struct):
    """A refusal; a stale version's names the version the match is at, with the seat's view at it
    when the gateway holds it."""

    version: int | None = None
    view: Seen | None = None


seen_view = msgspec.json.Decoder(Seen).decode
answered = msgspec.json.Decoder(Answered).decode
_refused = msgspec.json.Decoder(Refused).decode


def stale_at(body: bytes) -> Refused:
    """What a 409 says of the version the match is at (nothing, if it is no stale version's)."""
    try:
        return _refused(body)
    except msgspec.DecodeError:
        return Refused()


class Pacer:
    """At most ``rate`` commands a second from all seats together (0: no limit), spaced evenly: a
    run at the peer's own rate compares the two latencies at equal load."""

    def __init__(self, rate: float) -> None:
        self.interval = 1 / rate if rate else 0.0
        self.next = 0.0

    async def turn(self) -> None:
        if self.interval:
            now = time.perf_counter()
            self.next = max(self.next + self.interval, now)
            await asyncio.sleep(self.next - now)


class Stats:
    def __init__(self, rate: float = 0, mode: str = "plain") -> None:
        self.pacer = Pacer(rate)
        self.mode = mode
        # strict and exact: each command carries the version of the view it was chosen from;
        # exact also asks for a 409 on every stale version (Prefer: handling=strict)
        self.strict = mode in ("strict", "exact")
        self.prefer = "Prefer: handling=strict\r\n" if mode == "exact" else ""
        self.accepted = 0
        self.stale = 0  # 409s while measuring (strict): each is retried from the newest view
        self.statuses: dict[int, int] = {}
        self.command_s: list[float] = []
        self.own_view_s: list[float] = []
        self.all_views_s: list[float] = []
        self.move_to_all_s: list[float] = []  # from sending the command (the peer's measure)
        self.views = 0  # views that arrived on the streams while measuring
        self.matches_done = 0
        self.measuring = False
        self.go = asyncio.Event()  # cleared while the floor is measured: the seats hold their commands
        self.go.set()


class Match:
    """One match: 4 seats, each a reader of its stream and a player."""

    def __init__(self, ports: list[int], stats: Stats, rng: random.Random) -> None:
        self.ports, self.stats, self.rng = ports, stats, rng
        self.port = ports[0]
        self.seen = [0, 0, 0, 0]  # newest version on each seat's stream
        self.views: list[Seen | None] = [None] * 4
        self.wake = [asyncio.Event() for _ in range(4)]
        self.answered: dict[int, float] = {}  # version -> when its 200 arrived
        self.answering: dict[int, int] = {}  # version -> the seat whose command it answered
        self.sent: dict[int, float] = {}  # version -> when the command that made it was sent
        self.finished = asyncio.Event()
        self.conns: list[Conn] = []

    async def run(self) -> None:
        control = await Conn(self.port).open()
        self.conns.append(control)
        body = json.dumps({"game": "heros-tavern", "seats": 4, "bots": []}).encode()
        status, raw = await control.request("POST", "/v1/matches", body, extra=f"X-API-Key: {API_KEY}\r\n")
        assert status == 201, raw
        created = json.loads(raw)
        self.id = created["match_id"]
        # with several gateways, a match's requests all go to one, chosen by its id (as a balancer
        # hashing the path's match id would): its fold cache and command chains stay in one place
        self.port = self.ports[zlib.crc32(self.id.encode()) % len(self.ports)]
        tokens = [seat["token"] for seat in created["seats"]]
        tasks = [asyncio.create_task(self.read(seat, tokens[seat])) for seat in range(4)]
        tasks += [asyncio.create_task(self.play(seat, tokens[seat])) for seat in range(4)]
        for task in tasks:
            task.add_done_callback(report)
        try:
            await self.finished.wait()
            self.stats.matches_done += 1
        finally:  # also when the run stops mid-match: no stream reader outlives the loop
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            for conn in self.conns:
                conn.close()

    async def read(self, seat: int, token: str) -> None:
        conn = await Conn(self.port).open()
        self.conns.append(conn)
        await conn.stream(f"/v1/matches/{self.id}/stream", token, lambda data: self.saw(seat, data))

    def saw(self, seat: int, data: bytes) -> None:
        """A view arrived on ``seat``'s stream."""
        now = time.perf_counter()
        view = seen_view(data)
        version = view.version
        self.stats.views += self.stats.measuring
        for v, at in self.answered.items():
            if self.seen[seat] < v <= version and self.stats.measuring:
                if self.answering.get(v) == seat:
                    self.stats.own_view_s.append(now - at)
                if min([*self.seen[:seat], version, *self.seen[seat + 1 :]]) >= v:
                    self.stats.all_views_s.append(now - at)
                    self.stats.move_to_all_s.append(now - self.sent[v])
        self.seen[seat] = version
        self.views[seat] = view
        self.wake[seat].set()
        if view.status == "finished":
            self.finished.set()
        done = [v for v in self.answered if v <= min(self.seen)]
        for v in done:
            del self.answered[v]
            self.sent.pop(v, None)

    async def sender(self, seat: int, token: str) -> Callable[[bytes], Awaitable[tuple[int, bytes]]]:
        """How ``seat`` sends a command: a POST on a kept connection of its own."""
        conn = await Conn(self.port).open()
        self.conns.append(conn)
        path = f"/v1/matches/{self.id}/commands"
        prefer = self.stats.prefer
        return lambda command: conn.request("POST", path, command, token, prefer)

    async def play(self, seat: int, token: str) -> None:
        send = await self.sender(seat, token)
        acted_on = 0  # the version of the view last acted on
        awaiting = 0  # the version of our last accepted command: older views do not show it yet
        first_try: float | None = None  # when this move was first sent (a 409 is retried)
        while True:
            await self.wake[seat].wait()
            await self.stats.go.wait()
            self.wake[seat].clear()
            view = self.views[seat]
            if view is None or view.version <= acted_on or view.version < awaiting or not view.legal:
                continue
            acted_on = view.version
            command = bytes(self.rng.choice(view.legal))
            if self.stats.strict:  # the view's version, the last member of the command's object
                command = b'%s,"expected_version":%d}' % (command[:-1], view.version)
            await self.stats.pacer.turn()
            started = time.perf_counter()
            first_try = first_try or started
            status, raw = await send(command)
            now = time.perf_counter()
            stats = self.stats
            stats.statuses[status] = stats.statuses.get(status, 0) + 1
            if status == 200:
                version = awaiting = answered(raw).version
                if stats.measuring:
                    stats.accepted += 1
                    stats.command_s.append(now - started)
                self.answered[version] = now
                self.answering[version] = seat
                self.sent[version] = first_try  # a move's time runs from its first try
                first_try = None
                if version <= min(self.seen):
                    self.wake[seat].set()
            else:
                # refused (a stale view): retried from the newest view, which may be newer than
                # the stream has shown yet (the 409 names the version: its view, if it carries it,
                # else wait for it on the stream)
                stats.stale += stats.measuring and status == 409
                refused = stale_at(raw) if status == 409 else Refused()
                if refused.version is not None:
                    awaiting = max(awaiting, refused.version)
                current = self.views[seat]
                if refused.view is not None and (current is None or refused.view.version > current.version):
                    self.views[seat] = refused.view
                self.wake[seat].set()


class WsAnswer(msgspec.Struct):
    status: int
    body: msgspec.Raw


VIEW_FRAME = '{"kind":"view","view":'  # how the gateway starts a view's frame (ws_endpoint.py)
PRESENCE_FRAME = '{"kind":"presence"'  # and a presence frame's: who is connected


class WsMatch(Match):
    """The same match with each seat on one WebSocket (--ws): its views and its commands on /ws."""

    async def read(self, seat: int, token: str) -> None:
        """Nothing: the views come on the socket that ``sender`` opens."""

    async def sender(self, seat: int, token: str) -> Callable[[bytes], Awaitable[tuple[int, bytes]]]:
        url = f"ws://127.0.0.1:{self.port}/v1/matches/{self.id}/ws?access_token={token}"
        ws = await websockets.connect(url, max_size=None, compression=None, local_addr=(next(ADDRESSES), 0))
        answers: asyncio.Queue[bytes] = asyncio.Queue()

        async def receive() -> None:
            async for frame in ws:
                if frame.startswith(VIEW_FRAME):
                    self.saw(seat, frame[len(VIEW_FRAME) : -1].encode())
                elif not frame.startswith(PRESENCE_FRAME):
                    answers.put_nowait(frame.encode())

        reader = asyncio.create_task(receive())
        reader.add_done_callback(report)
        self.conns.append(Closing(ws, reader))

        async def send(command: bytes) -> tuple[int, bytes]:
            await ws.send(b'{"id":0,"command":' + command + b"}", text=True)
            answer = msgspec.json.decode(await answers.get(), type=WsAnswer)  # one in flight per seat
            return answer.status, bytes(answer.body)

        return send


class Closing:
    """A seat's socket and its reader, closed with the match's connections."""

    def __init__(self, ws: Any, reader: asyncio.Task) -> None:
        self.ws, self.reader = ws, reader

    def close(self) -> None:
        self.reader.cancel()
        task = asyncio.get_running_loop().create_task(self.ws.close())
        task.add_done_callback(report)


def report(task: asyncio.Task) -> None:
    if not task.cancelled() and task.exception() is not None:
        print("client task failed:", repr(task.exception()), file=sys.stderr)


async def keep_matches(
    ports: list[int], count: int, stats: Stats, stop: asyncio.Event, rng: random.Random, kind: type[Match] = Match
) -> None:
    async def slot() -> None:
        while not stop.is_set():
            await kind(ports, stats, random.Random(rng.random())).run()

    tasks = [asyncio.create_task(slot()) for _ in range(count)]
    for task in tasks:
        task.add_done_callback(report)
    await stop.wait()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


class Floor:
    """The bare endpoint's clients: kept connections (through a slice), each sending as soon as answered."""

    BODY = b'{"type": "PickCard", "card": "ht-food-01", "expected_version": 3}'

    def __init__(self, ports: list[int], clients: int) -> None:
        self.ports, self.clients = ports, clients
        self.conns: list[Conn] = []
        self.latencies: list[float] = []

    async def open(self) -> None:
        self.conns = [await Conn(self.ports[index % len(self.ports)]).open() for index in range(self.clients)]

    async def run(self, seconds: float) -> None:
        stop = time.perf_counter() + seconds

        async def client(conn: Conn) -> None:
            while time.perf_counter() < stop:
                started = time.perf_counter()
                status, _ = await conn.request("POST", "/bench/floor", self.BODY)
                assert status == 200
                self.latencies.append(time.perf_counter() - started)

        await asyncio.gather(*(client(conn) for conn in self.conns))

    def close(self) -> None:
        for conn in self.conns:
            conn.close()


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def redis_calls(port: int | None) -> dict[str, int]:
    """Calls so far of each Redis command (INFO commandstats), or nothing without a Redis of ours."""
    if port is None:
        return {}
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(b"INFO commandstats\r\n")
        reply = b""
        while not reply.startswith(b"$") or reply.count(b"\r\n") < 2 or not reply.endswith(b"\r\n"):
            reply += sock.recv(65536)
    calls = {}
    for line in reply.decode().splitlines():
        if line.startswith("cmdstat_"):
            name, _, fields = line[8:].partition(":")
            calls[name] = int(fields.split(",")[0].split("=")[1])
    return calls


class Phase:
    """Wall time, CPU time by process and Redis commands by name, summed over the slices of one
    kind of load: per command, figures that a shared machine's drifting speed hardly moves."""

    def __init__(self, pids: dict[str, int], redis_port: int | None = None) -> None:
        self.pids = pids
        self.redis_port = redis_port
        self.elapsed = 0.0
        self.cpu = dict.fromkeys(pids, 0.0)
        self.calls: dict[str, int] = {}

    @contextlib.contextmanager
    def timed(self) -> Iterator[None]:
        began, before = time.perf_counter(), {name: cpu_seconds(pid) for name, pid in self.pids.items()}
        calls = redis_calls(self.redis_port)
        yield
        self.elapsed += time.perf_counter() - began
        for name, pid in self.pids.items():
            self.cpu[name] += cpu_seconds(pid) - before[name]
        for name, count in redis_calls(self.redis_port).items():
            self.calls[name] = self.calls.get(name, 0) + count - calls.get(name, 0)


async def measure(
    ports: list[int],
    matches: int,
    seconds: float,
    warmup: float,
    pids: dict[str, int] | None = None,
    rate: float = 0,
    slices: int = 4,
    kind: type[Match] = Match,
    redis_port: int | None = None,
    mode: str = "plain",
) -> dict:
    """Our matches and the bare endpoint, measured in alternating slices (the matches held while
    the floor runs), so that both see the same machine: its speed drifts within minutes here."""
    pids = {**(pids or {}), "client": os.getpid()}
    stats = Stats(rate, mode)
    stop = asyncio.Event()
    runner = asyncio.create_task(keep_matches(ports, matches, stats, stop, random.Random(matches), kind))
    clients = min(4 * matches, 256)
    bare = Floor(ports, clients)
    await asyncio.sleep(warmup)
    ours, floors = Phase(pids, redis_port), Phase(pids)
    for index in range(slices):
        if index:
            stats.go.set()
            await asyncio.sleep(SETTLE_S)  # the held seats' burst passes
        with ours.timed():
            stats.measuring = True
            await asyncio.sleep(seconds / slices)
            stats.measuring = False
        stats.go.clear()
        await asyncio.sleep(SETTLE_S)  # the commands in flight land, and their views
        # connected for each slice: a connection kept idle while ours runs outlives the gateways'
        # keep-alive (TAVERN_KEEPALIVE_S) and is reset under the next slice's first request
        await bare.open()
        with floors.timed():
            await bare.run(min(seconds, 5) / slices)
        bare.close()
    stats.go.set()
    stop.set()
    await runner
    floor_requests = max(1, len(bare.latencies))
    floor_rate = len(bare.latencies) / floors.elapsed
    rate = stats.accepted / ours.elapsed
    return {
        "matches": matches,
        "transport": "websocket" if kind is WsMatch else "sse+post",
        "mode": mode,
        **({"rate_limit": round(1 / stats.pacer.interval)} if stats.pacer.interval else {}),
        "accepted_per_s": round(rate),
        "statuses": stats.statuses,
        "stale_per_accepted": round(stats.stale / max(1, stats.accepted), 2),
        "command_ms_p50": round(pct(stats.command_s, 0.5), 2),
        "command_ms_p99": round(pct(stats.command_s, 0.99), 2),
        "own_view_ms_p50": round(pct(stats.own_view_s, 0.5), 2),
        "own_view_ms_p99": round(pct(stats.own_view_s, 0.99), 2),
        "all_views_ms_p50": round(pct(stats.all_views_s, 0.5), 2),
        "all_views_ms_p99": round(pct(stats.all_views_s, 0.99), 2),
        "move_to_all_views_ms_p50": round(pct(stats.move_to_all_s, 0.5), 2),
        "move_to_all_views_ms_p99": round(pct(stats.move_to_all_s, 0.99), 2),
        # each seat's mean time from one move to its next (Little's law: seats over rate); the
        # part of it that is not the move itself is spent waiting for the round, or in the client
        "seat_cycle_ms": round(4 * matches / rate * 1000, 1) if rate else None,
        "matches_finished": stats.matches_done,
        # coalescing: each stream gets the newest view, so a busy server sends fewer than 4 per command
        "views_per_command": round(stats.views / max(1, stats.accepted), 2),
        "floor_clients": clients,
        "floor_per_s": round(floor_rate),
        "floor_ms_p99": round(pct(bare.latencies, 0.99), 2),
        "ratio": round(rate / floor_rate, 3) if floor_rate else None,
        "floor_cpu_us_per_request": {name: round(used / floor_requests * 1e6) for name, used in floors.cpu.items()},
        # CPU per accepted command, by process (us): where the time goes
        "cpu_us_per_command": {name: round(used / max(1, stats.accepted) * 1e6) for name, used in ours.cpu.items()},
        # the server's part (Redis, gateways, workers): the peer's figure of the same name is its server's
        "server_cpu_us_per_command": round(
            sum(used for name, used in ours.cpu.items() if name != "client") / max(1, stats.accepted) * 1e6
        ),
        "cpu_share_of_2_cores": round(sum(ours.cpu.values()) / ours.elapsed / 2, 2),
        # Redis commands per accepted command, by name (INFO commandstats of the Redis started here)
        "redis_calls_per_command": {
            name: round(count / max(1, stats.accepted), 3) for name, count in sorted(ours.calls.items()) if count
        },
    }


async def wait_healthy(port: int) -> None:
    for _ in range(600):
        try:
            conn = await Conn(port).open()
            status, _ = await conn.request("GET", "/healthz")
            conn.close()
            if status == 200:
                return
        except OSError:
            await asyncio.sleep(0.05)
    sys.exit("the gateway did not start")


def run_peer(counts: list[int], seconds: float, warmup: float, workdir: Path, modes: list[str]) -> None:
    """The peer on the same machine in the same run: a boardgame.io 0.50.2 server (one Node
    process, socket.io, in-memory storage) and a Node process of bot clients that never pause,
    on a 4-seat simultaneous card draft (tests/bench/peer/). Needs node and npm."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        print(json.dumps({"peer": "not run: node and npm are needed"}))
        return
    peer = workdir / "peer"
    shutil.copytree(ROOT / "tests" / "bench" / "peer", peer)
    subprocess.run([npm, "install", "--silent", "--no-audit", "--no-fund"], cwd=peer, check=True)
    # as it would be deployed: in development mode boardgame.io checks every move's state for
    # JSON-safety and loads immer's development build
    env = dict(os.environ, NODE_ENV="production")
    for matches in counts:
        for mode in dict.fromkeys("strict" if mode == "exact" else mode for mode in modes):
            run_peer_once(node, peer, env | {"PEER_MODE": mode}, matches, seconds, warmup, workdir)


def run_peer_once(
    node: str, peer: Path, env: dict[str, str], matches: int, seconds: float, warmup: float, workdir: Path
) -> None:
    """One line of the peer's figures; PEER_MODE strict: its stateID checked (tests/bench/peer/game.js)."""
    port = free_pair()
    with open(workdir / "peer.log", "ab") as log:
        # its log too: strict, it writes a line for every stale move it drops
        server = subprocess.Popen([node, "server.js"], cwd=peer, env=env | {"PORT": str(port)}, stdout=log, stderr=log)
    try:
        run(wait_listening(port))
        args = [node, "bench.js", str(port), str(matches), str(seconds), str(warmup), str(server.pid)]
        line = subprocess.run(args, cwd=peer, env=env, capture_output=True, text=True, check=True).stdout
        print(line.strip(), flush=True)
    finally:
        server.terminate()
        server.wait(10)


def free_pair() -> int:
    """A free port whose next one is free too (the peer's lobby API listens there)."""
    while True:
        port = free_port()
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port + 1))
                return port
            except OSError:
                continue


async def wait_listening(port: int) -> None:
    for _ in range(600):
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", port + 1)
            writer.close()
            return
        except OSError:
            await asyncio.sleep(0.05)
    sys.exit("the peer did not start")


def rates(options: argparse.Namespace) -> list[float]:
    """The --rate of each --matches (one --rate: the same for all)."""
    if len(options.rate) == 1:
        return options.rate * len(options.matches)
    if len(options.rate) != len(options.matches):
        sys.exit("give one --rate, or one per --matches")
    return options.rate


def measure_all(
    options: argparse.Namespace, ports: list[int], pids: dict[str, int] | None, redis_port: int | None = None
) -> None:
    """One line of figures per --matches."""
    # --ws: SSE + POST and the WebSocket take turns, twice, so that both see the same drifting machine
    kinds = [Match, WsMatch] * 2 if options.ws else [Match]
    for matches, rate in zip(options.matches, rates(options), strict=True):
        for mode in options.modes:
            for kind in kinds:
                args = (ports, matches, options.seconds, options.warmup, pids, rate, options.slices, kind, redis_port)
                figures = measure(*args, mode=mode)
                print(json.dumps(run(figures)), flush=True)


def start(args: list[str], env: dict[str, str], log) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "services.cli", *args], cwd=ROOT, env=env, stdout=log, stderr=log)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, nargs="+", default=[10, 50, 200])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--slices", type=int, default=4, help="ours and the floor take turns, this many times each")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--addresses", type=int, default=64, help="loopback addresses the client connects from")
    parser.add_argument("--redis-url", default=None, help="default: a redis-server started here")
    parser.add_argument("--gateways", type=int, default=1, help="`tavern serve` processes, matches spread by id")
    parser.add_argument("--peer", action="store_true", help="then measure the peer the same way (node, npm)")
    parser.add_argument("--ws", action="store_true", help="also each seat on one WebSocket, in turns with SSE + POST")
    parser.add_argument(
        "--modes",
        nargs="+",
        choices=["plain", "strict", "exact"],
        default=["plain"],
        help="strict: each command carries expected_version, a 409 is retried from the newest view"
        " (the peer: boardgame.io's stateID checked); exact: strict with Prefer: handling=strict, every"
        " stale version a 409 (the peer: as strict)",
    )
    parser.add_argument(
        "--rate", type=float, nargs="+", default=[0], help="commands/s of all seats, one per --matches (0: no limit)"
    )
    parser.add_argument(
        "--gateway-port", type=int, nargs="+", default=None, help="use running gateways (TAVERN_BENCH=1)"
    )
    options = parser.parse_args()
    source_addresses(options.addresses)
    if options.gateway_port is not None:
        measure_all(options, options.gateway_port, None)
        return
    processes: list[subprocess.Popen] = []
    workdir = Path(tempfile.mkdtemp(prefix="tavern-bench-"))
    log = open(workdir / "service.log", "wb")  # noqa: SIM115 (lives as long as the run)
    try:
        url, redis_port = options.redis_url, None
        if url is None:
            redis_port = free_port()
            binary = shutil.which("redis-server") or sys.exit("redis-server is missing")
            args = [binary, "--port", str(redis_port), "--save", "", "--appendonly", "no", "--dir", str(workdir)]
            processes.append(subprocess.Popen(args, stdout=subprocess.DEVNULL))
            url = f"redis://127.0.0.1:{redis_port}/0"
            time.sleep(0.3)
        env = dict(os.environ, REDIS_URL=url, TAVERN_BENCH="1", LOG_LEVEL="warning", PYTHONPATH=str(ROOT))
        # the kit's (deploy/tavern.env)
        env |= {"TAVERN_API_KEYS": API_KEY, "TAVERN_CREATE_IDENTITY": "player", **CREATES_OFF}
        ports = [free_port() for _ in range(options.gateways)]
        pids = {"redis": processes[0].pid} if options.redis_url is None else {}
        for index, port in enumerate(ports):
            processes.append(start(["serve", "--port", str(port)], env, log))
            pids["gateway" if len(ports) == 1 else f"gateway{index}"] = processes[-1].pid
        for index in range(options.workers):
            processes.append(start(["worker"], env, log))
            pids[f"worker{index}"] = processes[-1].pid
        for port in ports:
            run(wait_healthy(port))
        setup = {"redis": url, "gateways": len(ports), "workers": options.workers, "seconds": options.seconds}
        print(json.dumps(setup | {"log": str(workdir)}))
        measure_all(options, ports, pids, redis_port)
    finally:
        for process in reversed(processes):
            process.terminate()
        for process in processes:
            process.wait(10)
    if options.peer:
        run_peer(options.matches, options.seconds, options.warmup, workdir, options.modes)


if __name__ == "__main__":
    main()
