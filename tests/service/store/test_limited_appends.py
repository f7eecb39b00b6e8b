"""A seat token's command bucket taken from inside the append (append.lua with bucket.lua), on each
backend (fakeredis, a Redis, a Redis Cluster, whose appends wait for a replica): an append takes a
token, an empty bucket appends nothing, keeps no answer and marks nothing, and a call that appends
nothing else (a conflict, a duplicate, an ended match) takes none."""

from __future__ import annotations

import pytest

from services.store import keys
from services.store.bucket import Bucket, digest
from services.store.cluster import slot_of
from services.store.connections import link_to
from services.store.event_store import GENESIS, EventStore
from services.store.idempotency import Idempotency
from tests.service.store.test_event_store import opened, records

pytestmark = pytest.mark.anyio


def store_on(backend) -> EventStore:
    # the projector's marks in the append itself where its keys share the Redis (as the runtime does)
    marks = backend.queue is backend.events
    return EventStore(backend.events, idempotency_ttl_s=60, marks_dirty=marks, link=link_to(backend.events))


def bucket(match_id: str, burst: int) -> Bucket:
    return Bucket("cmd:token", digest(f"Bearer {match_id}"), 0.001, burst, match_id=match_id)  # no refill to speak of


async def tokens(backend, limit: Bucket) -> float:
    return float(await backend.events.hget(limit.key, "t"))


async def test_an_append_takes_a_token_and_an_empty_bucket_appends_nothing(backend):
    store, match_id = store_on(backend), await opened(backend)
    limit = bucket(match_id, 2)
    assert slot_of(limit.key) == slot_of(keys.log(match_id))  # the append's own shard
    first = records(1, GENESIS, 1)
    assert (await store.append(match_id, 0, first, None, b"a", limit)).outcome == "ok"
    second = records(2, first[-1].hash, 2, 3)  # a command of two events: one token
    assert (await store.append(match_id, 1, second, None, b"b", limit)).outcome == "ok"
    assert await tokens(backend, limit) < 0.01
    if store.marks_dirty:
        await backend.events.delete(keys.DIRTY, keys.WAKE)

    idem = Idempotency(match_id, 0, "k1")
    refused = await store.append(match_id, 3, records(4, second[-1].hash, 4), idem, b"c", limit)
    assert refused.outcome == "limited" and 0 < refused.version <= 1000 / 0.001
    assert len(await store.read(match_id)) == 3
    assert await backend.events.get(idem.name) is None  # a retry is decided again, not answered "limited"
    if store.marks_dirty:
        assert await backend.events.zcard(keys.DIRTY) == 0
    # the limit is the token's only: another seat's append goes on
    other = Bucket("cmd:token", digest("Bearer other"), 0.001, 1, match_id=match_id)
    assert (await store.append(match_id, 3, records(4, second[-1].hash, 4), idem, b"c", other)).outcome == "ok"
    if store.marks_dirty:
        assert await backend.events.zcard(keys.DIRTY) == 1


async def test_a_conflict_a_duplicate_and_an_ended_match_take_no_token(backend):
    store, match_id = store_on(backend), await opened(backend)
    limit = bucket(match_id, 1)
    idem = Idempotency(match_id, 0, "k1")
    first = records(1, GENESIS, 1)
    assert (await store.append(match_id, 0, first, idem, b"first answer")).outcome == "ok"  # no bucket: none taken

    assert (await store.append(match_id, 0, records(1, GENESIS, 9), None, b"", limit)).outcome == "conflict"
    forked = records(2, "f" * 64, 9)  # the right version after the wrong entry
    assert (await store.append(match_id, 1, forked, None, b"", limit)).outcome == "conflict"
    assert await backend.events.exists(limit.key) == 0  # never written: still full

    assert (await store.append(match_id, 1, records(2, first[-1].hash, 2), None, b"", limit)).outcome == "ok"
    # the bucket is empty now: a retry under a key already answered still hears its answer
    duplicate = await store.append(match_id, 2, records(3, first[-1].hash, 3), idem, b"", limit)
    assert (duplicate.outcome, duplicate.prior) == ("duplicate", b"first answer")
    await backend.events.hset(keys.meta(match_id), mapping={"ended": "abandoned"})
    assert (await store.append(match_id, 2, records(3, first[-1].hash, 3), None, b"", limit)).outcome == "ended"
    assert await tokens(backend, limit) < 0.01
