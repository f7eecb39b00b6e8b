"""services/store/wire.py against a real redis-server: replies in order and in their own exchange, errors
in place, a cancelled exchange still takes its replies, a lost connection fails what was in
flight and only reads are sent again, a late reply is a timeout that drops the connection, and the
URL's password, database and Unix socket."""

from __future__ import annotations

import asyncio
import secrets
import signal
import time

import pytest
import redis.asyncio
from redis.exceptions import ConnectionError, NoScriptError, ResponseError, TimeoutError

from services.store.wire import Wire, supports
from tests.service.conftest import free_port, start_redis

pytestmark = pytest.mark.anyio


@pytest.fixture
async def wire(redis_url):
    link = Wire(redis_url)
    yield link
    link.close()


@pytest.fixture
async def client(redis_url):
    connection = redis.asyncio.Redis.from_url(redis_url, protocol=2)
    yield connection
    await connection.aclose()


def key() -> str:
    return f"wire:{secrets.token_hex(4)}"


async def test_nothing_to_send_is_answered_at_once_and_the_link_stays_up(wire):
    """An empty exchange waited for a reply that never came until its timeout closed the link under
    every other caller (a gateway's presence refresh with no seat streamed: a 503 every 15 s)."""
    wire.timeout_s = 0.5
    assert await asyncio.wait_for(wire.exchange([]), 2.0) == []
    assert await wire.exchange([["PING"]]) == [b"PONG"]


async def test_replies_in_order_with_errors_in_their_place(wire):
    k = key()
    replies = await wire.exchange(
        [["SET", k, "v"], ["INCR", k], ["GET", k], ["EVALSHA", "ab" * 20, 0], ["PING"], ["XRANGE", k + "x", "-", "+"]]
    )
    assert replies[0] == b"OK"
    assert type(replies[1]) is ResponseError
    assert replies[2] == b"v"
    assert isinstance(replies[3], NoScriptError)  # what run_scripts loads the script on
    assert replies[4:] == [b"PONG", []]


async def test_concurrent_exchanges_share_the_connection_and_each_gets_its_own_replies(wire):
    k = key()
    counts = await asyncio.gather(*(wire.exchange([["INCR", k], ["ECHO", str(i)]]) for i in range(200)))
    assert [echo for _, echo in counts] == [str(i).encode() for i in range(200)]
    assert [count for count, _ in counts] == list(range(1, 201))  # written in the order they were made


async def test_a_cancelled_exchange_still_takes_its_replies(wire, client):
    queue, k = key(), key()
    await client.set(k, "mine")
    blocked = asyncio.create_task(wire.exchange([["BLPOP", queue, 2]]))
    await asyncio.sleep(0.1)
    blocked.cancel()
    with pytest.raises(asyncio.CancelledError):
        await blocked
    await client.rpush(queue, "x")  # the cancelled BLPOP's reply arrives now
    assert await wire.exchange([["GET", k]]) == [b"mine"]


@pytest.mark.parametrize("reads", [True, False])
async def test_a_lost_connection_fails_what_was_in_flight_and_only_reads_go_again(wire, client, reads):
    await wire.exchange([["CLIENT", "SETNAME", "doomed"]])
    empty = key()

    async def kill_it() -> None:
        await asyncio.sleep(0.2)
        for info in await client.client_list():
            if info["name"] == "doomed":
                await client.client_kill_filter(_id=info["id"])

    kill = asyncio.create_task(kill_it())
    exchange = wire.exchange([["BLPOP", empty, 1]], reads=reads)
    if reads:
        assert await exchange == [None]  # sent again on a new connection, and ran to its timeout
    else:
        with pytest.raises(ConnectionError):
            await exchange
    await kill
    assert await wire.exchange([["PING"]]) == [b"PONG"]  # the next exchange opens a new connection


async def test_each_event_loop_gets_a_connection_of_its_own(redis_url):
    link = Wire(redis_url)

    async def ping() -> list:
        return await link.exchange([["PING"]])

    try:
        for _ in range(2):  # a second loop, as a second TestClient or a worker thread would run
            assert await asyncio.to_thread(asyncio.run, ping()) == [b"PONG"]
        assert await ping() == [b"PONG"]
    finally:
        link.close()


async def test_a_stalled_redis_is_a_timeout_then_a_new_connection(tmp_path):
    server, url = start_redis(tmp_path)
    link = Wire(url, timeout_s=0.3)
    try:
        assert await link.exchange([["ECHO", "before"]]) == [b"before"]
        server.send_signal(signal.SIGSTOP)  # the connection stays open; no reply comes
        began = time.monotonic()
        with pytest.raises(TimeoutError):
            async with asyncio.timeout(3):  # without the Wire's own, a hang: fail, not wait forever
                await link.exchange([["ECHO", "late"]])
        assert time.monotonic() - began < 1.0
        server.send_signal(signal.SIGCONT)
        # a new connection: the late reply, were it read, would have answered this exchange
        assert await link.exchange([["ECHO", "after"]]) == [b"after"]
    finally:
        link.close()
        server.send_signal(signal.SIGCONT)
        server.kill()
        server.wait(10)


async def test_nothing_listening_is_a_connection_error():
    with pytest.raises(ConnectionError):
        await Wire(f"redis://127.0.0.1:{free_port()}/0").exchange([["PING"]])


@pytest.fixture(scope="module")
def guarded(tmp_path_factory):
    """A redis-server with a password, also listening on a Unix socket."""
    directory = tmp_path_factory.mktemp("guarded")
    socket = directory / "redis.sock"
    process, url = start_redis(directory, "--requirepass", "s3cret", "--unixsocket", str(socket))
    yield url.replace("redis://", "redis://:s3cret@"), f"unix://:s3cret@{socket}"
    process.terminate()
    process.wait(10)


@pytest.mark.parametrize("over", ["tcp", "unix"])
async def test_the_urls_password_and_database_are_used(guarded, over):
    tcp, unix = guarded
    url = tcp[: -len("/0")] + "/3" if over == "tcp" else unix + "?db=3"
    k = key()
    link = Wire(url)
    try:
        assert await link.exchange([["SET", k, over]]) == [b"OK"]
    finally:
        link.close()
    check = redis.asyncio.Redis.from_url(tcp[: -len("/0")] + "/3", protocol=2)
    try:
        assert await check.get(k) == over.encode()  # database 3, not 0
    finally:
        await check.aclose()


async def test_a_wrong_password_is_a_connection_error(guarded):
    tcp, _ = guarded
    with pytest.raises(ConnectionError, match="setup"):
        await Wire(tcp.replace("s3cret", "wrong")).exchange([["PING"]])


def test_tls_stays_with_redis_py():
    assert supports("redis://h:1/0") and supports("unix:///tmp/r.sock")
    assert not supports("rediss://h:1/0")
