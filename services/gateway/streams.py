"""The one loop of an open stream, whatever carries it: the listener's newer views, the presence
tables and the keepalives, each framed by its transport (services/gateway/sse.py, ws_endpoint.py)."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Protocol

from services.commands.chat import channel_of
from services.gateway.backlog import Backlog
from services.gateway.hub import Hub, Listener
from services.ops import logs

log = logs.get("tavern.sse")


class Framing(Protocol):
    """How a transport frames and sends what the loop has to say."""

    @property
    def direct(self) -> bool:
        """Whether ``send`` waits for nothing but a transport that holds writes back."""
        ...

    @property
    def keepalive(self) -> bytes | None:
        """A frame that only keeps the connection alive; None: the transport does that itself."""
        ...

    def view(self, version: int, envelope: bytes) -> bytes: ...

    def presence(self, table: bytes) -> bytes: ...

    def chat(self, channel: str) -> bytes:
        """The stream's chat channel has new lines (docs/chat.md)."""
        ...

    async def send(self, frame: bytes) -> None: ...

    async def goodbye(self) -> None:
        """The gateway is stopping: the last word, after which the client reconnects elsewhere."""
        ...

    async def lost(self, match_id: str) -> None:
        """Redis no longer holds the match (lost in a restart): the last word, the stream ends."""
        ...


async def follow(hub: Hub, match_id: str, listener: Listener, sent: int, framing: Framing, backlog: Backlog) -> None:
    """Send what is newer than version ``sent`` until the client goes, the hub closes, the match
    is lost, or the client has not taken a frame within the hub's send timeout: neither made room
    in its backlog (backlog.py) nor took the frame; such a stream is cut."""
    while True:
        if hub.closing:
            await framing.goodbye()
            return
        await listener.wake.wait()
        listener.wake.clear()
        if listener.gone:
            return
        if listener.lost:
            log.info("stream_lost", match_id=match_id, seat=listener.seat)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(hub.send_timeout_s):
                    await framing.lost(match_id)
            return
        if listener.latest > sent:
            sent = listener.latest
            listener.ping = listener.moved = False
            frame = framing.view(sent, hub.overlay(match_id, listener.raw))
        elif listener.moved and listener.raw:
            listener.ping = listener.moved = False
            frame = framing.presence(hub.table(match_id, listener))
        elif listener.chatted:
            listener.chatted = False
            frame = framing.chat(channel_of(listener.seat))
        elif listener.ping:
            listener.ping = False
            stalled = hub.send_timeout_s is not None and backlog.stalled(hub.send_timeout_s)
            if stalled:  # nothing taken, though less than the cap waits
                log.info("stream_stalled", match_id=match_id, seat=listener.seat, unsent=backlog.unsent())
                backlog.cut()
                return
            if framing.keepalive is None:  # the transport keeps itself alive
                listener.quiet = 0
                continue
            frame = framing.keepalive
        else:
            continue
        try:
            if framing.direct and backlog.ready():  # nothing to wait for: no timer to set and cancel
                await framing.send(frame)
            else:
                async with asyncio.timeout(hub.send_timeout_s):
                    await backlog.room()
                    await framing.send(frame)
            backlog.wrote(len(frame))
            listener.quiet = 0
            if listener.chatted:  # told while a view or the table went out: its turn next
                listener.wake.set()
        except TimeoutError:
            log.info("stream_stalled", match_id=match_id, seat=listener.seat, unsent=backlog.unsent())
            backlog.cut()
            return
