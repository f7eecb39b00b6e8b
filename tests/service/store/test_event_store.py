"""The event store's contract, on each backend (fakeredis, a Redis, a Redis Cluster): an append is
atomic and conditional on the version and hash it was decided after; an idempotency key gives one
effect and the first answer; the log reads back in order, chained; views move only forwards."""

from __future__ import annotations

import secrets

import msgspec
import pytest

from projections.chain import Cause
from services.store import keys
from services.store.connections import link_to
from services.store.event_store import GENESIS, EventStore, ViewsAt, seal
from services.store.idempotency import Idempotency

pytestmark = pytest.mark.anyio


class Poured(msgspec.Struct, frozen=True, tag="Poured"):
    pints: int


@pytest.fixture
async def store(backend) -> EventStore:
    return EventStore(backend.events, idempotency_ttl_s=60, link=link_to(backend.events), refusal_ttl_s=30)


async def opened(backend) -> str:
    """A match whose meta is written, as creation leaves it (an append needs one)."""
    match_id = secrets.token_hex(8)
    await backend.events.hset(keys.meta(match_id), mapping={"game": "heros-tavern"})
    return match_id


def records(first: int, prev: str, *pints: int) -> list:
    return seal([Poured(p) for p in pints], first, prev, Cause(id=secrets.token_hex(4), seat=0), now=1.0)


async def test_appends_read_back_in_order_each_chained_to_the_last(backend, store):
    match_id = await opened(backend)
    first = records(1, GENESIS, 1, 2)
    assert (await store.append(match_id, 0, first, None, b"a")).outcome == "ok"
    second = records(3, first[-1].hash, 3)
    appended = await store.append(match_id, 2, second, None, b"b")
    assert (appended.outcome, appended.version) == ("ok", 3)
    read = await store.read(match_id)
    assert [r.envelope.version for r in read] == [1, 2, 3]
    assert [r.hash for r in read] == [r.hash for r in first + second]
    assert [r.envelope.prev for r in read[1:]] == [r.hash for r in read[:-1]]
    assert [r.envelope.version for r in await store.read(match_id, after=1, upto=2)] == [2]
    tails = await store.read_tails({match_id: 2, "0000000000000000": 0})
    assert [r.envelope.version for r in tails[match_id]] == [3] and tails["0000000000000000"] == []


async def test_a_stale_version_or_another_entry_at_it_is_a_conflict_and_appends_nothing(backend, store):
    match_id = await opened(backend)
    first = records(1, GENESIS, 1)
    await store.append(match_id, 0, first, None, b"a")
    stale = await store.append(match_id, 0, records(1, GENESIS, 9), None, b"x")
    assert (stale.outcome, stale.version) == ("conflict", 1)
    # decided after an entry that is not the one at version 1 (another gateway's took its place)
    forked = await store.append(match_id, 1, records(2, "f" * 64, 9), None, b"x")
    assert (forked.outcome, forked.version) == ("conflict", 1)
    assert [r.hash for r in await store.read(match_id)] == [first[0].hash]


async def test_a_match_without_its_meta_takes_nothing(backend, store):
    match_id = secrets.token_hex(8)  # archived (its meta evicted), or never created
    assert (await store.append(match_id, 0, records(1, GENESIS, 1), None, b"a")).outcome == "ended"
    assert await store.read(match_id) == [] and not await store.holds(match_id)


async def test_one_idempotency_key_has_one_effect_and_the_first_answer(backend, store):
    match_id = await opened(backend)
    key = Idempotency(match_id, 0, "pour-1")
    assert await store.recall(key) is None
    assert (await store.append(match_id, 0, records(1, GENESIS, 1), key, b"first")).outcome == "ok"
    again = await store.append(match_id, 1, records(2, GENESIS, 1), key, b"second")
    assert (again.outcome, again.prior) == ("duplicate", b"first")
    assert await store.recall(key) == b"first"
    assert len(await store.read(match_id)) == 1
    assert await store.recall(Idempotency(match_id, 1, "pour-1")) is None  # another seat's key is its own


async def test_a_refusal_is_remembered_once_and_for_a_while(backend, store):
    match_id = await opened(backend)
    key = Idempotency(match_id, 2, "late")
    assert await store.remember(key, b"refused") == b"refused"
    assert await store.remember(key, b"other") == b"refused"  # the first answer stands
    assert await store.recall(key) == b"refused"


async def test_views_move_only_forwards(backend, store):
    match_id = await opened(backend)
    newer = ViewsAt(match_id, 5, {"s:0": b'{"version":5}', "spectator": b'{"version":5}'})
    older = ViewsAt(match_id, 3, {"s:0": b'{"version":3}', "spectator": b'{"version":3}'})
    await store.write_views([newer], [b"notice"])
    await store.write_views([older], [b"notice"])  # a slower worker's older fold
    assert await store.view(match_id, "s:0") == b'{"version":5}'
    assert await store.view(match_id, "spectator") == b'{"version":5}'
    assert await store.view(match_id, "s:1") is None
