"""Partitions and shares (services/store/partitions.py), on each backend: a member's partition is
the same in every process, partitions of a family spread over a cluster's slots, and processes
sharing the partitions sweep disjoint shares that cover them all; one killed (it stops looking,
gives nothing back), the other holds its share within a lease."""

from __future__ import annotations

import asyncio
import time

import pytest

from services.store.cluster import slot_of
from services.store.partitions import Partitions, Shares, earliest, page
from tests.service.store.partitioned import PARTITIONS

pytestmark = pytest.mark.anyio
LEASE_S = 1.0


def test_a_member_has_one_partition_and_a_family_spreads_over_the_slots():
    partitions = Partitions(16)
    assert partitions.of("match-1") == Partitions(16).of("match-1")  # CRC32: no per-process salt
    assert partitions.key("clocks", "match-1") == f"tavern:clocks:{{p{partitions.of('match-1'):02d}}}"
    assert len({slot_of(key) for key in partitions.keys("clocks")}) == 16
    assert {partitions.of(f"m{n}") for n in range(200)} == set(range(16))


async def test_merged_reads_give_what_one_zset_would(backend):
    names = PARTITIONS.keys("merged")
    members = {f"m{n}": float(n % 7) for n in range(40)}
    for member, score in members.items():
        await backend.events.zadd(PARTITIONS.key("merged", member), {member: score})
    one = sorted(members, key=lambda member: (members[member], member))
    link = Shares(backend.events, PARTITIONS, "sweep", LEASE_S).link
    assert await page(link, names, 0, 10) == one[:10]
    assert await page(link, names, 35, 10) == one[35:]
    for offset in (0, 1, 5, 6, 17, 35, 39, 40, 50):  # a deep page (sought by bisection) as a shallow one
        assert await page(link, names, offset, 4, deep=0) == one[offset : offset + 4]
    assert await page(link, PARTITIONS.keys("empty"), 3, 4, deep=0) == []
    assert await earliest(link, names, 2.0, 100) == [member for member in one if members[member] <= 2.0]
    assert await earliest(link, names, 6.0, 3) == one[:3]


def sweeper(backend, name: str) -> Shares:
    shares = Shares(backend.events, Partitions(16), "sweep", LEASE_S)
    shares.me = name  # named, so the rendezvous gives each a share (random names might give one all)
    return shares


async def settled(*sweepers: Shares) -> list[list[int]]:
    """Each sweeper's share once every one has looked twice (the first looks may find a partition
    still leased by the other, which gives it back at its next look)."""
    for _ in range(3):
        for shares in sweepers:
            await shares.look()
    return [await shares.held() for shares in sweepers]


async def test_two_sweepers_share_the_partitions_and_one_takes_over_a_dead_ones(backend):
    a, b = sweeper(backend, "a"), sweeper(backend, "b")
    held_a, held_b = await settled(a, b)
    assert held_a and held_b and not set(held_a) & set(held_b)
    assert sorted(held_a + held_b) == list(range(16))
    killed = time.monotonic()  # b stops: no more looks, nothing given back
    while await a.held() != list(range(16)):
        assert time.monotonic() - killed < 2 * LEASE_S + 1, f"still {await a.held()} after the lease"
        await asyncio.sleep(0.1)
    assert time.monotonic() - killed >= LEASE_S * 0.9  # b's leases were respected while they lasted


async def test_a_sweeper_that_leaves_gives_its_share_at_once(backend):
    a, b = sweeper(backend, "a"), sweeper(backend, "b")
    await settled(a, b)
    await b.leave()
    (held_a,) = await settled(a)
    assert held_a == list(range(16))
