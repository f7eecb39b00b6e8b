"""The gateway's listening socket: every waiting connection taken when it is ready, on uvloop (whose
own server takes one a turn of the loop) as on asyncio's loop."""

from __future__ import annotations

import asyncio
import socket

import pytest

from services.gateway.acceptor import Acceptor

pytestmark = pytest.mark.anyio

WAITING = 64


@pytest.fixture(
    params=[pytest.param(("asyncio", {"use_uvloop": True}), id="uvloop"), pytest.param("asyncio", id="asyncio")]
)
def anyio_backend(request):
    return request.param


class Made(asyncio.Protocol):
    """Each connection's protocol, counted once the loop hands it its transport."""

    made: list[asyncio.BaseTransport]

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.made.append(transport)


def listening() -> socket.socket:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    return sock


async def test_a_queue_of_waiting_connections_is_taken_in_a_few_turns_of_the_loop_not_one_each():
    made: list[asyncio.BaseTransport] = []
    protocol = type("Counted", (Made,), {"made": made})
    acceptor = Acceptor(listening(), protocol, backlog=128)
    port = acceptor.sockets[0].getsockname()[1]
    # the kernel completes each handshake without the server: all of them wait in its queue at once
    clients = [socket.create_connection(("127.0.0.1", port)) for _ in range(WAITING)]
    try:
        turns = 0
        while len(made) < WAITING and turns < WAITING:
            await asyncio.sleep(0)  # one turn of the loop
            turns += 1
        assert len(made) == WAITING
        assert turns < WAITING // 8  # uvloop's own server: one turn each, 64 and more
    finally:
        for client in clients:
            client.close()
        for transport in made:
            transport.close()
        acceptor.close()
        await acceptor.wait_closed()


async def test_once_closed_it_refuses_new_connections_and_the_accepted_ones_stay_open():
    made: list[asyncio.BaseTransport] = []
    acceptor = Acceptor(listening(), type("Counted", (Made,), {"made": made}), backlog=8)
    port = acceptor.sockets[0].getsockname()[1]
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    while not made:
        await asyncio.sleep(0.01)
    acceptor.close()
    await acceptor.wait_closed()
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", port), timeout=1)
    made[0].write(b"still here")
    assert await reader.readexactly(10) == b"still here"
    writer.close()
    made[0].close()
