"""Benchmark of the service's whole path: gateway, Redis, worker, SSE. Prints; asserts nothing.

    python tests/bench/bench_service.py --matches 10 50 200 --seconds 10

Starts a redis-server on a free port (or uses --redis-url), --gateways `tavern serve` processes
(one by default; with more, each match's requests go to one of them chosen by its id, as a
balancer hashing the path's match id would) and --workers `tavern worker` processes, then drives
N concurrent 4-seat Hero's Tavern matches from this process: every seat is a client that never
pauses, with its SSE stream open; as soon as its stream shows a view with legal commands newer
than its last answer, it sends one of them. A match that ends is replaced by a new one, on the
connections its slot keeps (Kept): the creation's and each seat's POSTs are kept alive from one
match to the next, and only each seat's stream is a new connection (a stream goes on after its
match ends, and an HTTP/1.1 client ends an answer only by closing; with --ws each seat's socket is
new too: its path names the match, and the protocol has no message to follow another). It
reports accepted commands/s, p50/p99 command latency, p50/p99 from a command's 200 to the new
view on the seat's own stream and on all 4 streams, and p50/p99 from sending a command to its
version on all 4 streams (the peer's "move to its state at all 4 clients"), and each seat's mean
cycle from one move to its next: in a closed loop that is seats over rate, whatever the path, so
the share of it a move takes says where the seats wait (in flight, or in the round and the client).
In the same run it drives the bare endpoint (POST /bench/floor: decode a msgspec command, one
XADD) with as many concurrent clients; the ratio of the two rates is the figure. The two take
turns (--slices), the matches held while the floor runs: this machine's speed drifts by up to 2x
within minutes, and a floor measured after ours made the ratio swing with it.

With --peer it then measures the peer after ours, on the same cores, with the same client: a
boardgame.io 0.50.2 server (tests/bench/peer/, which npm installs into the run's directory; one
Node process, restarted for each line) on a 4-seat simultaneous card draft, its matches created
and replaced as ours are (its lobby API: create, 4 joins, on the slot's kept connection), each
seat on one WebSocket speaking boardgame.io's socket.io protocol as its own client does ("sync",
then each new state an "update", a pick an "update" carrying the stateID it was chosen from and
its credentials), and picking as soon as its state allows; the seat's socket is kept for its
slot's next match, which a "sync" of that match's ID moves it to (as boardgame.io's client does
when its matchID changes: the server takes the socket out of the old match's clients). The
server answers no move: a pick carries a tag the state shows to all, and a move's time runs from
its first try to its tag on all 4 clients, our "move to all views". Both sides' seats are this
process's protocols (SSE and HTTP/1.1 here, WebSocket frames there), a callback per message, so
each side's client costs about the same a move (each line's cpu_us_per_command["client"]). In a
closed loop a seat's cycle is seats over rate, and the client's part of it falls outside the
measured span: the peer's own Node clients, which drove it before, spent 750-990 us of CPU a
move on the same 2 cores (this client: ~210).

The client's own figures: its reads of Redis (INFO) and of the services' /metrics at a window's
edges are asynchronous, on connections of their own, and the window's time and CPU are taken
between them (read blocking, they held every seat once for the seconds a saturated worker's
/metrics, a thread of a busy process, takes to answer: the max and half the p99 at 200 matches);
client_lag_ms_max is the longest its loop was late while measuring. The first M matches start at
most STARTING_AT_ONCE at a time, each until all its seats have their first view (Ramp: started
all at once, 200 of the peer's overflowed its accept queue, and a dropped SYN waits seconds for
its retransmit), each next one as soon as its slot's last ends, and --warmup counts from when M
have started (ramp_s); listen_overflows is the machine's count of accept queue drops over a
line. Of the M, matches_in_play_mean were in play on average while measuring (every seat has its
view, not ended), the others being started, and connections_per_match_started is what each match
that came into play cost the server's accept loop (ours 4, the peer's none; matches_started
says how many came into play while measuring): a server on libuv took one new connection a turn
of its loop, some tens a second at saturation, and with every connection new for each match (9
ours, 5 the peer's) that rate, not play, bounded the matches in play at 200.

--modes: how careful the clients are, each mode a line per --matches (and for the peer). plain:
commands without a version. strict: each command carries the ``expected_version`` of the view it
was chosen from, and a 409 is retried from the newest view, the one the 409 carries if it does
(the peer: boardgame.io's stateID checked, a dropped move sent again from the newest state);
``stale_per_accepted`` counts the refusals, and a move's latency runs from its first try. exact:
strict, asking for a 409 on every stale version (``Prefer: handling=strict``; the peer has no
other strictness). Each line gives the server's CPU per accepted command (Redis, gateways,
workers: ``server_cpu_us_per_command``, the peer's server the same) and the Redis commands per
accepted command (INFO commandstats).

--continuous runs issue 31's load: our matches in one stretch of --seconds, never held and without
the floor, as the peer's are (a hold every slice let a backlog drain, and hid the tail that builds
over seconds at 200 matches); with --limits-off the rates of commands and reads are off, as the peer
has none. A move counts if first sent while measuring, whenever its views land (one that lands
after the stretch, in the load that goes on for LANDING_S, is not left out; one still in flight
then counts at its age), and each line gives p50, p99 and max of a move to all 4 streams, and
the spread from the first stream showing it to the fourth (the fan-out's share). The run ends
with a table of the lines, ours beside the peer's. --trace FILE writes each measured move's times
(its match, version, seat, sent, answered, first and fourth stream, its match's creation), to
find where a tail comes from.

With --ws each seat also plays on one WebSocket (/v1/matches/{id}/ws: its views and its commands),
the two transports taking turns twice per --matches, each line saying its "transport" (exact asks for
the plain check in each command's message: `"handling": "strict"`).

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

The client is a small HTTP/1.1 keep-alive client on asyncio protocols (httpx would spend more CPU
than the server on these 2 cores). It shares the cores with the service, so it reads only what a
player needs of a view (version, status, legal) and sends an element of ``legal`` back as the
very bytes it received.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
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
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import msgspec
import websockets

try:
    from uvloop import run  # the client's own CPU comes out of the same 2 cores as the service's
except ImportError:  # pragma: no cover (Windows)
    from asyncio import run

ROOT = Path(__file__).resolve().parents[2]
# --trace: each measured move's times, to find where a tail comes from (its match, its age, its stage)
TRACE: list[tuple] | None = None
SETTLE_S = 0.5  # after the seats are held or let go, before a slice is measured
LANDING_S = 3.0  # after a stretch without the floor, the load goes on while its last moves land
# the matches are created as a trusted frontend would, with its key (the kit's TAVERN_CREATE_IDENTITY
# is player): the first of TAVERN_API_KEYS, the running gateways' (--gateway-port), else one of ours
API_KEY = os.environ.get("TAVERN_API_KEYS", "bench-frontend-key").split(",")[0].strip()


# the one limit this client goes past: one frontend's key creates every match, up to 40 a second
# at 10 matches, where a key is shipped with 5 (TAVERN_CREATES_PER_S; a deployment whose frontend
# creates that fast raises it); every other limit stays on, as shipped
CREATES_OFF = {"TAVERN_CREATES_PER_S": "0"}

# --limits-off: the per-token and per-address rates of commands and reads too (the peer has none),
# and an idle kept connection's and a request's headers' timeouts long: at 200 matches a seat may wait
# for its view longer than the kit's 5 s, and a connection let go as the seat writes is reset
RATES_OFF = {
    **{
        f"TAVERN_{name}": "0"
        for name in ("COMMANDS_PER_S_TOKEN", "COMMANDS_PER_S_ADDRESS", "READS_PER_S_TOKEN", "READS_PER_S_ADDRESS")
    },
    "TAVERN_KEEPALIVE_S": "300",
    "TAVERN_HEADER_TIMEOUT_S": "300",
}

# connections this client has opened so far (HTTP and WebSocket): a line's count of them per match
# started says what starting a match costs the servers' accept loops
OPENED = [0]

# where the client's connections come from, in turn (--addresses sets how many)
ADDRESSES = itertools.cycle(["127.0.0.1"])


def source_addresses(count: int) -> None:
    """Spread the client's connections over ``count`` loopback addresses (127.0.1.1, 127.0.1.2, ...)."""
    global ADDRESSES
    ADDRESSES = itertools.cycle([f"127.0.{1 + n // 250}.{1 + n % 250}" for n in range(count)])


