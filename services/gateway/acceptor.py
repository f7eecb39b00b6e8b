"""The gateway's listening socket, every waiting connection taken each time it is ready.

uvloop's server takes one connection a turn of the event loop (libuv has accepted one a readiness
since 1.45, its pull request 3696, where it had accepted until the queue was empty), and a busy
gateway turns some tens of times a second: at saturation (200 matches on 2 cores) it took some
tens of new connections a second, one for each ``epoll_wait`` (strace), its accept queue 200 to 300
deep, each stream opened waiting seconds before its first byte was read, as would every client
reconnecting after another gateway stops.
Here the loop tells when the socket is ready, and all the queue holds is accepted then, each
connection handed to the loop as an accepted socket (``connect_accepted_socket``), as asyncio's own
loop does.
"""

from __future__ import annotations

import asyncio
import errno
import socket
from collections.abc import Callable

from services.ops import logs

log = logs.get("tavern.serve")

# the errors of an accept that say the process or the machine is out of descriptors: the socket is
# left alone for a second (asyncio's own loop does the same), not tried again at every turn
OUT_OF_DESCRIPTORS = {errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM}
RETRY_S = 1.0


class Acceptor:
    """A listening socket served on the running loop, as ``loop.create_server``'s server is (its
    ``close``, ``wait_closed`` and ``sockets`` are what uvicorn's shutdown uses)."""

    def __init__(self, sock: socket.socket, protocol_factory: Callable[[], asyncio.Protocol], backlog: int) -> None:
        self.loop = asyncio.get_running_loop()
        self.sock, self.protocol_factory, self.backlog = sock, protocol_factory, backlog
        self.sockets = [sock]
        self.handing: set[asyncio.Task] = set()  # accepted sockets being handed to the loop
        sock.setblocking(False)
        sock.listen(backlog)
        self.loop.add_reader(sock.fileno(), self.accept)

    def accept(self) -> None:
        """Take every connection waiting (at most a backlog's worth, so that a flood cannot hold the
        loop for good), each handed to the loop with a protocol of its own."""
        for _ in range(self.backlog):
            try:
                conn, _ = self.sock.accept()
            except (BlockingIOError, InterruptedError):
                return
            except ConnectionAbortedError:  # reset while it waited: the next
                continue
            except OSError as problem:
                if problem.errno not in OUT_OF_DESCRIPTORS:
                    raise
                log.warning("accept_failed", error=str(problem), retry_s=RETRY_S)
                self.loop.remove_reader(self.sock.fileno())
                self.loop.call_later(RETRY_S, self.resume)
                return
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # as the loop's own server sets
            task = self.loop.create_task(self.loop.connect_accepted_socket(self.protocol_factory, conn))
            self.handing.add(task)
            task.add_done_callback(self.handed)

    def handed(self, task: asyncio.Task) -> None:
        self.handing.discard(task)
        if not task.cancelled() and task.exception() is not None:  # reset before it was opened
            log.info("accepted_connection_lost", error=repr(task.exception()))

    def resume(self) -> None:
        if self.sock.fileno() >= 0:
            self.loop.add_reader(self.sock.fileno(), self.accept)

    def close(self) -> None:
        """Stop listening: new connections are refused; those accepted are the server's to end."""
        if self.sock.fileno() >= 0:
            self.loop.remove_reader(self.sock.fileno())
            self.sock.close()

    async def wait_closed(self) -> None:
        if self.handing:
            await asyncio.gather(*self.handing, return_exceptions=True)
