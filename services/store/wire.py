"""One pipelined connection to Redis for the command path and the projector: commands packed as
RESP (services/store/resp.py) and written at once, replies parsed by hiredis as they arrive and handed
back in order, each exchange's together.

redis-py's asyncio connection reads through a stream reader with a timeout scope and a coroutine
per reply: about 100 µs of CPU per round trip more than this on the bench machine (130-170 µs
against 30-40 for three short commands), paid on every batch of appends and every drain step.
Exchanges from concurrent coroutines share the connection, written in the order they are made, so
a batch never waits for a free connection; nothing blocking (BLPOP) may go on a shared one.

A reply cut off (the connection lost), or late (past the Wire's timeout: the connection is then
dropped, since a late reply would answer the next exchange), fails every exchange in flight with
redis-py's ConnectionError (TimeoutError for the late one) and the next one opens a new
connection; only reads are sent again (resp.py says
why). An exchange whose caller is cancelled still takes its replies off the wire, so the next
exchange's replies are its own.
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Any

import hiredis
from redis.asyncio.connection import parse_url
from redis.exceptions import ConnectionError, NoScriptError, ResponseError
from redis.exceptions import TimeoutError as NoReply

from services.ops import metrics
from services.store.resp import pack, sent_once_more_if_reads

CONNECT_TIMEOUT_S = 10.0


def _error(message: str) -> Exception:
    """An error reply as redis-py would raise it, as far as our callers tell them apart."""
    return NoScriptError(message) if message.startswith("NOSCRIPT") else ResponseError(message)


def supports(url: str) -> bool:
    """Whether a Wire can speak to this URL (TCP or a Unix socket; TLS stays with redis-py)."""
    return url.startswith(("redis://", "unix://"))


class _Exchange:
    __slots__ = ("count", "future", "replies")

    def __init__(self, future: asyncio.Future[list[Any]], count: int) -> None:
        self.future = future
        self.count = count
        self.replies: list[Any] = []


class _Protocol(asyncio.Protocol):
    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.reader = hiredis.Reader(replyError=_error)
        self.waiting: deque[_Exchange] = deque()
        self.transport: asyncio.Transport | None = None
        self.lost: ConnectionError | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def send(self, commands: list[list[Any]]) -> asyncio.Future[list[Any]]:
        future = self.loop.create_future()
        if self.lost is not None:
            future.set_exception(self.lost)
            return future
        self.waiting.append(_Exchange(future, len(commands)))
        self.transport.write(pack(commands))  # type: ignore[union-attr]
        return future

    def data_received(self, data: bytes) -> None:
        self.reader.feed(data)
        waiting = self.waiting
        try:
            while waiting:
                reply = self.reader.gets()
                if reply is False:  # the rest has not arrived yet (RESP2 has no booleans)
                    return
                exchange = waiting[0]
                exchange.replies.append(reply)
                if len(exchange.replies) == exchange.count:
                    waiting.popleft()
                    if not exchange.future.done():  # its caller may have been cancelled
                        exchange.future.set_result(exchange.replies)
        except hiredis.ProtocolError as problem:
            self.transport.close()  # type: ignore[union-attr]
            self._fail(ConnectionError(f"Redis sent what is not RESP: {problem}"))

    def connection_lost(self, exc: Exception | None) -> None:
        if self.lost is None:  # not closed by us (close() sets it first)
            metrics.REDIS_ERRORS.labels("connection_lost").inc()
        self._fail(ConnectionError(f"the connection to Redis was lost: {exc or 'closed'}"))

    def _fail(self, problem: ConnectionError) -> None:
        self.lost = self.lost or problem
        while self.waiting:
            future = self.waiting.popleft().future
            if not future.done():
                future.set_exception(self.lost)

    def close(self) -> None:
        self.lost = self.lost or ConnectionError("the connection to Redis was closed")
        if self.transport is not None:
            self.transport.close()

    def abort(self, problem: ConnectionError) -> None:
        """Give up on the connection: every exchange in flight fails, the next opens another."""
        self._fail(problem)
        if self.transport is not None:
            self.transport.abort()


class Wire:
    """A lazily opened, pipelined connection to the Redis at ``url`` (redis:// or unix://)."""

    def __init__(self, url: str, timeout_s: float = CONNECT_TIMEOUT_S) -> None:
        self.options = parse_url(url)
        self.timeout_s = timeout_s  # for a connect, and for the replies of an exchange
        self._protocol: _Protocol | None = None
        self._opening: asyncio.Task[_Protocol] | None = None

    async def exchange(self, commands: list[list[Any]], reads: bool = False) -> list[Any]:
        """The replies of ``commands`` (an error reply as its exception), in order."""
        return await sent_once_more_if_reads(self._exchange, commands, reads)

    async def _exchange(self, commands: list[list[Any]]) -> list[Any]:
        protocol = self._protocol
        if protocol is None or protocol.lost is not None or protocol.loop is not asyncio.get_running_loop():
            protocol = await self._connect()
        try:
            async with asyncio.timeout(self.timeout_s):
                return await protocol.send(commands)
        except TimeoutError:
            metrics.REDIS_ERRORS.labels("timeout").inc()
            protocol.abort(ConnectionError("an earlier exchange's replies were late"))
            raise NoReply(f"no reply from Redis in {self.timeout_s} s") from None

    async def _connect(self) -> _Protocol:
        # one opening at a time per loop: the callers that find none open wait for the same one
        loop = asyncio.get_running_loop()
        opening = self._opening
        if opening is None or opening.done() or opening.get_loop() is not loop:
            opening = self._opening = loop.create_task(self._open(loop))
        return await asyncio.shield(opening)

    async def _open(self, loop: asyncio.AbstractEventLoop) -> _Protocol:
        options = self.options
        try:
            async with asyncio.timeout(self.timeout_s):
                if "path" in options:
                    _, protocol = await loop.create_unix_connection(lambda: _Protocol(loop), options["path"])
                else:
                    host, port = options.get("host", "localhost"), options.get("port", 6379)
                    _, protocol = await loop.create_connection(lambda: _Protocol(loop), host, port)
                greeting: list[list[Any]] = []
                if options.get("password") is not None:
                    greeting.append(["AUTH", *filter(None, [options.get("username")]), options["password"]])
                if options.get("db"):
                    greeting.append(["SELECT", options["db"]])
                if greeting:
                    for answer in await protocol.send(greeting):
                        if isinstance(answer, Exception):
                            protocol.close()
                            raise ConnectionError(f"Redis refused the connection's setup: {answer}")
        except (OSError, TimeoutError) as problem:
            metrics.REDIS_ERRORS.labels("connect").inc()
            raise ConnectionError(f"cannot connect to Redis: {problem}") from problem
        if self._protocol is not None:
            metrics.RECONNECTS.inc()  # the one before was lost
        self._protocol = protocol
        return protocol

    def close(self) -> None:
        if self._protocol is not None:
            self._protocol.close()
            self._protocol = None
