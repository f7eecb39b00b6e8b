"""What a stream (SSE, WebSocket) has written and its client has not yet taken, and the cut of a
stream whose client does not read.

A send only waits once the server's own write buffer is past its high-water mark, and the kernel
takes far more first: a send queue that grows to megabytes, and the client's receive window, so a
client that never reads held a whole match's views before any send waited (issue 38). So the
stream loop (streams.py) counts the bytes still on this side, the transport's buffer and the
socket's send queue (``SIOCOUTQ``: written and not acknowledged by the client's TCP), and sends
nothing more while they are past ``TAVERN_STREAM_UNSENT_BYTES``; a stream that does not drain
below it within the send timeout is cut: its socket reset (``SO_LINGER`` 0), so that neither
the transport nor the kernel keeps its bytes for a client that will not take them. A client that
takes nothing at all while less than the cap waits for it (a short match, the quiet after its end)
is cut too, at a keep-alive tick, once its unsent bytes have not gone down for the send timeout
(``stalled``).

The transport is the one uvicorn's ``receive`` belongs to (its request cycle, or its WebSocket
protocol), as intake.arrived finds it; under any other server there is none: nothing is counted.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import socket
import struct
import termios
import time
from typing import Any

POLL_S = 0.25  # how often a stream past its cap looks again: only such streams poll
_INT = struct.Struct("i")


class Backlog:
    def __init__(self, receive: Any, cap: int) -> None:
        self.cap = cap  # 0: no cap
        self.cut_off = False  # cut: nothing more is sent, not even a close
        owner = getattr(receive, "__self__", None)
        self._transport: Any = getattr(owner, "transport", None)
        sock = self._transport.get_extra_info("socket") if self._transport is not None else None
        self._socket: Any = sock
        self._fd = sock.fileno() if sock is not None else -1
        self._held, self._since = 0, 0.0  # the unsent bytes last seen, and since when none were taken
        # the unsent bytes at the last look, and the bytes written since: what is unsent now is at
        # most their sum (the client only takes), so no look is needed while that is within the cap
        self._looked, self._written = 0, 0

    def unsent(self) -> int:
        """The bytes written and not yet taken by the client's side: 0 when not known."""
        if self._transport is None:
            return 0
        held = int(self._transport.get_write_buffer_size())
        if self._fd >= 0:
            with contextlib.suppress(OSError):  # not a socket the kernel counts for (or closed meanwhile)
                held += _INT.unpack(fcntl.ioctl(self._fd, termios.TIOCOUTQ, b"\0" * _INT.size))[0]
        return held

    def stalled(self, timeout_s: float, now: float | None = None) -> bool:
        """Whether bytes have waited and none were taken for ``timeout_s``: the client reads nothing."""
        now = time.monotonic() if now is None else now
        unsent = self.unsent()
        if unsent == 0 or unsent < self._held or not self._since:
            self._since = now  # drained, or the client took some: it reads
        self._held = unsent
        return unsent > 0 and now - self._since >= timeout_s

    async def room(self) -> None:
        """Until what is unsent is within the cap (the caller bounds the wait)."""
        while not self._within():
            await asyncio.sleep(POLL_S)

    def ready(self) -> bool:
        """Whether a frame can be written now without waiting: the transport holds nothing back
        (so it is not pausing its writer) and what is unsent is within the cap. Mostly known
        without a system call (a look a frame was 2% of a busy gateway's CPU)."""
        if self._transport is None or self._transport.get_write_buffer_size():
            return False
        return self._within()

    def wrote(self, size: int) -> None:
        self._written += size

    def _within(self) -> bool:
        if not self.cap or self._looked + self._written <= self.cap:
            return True
        self._looked, self._written = self.unsent(), 0
        return self._looked <= self.cap

    def cut(self) -> None:
        """Reset the connection now, dropping what it still holds (the client does not read)."""
        self.cut_off = True
        if self._transport is None:
            return
        if self._socket is not None:
            with contextlib.suppress(OSError):
                self._socket.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self._transport.abort()
