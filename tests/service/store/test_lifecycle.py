"""The data lifecycle's lists (services/store/lifecycle.py) on the events' Redis of each backend,
in partitions, and a projection step's write (view_writes.py): played matches listed by their
newest event, listed finished once, their quota slots given back, off every list once archived."""

from __future__ import annotations

import pytest

from services.store import keys
from services.store.connections import link_to
from services.store.event_store import EventStore, ViewsAt
from services.store.lifecycle import Ended, Lifecycle, Played
from services.store.notices import encode
from services.store.view_writes import ViewWrites
from tests.service.store.direct import events_of
from tests.service.store.partitioned import ASLEEP_BUCKETS, PARTITIONS, shares

pytestmark = pytest.mark.anyio


@pytest.fixture
def lifecycle(backend) -> Lifecycle:
    return Lifecycle(backend.events, PARTITIONS, shares(backend, "archive"), ASLEEP_BUCKETS)


async def slots(backend, holder: str) -> set[str]:
    return {raw.decode() for raw in events_of(backend).zrange(keys.open_matches(holder), 0, -1)}


async def list_played(lifecycle: Lifecycle, played: list[Played]) -> None:
    """List ``played`` as the projector's view write does (its commands ride in that write)."""
    for answer in await lifecycle.link.exchange(lifecycle.listing(played)):
        assert not isinstance(answer, Exception)


async def test_played_matches_are_listed_by_their_newest_event(lifecycle):
    await list_played(lifecycle, [Played("g", "a", 100.0), Played("g", "b", 200.0), Played("h", "c", 50.0)])
    await list_played(lifecycle, [Played("g", "a", 300.0)])  # a newer event: no longer idle
    assert await lifecycle.idle("g", 250.0, 10) == ["b"]
    assert await lifecycle.idle("g", 400.0, 1) == ["b"]
    assert await lifecycle.playing(["g", "h", "none"]) == {"g": 2, "h": 1, "none": 0}


async def test_a_finished_match_is_listed_once_and_gives_its_slots_back(backend, lifecycle):
    await list_played(lifecycle, [Played("g", "a", 100.0), Played("g", "b", 100.0)])
    await backend.events.zadd(keys.open_matches("ann"), {"a": 1, "b": 1})
    ended = [Ended("g", "a", ["ann"]), Ended("g", "b", [])]
    assert await lifecycle.finish(ended, now=500.0) == [True, True]
    assert await lifecycle.finish(ended[:1], now=600.0) == [False]  # a redo: listed already, at 500
    assert await lifecycle.playing(["g"]) == {"g": 0}
    assert await slots(backend, "ann") == {"b"}
    assert await lifecycle.due(550.0, 10) == ["a", "b"]
    assert await lifecycle.due(450.0, 10) == []


async def test_an_idle_match_ended_gives_its_slots_back_and_is_listed_finished_if_asked(backend, lifecycle):
    await list_played(lifecycle, [Played("g", "a", 100.0), Played("g", "b", 100.0)])
    await backend.events.zadd(keys.open_matches("ann"), {"a": 1, "b": 1})
    await lifecycle.ended_idle("g", "a", ["ann"], listed=True, now=200.0)
    await lifecycle.ended_idle("g", "b", ["ann"], listed=False, now=200.0)  # its abandonment moved it on
    assert await slots(backend, "ann") == set()
    assert await lifecycle.idle("g", 1000.0, 10) == ["b"]
    assert await lifecycle.due(300.0, 10) == ["a"]


async def test_an_archived_match_leaves_every_list(backend, lifecycle):
    await list_played(lifecycle, [Played("g", "a", 100.0)])
    await lifecycle.finish([Ended("g", "b", [])], now=100.0)
    await backend.events.zadd(keys.open_matches("ann"), {"a": 1})
    await lifecycle.archived("a", "g", ["ann"])
    await lifecycle.archived("b", None, [])  # no longer in Redis: only its listing
    assert await lifecycle.playing(["g"]) == {"g": 0}
    assert await lifecycle.due(1000.0, 10) == []
    assert await slots(backend, "ann") == set()


async def test_a_projection_step_writes_views_notice_and_listing(backend):
    """The views and the listing, on the events' Redis (a cluster's slots apart), in one write."""
    store = EventStore(backend.events, 60, link=link_to(backend.events))
    lifecycle = Lifecycle(backend.events, PARTITIONS, shares(backend, "archive"), ASLEEP_BUCKETS)
    writes = ViewWrites(store, lifecycle)
    views = ViewsAt("m1", 3, {"s:0": b'{"version": 3}', "spectator": b'{"version": 3}'})
    await writes.write([views], [encode(3, 100.0)], [Played("g", "m1", 100.0)])
    assert await store.view("m1", "s:0") == b'{"version": 3}'
    assert await lifecycle.idle("g", 100.0, 10) == ["m1"]


async def test_finished_says_which_matches_are_on_the_finished_list(backend, lifecycle):
    events_of(backend).zadd(PARTITIONS.key(keys.FINISHED, "done"), {"done": 1.0})
    assert await lifecycle.finished(["open", "done"]) == [False, True]
    assert await lifecycle.finished([]) == []
