"""uvicorn's httptools protocol, with the writes of one turn of the event loop sent together.

An ASGI response is at least two messages (status and headers, then the body), and uvicorn writes
each to the socket at once: two system calls per answer, and on loopback each one also pays the
receiver's side of TCP. Writes made in the same turn of the loop are joined and sent as one
(``call_soon``: after the handlers of this turn, before the loop next waits), so an answer costs
one send, and nothing waits longer than the turn it was written in.

And a deadline on each request's headers (``CoalescingHttpProtocol``).
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

LATE_S = 0.01  # a timer may run this much before its time


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
    """With a deadline on each request's headers, which uvicorn has none of: from the connection's
    opening, and from each answer's end, all of a request's headers arrive within
    ``header_timeout_s``, or the connection is closed. Without it, a connection that sends
    nothing, or half its headers, is held for good (uvicorn's keep-alive timer starts only after
    an answer, and stops at the next request's first byte)."""

    header_timeout_s = 0.0  # 0: none (``with_header_timeout`` gives a class with one)
    # the deadline of the headers awaited (the loop's time; None: none awaited), and the timer that
    # checks it: set once and moved on only when it runs, not set and cancelled for each request
    # (two timer operations a request were 2% of a busy gateway's CPU)
    _headers_by: float | None = None
    _headers_due: asyncio.TimerHandle | None = None

    @classmethod
    def with_header_timeout(cls, seconds: float) -> type[CoalescingHttpProtocol]:
        return type(cls.__name__, (cls,), {"header_timeout_s": seconds})

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(Coalescing(transport, self.loop))  # type: ignore[arg-type]
        self._await_headers()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and not self.pipeline:  # a pipelined one has its headers
            self._await_headers()  # the next request's (uvicorn's keep-alive timer runs beside it)

    def on_headers_complete(self) -> None:
        self._headers_by = None
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._headers_by = None
        if self._headers_due is not None:
            self._headers_due.cancel()
            self._headers_due = None
        super().connection_lost(exc)

    def _await_headers(self) -> None:
        if self.header_timeout_s > 0:
            self._headers_by = self.loop.time() + self.header_timeout_s
            if self._headers_due is None:
                self._headers_due = self.loop.call_at(self._headers_by, self._headers_late)

    def _headers_late(self) -> None:
        self._headers_due = None
        by = self._headers_by
        if by is None:  # they came: the next answer sets the timer again
            return
        if by - self.loop.time() > LATE_S:  # another request's, due later: check again then
            self._headers_due = self.loop.call_at(by, self._headers_late)
        elif not self.transport.is_closing():
            self.transport.close()
