"""Notices only to whom they concern (services/store/notices.py): with 2 and with 4 gateways (a Hub
each, with its own subscription) on a single Redis and on a Redis Cluster, the matches spread
evenly over them, each gateway hears the notices of its own matches only, about 1/N of the whole
(messages and bytes); every stream still sees every version; no notice carries a view; a stream
opened late, or a subscription lost, misses no version."""

from __future__ import annotations

import asyncio
import time

import pytest
import redis

from projections.views import field
from services.gateway.hub import Hub, Listener
from services.ops.metrics import Metrics
from services.store.connections import link_to
from services.store.event_store import EventStore, ViewsAt
from services.store.notices import Notices, encode

pytestmark = pytest.mark.anyio
VIEW = b"x" * 9800  # a view's size in a four-seat match (issue 29: 9.8 KB each)
SEATS = 2


def views_at(match_id: str, version: int) -> ViewsAt:
    fields = {field(seat): b'{"version":%d,"pad":"%s"}' % (version, VIEW) for seat in range(SEATS)}
    return ViewsAt(match_id, version, fields)


async def until(check, timeout_s: float = 10.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not check():
        assert time.monotonic() < deadline, "not in time"
        await asyncio.sleep(0.01)


def kill_subscriptions(backend) -> None:
    """Every pub/sub connection to the backend's Redis (each primary of a cluster) killed."""
    for address in (backend.url or "").removeprefix("redis+cluster://").removeprefix("redis://").split(","):
        host, port = address.split("/")[0].split(":")
        redis.Redis(host=host, port=int(port)).client_kill_filter(_type="pubsub")


async def started_hubs(backend, count: int) -> list[Hub]:
    store = EventStore(backend.events, 60, link=link_to(backend.events))

    async def current(match_id: str, seat: int | None) -> bytes | None:
        return await store.view(match_id, field(seat))

    hubs = [Hub(Notices(backend.events), current, Metrics()) for _ in range(count)]
    for hub in hubs:
        await hub.start(timeout_s=5)
    return hubs


@pytest.mark.parametrize("gateways", [2, 4])
async def test_each_gateway_hears_its_own_share_and_every_stream_every_version(backend, gateways):
    store = EventStore(backend.events, 60, link=link_to(backend.events))
    await store.write_views([views_at("warm", 1)], [encode(1, 0.0)])  # promote.lua loaded: one notice each
    hubs = await started_hubs(backend, gateways)
    try:
        matches = [f"share-{gateways}-{number}" for number in range(6 * gateways)]  # over every slot's primary
        streams: list[Listener] = []
        for number, match_id in enumerate(matches):  # the balancer's hash: each match on one gateway
            hub = hubs[number % gateways]
            streams += [await hub.attach(match_id, seat, 0) for seat in range(SEATS)]
        await until(lambda: all(hub.heard is not None and hub.heard.messages == 0 for hub in hubs))
        await asyncio.sleep(0.2)  # the subscriptions confirmed (each reads the views: none yet)
        for version in range(1, 6):  # a projector's steps: every match moved, one write and its notices
            told = [encode(version, time.time())] * len(matches)
            await store.write_views([views_at(m, version) for m in matches], told)
            await until(lambda v=version: all(listener.latest == v for listener in streams))
        heard = [(hub.heard.messages, hub.heard.bytes) for hub in hubs if hub.heard is not None]
        total_messages, total_bytes = sum(m for m, _ in heard), sum(b for _, b in heard)
        assert total_messages == 5 * len(matches)  # each notice heard once, by its match's gateway alone
        for messages, size in heard:
            assert abs(messages / total_messages - 1 / gateways) <= 0.2 / gateways
            assert abs(size / total_bytes - 1 / gateways) <= 0.2 / gateways
        assert total_bytes / total_messages < 64  # a match id and a version, no view (9.8 KB)
        for listener in streams:
            assert listener.version == 5 and listener.raw.startswith(b'{"version":5')
    finally:
        for hub in hubs:
            await hub.stop()


async def test_a_stream_opened_late_or_a_lost_subscription_misses_no_version(backend):
    store = EventStore(backend.events, 60, link=link_to(backend.events))
    (hub,) = await started_hubs(backend, 1)
    try:
        await store.write_views([views_at("late", 3)], [encode(3, time.time())])  # before any stream
        listener = await hub.attach("late", 0, 0)
        assert listener.latest == 3  # read on opening
        await store.write_views([views_at("late", 4)], [encode(4, time.time())])
        await until(lambda: listener.latest == 4)
        if backend.kind != "fakeredis":  # the link lost (the embedded Redis cannot lose it): read again
            kill_subscriptions(backend)
            await store.write_views([views_at("late", 5)], [encode(5, time.time())])  # perhaps unheard
            await until(lambda: listener.latest == 5)
        hub.detach("late", listener)
        await asyncio.sleep(0.1)
        before = hub.heard.messages if hub.heard else 0
        await store.write_views([views_at("late", 6)], [encode(6, time.time())])
        await asyncio.sleep(0.3)
        assert hub.heard is not None and hub.heard.messages == before  # its last stream gone: nothing more heard
    finally:
        await hub.stop()
