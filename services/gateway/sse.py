"""Server-Sent Events: the stream loop's frames (services/gateway/streams.py) as an SSE answer."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any

from starlette.responses import StreamingResponse

from services.gateway.access import LOST
from services.gateway.backlog import Backlog
from services.gateway.hub import Hub, Listener
from services.gateway.schemas import error
from services.gateway.streams import follow

# The last frame of a stream the gateway ends (it is stopping): its client reconnects this much
# later, with Last-Event-ID, through the load balancer to another gateway.
GOODBYE = b"retry: 1000\n\n"
HEADERS = [
    (b"content-type", b"text/event-stream; charset=utf-8"),
    (b"cache-control", b"no-cache"),
    (b"x-accel-buffering", b"no"),
]


class Events:
    """The frames of an SSE answer, sent as bare ASGI."""

    keepalive = b": keepalive\n\n"
    direct = True  # uvicorn's send waits only while its transport pauses it

    def __init__(self, send: Any, retry_ms: int) -> None:
        self._send = send
        self._hint = b"retry: %d\n" % retry_ms if retry_ms else b""  # told once: when to reconnect

    def view(self, version: int, envelope: bytes) -> bytes:
        frame = b"%sevent: view\nid: %d\ndata: %s\n\n" % (self._hint, version, envelope)
        self._hint = b""
        return frame

    def presence(self, table: bytes) -> bytes:
        return b"event: presence\ndata: %s\n\n" % table

    def chat(self, channel: str) -> bytes:
        return b'event: chat\ndata: {"channel":"%s"}\n\n' % channel.encode()

    async def send(self, frame: bytes) -> None:
        await self._send({"type": "http.response.body", "body": frame, "more_body": True})

    async def goodbye(self) -> None:
        await self._send({"type": "http.response.body", "body": GOODBYE, "more_body": False})

    async def lost(self, match_id: str) -> None:
        data = error("match_lost", LOST)
        await self._send({"type": "http.response.body", "body": b"event: lost\ndata: %s\n\n" % data,
                          "more_body": False})


async def serve(
    hub: Hub, match_id: str, seat: int | None, last_id: int, receive: Any, send: Any, unsent_bytes: int = 0
) -> None:
    """The SSE answer (bare ASGI): the current view if newer than ``last_id``, then each newer
    one, until the client goes away (or stops reading: past ``unsent_bytes``, backlog.py)."""
    listener = await hub.attach(match_id, seat, last_id)  # first: Redis away is still a 503 (outage.py)
    watcher = asyncio.create_task(_until_gone(receive, listener))
    try:
        await send({"type": "http.response.start", "status": 200, "headers": HEADERS})
        await follow(hub, match_id, listener, last_id, Events(send, hub.retry_ms), Backlog(receive, unsent_bytes))
    finally:
        watcher.cancel()
        hub.detach(match_id, listener)


async def _until_gone(receive: Any, listener: Listener) -> None:
    """Wake the stream once its client has gone (the server only says so on ``receive``)."""
    while (await receive())["type"] != "http.disconnect":
        pass
    listener.gone = True
    listener.wake.set()


class Counted(StreamingResponse):
    """An SSE answer that gives its stream back to the caps however it ends (its client gone too)."""

    def __init__(self, frames: AsyncIterator[bytes], done: Callable[[], None]) -> None:
        super().__init__(frames, headers={k.decode(): v.decode() for k, v in HEADERS[1:]},
                         media_type="text/event-stream")  # fmt: skip
        self.done = done

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.done()
