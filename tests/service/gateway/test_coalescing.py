"""The gateway's transport proxy: the writes of one turn of the loop leave in one system call."""

from __future__ import annotations

import asyncio

import pytest

from services.gateway.coalescing import Coalescing

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
