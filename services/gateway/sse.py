"""Server-Sent Events: one Redis subscription per gateway process; a notice carries a match's new
views, and each open stream of that match here sends its seat's view if newer than the last one
it sent. After a (re)subscription, one HMGET per match catches up what may have been missed.

The same subscription hears seats come and go (services/gateway/presence.py): every envelope sent
has each seat's ``connected`` as this gateway knows it then, and a change is sent to the open
streams of the match as a ``presence`` frame (the table, ``connected`` updated)."""

from __future__ import annotations

import asyncio
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

import msgspec

from projections.views import field
from services.gateway import presence
from services.gateway.presence import Presence, Seats
from services.ops import logs
from services.ops.metrics import Metrics
from services.projector import notices
from services.runtime import REDIS_DOWN
from services.store import keys

log = logs.get("tavern.sse")
_PRESENCE = keys.PRESENCE.encode()  # the channel, as the subscription names it
KEEPALIVE_S = 15.0
PRESENCE_S = 3 * KEEPALIVE_S  # a seat's presence (presence.py) outlives a gateway that died by this much
# The last frame of a stream the gateway ends (it is stopping): its client reconnects this much
# later, with Last-Event-ID, through the load balancer to another gateway.
GOODBYE = b"retry: 1000\n\n"
HEADERS = [
    (b"content-type", b"text/event-stream; charset=utf-8"),
    (b"cache-control", b"no-cache"),
    (b"x-accel-buffering", b"no"),
]


class Versioned(msgspec.Struct):
    version: int


_version = msgspec.json.Decoder(Versioned)


class Listener:
    """One open stream: the newest view offered to it, and a wake-up."""

    __slots__ = ("gone", "latest", "moved", "ping", "quiet", "raw", "seat", "version", "wake")

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.latest = 0
        self.raw = b""  # the newest view offered (or, on attaching, the one the client has)
        self.version = 0  # raw's
        self.wake = asyncio.Event()
        self.quiet = False  # nothing sent since the hub's last keepalive tick
        self.ping = False  # send a keepalive comment
        self.moved = False  # a seat came or went: send the table
        self.gone = False  # the client went away

    def offer(self, raw: bytes, version: int | None = None) -> None:
        version = _version.decode(raw).version if version is None else version
        if version > self.latest:
            self.latest, self.raw, self.version = version, raw, version
            self.wake.set()


# (match id, seat) -> the seat's current view: the stored one, or the fold's if none is stored yet
Current = Callable[[str, int | None], Awaitable[bytes | None]]


class Coalesced:
    """Runs ``job(match_id)`` in a task, once at a time per match: asked again meanwhile, it runs
    once more after (what it reads may have changed after its read began)."""

    def __init__(self, job: Callable[[str], Coroutine[Any, Any, None]]) -> None:
        self.job = job
        self._running: set[str] = set()
        self._again: set[str] = set()
        self._tasks: set[asyncio.Task] = set()

    def __call__(self, match_id: str) -> None:
        if match_id in self._running:
            self._again.add(match_id)
        else:
            self._running.add(match_id)
            task = asyncio.create_task(self._run(match_id))
            self._tasks.add(task)  # held until done, or the loop could collect it mid-flight
            task.add_done_callback(self._tasks.discard)

    async def _run(self, match_id: str) -> None:
        try:
            while True:
                self._again.discard(match_id)
                await self.job(match_id)
                if match_id not in self._again:
                    return
        except Exception:
            log.exception("delivery_failed", match_id=match_id)
        finally:
            self._running.discard(match_id)


