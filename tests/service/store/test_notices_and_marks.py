"""The small repositories' contracts, on each backend: the notices a gateway subscribes to (each
match's own shard channel, beside its views) and the views they announce; the projector's drain
jobs (RQ, on the queue's Redis); the benchmark's floor. (The deferred marks: test_evictions.py.)"""

from __future__ import annotations

import asyncio

import pytest
import redis
import redis.asyncio
from rq import Queue

from services.projector.jobs import drain_job
from services.store import keys
from services.store.bench_floor import BenchFloor
from services.store.connections import link_to
from services.store.drain_jobs import MAX_QUEUED, DrainJobs
from services.store.event_store import EventStore, ViewsAt
from services.store.notices import MOVED, Moved, Notices, Subscribed, Views, Written, encode
from tests.service.store.direct import queue_of
from tests.service.store.heard import until_quiet

pytestmark = pytest.mark.anyio


async def test_a_subscription_hears_only_its_matches_views_written_and_seats_moved(backend):
    notices = Notices(backend.events)
    store = EventStore(backend.events, 60, link=link_to(backend.events))
    link = link_to(backend.events)
    views = {"s:0": b'{"version":3}' * 700, "spectator": b"all"}  # a view of ~9 KB does not ride along
    # matches spread over the slots (on a cluster, over the three primaries)
    ids = [f"m{number}" for number in range(12)]
    # the first write loads promote.lua: its notice goes out again after the script's retry
    await store.write_views([ViewsAt("warm", 1, views)], [encode(1, 1.0)])
    async with notices.subscribed() as heard:
        for match_id in ids[:6]:
            heard.want(match_id)
        assert sorted(m.match_id for m in await until_quiet(heard, 0.3) if isinstance(m, Subscribed)) == sorted(ids[:6])
        await store.write_views([ViewsAt(match_id, 3, views) for match_id in ids], [encode(3, 1.5)] * len(ids))
        await link.exchange([["SPUBLISH", keys.notices("m1"), MOVED], ["SPUBLISH", keys.notices("m7"), MOVED]])
        found = await until_quiet(heard, 0.3)
        assert sorted(found, key=repr) == sorted(
            [*(Written(match_id, 3, 1.5) for match_id in ids[:6]), Moved("m1")], key=repr
        )
        heard.drop("m0")
        heard.drop("m1")
        heard.want("m1")  # dropped and wanted again before either was sent: stays subscribed
        await until_quiet(heard, 0.3)
        await store.write_views([ViewsAt(match_id, 4, views) for match_id in ids[:2]], [encode(4, 2.0)] * 2)
        assert await until_quiet(heard, 0.3) == [Written("m1", 4, 2.0)]
    read = await notices.views([("m1", ["s:0", "s:1", "spectator"]), ("m11", ["s:0"]), ("none", ["s:0"])])
    assert read == [
        Views(4, {"s:0": views["s:0"], "s:1": None, "spectator": b"all"}),
        Views(3, {"s:0": views["s:0"]}),
        Views(None, {"s:0": None}),
    ]
    assert len(encode(4, 2.0)) <= 13  # against ~9.8 KB of views a match before


async def test_drain_jobs_are_queued_by_their_function_at_most_a_few_at_once(backend):
    jobs = DrainJobs(Queue(f"drains-{backend.kind}", connection=queue_of(backend)), drain_job)
    for _ in range(MAX_QUEUED + 2):
        await asyncio.to_thread(jobs.enqueue)
    assert jobs.count == MAX_QUEUED
    assert {job.func_name for job in jobs.queue.jobs} == {"services.projector.jobs.drain_job"}


async def test_the_bench_floor_appends_to_its_own_capped_stream(backend):
    floor = BenchFloor(backend.events)
    first, second = await floor.add("PickCard"), await floor.add("PickCard")
    assert tuple(map(int, first.split("-"))) < tuple(map(int, second.split("-")))  # stream ids, in order


async def test_the_matches_wanted_together_are_subscribed_in_one_call(redis_url):
    """The channels wanted meanwhile go in one SSUBSCRIBE: a call each took a turn of a busy event
    loop each, and 200 matches created at once were subscribed one by one for seconds (issue 31)."""
    client = redis.asyncio.Redis.from_url(redis_url, protocol=2)
    ids = [f"together{number}" for number in range(20)]

    def subscribes() -> int:
        return int(redis.Redis.from_url(redis_url).info("commandstats").get("cmdstat_ssubscribe", {}).get("calls", 0))

    before = subscribes()
    async with Notices(client).subscribed() as heard:
        for match_id in ids:
            heard.want(match_id)
        assert sorted(m.match_id for m in await until_quiet(heard, 0.3) if isinstance(m, Subscribed)) == sorted(ids)
        assert subscribes() - before == 1
    await client.aclose()

