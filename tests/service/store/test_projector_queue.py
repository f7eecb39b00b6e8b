"""The projector's bookkeeping (services/store/projector_queue.py) on the queue's Redis of each
backend: matches claimed dirty longest first, a lapsed job's claims back at the front, a match
held by one live job at a time (taken over once its lease lapses), a claim
bringing the logs' tails where they live beside the queue, a mark waking a waiting job, no
wake-up lost, a surplus job standing down, the queue instance of a match, and the workers'
heartbeats."""

from __future__ import annotations

import asyncio
import random

import msgspec
import pytest

from projections.chain import Cause
from services.store import keys
from services.store.event_store import GENESIS, seal
from services.store.projector_queue import BEAT_S, Backlog, Claim, ProjectorQueue, instance_of
from tests.service.store.queue_links import queue_link

pytestmark = pytest.mark.anyio


class Poked(msgspec.Struct, tag=True, frozen=True):
    n: int


@pytest.fixture
async def links(backend):
    """The queue's link and waiter (a connection of its own for the blocking wait)."""
    made = queue_link(backend), queue_link(backend)
    yield made
    for link in made:
        link.close()


@pytest.fixture
def queue(backend, links) -> ProjectorQueue:
    return ProjectorQueue(backend.queue, *links)


async def mark(queue: ProjectorQueue, *match_ids: str) -> None:
    await asyncio.gather(*map(queue.mark_dirty, match_ids))


async def test_the_longest_dirty_are_claimed_first(backend, queue):
    # marked at known times through the zset the marks keep (a match already in keeps its time)
    await backend.queue.zadd(keys.DIRTY, {"c": 100.0, "d": 100.0, "a": 90.0, "b": 95.0})
    await mark(queue, "a")  # already dirty: keeps its place from 90
    first = await queue.claim("job", 5.0, 2, [], now=102.0)
    assert first.match_ids == ["a", "b"] and first.since == [90.0, 95.0]  # when each turned dirty
    assert (await queue.claim("job", 5.0, 5, [], now=102.0)).match_ids == ["c", "d"]
    assert (await queue.claim("job", 5.0, 5, [], now=102.0)).match_ids == []


async def test_a_lapsed_jobs_claims_go_back_to_the_front(backend, queue):
    await backend.queue.zadd(keys.DIRTY, {"stalled": 100.0, "also": 100.5})
    assert (await queue.claim("dead", 5.0, 2, [], now=100.0)).match_ids == ["stalled", "also"]  # its worker dies
    await backend.queue.zadd(keys.DIRTY, {"fresh": 101.0})
    assert (await queue.claim("job", 5.0, 2, [], now=104.0)).match_ids == ["fresh"]  # its lease holds until 105
    # the lease lapsed at 105; a claim that does not renew leaves that to a later one
    assert (await queue.claim("job", 5.0, 2, ["fresh"], now=106.0, renew=False)).match_ids == []
    assert sorted((await queue.claim("job", 5.0, 2, [], now=106.0)).match_ids) == ["also", "stalled"]
    assert await backend.queue.zscore(keys.ACTIVE, "dead") is None


async def holders(backend, now: float) -> dict[str, list[str]]:
    """Match id -> the jobs whose slot is live at ``now`` and whose claims hold it."""
    live = {token.decode() for token, deadline in await backend.queue.zrange(keys.ACTIVE, 0, -1, withscores=True)
            if deadline > now}
    held: dict[str, list[str]] = {}
    for token, ids in (await backend.queue.hgetall(keys.CLAIMS)).items():
        if token.decode() in live:
            for match_id in ids.decode().split(","):
                held.setdefault(match_id, []).append(token.decode())
    return held


async def test_a_match_marked_again_while_held_is_left_to_its_job(backend, queue):
    await mark(queue, "a", "b")
    assert sorted((await queue.claim("one", 60.0, 5, [])).match_ids) == ["a", "b"]
    await mark(queue, "a", "c")  # a command on a while "one" projects it
    assert (await queue.claim("two", 60.0, 5, [])).match_ids == ["c"]  # a stays dirty, left to "one"
    assert await backend.queue.zscore(keys.DIRTY, "a") is not None
    await queue.wait("one", 10.0)  # "one" woken on its own wake-up (else this waits 10 s: see below)
    assert await queue.release("two") == 1  # "two" lets go: the one dirty match is "one"'s
    assert (await queue.claim("one", 60.0, 5, ["a", "b"])).match_ids == ["a"]  # its own again
    assert await holders(backend, 0) == {"a": ["one"]}