def listen_overflows() -> int:
    """This machine's count of connections dropped by a full accept queue (TcpExtListenOverflows)."""
    lines = Path("/proc/net/netstat").read_text().splitlines()
    names, values = next(
        (lines[i].split(), lines[i + 1].split()) for i in range(len(lines)) if lines[i].startswith("TcpExt:")
    )
    return int(values[names.index("ListenOverflows")])


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
        OPENED[0] += 1
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
        # not yet open (a slot's kept connection), or the server let an idle keep-alive one go
        if self.transport is None or self.transport.is_closing():
            self.buffer.clear()
            await self.open()
        self.reply = asyncio.get_running_loop().create_future()
        self.transport.write(head.encode() + b"\r\n" + body)
        try:
            return await self.reply
        except asyncio.CancelledError:
            # given up (its match ended): its answer, still to come, would be taken for the next
            # request's; closed, the next request opens another connection
            self.transport.close()
            raise

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

    def wait(self) -> float:
        """How long the next command waits for its turn (s)."""
        if not self.interval:
            return 0.0
        now = time.perf_counter()
        self.next = max(self.next + self.interval, now)
        return self.next - now

    async def turn(self) -> None:
        if self.interval:
            await asyncio.sleep(self.wait())


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
        # from the first stream showing a move's version to the fourth: the fan-out's share of the tail
        self.spread_s: list[float] = []
        # moves first sent while measuring whose version had not reached all 4 streams when the run
        # stopped: their age then (a lower bound of their latency, counted in the percentiles too)
        self.unseen = 0
        self.views = 0  # views that arrived on the streams while measuring
        self.matches_done = 0
        self.started = 0  # matches that came into play while measuring
        self.start_s: list[float] = []  # of those, each one's creation to every seat's first view
        self.playing = 0  # matches started (every seat has its view) and not ended
        self.measuring = False
        self.go = asyncio.Event()  # cleared while the floor is measured: the seats hold their commands
        self.go.set()


class Kept:
    """A slot's connections, kept from one of its matches to the next, each made when first asked
    for: a finished match is replaced without a new connection where the protocol allows one to
    serve the next match (ours: the creation's and each seat's POSTs, HTTP/1.1 keep-alive; the
    peer's: the lobby's, and each seat's socket, which boardgame.io's "sync" moves to another
    match). A server accepts only some tens of new connections a second at saturation, and a new
    one for each seat of each match made starting matches, not playing them, the bound at 200."""

    def __init__(self) -> None:
        self.held: dict[Any, Any] = {}

    def get(self, key: Any, make: Callable[[], Any]) -> Any:
        if key not in self.held:
            self.held[key] = make()
        return self.held[key]

    def close(self) -> None:
        for held in self.held.values():
            held.close()


