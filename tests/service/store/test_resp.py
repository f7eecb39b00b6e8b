"""services/store/resp.py: commands packed as redis-py would, replies in order, errors in place, and
(redis-py's doing, which resp.py relies on) a connection cut off mid-exchange is not reused in step."""

from __future__ import annotations

import asyncio

import fakeredis
import pytest
import redis.asyncio
from redis.exceptions import ResponseError

from services.store import resp

pytestmark = pytest.mark.anyio


@pytest.fixture(params=["fakeredis", "redis"])
async def client(request):
    if request.param == "fakeredis":
        connection = fakeredis.FakeAsyncRedis()
    else:
        connection = redis.asyncio.Redis.from_url(request.getfixturevalue("redis_url"), protocol=2)
    yield connection
    await connection.aclose()


def test_packing_is_redis_pys():
    commands = [["SET", "k", b"\x00\r\n", 7], ["EVALSHA", "ab" * 20, 2, "a", "b", 1.5, b""], ["PING"]]
    connection = redis.asyncio.Connection()
    assert resp.pack(commands) == b"".join(connection.pack_commands(commands))


async def test_replies_in_order_with_an_error_in_its_place(client):
    replies = await resp.exchange(client, [["SET", "k", "v"], ["INCR", "k"], ["GET", "k"], ["PING"]])
    assert replies[0] == b"OK"
    assert isinstance(replies[1], ResponseError)
    assert replies[2:] == [b"v", b"PONG"]
    assert await client.get("k") == b"v"  # the pool's connection is in step for the next user


async def test_a_cancelled_exchange_does_not_hand_back_a_connection_out_of_step(redis_url):
    client = redis.asyncio.Redis.from_url(redis_url, protocol=2)
    try:
        await client.delete("slow")
        blocked = asyncio.create_task(resp.exchange(client, [["BLPOP", "slow", 5], ["PING"]]))
        await asyncio.sleep(0.1)
        blocked.cancel()
        with pytest.raises(asyncio.CancelledError):
            await blocked
        await client.rpush("slow", "x")  # had the BLPOP's connection gone back, it would read "x"
        assert await client.get("nothing") is None
        assert await client.lpop("slow") == b"x"
    finally:
        await client.aclose()


@pytest.mark.parametrize("reads", [True, False])
async def test_only_reads_are_sent_again_when_the_connection_drops_mid_exchange(redis_url, reads):
    client = redis.asyncio.Redis.from_url(redis_url, protocol=2)
    killer = redis.asyncio.Redis.from_url(redis_url, protocol=2)
    try:
        await client.delete("empty")

        async def kill_the_blocked_connection() -> None:
            await asyncio.sleep(0.2)
            await killer.client_kill_filter(_type="normal", skipme=True)

        kill = asyncio.create_task(kill_the_blocked_connection())
        exchange = resp.exchange(client, [["BLPOP", "empty", 1]], reads=reads)
        if reads:
            assert await exchange == [None]  # the second try ran to its timeout
        else:
            with pytest.raises(redis.exceptions.ConnectionError):
                await exchange
        await kill
    finally:
        await client.aclose()
        await killer.aclose()
