"""Commands packed as RESP and sent as a single write, replies read back in order: through a Wire
(services/store/wire.py, a pipelined connection of our own) on a real Redis, else (``Pooled``) on one of
a redis-py client's pooled connections.

redis-py's pipeline spends about as much CPU per command as deciding a move (its command stack,
per-argument encoding, per-reply callbacks); the projector and every batch of appends send
nothing but EVALSHA and one plain command, so they pack their own (RESP, bulk strings) and take
each reply as it comes: an error reply stands in its command's place. Nothing is retried, by
design and not by a client setting: a command whose reply was lost may have run, and an append
run again would answer "conflict" and have its command decided and appended a second time. Reads
(the projector's and the handler's XRANGE), which may run twice, are tried once more.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from redis.exceptions import ConnectionError, ResponseError, TimeoutError


class Link(Protocol):
    """What the hot paths send their commands through: a Wire (services/store/wire.py) or Pooled."""

    async def exchange(self, commands: list[list[Any]], reads: bool = False) -> list[Any]: ...

    def close(self) -> None: ...


def pack(commands: list[list[Any]]) -> bytes:
    """The commands as RESP arrays of bulk strings, in one buffer: each argument copied once (views
    of kilobytes ride in the projector's), each one's CRLF sent with the next one's length."""
    parts = []
    for command in commands:
        parts.append(b"*%d" % len(command))
        for arg in command:
            if type(arg) is not bytes:
                arg = str(arg).encode()
            parts += (b"\r\n$%d\r\n" % len(arg), arg)
        parts.append(b"\r\n")
    return b"".join(parts)


Send = Callable[[list[list[Any]]], Awaitable[list[Any]]]


async def sent_once_more_if_reads(send: Send, commands: list[list[Any]], reads: bool) -> list[Any]:
    """``send(commands)``; ``reads``: the commands only read, so a connection lost on the way is
    tried once more, on a new one (anything that writes is not: see above). Nothing to send, nothing
    sent: an empty write waits for a reply that never comes, and its timeout closes the link under
    every other caller (a gateway's presence refresh with no seat streamed did, every 15 s)."""
    if not commands:
        return []
    try:
        return await send(commands)
    except (ConnectionError, TimeoutError):
        if not reads:
            raise
        return await send(commands)


async def exchange(redis: Any, commands: list[list[Any]], reads: bool = False) -> list[Any]:
    """The replies of ``commands`` (an error reply as its exception), in order, on one of the
    client's pooled connections."""
    return await sent_once_more_if_reads(lambda sent: _exchange(redis, sent), commands, reads)


async def _exchange(redis: Any, commands: list[list[Any]]) -> list[Any]:
    pool = redis.connection_pool
    connection = await pool.get_connection()
    try:
        # a send or read cut short (an error, a cancel) disconnects the connection (redis-py's
        # own doing, relied on: tests/service/test_resp.py), so no reply left unread ever
        # answers the next user's commands
        await connection.send_packed_command(pack(commands), check_health=False)
        replies: list[Any] = []
        for _ in commands:
            try:
                replies.append(await connection.read_response())
            except ResponseError as error:
                replies.append(error)
        return replies
    finally:
        await pool.release(connection)


class Pooled:
    """``exchange`` on a redis-py client's pool, for what a Wire does not speak to: the embedded
    fakeredis, and TLS."""

    def __init__(self, redis: Any) -> None:
        self.redis = redis

    async def exchange(self, commands: list[list[Any]], reads: bool = False) -> list[Any]:
        return await exchange(self.redis, commands, reads)

    def close(self) -> None:
        pass  # the client's owner closes its pool
