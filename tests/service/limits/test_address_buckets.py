"""A client address's command bucket in the gateway's memory (services/gateway/rate_limit.py's
LocalBuckets): a burst taken, then refused with the wait, refilled at its rate; one per address;
full buckets forgotten once too many are kept."""

from __future__ import annotations

from services.gateway.rate_limit import LocalBuckets


def test_a_burst_is_taken_then_refused_with_the_wait_then_refilled():
    buckets = LocalBuckets(per_s=2.0, burst=3)
    for _ in range(3):
        assert buckets.wait_ms("10.0.0.1", now=100.0) == 0
        buckets.take("10.0.0.1", now=100.0)
    assert buckets.wait_ms("10.0.0.1", now=100.0) == 500  # a token every half second
    assert buckets.wait_ms("10.0.0.2", now=100.0) == 0  # another address: a bucket of its own
    assert buckets.wait_ms("10.0.0.1", now=100.5) == 0


def test_full_buckets_are_forgotten_once_too_many_are_kept():
    buckets = LocalBuckets(per_s=1.0, burst=2)
    buckets.KEPT = 3
    for n in range(3):
        buckets.take(f"10.0.0.{n}", now=100.0)
    buckets.take("10.0.0.9", now=105.0)  # the others have refilled: forgotten
    assert set(buckets._held) == {"10.0.0.9"}
    assert buckets.wait_ms("10.0.0.0", now=105.0) == 0