async def test_two_jobs_never_hold_the_same_match_at_once(backend, queue):
    """Three jobs claiming and marks arriving in a random order, leases lapsing and taken over:
    after every step no match is held by two live jobs, and every match marked is claimed."""
    shuffle = random.Random(29)
    jobs, matches = ["one", "two", "three"], [f"m{n}" for n in range(6)]
    done: dict[str, list[str]] = {job: [] for job in jobs}
    claimed: set[str] = set()
    now = 1000.0
    for _ in range(300):
        now += shuffle.choice([0.1, 0.5, 2.0])  # a lease of 5: some steps lapse a job's slot
        if shuffle.random() < 0.5:
            await backend.queue.zadd(keys.DIRTY, {shuffle.choice(matches): now}, nx=True)
            continue
        job = shuffle.choice(jobs)
        renew = shuffle.random() < 0.3
        done[job] = (await queue.claim(job, 5.0, 2, done[job], now=now, renew=renew)).match_ids
        claimed.update(done[job])
        assert all(len(held) == 1 for held in (await holders(backend, now)).values())
    assert claimed == set(matches)


async def test_a_lapsed_holders_match_is_taken_over(backend, queue):
    await mark(queue, "a")
    assert (await queue.claim("dead", 5.0, 5, [], now=100.0)).match_ids == ["a"]  # its worker dies
    await backend.queue.zadd(keys.DIRTY, {"a": 101.0})  # a command meanwhile
    assert (await queue.claim("job", 5.0, 5, [], now=104.0)).match_ids == []  # held until 105
    assert (await queue.claim("job", 5.0, 5, [], now=105.5, renew=False)).match_ids == ["a"]
    # the stalled worker's job comes back: its slot lapsed, it takes a live one and leaves a alone
    await backend.queue.zadd(keys.DIRTY, {"a": 106.0})
    assert (await queue.claim("dead", 5.0, 5, ["a"], now=106.0, renew=False)).match_ids == []
    assert await holders(backend, 106.0) == {"a": ["job"]}
    assert await backend.queue.zscore(keys.ACTIVE, "dead") == 111.0


async def test_a_claim_lets_go_of_what_the_job_projected(backend, queue):
    await mark(queue, "a", "b")
    assert sorted((await queue.claim("job", 60.0, 5, [])).match_ids) == ["a", "b"]
    assert sorted((await backend.queue.hget(keys.CLAIMS, "job")).split(b",")) == [b"a", b"b"]
    await mark(queue, "c")
    assert (await queue.claim("job", 60.0, 5, ["a", "b"], renew=False)).match_ids == ["c"]
    assert await backend.queue.hget(keys.CLAIMS, "job") == b"c"  # a and b let go in the same call
    await queue.claim("job", 60.0, 5, ["c"], renew=False)
    assert await backend.queue.hlen(keys.CLAIMS) == 0


async def test_a_claim_brings_each_matchs_tail_where_the_logs_live_beside_it(backend, links):
    """Where the logs live on the queue's Redis, a claim brings each match's entries after its
    views' checkpoint; elsewhere it brings none (the projector reads them)."""
    records = seal([Poked(1), Poked(2)], 1, GENESIS, Cause())
    for record in records:
        fields = {"b": record.body, "h": record.hash}
        await backend.queue.xadd(keys.log("a"), fields, id=f"{record.envelope.version}-0")
    await backend.queue.hset(keys.views("a"), "v", 1)
    beside, apart = ProjectorQueue(backend.queue, *links, tails=True), ProjectorQueue(backend.queue, *links)
    await mark(beside, "a")
    claim = await beside.claim("job", 5.0, 10, [])
    assert claim.match_ids == ["a"]
    after, tail = claim.tails["a"]
    assert after == 1 and [record.body for record in tail] == [records[1].body]
    await mark(apart, "b")
    claimed = await apart.claim("job", 5.0, 10, [])
    assert claimed == Claim(["b"], {}, claimed.since) and len(claimed.since) == 1


async def test_a_match_already_dirty_keeps_its_time(backend, queue):
    await mark(queue, "a")
    first = await backend.queue.zscore(keys.DIRTY, "a")
    await asyncio.sleep(0.01)
    await mark(queue, "a", "b")
    assert await backend.queue.zscore(keys.DIRTY, "a") == first and await backend.queue.zcard(keys.DIRTY) == 2
    assert await backend.queue.zcard(keys.WAKE) == 1  # one wake-up, however many marks


