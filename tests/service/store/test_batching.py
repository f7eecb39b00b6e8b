"""Group commit: concurrent calls share one round trip, and each gets its own answer or error."""

from __future__ import annotations

import asyncio
import secrets

import pytest

from services.store.batching import Batched
from services.store.event_store import Call, run_scripts

pytestmark = pytest.mark.anyio


async def test_calls_made_while_a_batch_is_in_flight_leave_together_in_the_next():
    sent: list[list[int]] = []

    async def send(items: list[int]) -> list[int]:
        sent.append(items)
        await asyncio.sleep(0.01)
        return [item * 10 for item in items]

    batched = Batched(send)
    first = asyncio.ensure_future(batched(1))
    await asyncio.sleep(0.001)  # the first batch is in flight now
    answers = await asyncio.gather(first, *(batched(item) for item in (2, 3, 4)))
    assert answers == [10, 20, 30, 40]
    assert sent == [[1], [2, 3, 4]]


async def test_a_failed_batch_fails_its_own_callers_and_the_next_batch_goes_on():
    async def send(items: list[int]) -> list[int]:
        if 0 in items:
            raise ConnectionError("lost")
        return items

    batched = Batched(send)
    with pytest.raises(ConnectionError):
        await batched(0)
    assert await batched(5) == 5


async def test_a_script_redis_does_not_know_is_loaded_and_only_its_calls_run_again(linked):
    redis, link = linked
    key = f"n{secrets.token_hex(4)}"
    fresh = f"-- {key}\n"  # a script this Redis has never seen, whatever earlier tests loaded
    count = redis.register_script(fresh + "return redis.call('INCR', KEYS[1])")
    echo = redis.register_script(fresh + "return ARGV[1]")
    await redis.script_load(count.script)  # Redis knows this one, not echo
    answers = await run_scripts(link, [Call(count, [key], []), Call(echo, [], ["hi"])])
    assert answers == [1, b"hi"]
    assert await redis.get(key) == b"1"  # counted once: an append sent again would be decided twice


async def test_an_error_is_answered_in_its_own_place(linked):
    redis, link = linked
    picky = redis.register_script("if ARGV[1] == 'bad' then return redis.error_reply('no') end return ARGV[1]")
    answers = await run_scripts(link, [Call(picky, [], ["good"]), Call(picky, [], ["bad"])])
    assert answers[0] == b"good" and isinstance(answers[1], Exception)