class Match:
    """One match: 4 seats, each a reader of its stream and a player."""

    def __init__(self, ports: list[int], stats: Stats, rng: random.Random, kept: Kept) -> None:
        self.ports, self.stats, self.rng, self.kept = ports, stats, rng, kept
        self.port = ports[0]
        self.seen = [0, 0, 0, 0]  # newest version on each seat's stream
        self.views: list[Seen | None] = [None] * 4
        self.wake = [asyncio.Event() for _ in range(4)]
        self.answered: dict[int, float] = {}  # version -> when its 200 arrived
        self.answering: dict[int, int] = {}  # version -> the seat whose command it answered
        self.sent: dict[int, float] = {}  # version -> when the move that made it was first sent, if measured
        self.first_seen: dict[int, float] = {}  # version -> when a stream first showed it
        self.started = asyncio.Event()  # every seat has its first view: all its connections answered
        self.finished = asyncio.Event()
        self.conns: list[Conn] = []

    async def run(self, ramp: Ramp | None = None) -> None:
        """Play the match to its end, started within ``ramp``'s bound."""
        tasks: list[asyncio.Task] = []
        playing = False
        try:
            async with ramp.start() if ramp else contextlib.nullcontext():
                creating = time.perf_counter()
                control = self.kept.get("control", lambda: Conn(self.port))
                body = json.dumps({"game": "heros-tavern", "seats": 4, "bots": []}).encode()
                status, raw = await control.request("POST", "/v1/matches", body, extra=f"X-API-Key: {API_KEY}\r\n")
                assert status == 201, raw
                created = json.loads(raw)
                self.id = created["match_id"]
                self.born = time.perf_counter()
                # with several gateways, a match's requests all go to one, chosen by its id (as a balancer
                # hashing the path's match id would): its fold cache and command chains stay in one place
                self.port = self.ports[zlib.crc32(self.id.encode()) % len(self.ports)]
                tokens = [seat["token"] for seat in created["seats"]]
                tasks = [asyncio.create_task(self.read(seat, tokens[seat])) for seat in range(4)]
                tasks += [asyncio.create_task(self.play(seat, tokens[seat])) for seat in range(4)]
                for task in tasks:
                    task.add_done_callback(report)
                await self.started.wait()
            playing = True
            self.stats.playing += 1
            self.stats.started += self.stats.measuring
            if self.stats.measuring:
                self.stats.start_s.append(time.perf_counter() - creating)
            await self.finished.wait()
            self.stats.matches_done += 1
        finally:  # also when the run stops mid-match: no stream reader outlives the loop
            self.stats.playing -= playing
            self.cut_short()
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            for conn in self.conns:
                conn.close()

    async def read(self, seat: int, token: str) -> None:
        # a connection of its own for each match: a stream goes on after its match has ended
        # (keep-alives until its client goes, docs/API.md), and its client can end an HTTP/1.1
        # answer only by closing the connection
        conn = await Conn(self.port).open()
        self.conns.append(conn)
        await conn.stream(f"/v1/matches/{self.id}/stream", token, lambda data: self.saw(seat, data))

    def saw(self, seat: int, data: bytes) -> None:
        """A view arrived on ``seat``'s stream. A move is measured if it was first sent while
        measuring, whenever its views arrive: one that lands after its slice is not left out."""
        now = time.perf_counter()
        view = seen_view(data)
        version = view.version
        stats = self.stats
        stats.views += stats.measuring
        for v, at in self.answered.items():
            if self.seen[seat] < v <= version and v in self.sent:
                self.first_seen.setdefault(v, now)
                if self.answering.get(v) == seat:
                    stats.own_view_s.append(now - at)
                if min([*self.seen[:seat], version, *self.seen[seat + 1 :]]) >= v:
                    stats.all_views_s.append(now - at)
                    stats.move_to_all_s.append(now - self.sent[v])
                    stats.spread_s.append(now - self.first_seen[v])
                    if TRACE is not None:  # match, version, seat, sent, 200, first stream, 4th, match created
                        TRACE.append(
                            (self.id, v, self.answering.get(v), self.sent[v], at, self.first_seen[v], now, self.born)
                        )
        self.seen[seat] = version
        self.views[seat] = view
        self.wake[seat].set()
        if not self.started.is_set() and None not in self.views:
            self.started.set()
        if view.status == "finished" and all(seen is not None and seen.status == "finished" for seen in self.views):
            self.finished.set()  # ended on all 4 streams: its last moves are measured
        done = [v for v in self.answered if v <= min(self.seen)]
        for v in done:
            del self.answered[v]
            self.sent.pop(v, None)
            self.first_seen.pop(v, None)

    def cut_short(self) -> None:
        """The run stops: the measured moves not yet on all 4 streams count at their age so far."""
        now = time.perf_counter()
        for v, at in self.sent.items():
            if v > min(self.seen):
                self.stats.unseen += 1
                self.stats.move_to_all_s.append(now - at)

    async def sender(self, seat: int, token: str) -> Callable[[bytes], Awaitable[tuple[int, bytes]]]:
        """How ``seat`` sends a command: a POST on a kept connection of its own, the slot's."""
        conn = self.kept.get(("post", seat, self.port), lambda: Conn(self.port))
        path = f"/v1/matches/{self.id}/commands"
        prefer = self.stats.prefer
        return lambda command: conn.request("POST", path, command, token, prefer)

    async def play(self, seat: int, token: str) -> None:
        send = await self.sender(seat, token)
        acted_on = 0  # the version of the view last acted on
        measured = False  # this move was first sent while measuring
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
            if first_try is None:
                first_try, measured = started, self.stats.measuring
            try:
                status, raw = await send(command)
            except ConnectionError:  # the gateway let the kept connection go as we wrote: sent again
                status, raw, acted_on = 0, b"", 0  # from this view (if it was taken, refused: the next view)
            now = time.perf_counter()
            stats = self.stats
            stats.statuses[status] = stats.statuses.get(status, 0) + 1
            if status == 200:
                version = awaiting = answered(raw).version
                if stats.measuring:
                    stats.accepted += 1
                if measured:
                    stats.command_s.append(now - started)
                    self.sent[version] = first_try  # a move's time runs from its first try
                self.answered[version] = now
                self.answering[version] = seat
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
        # a socket for each match: its path names the match, and it has no message to follow another
        url = f"ws://127.0.0.1:{self.port}/v1/matches/{self.id}/ws?access_token={token}"
        OPENED[0] += 1
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

        handling = b',"handling":"strict"' if self.stats.prefer else b""  # exact, as POST's Prefer

        async def send(command: bytes) -> tuple[int, bytes]:
            await ws.send(b'{"id":0,"command":' + command + handling + b"}", text=True)
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


class PeerG(msgspec.Struct):
    """The part of the peer's player view a seat acts on (tests/bench/peer/game.js's playerView)."""

    hand: list[str]
    mine: str | None  # the card this seat picked this round, until all 4 have
    tags: dict[str, str]  # each seat's last pick's tag, shown to all: a move's mark on each client


class PeerCtx(msgspec.Struct):
    gameover: dict[str, Any] | None = None  # {"done": true} at the end


class PeerState(msgspec.Struct):
    G: PeerG
    ctx: PeerCtx
    state_id: int = msgspec.field(name="_stateID")


class PeerUpdate(msgspec.Struct, array_like=True):
    """An "update" event: its name, the match, the state (and the log, skipped unread)."""

    name: str
    match: str
    state: PeerState


class PeerSyncInfo(msgspec.Struct):
    state: PeerState


class PeerSync(msgspec.Struct, array_like=True):
    """A "sync" event, the answer to a seat's "sync": the match's state when the seat joins."""

    name: str
    match: str
    info: PeerSyncInfo


