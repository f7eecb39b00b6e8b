"""The gateway's transport proxy: the writes of one turn of the loop leave in one system call."""

from __future__ import annotations

import asyncio

import pytest
import uvicorn

from services.gateway.coalescing import Coalescing, CoalescingHttpProtocol
from tests.service.conftest import free_port

pytestmark = pytest.mark.anyio


class Recorder:
    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.closed = False

    def write(self, data: bytes) -> None:
        self.writes.append(data)

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True

    def get_extra_info(self, name: str) -> str:
        return f"extra {name}"


async def test_writes_of_one_turn_leave_together_in_order():
    recorder = Recorder()
    transport = Coalescing(recorder, asyncio.get_running_loop())
    transport.write(b"HTTP/1.1 200 OK\r\n\r\n")
    transport.write(b"body")
    assert recorder.writes == []  # not before the turn ends
    await asyncio.sleep(0)
    assert recorder.writes == [b"HTTP/1.1 200 OK\r\n\r\nbody"]
    transport.write(b"next")
    await asyncio.sleep(0)
    assert recorder.writes[1:] == [b"next"]


async def test_close_sends_what_is_pending_first_and_the_rest_is_the_transports():
    recorder = Recorder()
    transport = Coalescing(recorder, asyncio.get_running_loop())
    transport.write(b"last words")
    transport.close()
    assert recorder.writes == [b"last words"] and recorder.closed
    transport.write(b"too late")
    await asyncio.sleep(0)
    assert recorder.writes == [b"last words"]  # a closing transport takes no more
    assert transport.get_extra_info("peername") == "extra peername"


async def test_a_kept_connection_is_closed_once_a_requests_headers_are_late_and_not_before():
    """The headers' deadline runs from each answer's end: requests that keep coming within it keep
    their connection, however long it lives; then half a request's headers, and it is closed."""

    async def app(scope, receive, send):
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"2")]})
        await send({"type": "http.response.body", "body": b"ok"})

    deadline_s = 1.0
    port = free_port()
    http = CoalescingHttpProtocol.with_header_timeout(deadline_s)
    config = uvicorn.Config(app, port=port, http=http, lifespan="off", log_level="warning", timeout_keep_alive=60)
    server = uvicorn.Server(config)
    serving = asyncio.create_task(server.serve())
    try:
        while not server.started:
            await asyncio.sleep(0.01)
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        for _ in range(40):  # 2 s of requests, twice the deadline
            writer.write(b"GET / HTTP/1.1\r\nHost: t\r\n\r\n")
            assert (await reader.readuntil(b"ok")).startswith(b"HTTP/1.1 200")
            await asyncio.sleep(deadline_s / 20)
        writer.write(b"GET / HTTP/1.1\r\nHost: t\r\nX-Slow: ")
        async with asyncio.timeout(10 * deadline_s):
            assert await reader.read() == b""  # closed
        writer.close()
    finally:
        server.should_exit = True
        await serving