class Hub:
    def __init__(
        self,
        redis: Any,
        current: Current,
        metrics: Metrics,
        keepalive_s: float = KEEPALIVE_S,
        send_timeout_s: float = 0.0,
        retry_ms: int = 0,
        notices: Any = None,
        seen: Presence | None = None,
    ) -> None:
        self.redis = redis
        self.presence = seen  # who streams which match: None, every seat shows as not connected
        self.present: dict[str, Seats] = {}  # match id -> its connected seats, for the matches streamed here
        self.notices = notices or redis  # where the projector publishes: the queue's Redis beside a cluster
        self.keepalive_s = keepalive_s
        # a client that does not read fills the buffers until a send waits: past this, it is closed
        self.send_timeout_s = send_timeout_s or None
        self.retry = b"retry: %d\n" % retry_ms if retry_ms else b""  # told once: when to reconnect
        self.current = current
        self.metrics = metrics
        self.listeners: dict[str, set[Listener]] = defaultdict(set)
        self._task: asyncio.Task | None = None
        self._ticker: asyncio.Task | None = None
        self._subscribed = asyncio.Event()
        self._fetch = Coalesced(self._deliver)
        self._recheck = Coalesced(self._check)
        self._tasks: set[asyncio.Task] = set()
        self.closing = False

    def close(self) -> None:
        """End every stream, now and from now on, with a retry hint (the gateway is stopping)."""
        self.closing = True
        for listeners in self.listeners.values():
            for listener in listeners:
                listener.wake.set()

    async def start(self, timeout_s: float | None = None) -> None:
        """Subscribe; TimeoutError if Redis does not take the subscription in ``timeout_s``."""
        self._subscribed = asyncio.Event()
        self._task = asyncio.create_task(self._listen_forever())
        self._ticker = asyncio.create_task(self._keep_alive())
        try:
            async with asyncio.timeout(timeout_s):
                await self._subscribed.wait()
        except TimeoutError:
            await self.stop()
            raise

    async def stop(self) -> None:
        for task in (self._task, self._ticker):
            if task is not None:
                task.cancel()

    async def _keep_alive(self) -> None:
        # One timer for every stream of the gateway, rather than a timeout around each wait (a
        # task and a timer per view sent): a stream quiet for a whole tick gets a comment.
        while True:
            await asyncio.sleep(self.keepalive_s)
            await self._refresh()
            for listeners in self.listeners.values():
                for listener in listeners:
                    if listener.quiet:
                        listener.ping = True
                        listener.wake.set()
                    listener.quiet = True

    async def _listen_forever(self) -> None:
        while True:
            pubsub = self.notices.pubsub()
            try:
                await pubsub.subscribe(keys.NOTICES, keys.PRESENCE)
                self._subscribed.set()
                for match_id in list(self.listeners):
                    self._fetch(match_id)  # (re)subscribed: a notice may have been missed meanwhile
                    self._recheck(match_id)
                while True:
                    message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
                    if message is None:
                        continue
                    if message["channel"] == _PRESENCE:
                        match_id = message["data"].decode()
                        if match_id in self.listeners:
                            self._recheck(match_id)
                    else:
                        self.notify(message["data"])
            except asyncio.CancelledError:
                await pubsub.aclose()
                raise
            except REDIS_DOWN as problem:  # an outage: one line, no traceback
                log.warning("subscription_lost", error=str(problem))
                await asyncio.sleep(0.5)
            except Exception:
                log.exception("subscription_lost")
                await asyncio.sleep(0.5)

    def notify(self, data: bytes) -> None:
        now = time.time()
        for written in notices.decode(data):
            self.metrics.projection_lag.observe(max(0.0, now - written.appended_at))
            for listener in self.listeners.get(written.match_id, ()):
                raw = written.views.get(field(listener.seat))
                if raw is not None:
                    listener.offer(raw, written.version)

    async def _deliver(self, match_id: str) -> None:
        """Read the match's views once for all its streams here (one HMGET, not one per stream)."""
        listeners = list(self.listeners.get(match_id, ()))
        if not listeners:
            return
        fields = sorted({field(listener.seat) for listener in listeners})
        found = dict(zip(fields, await self.redis.hmget(keys.views(match_id), fields), strict=True))
        for listener in listeners:
            if found[field(listener.seat)] is not None:
                listener.offer(found[field(listener.seat)])

    async def _check(self, match_id: str) -> None:
        """Read who is connected to the match again (a seat came or went somewhere)."""
        if match_id in self.listeners and self.presence is not None:
            self._present(match_id, await self.presence.read(match_id))

    def _present(self, match_id: str, seats: Seats) -> None:
        """The match's connected seats are now ``seats``: tell its streams here if that changed."""
        listeners = self.listeners.get(match_id)
        if listeners and self.present.get(match_id) != seats:
            self.present[match_id] = seats
            for listener in listeners:
                listener.moved = True
                listener.wake.set()

    def overlay(self, match_id: str, raw: bytes) -> bytes:
        """The envelope as sent: each seat's ``connected`` as known now."""
        return presence.overlay(raw, self.present.get(match_id, frozenset()))

    def table(self, match_id: str, listener: Listener) -> bytes:
        """A presence frame's data: the table of the listener's newest view, as known now."""
        return presence.frame(match_id, listener.version, listener.raw, self.present.get(match_id, frozenset()))

    async def attach(self, match_id: str, seat: int | None, last_id: int) -> Listener:
        """A listener of the seat's views newer than ``last_id``, offered the current one at once;
        ``detach`` it when its client goes."""
        listener = Listener(seat)
        listener.latest = last_id
        self.listeners[match_id].add(listener)  # before the first read: no notice falls between
        self.metrics.open_streams += 1
        try:
            await self._here(match_id, seat)
            current = await self.current(match_id, seat)
        except BaseException:
            self.detach(match_id, listener)
            raise
        if current is not None:
            version = _version.decode(current).version
            listener.offer(current, version)
            if not listener.raw:  # the client has this one already: kept for the presence frames
                listener.raw, listener.version = current, version
        return listener

    def detach(self, match_id: str, listener: Listener) -> None:
        self.metrics.open_streams -= 1
        self.listeners[match_id].discard(listener)
        seat = listener.seat
        if seat is not None and not any(other.seat == seat for other in self.listeners[match_id]):
            task = asyncio.create_task(self._gone(match_id, seat))  # the seat's last stream: not connected
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        if not self.listeners[match_id]:
            del self.listeners[match_id]
            self.present.pop(match_id, None)

    async def serve(self, match_id: str, seat: int | None, last_id: int, receive: Any, send: Any) -> None:
        """The SSE answer (bare ASGI): the current view if newer than ``last_id``, then each newer
        one, until the client goes away."""
        listener = await self.attach(match_id, seat, last_id)  # first: Redis away is still a 503 (outage.py)
        watcher = asyncio.create_task(_until_gone(receive, listener))
        try:
            await send({"type": "http.response.start", "status": 200, "headers": HEADERS})
            sent, hint = last_id, self.retry
            while True:
                if self.closing:
                    await send({"type": "http.response.body", "body": GOODBYE, "more_body": False})
                    return
                await listener.wake.wait()
                listener.wake.clear()
                if listener.gone:
                    return
                if listener.latest > sent:
                    sent = listener.latest
                    listener.quiet = listener.ping = listener.moved = False
                    frame = b"%sevent: view\nid: %d\ndata: %s\n\n" % (hint, sent, self.overlay(match_id, listener.raw))
                    hint = b""
                    if not await self._send(send, frame, match_id, seat):
                        return
                elif listener.moved and listener.raw:
                    listener.quiet = listener.ping = listener.moved = False
                    frame = b"event: presence\ndata: %s\n\n" % self.table(match_id, listener)
                    if not await self._send(send, frame, match_id, seat):
                        return
                elif listener.ping:
                    listener.ping = False
                    if not await self._send(send, b": keepalive\n\n", match_id, seat):
                        return
        finally:
            watcher.cancel()
            self.detach(match_id, listener)

    async def _here(self, match_id: str, seat: int | None, here: bool = True) -> None:
        """Note the seat's stream here as open (or still open) or closed, and learn who is
        connected to the match (a spectator's stream only learns)."""
        if self.presence is None:
            return
        try:  # one key a call: the match's own (a cluster's slot)
            if seat is None:
                seats = await self.presence.read(match_id)
            else:
                seats = await self.presence.mark(match_id, seat, here)
        except Exception:
            log.exception("presence_failed", match_id=match_id)  # only a hint to the players: never fails a stream
            return
        self._present(match_id, seats)

    async def _refresh(self) -> None:
        """Every keepalive tick: refresh each streamed seat's presence (each match read once)."""
        streamed = {(match_id, listener.seat) for match_id, ls in self.listeners.items() for listener in ls}
        seated = {match_id for match_id, seat in streamed if seat is not None}
        await asyncio.gather(
            *(self._here(match_id, seat) for match_id, seat in streamed if seat is not None or match_id not in seated)
        )

    async def _gone(self, match_id: str, seat: int) -> None:
        await self._here(match_id, seat, here=False)

    async def _send(self, send: Any, frame: bytes, match_id: str, seat: int | None) -> bool:
        """Send a frame; False if the client has not taken it within the time limit (then closed)."""
        try:
            async with asyncio.timeout(self.send_timeout_s):
                await send({"type": "http.response.body", "body": frame, "more_body": True})
        except TimeoutError:
            log.info("stream_stalled", match_id=match_id, seat=seat)
            return False
        return True


async def _until_gone(receive: Any, listener: Listener) -> None:
    """Wake the stream once its client has gone (the server only says so on ``receive``)."""
    while (await receive())["type"] != "http.disconnect":
        pass
    listener.gone = True
    listener.wake.set()