def test_a_matchs_queue_instance_is_its_ids_hash_the_same_everywhere():
    ids = [f"{n:016x}" for n in range(2000)]
    assert {instance_of(match_id, 1) for match_id in ids} == {0}
    shares = [sum(instance_of(match_id, 2) == index for match_id in ids) for index in (0, 1)]
    assert min(shares) > max(shares) * 0.9  # an even spread
    assert instance_of("4f3a9c0d12e8b7aa", 3) == instance_of("4f3a9c0d12e8b7aa", 3)


async def test_a_mark_wakes_a_waiting_job(queue):
    await queue.claim("job", 60.0, 5, [])  # a job holds a slot, nothing to do
    waiting = asyncio.ensure_future(queue.wait("job", 10.0))
    await asyncio.sleep(0.05)
    assert not waiting.done()
    await mark(queue, "a")
    await asyncio.wait_for(waiting, 10)  # woken by the mark, long before its timeout
    await queue.wait("job", 0.05)  # nothing more to wake it: it waits its time out


async def test_a_job_lets_go_only_when_nothing_turned_dirty(backend, queue):
    await queue.claim("job", 60.0, 5, [])
    await mark(queue, "a")
    assert await queue.release("job") is None  # a match turned dirty meanwhile: it goes on
    assert await backend.queue.zscore(keys.ACTIVE, "job") is not None
    await queue.claim("other", 60.0, 5, [])
    assert await queue.release("job") == 1  # it let go; "other" still holds a slot
    assert await backend.queue.zscore(keys.ACTIVE, "job") is None
    assert await queue.release("other") == 0  # the last: it queues the next (services/projector)


async def test_a_surplus_job_stands_down_only_beside_another_and_wakes_it(backend, queue):
    await mark(queue, "a")
    assert (await queue.claim("one", 60.0, 5, [])).others == 0
    assert not await queue.retire("one")  # alone: it stays
    assert await backend.queue.zscore(keys.ACTIVE, "one") is not None
    assert (await queue.claim("two", 60.0, 5, [])).others == 1
    await mark(queue, "a")  # a command on a while "one" holds it
    await queue.wait("two", 0.05)  # the mark's wake-up, taken
    assert (await queue.claim("two", 60.0, 5, [], renew=False)).match_ids == []  # a is one's
    assert await queue.retire("one")  # "two" runs: "one" stands down
    assert await backend.queue.zscore(keys.ACTIVE, "one") is None
    assert await backend.queue.hget(keys.CLAIMS, "one") is None
    await asyncio.wait_for(queue.wait("two", 10.0), 2)  # woken for a, no longer held (else a TimeoutError)
    assert (await queue.claim("two", 60.0, 5, [], renew=False)).match_ids == ["a"]
    assert not await queue.retire("two")  # the last: it stays
    assert (await queue.backlog()).running == 1


async def test_a_job_stopping_with_work_left_lets_go_of_its_claims_and_slot(backend, queue):
    await mark(queue, "a", "b")
    assert (await queue.claim("one", 60.0, 5, [])).match_ids
    await queue.claim("two", 60.0, 5, [])
    assert await queue.stop("one") == 1  # "two" still runs
    assert await backend.queue.hlen(keys.CLAIMS) == 0
    backlog = await queue.backlog()
    assert (backlog.dirty, backlog.running, backlog.expired) == (0, 1, 0)


async def test_the_backlog_says_what_waits_and_since_when(queue):
    assert await queue.backlog(now=100.0) == Backlog(0, None, 0, 0)
    await mark(queue, "a")
    backlog = await queue.backlog()
    assert backlog.dirty == 1 and backlog.oldest_at is not None and backlog.running == 0
    await queue.claim("job", 5.0, 5, [], now=200.0)
    lapsed = await queue.backlog(now=300.0)
    assert (lapsed.dirty, lapsed.expired, lapsed.running) == (0, 1, 0)


async def test_readiness_counts_the_workers_heard_lately(queue):
    await queue.beat("w1", now=1000.0)
    await queue.beat("w2", now=1000.0 - BEAT_S * 4)  # silent for four beats
    await queue.beat("w1", now=1000.0)  # a beat again: still one worker
    assert await queue.readiness(now=1000.0) == (None, 1)
    await mark(queue, "a")
    oldest, workers = await queue.readiness(now=1000.0)
    assert oldest is not None and workers == 1
