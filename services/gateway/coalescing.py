"""uvicorn's httptools protocol, with the writes of one turn of the event loop sent together.

An ASGI response is at least two messages (status and headers, then the body), and uvicorn writes
each to the socket at once: two system calls per answer, and on loopback each one also pays the
receiver's side of TCP. Writes made in the same turn of the loop are joined and sent as one
(``call_soon``: after the handlers of this turn, before the loop next waits), so an answer costs
one send, and nothing waits longer than the turn it was written in.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol


class Coalescing:
    """A transport proxy: ``write`` queues, the end of the turn flushes; the rest is the transport's."""

    __slots__ = ("_loop", "_pending", "_transport")

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        self._transport = transport
        self._loop = loop
        self._pending: list[bytes] = []

    def write(self, data: bytes) -> None:
        if not self._pending:
            self._loop.call_soon(self.flush)
        self._pending.append(data)

    def flush(self) -> None:
        if self._pending:
            data, self._pending = self._pending, []
            if not self._transport.is_closing():
                self._transport.write(data[0] if len(data) == 1 else b"".join(data))

    def close(self) -> None:
        self.flush()  # "connection: close" answers are written, then the socket closes
        self._transport.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


class CoalescingHttpProtocol(HttpToolsProtocol):
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(Coalescing(transport, self.loop))  # type: ignore[arg-type]
