"""Beds' contract (services/store/hibernation.py), on each backend: a match's keys read whole, put to
sleep only at the version snapshotted (one small index key left), woken only under its token, every
key back as it was (stream ids, meta, views, entropy, idempotency records with their time to live),
the second of two wakers finding it awake; and the lifecycle's asleep list."""

from __future__ import annotations

import secrets

import msgspec
import pytest

from projections.chain import Cause
from services.store import keys
from services.store.connections import link_to
from services.store.event_store import EventStore, seal
from services.store.hibernation import Bed, Beds, Kept
from services.store.idempotency import Idempotency
from services.store.lifecycle import Lifecycle, Played
from tests.service.store.direct import events_of
from tests.service.store.partitioned import ASLEEP_BUCKETS, PARTITIONS, shares

pytestmark = pytest.mark.anyio


class Poured(msgspec.Struct, frozen=True, tag="Poured"):
    pints: int


async def a_match(backend) -> tuple[str, EventStore, Idempotency]:
    """A match of three entries, its meta, views at version 3, entropy and an idempotency record."""
    match_id, store = secrets.token_hex(8), EventStore(backend.events, 3600, link=link_to(backend.events))
    await backend.events.hset(keys.meta(match_id), mapping={"game": "g", "bots": "[]", "charter": "c", "seed": "s"})
    idem = Idempotency(match_id, 0, "k1")
    records = seal([Poured(1), Poured(2), Poured(3)], 1, "genesis", Cause(idempotency_key="k1", seat=0))
    assert (await store.append(match_id, 0, records, idem, b"answer")).outcome == "ok"
    await backend.events.hset(keys.views(match_id), mapping={"v": "3", "s:0": '{"x":1}', "spectator": "{}"})
    await backend.events.hset(keys.entropy(match_id), mapping={"0": "dice"})
    return match_id, store, idem


async def test_asleep_only_at_the_version_snapshotted_then_woken_as_it_was(backend):
    match_id, store, idem = await a_match(backend)
    beds = Beds(backend.events)
    awake = await beds.awake(match_id)
    assert awake is not None and [r.envelope.version for r in awake.records] == [1, 2, 3]
    assert awake.views["v"] == b"3" and awake.entropy == {"0": "dice"} and awake.meta["game"] == "g"
    kept = await beds.kept([idem.name, keys.idempotency(match_id, 1, "none")])
    assert list(kept) == [idem.name] and kept[idem.name].answer == b"answer" and 0 < kept[idem.name].ttl_ms <= 3_600_000
    assert await beds.sleep(match_id, 2, "t1", list(kept)) == "moved"  # an entry appended since
    await backend.events.hset(keys.views(match_id), mapping={"v": "2"})
    assert await beds.sleep(match_id, 3, "t1", list(kept)) == "moved"  # views behind the log
    await backend.events.hset(keys.views(match_id), mapping={"v": "3"})
    assert await beds.sleep(match_id, 3, "t1", list(kept)) == "ok"
    assert await beds.sleep(match_id, 3, "t2", list(kept)) == "gone"
    direct = events_of(backend)
    for name in (keys.log(match_id), keys.meta(match_id), keys.views(match_id), keys.entropy(match_id), idem.name):
        assert not direct.exists(name)
    assert direct.get(keys.hibernated(match_id)) == b"t1"
    assert (await beds.asleep(match_id)).token == "t1" and not (await beds.asleep(match_id)).awake
    used = await beds.footprint(match_id)
    assert used is None if backend.kind == "fakeredis" else 0 < used < 200
    assert await store.read(match_id) == []
    assert (await store.append(match_id, 3, [], None, b"")).outcome == "ended"  # no meta: nothing taken

    bed = Bed(awake.records, awake.meta, awake.views, awake.entropy, {idem.name: Kept(b"answer", 60_000)})
    assert await beds.wake(match_id, "t0", bed) == "stale"  # another snapshot's token: nothing written
    assert not direct.exists(keys.meta(match_id))
    assert await beds.wake(match_id, "t1", bed) == "woken"
    assert await beds.wake(match_id, "t1", bed) == "awake"  # the second waker
    assert [entry_id for entry_id, _ in direct.xrange(keys.log(match_id))] == [b"1-0", b"2-0", b"3-0"]
    assert await store.read(match_id) == awake.records
    assert await beds.awake(match_id) == awake
    assert 0 < direct.pttl(idem.name) <= 60_000 and await store.recall(idem) == b"answer"
    assert not direct.exists(keys.hibernated(match_id))
    assert await beds.asleep(match_id) == type(await beds.asleep(match_id))(None, True)
    # and it takes the next entry on the same chain
    more = seal([Poured(4)], 4, awake.records[-1].hash, Cause())
    assert (await store.append(match_id, 3, more, None, b"")).outcome == "ok"


