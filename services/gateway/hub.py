"""The gateway's hub of open streams (Server-Sent Events, WebSockets): one Redis subscription per
gateway process, to the channels of the matches it has open streams of (services/store/notices.py:
a match's channel is subscribed with its first stream here and left with its last). A notice
says a match's views were written up to a version; one HMGET reads the views of the seats streamed
here, and each open stream of that match is offered its seat's (services/gateway/streams.py sends
it if newer than the last one sent). What was heard in one turn of the event loop is handled
together, and the views of all the matches it names are read in one round trip (``Passes``). Each
time a match's channel is subscribed (first, or again after a lost link), the same HMGET catches up
what may have gone by before, and finds the matches Redis lost meanwhile (it restarted without
them): their streams end with a last word.

The same channels tell when seats come and go (services/gateway/presence.py): every envelope sent
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
from services.commands.chat import channel_of
from services.gateway import presence
from services.gateway.presence import Presence, Seats
from services.ops import logs
from services.ops.metrics import Metrics
from services.runtime import REDIS_DOWN
from services.store.notices import Chatted, Heard, Moved, Notices, Subscribed, Subscription, Written

log = logs.get("tavern.sse")  # the name operators know its lines by
KEEPALIVE_S = 15.0
# ticks of the keepalive timer a keepalive period: a stream is quiet for between (TICKS - 1) and
# TICKS of them before its comment (one tick a period let a stream be quiet for up to two periods)
TICKS = 5
PRESENCE_S = 3 * KEEPALIVE_S  # a seat's presence (presence.py) outlives a gateway that died by this much


class Versioned(msgspec.Struct):
    version: int


_version = msgspec.json.Decoder(Versioned)


class Listener:
    """One open stream: the newest view offered to it, and a wake-up."""

    __slots__ = ("chatted", "gone", "latest", "lost", "moved", "ping", "quiet", "raw", "seat", "version", "wake")

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.latest = 0
        self.raw = b""  # the newest view offered (or, on attaching, the one the client has)
        self.version = 0  # raw's
        self.wake = asyncio.Event()
        self.quiet = 0  # the hub's keepalive ticks since the last frame sent
        self.ping = False  # send a keepalive comment
        self.moved = False  # a seat came or went: send the table
        self.chatted = False  # a line was added to the chat channel of this stream's seat (docs/chat.md)
        self.gone = False  # the client went away
        self.lost = False  # Redis no longer holds the match (lost in a restart): the stream ends so

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


class Passes:
    """Runs ``job(match_ids)`` in passes, one at a time: each pass takes every match asked for
    since the one before began. A match asked for again while a pass reads it is in the next one,
    once however often it was asked meanwhile: under load a match's several notices make one read
    (and its streams one frame each), as they did when they queued one by one."""

    def __init__(self, job: Callable[[list[str]], Coroutine[Any, Any, None]]) -> None:
        self.job = job
        self._due: dict[str, None] = {}  # in the order asked for
        self._task: asyncio.Task | None = None

    def __call__(self, match_id: str) -> None:
        self._due[match_id] = None
        if self._task is None:  # the first pass starts on the next turn, with all that turn asked for
            self._task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        try:
            while self._due:
                due, self._due = list(self._due), {}
                try:
                    await self.job(due)
                except Exception:
                    log.exception("delivery_failed", matches=len(due))
        finally:
            self._task = None


class Hub:
    def __init__(
        self,
        feed: Notices,
        current: Current,
        metrics: Metrics,
        keepalive_s: float = KEEPALIVE_S,
        send_timeout_s: float = 0.0,
        retry_ms: int = 0,
        seen: Presence | None = None,
    ) -> None:
        self.presence = seen  # who streams which match: None, every seat shows as not connected
        self.present: dict[str, Seats] = {}  # match id -> its connected seats, for the matches streamed here
        self.tables = presence.Tables()  # their tables as last sent
        self.feed = feed  # the projector's notices, and the views they announce
        self.heard: Subscription | None = None  # while subscribed
        self.keepalive_s = keepalive_s
        # a client that does not read fills the buffers until a send waits: past this, it is closed
        self.send_timeout_s = send_timeout_s or None
        self.retry_ms = retry_ms  # told once to an SSE client: when to reconnect (0: not told)
        self.current = current
        self.metrics = metrics
        self.listeners: dict[str, set[Listener]] = defaultdict(set)
        self._task: asyncio.Task | None = None
        self._ticker: asyncio.Task | None = None
        self._subscribed = asyncio.Event()
        self._fetch = Passes(self._deliver)
        # the stages' clocks (perf_counter): match id -> when its channel was wanted here, and when
        # the oldest notice not yet delivered to its streams was heard
        self._wanted_at: dict[str, float] = {}
        self._heard_at: dict[str, float] = {}
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
        # task and a timer per view sent); presence is refreshed once a period.
        ticks = 0
        while True:
            await asyncio.sleep(self.keepalive_s / TICKS)
            ticks += 1
            if ticks % TICKS == 0:
                await self._refresh()
            self.tick()

    def tick(self) -> None:
        """One keepalive tick: a stream with nothing sent for TICKS of them gets a comment, so
        no stream is quiet for longer than ``keepalive_s``."""
        for listeners in self.listeners.values():
            for listener in listeners:
                listener.quiet += 1
                if listener.quiet >= TICKS:
                    listener.ping = True
                    listener.wake.set()

    async def _listen_forever(self) -> None:
        while True:
            try:
                async with self.feed.subscribed() as heard:
                    self.heard = heard
                    self._subscribed.set()
                    for match_id in list(self.listeners):
                        heard.want(match_id)  # (re)subscribed: each confirmation reads the views again
                    while True:
                        for message in await heard.batch():
                            self._hear(message)
            except REDIS_DOWN as problem:  # an outage: one line, no traceback
                log.warning("subscription_lost", error=str(problem))
                await asyncio.sleep(0.5)
            except Exception:
                log.exception("subscription_lost")
                await asyncio.sleep(0.5)
            finally:
                self.heard = None

    def _hear(self, message: Heard) -> None:
        if isinstance(message, Written):
            self.notify(message)
        elif message.match_id not in self.listeners:
            return
        elif isinstance(message, Subscribed):
            if (wanted := self._wanted_at.pop(message.match_id, None)) is not None:
                self.metrics.subscribe_seconds.observe(time.perf_counter() - wanted)
            self._fetch(message.match_id)  # a notice may have gone by before
            self._recheck(message.match_id)
        elif isinstance(message, Moved):
            self._recheck(message.match_id)
        elif isinstance(message, Chatted):
            self._chatted(message)

    def notify(self, written: Written) -> None:
        """A match's views were written up to ``written.version``: read them for its streams behind."""
        self.metrics.projection_lag.observe(max(0.0, time.time() - written.appended_at))
        if any(listener.latest < written.version for listener in self.listeners.get(written.match_id, ())):
            self._heard_at.setdefault(written.match_id, time.perf_counter())
            self._fetch(written.match_id)

    async def _deliver(self, match_ids: list[str]) -> None:
        """Read the matches' views once for all their streams here (one HMGET a match, not one a
        stream; all the matches' in one round trip), and offer each stream its seat's."""
        wanted = []
        for match_id in match_ids:
            heard = self._heard_at.pop(match_id, None)
            if streams := self.listeners.get(match_id):
                fields = sorted({field(listener.seat) for listener in streams})
                wanted.append((match_id, list(streams), fields, heard))
        if not wanted:
            return
        found = await self.feed.views([(match_id, fields) for match_id, _, fields, _ in wanted])
        for (match_id, listeners, _, heard), views in zip(wanted, found, strict=True):
            if isinstance(views, Exception):
                log.error("delivery_failed", match_id=match_id, error=str(views))
                continue
            if views.version is None:  # no views: not written yet, or the match is lost
                self._spawn(self._lost_if_gone(match_id, listeners))
                continue
            for listener in listeners:
                if (raw := views.fields[field(listener.seat)]) is not None:
                    listener.offer(raw, views.version)
            if heard is not None:
                self.metrics.delivery_seconds.observe(time.perf_counter() - heard)

    async def _lost_if_gone(self, match_id: str, listeners: list[Listener]) -> None:
        """With no views stored, the match is lost if there is none to fold either (Redis came
        back without it): its streams end."""
        if await self.current(match_id, listeners[0].seat) is None:
            for listener in listeners:
                listener.lost = True
                listener.wake.set()

    def _spawn(self, job: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(job)
        self._tasks.add(task)  # held until done, or the loop could collect it mid-flight
        task.add_done_callback(self._tasks.discard)

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

    def _chatted(self, chatted: Chatted) -> None:
        """Tell the streams of the channel's readers here that it has new lines (no line rides along:
        a client reads them with GET /chat, so a stream carries a few bytes a line at most)."""
        for listener in self.listeners.get(chatted.match_id, ()):
            if channel_of(listener.seat) == chatted.channel:
                listener.chatted = True
                listener.wake.set()

    def overlay(self, match_id: str, raw: bytes) -> bytes:
        """The envelope as sent: each seat's ``connected`` as known now."""
        connected = self.present.get(match_id, frozenset())
        if match_id not in self.listeners:  # no stream of it here (a 409's view): nothing kept
            return presence.overlay(raw, connected)
        return self.tables.overlay(match_id, raw, connected)

    def table(self, match_id: str, listener: Listener) -> bytes:
        """A presence frame's data: the table of the listener's newest view, as known now."""
        return presence.frame(match_id, listener.version, listener.raw, self.present.get(match_id, frozenset()))

    async def attach(self, match_id: str, seat: int | None, last_id: int) -> Listener:
        """A listener of the seat's views newer than ``last_id``, offered the current one at once;
        ``detach`` it when its client goes."""
        listener = Listener(seat)
        listener.latest = last_id
        if match_id not in self.listeners and self.heard is not None:
            self.heard.want(match_id)  # its first stream here: subscribe to its channel
            self._wanted_at[match_id] = time.perf_counter()
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
            self._spawn(self._gone(match_id, seat))  # the seat's last stream: not connected
        if not self.listeners[match_id]:
            del self.listeners[match_id]
            self.present.pop(match_id, None)
            self.tables.forget(match_id)
            self._wanted_at.pop(match_id, None)
            self._heard_at.pop(match_id, None)
            if self.heard is not None:
                self.heard.drop(match_id)  # its last stream here: leave its channel

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
        """Every keepalive period: refresh each streamed seat's presence, all in one round trip, and
        read the presence of the matches only spectators stream here (each match read once)."""
        if self.presence is None:
            return
        streamed = {(match_id, listener.seat) for match_id, ls in self.listeners.items() for listener in ls}
        seated = sorted((match_id, seat) for match_id, seat in streamed if seat is not None)
        watched = {match_id for match_id, _ in streamed} - {match_id for match_id, _ in seated}
        try:
            refreshed = await self.presence.refresh(seated)
        except Exception:
            log.exception("presence_failed")  # only a hint to the players: never fails a stream
        else:
            after: dict[str, Seats] = {}  # each match's seats after its last mark
            for (match_id, _), seats in zip(seated, refreshed, strict=True):
                if isinstance(seats, Exception):
                    log.warning("presence_failed", match_id=match_id, error=str(seats))
                else:
                    after[match_id] = seats
            for match_id, seats in after.items():
                self._present(match_id, seats)
        await asyncio.gather(*(self._here(match_id, None) for match_id in watched))

    async def _gone(self, match_id: str, seat: int) -> None:
        await self._here(match_id, seat, here=False)
