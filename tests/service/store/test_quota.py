"""QuotaSlots' contract, on each backend (the slots on its events' Redis): a slot from every holder
or from none; lapsed slots dropped first; each holder's zset expires with its newest slot;
concurrent takes of a last slot: one wins; release, oldest, drop, finished and Redis's clock."""

from __future__ import annotations

import asyncio
import time

import pytest

from services.store import keys
from services.store.quota import QuotaSlots
from tests.service.store.direct import events_of

pytestmark = pytest.mark.anyio
HOLD_MS = 3_600_000


async def test_a_slot_is_taken_from_every_holder(backend):
    slots = QuotaSlots(backend.events)
    assert await slots.take("m1", [("addr:a", 2), ("player:p", 5)], HOLD_MS) == 0
    assert [match_id for match_id, _ in await slots.oldest("addr:a", 10)] == ["m1"]
    assert [match_id for match_id, _ in await slots.oldest("player:p", 10)] == ["m1"]


async def test_a_full_holder_is_named_by_its_place_and_nothing_is_taken(backend):
    slots = QuotaSlots(backend.events)
    assert await slots.take("m1", [("b", 1)], HOLD_MS) == 0
    assert await slots.take("m2", [("a", 5), ("b", 1)], HOLD_MS) == 2
    assert await slots.oldest("a", 10) == []  # all or nothing: a's slot not taken either
    assert [match_id for match_id, _ in await slots.oldest("b", 10)] == ["m1"]


async def test_taking_again_for_the_same_match_holds_one_slot(backend):
    slots = QuotaSlots(backend.events)
    assert await slots.take("m1", [("a", 2)], HOLD_MS) == 0
    assert await slots.take("m1", [("a", 2)], HOLD_MS) == 0
    assert len(await slots.oldest("a", 10)) == 1


async def test_lapsed_slots_are_dropped_before_counting(backend):
    slots, events = QuotaSlots(backend.events), events_of(backend)
    now_ms = await slots.clock_ms()
    events.zadd(keys.open_matches("a"), {"old": now_ms - HOLD_MS - 1000})
    assert await slots.take("new", [("a", 1)], HOLD_MS) == 0
    assert [match_id for match_id, _ in await slots.oldest("a", 10)] == ["new"]


async def test_a_holders_slots_expire_with_its_newest(backend):
    slots = QuotaSlots(backend.events)
    await slots.take("m1", [("a", 3)], 60_000)
    assert 50_000 < events_of(backend).pttl(keys.open_matches("a")) <= 60_000


async def test_concurrent_takes_of_the_last_slot_one_wins(backend):
    slots = QuotaSlots(backend.events)
    answers = await asyncio.gather(*(slots.take(f"m{n}", [("a", 1)], HOLD_MS) for n in range(8)))
    assert sorted(answers) == [0] + [1] * 7
    assert len(await slots.oldest("a", 10)) == 1


async def test_oldest_first_with_when_taken_and_drop_and_release(backend):
    slots, events = QuotaSlots(backend.events), events_of(backend)
    now_ms = await slots.clock_ms()
    events.zadd(keys.open_matches("a"), {"m3": now_ms - 10, "m1": now_ms - 30, "m2": now_ms - 20})
    assert await slots.oldest("a", 2) == [("m1", now_ms - 30), ("m2", now_ms - 20)]
    await slots.drop("a", ["m1", "m3"])
    await slots.drop("a", [])
    assert [match_id for match_id, _ in await slots.oldest("a", 10)] == ["m2"]
    await slots.take("m2", [("b", 3)], HOLD_MS)
    await slots.release("m2", ["a", "b"])
    await slots.release("m2", [])
    assert await slots.oldest("a", 10) == [] and await slots.oldest("b", 10) == []


async def test_clock_ms_is_redis_time_in_ms(backend):
    slots = QuotaSlots(backend.events)
    assert abs(await slots.clock_ms() - time.time() * 1000) < 60_000  # the same clock, not another unit

