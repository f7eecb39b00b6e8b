"""Server-Sent Events: one Redis subscription per gateway process fans view notices out to every
open stream of the notified match; each stream then sends its seat's stored view if newer."""

from __future__ import annotations

import asyncio
import time
from collections import defaultdict
from collections.abc import AsyncIterator
from typing import Any

import msgspec

from projections.views import field
from services import keys, logs
from services.metrics import Metrics
from services.store import EventStore

log = logs.get("tavern.sse")
KEEPALIVE_S = 15.0


class Versioned(msgspec.Struct):
    version: int


_version = msgspec.json.Decoder(Versioned)


class Listener:
    __slots__ = ("latest", "wake")

    def __init__(self) -> None:
        self.latest = 0
        self.wake = asyncio.Event()


class Hub:
    def __init__(self, redis: Any, store: EventStore, metrics: Metrics) -> None:
        self.redis = redis
        self.store = store
        self.metrics = metrics
        self.listeners: dict[str, set[Listener]] = defaultdict(set)
        self._task: asyncio.Task | None = None
        self._subscribed = asyncio.Event()

    async def start(self) -> None:
        self._subscribed = asyncio.Event()
        self._task = asyncio.create_task(self._listen_forever())
        await self._subscribed.wait()

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()

    async def _listen_forever(self) -> None:
        while True:
            pubsub = self.redis.pubsub()
            try:
                await pubsub.subscribe(keys.NOTICES)
                self._subscribed.set()
                while True:
                    message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
                    if message is not None:
                        self.notify(message["data"])
            except asyncio.CancelledError:
                await pubsub.aclose()
                raise
            except Exception:
                log.exception("subscription_lost")
                await asyncio.sleep(0.5)
                self._wake_all()  # a notice may have been missed: every stream checks its view again

    def notify(self, data: bytes) -> None:
        match_id, version, appended_at = data.decode().split()
        self.metrics.projection_lag.observe(max(0.0, time.time() - float(appended_at)))
        for listener in self.listeners.get(match_id, ()):
            listener.latest = max(listener.latest, int(version))
            listener.wake.set()

    def _wake_all(self) -> None:
        for listeners in self.listeners.values():
            for listener in listeners:
                listener.wake.set()

    async def stream(self, match_id: str, seat: int | None, last_id: int) -> AsyncIterator[bytes]:
        """The SSE body: the current view if newer than ``last_id``, then each newer one."""
        listener = Listener()
        self.listeners[match_id].add(listener)  # before the first read: no notice falls between
        self.metrics.open_streams += 1
        sent = last_id
        try:
            listener.wake.set()
            while True:
                try:
                    await asyncio.wait_for(listener.wake.wait(), KEEPALIVE_S)
                except TimeoutError:
                    yield b": keepalive\n\n"
                    continue
                listener.wake.clear()
                raw = await self.store.view(match_id, field(seat))
                if raw is None:
                    continue
                version = _version.decode(raw).version
                if version > sent:
                    sent = version
                    yield b"event: view\nid: %d\ndata: %s\n\n" % (version, raw)
        finally:
            self.metrics.open_streams -= 1
            self.listeners[match_id].discard(listener)
            if not self.listeners[match_id]:
                del self.listeners[match_id]