peer_update = msgspec.json.Decoder(PeerUpdate).decode
peer_sync = msgspec.json.Decoder(PeerSync).decode
PEER_TAGS = itertools.count()  # each pick's tag, unique in the run
# socket.io (protocol 5) over engine.io 4, on the game's namespace, as boardgame.io's client speaks it
NAMESPACE = b"/draft"
JOIN = b"40" + NAMESPACE + b","  # enter the namespace; the server's answer starts the same
EVENT = b"42" + NAMESPACE + b","
PEER_UPDATE = EVENT + b'["update",'
PEER_SYNC = EVENT + b'["sync",'


class PeerSocket(Conn):
    """A WebSocket to the peer, parsed as it arrives as Conn parses SSE (a protocol, a callback per
    message, no coroutine): the two sides' clients cost the same, where the ``websockets``
    package cost this client three times its SSE's CPU a move (its connect alone ~2 ms)."""

    async def socket(self, path: str, on_message: Callable[[bytes], None]) -> None:
        """Hand each message to ``on_message`` until the connection ends."""
        self.on_data, self.ended = on_message, asyncio.get_running_loop().create_future()
        self.upgraded = False
        self.parts = bytearray()  # a fragmented message's parts so far
        key = base64.b64encode(os.urandom(16)).decode()
        self.transport.write(
            f"GET {path} HTTP/1.1\r\nHost: bench\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        await self.ended

    def send(self, payload: bytes, opcode: int = 0x81) -> None:
        """One frame, final (0x81: text). A client's frames are masked; the key is zero, which
        leaves the payload as it is: the mask guards proxies against a browser page's script,
        and none is between the bench and the peer."""
        size = len(payload)
        if size < 126:
            head = bytes((opcode, 0x80 | size))
        elif size < 1 << 16:
            head = bytes((opcode, 0x80 | 126)) + size.to_bytes(2, "big")
        else:
            head = bytes((opcode, 0x80 | 127)) + size.to_bytes(8, "big")
        self.transport.write(head + b"\0\0\0\0" + payload)

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        if not self.upgraded:
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            if self.buffer[9:12] != b"101":
                self.ended.set_exception(AssertionError(f"the socket was answered {bytes(self.buffer[:end])!r}"))
                return
            del self.buffer[: end + 4]
            self.upgraded = True
        buffer = self.buffer
        while len(buffer) >= 2:  # the server's frames: not masked
            size, at = buffer[1] & 0x7F, 2
            if size >= 126:
                at = 4 if size == 126 else 10
                if len(buffer) < at:
                    return
                size = int.from_bytes(buffer[2:at], "big")
            if len(buffer) < at + size:
                return
            final, opcode = buffer[0] & 0x80, buffer[0] & 0x0F
            payload = bytes(buffer[at : at + size])
            del buffer[: at + size]
            if opcode == 0x9:  # a ping: its pong
                self.send(payload, 0x8A)
            elif opcode == 0x8:  # closed by the server
                self.transport.close()
            elif final and not self.parts:
                self.on_data(payload)
            else:  # a fragment (a continuation, or a message's first)
                self.parts += payload
                if final:
                    message = bytes(self.parts)
                    self.parts.clear()
                    self.on_data(message)


class PeerSeat:
    """One seat of a slot's peer matches: its socket, kept from one match to the next (a "sync"
    for the next match moves it, as boardgame.io's client does on a new matchID: the server
    takes the socket out of the old match's clients and into the new one's), and its client's
    state in the match it is in."""

    def __init__(self, port: int, seat: int) -> None:
        self.port, self.player = port, str(seat)
        self.socket = PeerSocket(port)
        self.reader: asyncio.Task | None = None  # the socket's, while it is open
        self.joined = False  # in the game's namespace: a "sync" may be sent
        self.match: PeerMatch | None = None

    def join(self, match: PeerMatch, credentials: str) -> None:
        """Play ``match`` from now on (a socket opened for the first, or moved to it)."""
        self.match, self.credentials = match, credentials
        self.seen: set[str] = set()  # the tags its client has shown
        self.pending: str | None = None  # the tag of its pick in flight
        self.sent_from = 0  # the stateID that pick was chosen from
        self.first_try: float | None = None  # when its move was first tried (a dropped pick is tried again)
        self.measured = False  # its move was first tried while measuring
        if self.reader is None or self.reader.done():
            self.socket, self.joined = PeerSocket(self.port), False
            self.reader = asyncio.create_task(self.play())
            self.reader.add_done_callback(report)
        elif self.joined:
            self.sync()

    def sync(self) -> None:
        """Ask for the match's state, as the client does when it connects or its matchID changes."""
        sync = ["sync", self.match.id, self.player, self.credentials, 4]
        self.socket.send(EVENT + json.dumps(sync).encode())

    async def play(self) -> None:
        await self.socket.open()
        await self.socket.socket("/socket.io/?EIO=4&transport=websocket", self.heard)

    def heard(self, frame: bytes) -> None:
        match = self.match
        if frame.startswith(PEER_UPDATE):
            update = peer_update(frame[len(EVENT) :])
            if update.match != match.id:  # the match the socket was in, sent before it moved
                return
            state = update.state
        elif frame.startswith(PEER_SYNC):
            synced = peer_sync(frame[len(EVENT) :])
            if synced.match != match.id:
                return
            state = synced.info.state
            match.synced += 1
            if match.synced == 4:
                match.started.set()
        elif frame == b"2":  # engine.io's ping
            self.socket.send(b"3")
            return
        elif frame.startswith(JOIN):  # in the namespace: ask for the match's state, as the client does
            self.joined = True
            self.sync()
            return
        else:  # the engine.io handshake, "matchData" (who is connected)
            if frame.startswith(b"0{"):
                self.socket.send(JOIN)
            return
        stats = match.stats
        stats.views += stats.measuring
        match.saw(state, self.seen)
        G = state.G
        if self.pending is not None and G.tags.get(self.player) == self.pending:
            stats.accepted += stats.measuring
            self.pending = self.first_try = None
        elif stats.strict and self.pending is not None and state.state_id > self.sent_from and G.mine is None:
            # dropped (game.js, strict): a newer state without this pick was made by another move;
            # picked again from it, the move's time still running from its first try
            stats.stale += stats.measuring
            match.sent.pop(self.pending, None)
            self.pending = None
        if state.ctx.gameover is not None:
            match.over.add(self.player)
            if len(match.over) == 4:
                match.finished.set()  # ended on all 4 clients: its last moves are measured
            return
        if self.pending is None and G.mine is None and G.hand:
            self.pending, self.sent_from = f"t{next(PEER_TAGS)}", state.state_id
            card = match.rng.choice(G.hand)
            if wait := stats.pacer.wait():
                asyncio.get_running_loop().call_later(wait, self.pick, card)
            else:
                self.pick(card)

    def pick(self, card: str) -> None:
        """Send the pick (a MAKE_MOVE action, as the client's ``moves.pick(card, tag)``)."""
        match = self.match
        if self.first_try is None:
            self.first_try, self.measured = time.perf_counter(), match.stats.measuring
        match.sent[self.pending] = [self.first_try, 0, 0.0, self.measured]
        payload = {
            "type": "pick",
            "args": [card, self.pending],
            "playerID": self.player,
            "credentials": self.credentials,
        }
        update = ["update", {"type": "MAKE_MOVE", "payload": payload}, self.sent_from, match.id, self.player]
        self.socket.send(EVENT + json.dumps(update).encode())

    def close(self) -> None:
        self.socket.close()
        if self.reader is not None:
            self.reader.cancel()


class PeerMatch:
    """One of the peer's matches (tests/bench/peer/: boardgame.io 0.50.2, --peer) driven by this
    same client, as boardgame.io's own client speaks to its server: the lobby's HTTP API creates
    the match and seats its 4 players, then each seat asks for a "sync" on its WebSocket
    (socket.io on engine.io 4; the slot's, Kept: opened for its first match, moved to each next);
    the server sends every new state of the match to each seat as an "update" (its player view),
    and a seat picks with an "update" of its own (a MAKE_MOVE action, with the stateID it was
    chosen from and its credentials). The server answers no move: a pick's tag in the state the
    server sends to all is its mark, and a move's time runs from its first try to its tag on all
    4 clients."""

    def __init__(self, ports: list[int], stats: Stats, rng: random.Random, kept: Kept) -> None:
        self.port, self.stats, self.rng, self.kept = ports[0], stats, rng, kept
        # tag -> [its move's first try, clients that showed it, when the first did, first tried while measuring]
        self.sent: dict[str, list] = {}
        self.over: set[str] = set()  # seats whose client showed the game over
        self.synced = 0  # seats whose client has the match's state
        self.started = asyncio.Event()  # every seat's client has it: all its connections answered
        self.finished = asyncio.Event()

    async def run(self, ramp: Ramp | None = None) -> None:
        """Play the match to its end, started within ``ramp``'s bound."""
        playing = False
        try:
            async with ramp.start() if ramp else contextlib.nullcontext():
                # the lobby API listens on the game server's port + 1 (server.js)
                creating = time.perf_counter()
                lobby = self.kept.get("lobby", lambda: Conn(self.port + 1))
                status, raw = await lobby.request("POST", "/games/draft/create", b'{"numPlayers":4}')
                assert status == 200, raw
                self.id = json.loads(raw)["matchID"]
                # one connection for the lobby: a slot's first match opens 5, within the ramp's
                # bound (4 of the joins' own made the first 200 overflow the peer's accept queue)
                for seat in range(4):
                    body = b'{"playerID":"%d","playerName":"p%d"}' % (seat, seat)
                    status, raw = await lobby.request("POST", f"/games/draft/{self.id}/join", body)
                    assert status == 200, raw
                    player = self.kept.get(("seat", seat), lambda seat=seat: PeerSeat(self.port, seat))
                    player.join(self, json.loads(raw)["playerCredentials"])
                await self.started.wait()
            playing = True
            self.stats.playing += 1
            self.stats.started += self.stats.measuring
            if self.stats.measuring:
                self.stats.start_s.append(time.perf_counter() - creating)
            await self.finished.wait()
            self.stats.matches_done += 1
        finally:
            self.stats.playing -= playing
            self.cut_short()

    def saw(self, state: PeerState, seen: set[str]) -> None:
        """A state arrived at a seat whose client had shown the tags in ``seen``."""
        now = time.perf_counter()
        for tag in state.G.tags.values():
            if tag in seen:
                continue
            seen.add(tag)
            entry = self.sent.get(tag)
            if entry is None:
                continue
            entry[1] += 1
            if entry[1] == 1:
                entry[2] = now
            if entry[1] == 4:
                if entry[3]:
                    self.stats.move_to_all_s.append(now - entry[0])
                    self.stats.spread_s.append(now - entry[2])
                del self.sent[tag]

    def cut_short(self) -> None:
        """The run stops: the measured moves not yet on all 4 clients count at their age so far."""
        now = time.perf_counter()
        for entry in self.sent.values():
            if entry[3]:
                self.stats.unseen += 1
                self.stats.move_to_all_s.append(now - entry[0])


def report(task: asyncio.Task) -> None:
    if not task.cancelled() and task.exception() is not None:
        print("client task failed:", repr(task.exception()), file=sys.stderr)


class Ramp:
    """Each slot's first match starts within a bound, STARTING_AT_ONCE at a time, each until every
    seat has its first view (all its connections answered): after its creation's answer, 8
    connections a match (ours; the peer's 4) may wait in a server's accept queue at once, 400
    (200) at most, within its backlog (uvicorn: 2,048; the peer's Node server: 511). Started all
    at once, 200 matches' connections overflowed the peer's (TcpExtListenOverflows: thousands),
    and a dropped SYN waits 1, 3, 7 s for its retransmit, its seat idle. A slot's next matches
    start as soon as the last ends, on its kept connections (Kept: 4 new ones a match ours, the
    streams', the peer's none): the peer's Node server takes one connection a turn of its event
    loop (libuv's, since 1.45), some tens a second at saturation, as uvloop's server took them for
    the gateway before its own acceptor (services/gateway/acceptor.py). The warm-up counts from
    when as many have started as run at once."""

    def __init__(self, count: int) -> None:
        self.bound = asyncio.Semaphore(STARTING_AT_ONCE)
        self.left = count  # starts until as many have started as run at once
        self.done = asyncio.Event()

    @contextlib.asynccontextmanager
    async def start(self) -> AsyncIterator[None]:
        async with self.bound:
            yield
        self.left -= 1  # not when it failed: its slot starts another
        if self.left <= 0:
            self.done.set()


STARTING_AT_ONCE = 50
RAMP_S = 120.0  # the longest the warm-up waits for the first matches to start


async def keep_matches(
    ports: list[int],
    count: int,
    stats: Stats,
    stop: asyncio.Event,
    rng: random.Random,
    kind: type[Match] | type[PeerMatch] = Match,
    ramp: Ramp | None = None,
) -> None:
    async def slot() -> None:
        kept = Kept()
        first = ramp  # a slot's first match opens all its connections: within the ramp's bound
        try:
            while not stop.is_set():
                try:
                    await kind(ports, stats, random.Random(rng.random()), kept).run(first)
                    if first is not None:  # the next ones once every slot has started: until then
                        await first.done.wait()  # the play of those started held the others' connections back
                    first = None  # each next at once, on the kept connections (ours: 4 new, the streams')
                except ConnectionError as problem:  # its creation's connection reset: a new match in its slot
                    print("a match's creation failed:", repr(problem), file=sys.stderr)
        finally:
            kept.close()

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


async def redis_calls(port: int | None) -> dict[str, int]:
    """Calls so far of each Redis command (INFO commandstats), or nothing without a Redis of ours.
    Read on the seats' loop without blocking it: a blocking read there held every seat once."""
    if port is None:
        return {}
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"INFO commandstats\r\n")
    reply = b""
    while not reply.startswith(b"$") or reply.count(b"\r\n") < 2 or not reply.endswith(b"\r\n"):
        reply += await reader.read(65536)
    writer.close()
    calls = {}
    for line in reply.decode().splitlines():
        if line.startswith("cmdstat_"):
            name, _, fields = line[8:].partition(":")
            calls[name] = int(fields.split(",")[0].split("=")[1])
    return calls


