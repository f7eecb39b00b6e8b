"""Token buckets (services/store/rate_limits.py) on the events' Redis of each backend (on a Cluster,
each under the hash tag of whom it counts, a seat token's under its match's): a token from every
bucket or none, refilled at their rate, and a refusal saying how long to wait."""

from __future__ import annotations

import pytest

from services.store import keys
from services.store.bucket import Bucket, digest
from services.store.cluster import slot_of
from services.store.rate_limits import RateLimits

pytestmark = pytest.mark.anyio


async def test_a_burst_is_taken_then_refused_with_the_wait(backend):
    limits = RateLimits(backend.events)
    bucket = Bucket("cmd:addr", "10.0.0.1", 1.0, 3)  # a token a second, three at once
    assert [await limits.take([bucket]) for _ in range(3)] == [0, 0, 0]
    wait_ms = await limits.take([bucket])
    assert 0 < wait_ms <= 1000


async def test_a_token_is_taken_from_every_bucket_or_from_none(backend):
    """The buckets of a creation sit on different slots: each is looked at before any is taken from."""
    limits = RateLimits(backend.events)
    roomy, tight = Bucket("create", "10.0.0.1", 1.0, 10), Bucket("create:key", digest("key"), 0.001, 1)
    assert slot_of(roomy.key) != slot_of(tight.key)
    assert await limits.take([roomy, tight]) == 0
    assert await limits.take([roomy, tight]) > 0  # tight is empty: roomy keeps its token
    held = float(await backend.events.hget(keys.rate("create", "10.0.0.1"), "t"))
    assert 8.5 < held < 10  # one token taken from it, not two (a refill since is a fraction)
    assert await limits.take([]) == 0


async def test_a_seat_tokens_bucket_is_on_its_matchs_slot_and_names_no_secret(backend):
    limits = RateLimits(backend.events)
    bucket = Bucket("cmd:token", digest("Bearer secret"), 1.0, 5, match_id="m1")
    assert await limits.take([bucket]) == 0
    assert slot_of(bucket.key) == slot_of(keys.log("m1")) and "secret" not in bucket.key
    assert float(await backend.events.hget(bucket.key, "t")) == 4
    if backend.queue is not backend.events:
        assert await backend.queue.dbsize() == 0  # nothing of it on the queue's Redis