async def test_lapsed_records_stay_lapsed_and_a_match_never_there_is_gone(backend):
    match_id, _, idem = await a_match(backend)
    beds = Beds(backend.events)
    awake = await beds.awake(match_id)
    assert awake is not None and await beds.sleep(match_id, 3, "t", [idem.name]) == "ok"
    bed = Bed(awake.records, awake.meta, awake.views, awake.entropy, {idem.name: Kept(b"answer", 0)})
    assert await beds.wake(match_id, "t", bed) == "woken"
    assert not events_of(backend).exists(idem.name)
    other = secrets.token_hex(8)
    nothing = Bed(awake.records, awake.meta, awake.views, awake.entropy, {})
    assert await beds.awake(other) is None and await beds.wake(other, "t", nothing) == "gone"
    assert (await beds.asleep(other)).token is None and not (await beds.asleep(other)).awake


async def test_an_asleep_match_is_listed_and_counted_apart_and_still_ended_when_idle(backend):
    sweeping = shares(backend)
    lifecycle = Lifecycle(backend.events, PARTITIONS, shares(backend, "archive"), ASLEEP_BUCKETS)
    for answer in await lifecycle.link.exchange(lifecycle.listing([Played("g", "a", 100.0), Played("g", "b", 200.0)])):
        assert not isinstance(answer, Exception)
    assert await lifecycle.drowsy("g", 150.0, 10, sweeping) == ["a"]
    await lifecycle.hibernated("g", "a", 100.0)
    assert await lifecycle.drowsy("g", 300.0, 10, sweeping) == ["b"]  # asleep: not put to sleep again
    assert await lifecycle.idle("g", 300.0, 10) == ["a", "b"]  # still ended as abandoned once idle
    assert await lifecycle.playing(["g"]) == {"g": 2}
    assert await lifecycle.last_played([("g", "a"), ("g", "b"), ("g", "c")]) == [100.0, 200.0, None]
    await lifecycle.woken("g", "a", 100.0)
    assert await lifecycle.drowsy("g", 150.0, 10, sweeping) == ["a"]
    assert await lifecycle.playing(["g"]) == {"g": 2}


async def test_the_asleep_lists_are_bucketed_each_match_found_in_its_own(backend):
    """Spread over every bucket of every partition (each list small, so Redis keeps it compact);
    listed by its newest event in whole seconds rounded up, never ended as idle early."""
    lifecycle = Lifecycle(backend.events, PARTITIONS, shares(backend, "archive"), ASLEEP_BUCKETS)
    ids = [f"m{n:02d}" for n in range(60)]
    for n, match_id in enumerate(ids):
        await lifecycle.hibernated("g", match_id, 1000.0 + n + 0.25)
    lists = {name: events_of(backend).zcard(name) for name in lifecycle.asleep_lists("g")}
    assert len(lists) == PARTITIONS.count * ASLEEP_BUCKETS and all(lists.values())
    assert sum(lists.values()) == len(ids)
    assert await lifecycle.playing(["g"]) == {"g": 60}
    assert await lifecycle.last_played([("g", "m07")]) == [1008.0]
    assert await lifecycle.idle("g", 1000.5, 100) == []  # m00 (1000.25) is listed at 1001: late, never early
    assert await lifecycle.idle("g", 1010.0, 100) == ids[:10]  # oldest first, across every list
    for match_id in ids[::2]:
        await lifecycle.woken("g", match_id, 1.0)
    assert await lifecycle.playing(["g"]) == {"g": 60}
    assert sum(events_of(backend).zcard(name) for name in lifecycle.asleep_lists("g")) == 30