# a move's way to its streams, stage by stage (the services' histograms, services/ops/metrics.py):
# where a tail at saturation waits
STAGES = {
    "tavern_projector_wait_seconds": "dirty_to_claimed",  # the projector's queue (worker)
    "tavern_projection_seconds": "batch_projected",  # one drain step's batch (worker)
    "tavern_command_to_view_seconds": "appended_to_notice_heard",  # both of those, and the notice (gateway)
    "tavern_delivery_seconds": "notice_to_streams",  # the views read and offered to the streams (gateway)
    "tavern_subscribe_seconds": "first_stream_to_subscribed",  # a match's channel taken (gateway)
}
METRICS_PORTS: list[int] = []  # the gateways' and workers' /metrics, of the services started here


async def histograms(ports: list[int]) -> dict[str, dict[float, float]]:
    """The STAGES histograms' cumulative bucket counts, added up over ``ports``' /metrics. Read on
    connections of their own without blocking the seats' loop: at saturation a busy gateway
    answers in a second or more, and a blocking read held every seat that long (half the p99 and
    all the max at 200 matches)."""
    found: dict[str, dict[float, float]] = {}
    for text in await asyncio.gather(*(metrics_text(port) for port in ports)):
        for line in text.splitlines():
            name, _, rest = line.partition("_bucket{")
            if name in STAGES and 'le="' in rest:
                bound = rest.split('le="')[1].split('"')[0]
                buckets = found.setdefault(name, {})
                upper = float("inf") if bound == "+Inf" else float(bound)
                buckets[upper] = buckets.get(upper, 0.0) + float(line.rsplit(" ", 1)[1])
    return found


async def metrics_text(port: int) -> str:
    conn = await Conn(port).open()
    try:
        status, body = await conn.request("GET", "/metrics")
    finally:
        conn.close()
    assert status == 200, body
    return body.decode()


def bucket_pct(buckets: dict[float, float], q: float) -> float | None:
    """The upper bound (ms) of the bucket holding the ``q`` quantile: a bound, as coarse as the buckets."""
    ordered = sorted(buckets.items())
    total = ordered[-1][1] if ordered else 0
    if not total:
        return None
    return next(round(upper * 1000, 1) for upper, count in ordered if count >= q * total)


class Phase:
    """Wall time, CPU time by process, Redis commands by name and the stages' histograms, summed
    over the slices of one kind of load: per command, figures that a shared machine's drifting
    speed hardly moves."""

    def __init__(
        self, pids: dict[str, int], redis_port: int | None = None, metrics_ports: list[int] | None = None
    ) -> None:
        self.pids = pids
        self.redis_port = redis_port
        self.metrics_ports = metrics_ports or []
        self.elapsed = 0.0
        self.cpu = dict.fromkeys(pids, 0.0)
        self.calls: dict[str, int] = {}
        self.stages: dict[str, dict[float, float]] = {}

    @contextlib.asynccontextmanager
    async def timed(self) -> AsyncIterator[None]:
        # the counts are read before the window and after it: a saturated gateway takes a second or
        # more to answer its /metrics, and the window's time and CPU are not to include that wait
        calls, stages = await asyncio.gather(redis_calls(self.redis_port), histograms(self.metrics_ports))
        began, before = time.perf_counter(), {name: cpu_seconds(pid) for name, pid in self.pids.items()}
        yield
        self.elapsed += time.perf_counter() - began
        for name, pid in self.pids.items():
            self.cpu[name] += cpu_seconds(pid) - before[name]
        calls_after, stages_after = await asyncio.gather(redis_calls(self.redis_port), histograms(self.metrics_ports))
        for name, count in calls_after.items():
            self.calls[name] = self.calls.get(name, 0) + count - calls.get(name, 0)
        for name, buckets in stages_after.items():
            summed = self.stages.setdefault(name, {})
            for upper, count in buckets.items():
                summed[upper] = summed.get(upper, 0.0) + count - stages.get(name, {}).get(upper, 0.0)

    def stage_ms(self) -> dict[str, list[float | None]]:
        """Each stage's p50 and p99 (ms, its bucket's upper bound) over the phase."""
        return {
            STAGES[name]: [bucket_pct(buckets, 0.5), bucket_pct(buckets, 0.99)]
            for name, buckets in sorted(self.stages.items(), key=lambda item: list(STAGES).index(item[0]))
        }


async def watch_loop(lags: list[float], stats: Stats, playing: list[int], tick: float = 0.01) -> None:
    """How late the loop wakes a sleeper every ``tick`` s, into ``lags``, and while measuring how
    many matches are in play, into ``playing``, until cancelled."""
    while True:
        began = time.perf_counter()
        await asyncio.sleep(tick)
        lags.append(time.perf_counter() - began - tick)
        if stats.measuring:
            playing.append(stats.playing)


async def measure(
    ports: list[int],
    matches: int,
    seconds: float,
    warmup: float,
    pids: dict[str, int] | None = None,
    rate: float = 0,
    slices: int = 4,
    kind: type[Match] | type[PeerMatch] = Match,
    redis_port: int | None = None,
    mode: str = "plain",
    floor: bool = True,
) -> dict:
    """Our matches and the bare endpoint, measured in alternating slices (the matches held while
    the floor runs), so that both see the same machine: its speed drifts within minutes here.
    Without ``floor``, our matches in one stretch, never held (issue 31's load, and the peer's):
    a backlog that builds over seconds then shows, where a hold every slice drained it."""
    pids = {**(pids or {}), "client": os.getpid()}
    overflows = listen_overflows()
    stats = Stats(rate, mode)
    stop = asyncio.Event()
    ramp = Ramp(matches)
    began = time.perf_counter()
    runner = asyncio.create_task(keep_matches(ports, matches, stats, stop, random.Random(matches), kind, ramp))
    clients = min(4 * matches, 256)
    bare = Floor(ports, clients)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(ramp.done.wait(), RAMP_S)
    ramp.done.set()  # started or not, the slots that have played their first match go on
    ramp_s = time.perf_counter() - began
    await asyncio.sleep(warmup)
    lags: list[float] = []
    playing: list[int] = []
    watcher = asyncio.create_task(watch_loop(lags, stats, playing))
    ours, floors = Phase(pids, redis_port, METRICS_PORTS), Phase(pids)
    opened = 0  # connections the client opened while measuring
    for index in range(slices if floor else 1):
        if index:
            stats.go.set()
            await asyncio.sleep(SETTLE_S)  # the held seats' burst passes
        async with ours.timed():
            stats.measuring, before = True, OPENED[0]
            await asyncio.sleep(seconds / slices if floor else seconds)
            stats.measuring = False
            opened += OPENED[0] - before
        if not floor:
            break
        stats.go.clear()
        await asyncio.sleep(SETTLE_S)  # the commands in flight land, and their views
        # connected for each slice: a connection kept idle while ours runs outlives the gateways'
        # keep-alive (TAVERN_KEEPALIVE_S) and is reset under the next slice's first request
        await bare.open()
        async with floors.timed():
            await bare.run(min(seconds, 5) / slices)
        bare.close()
    stats.go.set()
    if not floor:  # the moves sent last land under the same load (those later count at their age)
        await asyncio.sleep(LANDING_S)
    watcher.cancel()
    stop.set()
    await runner
    floor_requests = max(1, len(bare.latencies))
    floor_rate = len(bare.latencies) / floors.elapsed if floor else 0
    rate = stats.accepted / ours.elapsed
    # from a command's answer: the peer answers no move
    answered = {
        f"{name}_ms_p{q}": round(pct(values, q / 100), 2)
        for name, values in (
            ("command", stats.command_s),
            ("own_view", stats.own_view_s),
            ("all_views", stats.all_views_s),
        )
        for q in (50, 99)
        if values
    }
    transports = {Match: "sse+post", WsMatch: "websocket", PeerMatch: "socket.io websocket"}
    return {
        "matches": matches,
        "transport": transports[kind],
        "mode": mode,
        **({"rate_limit": round(1 / stats.pacer.interval)} if stats.pacer.interval else {}),
        "accepted_per_s": round(rate),
        **({"statuses": stats.statuses} if stats.statuses else {}),
        "stale_per_accepted": round(stats.stale / max(1, stats.accepted), 2),
        **answered,
        "move_to_all_views_ms_p50": round(pct(stats.move_to_all_s, 0.5), 2),
        "move_to_all_views_ms_p99": round(pct(stats.move_to_all_s, 0.99), 2),
        "move_to_all_views_ms_max": round(pct(stats.move_to_all_s, 1.0), 2),
        "move_to_all_views_p99_over_p50": round(pct(stats.move_to_all_s, 0.99) / pct(stats.move_to_all_s, 0.5), 2),
        # moves measured but not on all 4 streams when the run stopped (counted above at their age)
        "moves_unseen_at_stop": stats.unseen,
        # from the first of the 4 streams showing a move to the last: the gateway's fan-out
        "spread_ms_p50": round(pct(stats.spread_s, 0.5), 2),
        "spread_ms_p99": round(pct(stats.spread_s, 0.99), 2),
        # each seat's mean time from one move to its next (Little's law: seats over rate); the
        # part of it that is not the move itself is spent waiting for the round, or in the client
        "seat_cycle_ms": round(4 * matches / rate * 1000, 1) if rate else None,
        # from the first match's creation until as many had started as run at once (Ramp), and
        # how many had not when the warm-up began all the same (RAMP_S)
        "ramp_s": round(ramp_s, 1),
        **({"matches_not_started": ramp.left} if ramp.left > 0 else {}),
        "matches_finished": stats.matches_done,
        # of the M, those in play (every seat has its view, not ended) while measuring, on average:
        # the others are being started (Ramp), their seats idle
        "matches_in_play_mean": round(sum(playing) / max(1, len(playing)), 1),
        # the connections a match that came into play while measuring cost the servers to accept
        # (Kept: ours 4, its streams; the peer's none)
        "connections_per_match_started": round(opened / max(1, stats.started), 1),
        "matches_started": stats.started,  # came into play while measuring: the window saw turnover
        # of those, from the first request of each one's creation (ours: the POST; the peer's: the
        # lobby's create, then its 4 joins) to every seat's first view: while its seats wait, a
        # match is out of play
        **(
            {f"match_start_ms_p{q}": round(pct(stats.start_s, q / 100), 1) for q in (50, 99)}
            if stats.start_s
            else {}
        ),
        # coalescing: each stream gets the newest view, so a busy server sends fewer than 4 per command
        "views_per_command": round(stats.views / max(1, stats.accepted), 2),
        **(
            {
                "floor_clients": clients,
                "floor_per_s": round(floor_rate),
                "floor_ms_p99": round(pct(bare.latencies, 0.99), 2),
                "ratio": round(rate / floor_rate, 3) if floor_rate else None,
                "floor_cpu_us_per_request": {
                    name: round(used / floor_requests * 1e6) for name, used in floors.cpu.items()
                },
            }
            if floor
            else {}
        ),
        # CPU per accepted command, by process (us): where the time goes
        "cpu_us_per_command": {name: round(used / max(1, stats.accepted) * 1e6) for name, used in ours.cpu.items()},
        # the server's part (Redis, gateways, workers): the peer's figure of the same name is its server's
        "server_cpu_us_per_command": round(
            sum(used for name, used in ours.cpu.items() if name != "client") / max(1, stats.accepted) * 1e6
        ),
        "cpu_share_of_2_cores": round(sum(ours.cpu.values()) / ours.elapsed / 2, 2),
        # the longest the client's loop was late, from the warm-up's end to the landing's (ms): a
        # stall of the client (its own reads, or the machine's scheduler) delays every seat at once
        "client_lag_ms_max": round(max(lags, default=0) * 1000, 1),
        # connections dropped by a full accept queue during the line, warm-up and landing included
        # (the machine's count: another process's burst would show here too)
        "listen_overflows": listen_overflows() - overflows,
        # each stage's p50 and p99, ms (the upper bounds of the services' histogram buckets)
        "stage_ms_p50_p99": ours.stage_ms(),
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


def run_peer(options: argparse.Namespace, workdir: Path) -> list[dict]:
    """The peer on the same machine in the same run, driven by this same client (PeerMatch): a
    boardgame.io 0.50.2 server (one Node process, socket.io, in-memory storage) on a 4-seat
    simultaneous card draft (tests/bench/peer/), started afresh for each line. Needs node and npm."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        print(json.dumps({"peer": "not run: node and npm are needed"}))
        return []
    peer = workdir / "peer"
    shutil.copytree(ROOT / "tests" / "bench" / "peer", peer)
    subprocess.run([npm, "install", "--silent", "--no-audit", "--no-fund"], cwd=peer, check=True)
    # as it would be deployed: in development mode boardgame.io checks every move's state for
    # JSON-safety and loads immer's development build
    env = dict(os.environ, NODE_ENV="production")
    lines = []
    for matches, rate in zip(options.matches, rates(options), strict=True):
        for mode in dict.fromkeys("strict" if mode == "exact" else mode for mode in options.modes):
            port = free_pair()
            with open(workdir / "peer.log", "ab") as log:
                # PEER_MODE strict: its stateID checked (game.js); it logs a line for every stale move it drops
                server_env = env | {"PEER_MODE": mode, "PORT": str(port)}
                server = subprocess.Popen([node, "server.js"], cwd=peer, env=server_env, stdout=log, stderr=log)
            try:
                run(wait_listening(port))
                args = ([port], matches, options.seconds, options.warmup, {"peer": server.pid}, rate, 1, PeerMatch)
                figures = {"peer": "boardgame.io 0.50.2"} | run(measure(*args, mode=mode, floor=False))
            finally:
                server.terminate()
                server.wait(10)
            print(json.dumps(figures), flush=True)
            lines.append(figures)
    return lines


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
) -> list[dict]:
    """One line of figures per --matches and mode, printed as measured, and returned."""
    # --ws: SSE + POST and the WebSocket take turns, twice, so that both see the same drifting machine
    kinds = [Match, WsMatch] * 2 if options.ws else [Match]
    lines = []
    for matches, rate in zip(options.matches, rates(options), strict=True):
        for mode in options.modes:
            for kind in kinds:
                args = (ports, matches, options.seconds, options.warmup, pids, rate, options.slices, kind, redis_port)
                figures = run(measure(*args, mode=mode, floor=not options.continuous))
                print(json.dumps(figures), flush=True)
                lines.append(figures)
    return lines


def summary(ours: list[dict], peer: list[dict]) -> str:
    """A table of the lines: per mode and number of matches, ours beside the peer (the peer's
    strict line beside our strict and exact ones: it has no other strictness)."""
    theirs = {(line["mode"], line["matches"]): line for line in peer}
    rows = [
        "| mode | M | accepted/s ours / peer | move to all views p50 | p99 | max | p99/p50 | server CPU us/command |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]

    def pair(line: dict, other: dict | None, name: str) -> str:
        return f"{line.get(name)} / {other.get(name) if other else '-'}"

    for line in ours:
        other = theirs.get(("strict" if line["mode"] == "exact" else line["mode"], line["matches"]))
        names = ["accepted_per_s", "move_to_all_views_ms_p50", "move_to_all_views_ms_p99"]
        names += ["move_to_all_views_ms_max", "move_to_all_views_p99_over_p50", "server_cpu_us_per_command"]
        rows.append(f"| {line['mode']} | {line['matches']} | " + " | ".join(pair(line, other, n) for n in names) + " |")
    return "\n".join(rows)


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
        "--continuous",
        action="store_true",
        help="our matches in one stretch of --seconds, never held, no floor (issue 31's load, and the peer's)",
    )
    parser.add_argument(
        "--trace",
        help="write each of our measured moves' times to this file (JSON: match, version, seat, sent, answered,"
        " first and fourth stream, the match's creation; perf_counter seconds)",
    )
    parser.add_argument(
        "--limits-off",
        action="store_true",
        help="the rates of commands and reads off, idle connections kept (the peer has neither)",
    )
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
    if options.trace:
        global TRACE
        TRACE = []
    if options.gateway_port is not None:
        measure_all(options, options.gateway_port, None)
        return
    ours: list[dict] = []
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
        if options.limits_off:
            env |= RATES_OFF
        ports = [free_port() for _ in range(options.gateways)]
        pids = {"redis": processes[0].pid} if options.redis_url is None else {}
        for index, port in enumerate(ports):
            processes.append(start(["serve", "--port", str(port)], env, log))
            pids["gateway" if len(ports) == 1 else f"gateway{index}"] = processes[-1].pid
        METRICS_PORTS[:] = ports
        for index in range(options.workers):
            METRICS_PORTS.append(free_port())
            processes.append(start(["worker"], env | {"TAVERN_WORKER_METRICS_PORT": str(METRICS_PORTS[-1])}, log))
            pids[f"worker{index}"] = processes[-1].pid
        for port in ports:
            run(wait_healthy(port))
        setup = {"redis": url, "gateways": len(ports), "workers": options.workers, "seconds": options.seconds}
        print(json.dumps(setup | {"log": str(workdir), "limits": "off" if options.limits_off else "on"}))
        ours = measure_all(options, ports, pids, redis_port)
    finally:
        for process in reversed(processes):
            process.terminate()
        for process in processes:
            process.wait(10)
    METRICS_PORTS.clear()  # our services are gone: the peer's lines read no /metrics
    peer = run_peer(options, workdir) if options.peer else []
    print(summary(ours, peer))
    if TRACE is not None:
        Path(options.trace).write_text(json.dumps(TRACE))


if __name__ == "__main__":
    main()
