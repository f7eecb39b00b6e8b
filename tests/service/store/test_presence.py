"""Presence (services/store/presence.py) on the events' Redis of each backend: a seat is connected
while any gateway streams it, the others are told when that changes, and a dead gateway's marks
lapse."""

from __future__ import annotations

import asyncio

import pytest

from services.store import keys
from services.store.connections import link_to
from services.store.notices import Moved, Notices, Subscribed
from services.store.presence import Presence
from tests.service.store.heard import next_heard, until_quiet

pytestmark = pytest.mark.anyio


def gateway(backend, name: str, ttl_s: float = 30.0) -> Presence:
    return Presence(backend.events, link_to(backend.events), name, ttl_s)


async def told(backend, act) -> list[str]:
    """The matches whose channel (the match's own, on its shard) was told a seat moved while ``act`` runs."""
    async with Notices(backend.events).subscribed() as heard:
        heard.want("m")
        assert await next_heard(heard, 2.0) == [Subscribed("m")]
        await act()
        heard_then = await until_quiet(heard, 0.2)
    assert all(isinstance(message, Moved) for message in heard_then)
    return [message.match_id for message in heard_then]


async def test_a_seat_is_connected_while_any_gateway_streams_it(backend):
    one, two = gateway(backend, "one"), gateway(backend, "two")
    assert await told(backend, lambda: one.mark("m", 0, True)) == ["m"]  # came
    assert await told(backend, lambda: two.mark("m", 0, True)) == []  # connected already
    assert await one.mark("m", 1, True) == frozenset({0, 1})
    assert await told(backend, lambda: one.mark("m", 0, False)) == []  # still streamed through two
    assert await two.read("m") == frozenset({0, 1})
    assert await told(backend, lambda: two.mark("m", 0, False)) == ["m"]  # gone
    assert await one.read("m") == frozenset({1})
    await one.mark("m", 1, False)
    assert await one.read("m") == frozenset()
    assert not await backend.events.exists(keys.presence("m"))  # nothing left behind


async def test_a_dead_gateways_marks_lapse(backend):
    dead, alive = gateway(backend, "dead", ttl_s=0.2), gateway(backend, "alive")
    await dead.mark("m", 0, True)
    await alive.mark("m", 1, True)
    await asyncio.sleep(0.3)
    assert await alive.read("m") == frozenset({1})
    assert await alive.mark("m", 1, True) == frozenset({1})  # the lapsed field dropped on the way


async def test_a_gateway_refreshes_every_seat_it_streams_at_once(backend):
    """Each seat's mark in turn, in one call: each answer the match's seats after it, the others told
    only of a seat whose being connected changed (one that had lapsed, here marked anew)."""
    one, other = gateway(backend, "one", ttl_s=0.2), gateway(backend, "other")
    await one.mark("m", 0, True)
    await other.mark("n", 1, True)
    await asyncio.sleep(0.3)  # seat 0's mark lapsed meanwhile
    refresh = one.refresh([("n", 2), ("m", 0), ("m", 1)])
    answered = []

    async def act() -> None:
        answered.extend(await refresh)

    assert await told(backend, act) == ["m"]  # seat 0 came again, seat 1 came: told once
    assert answered == [frozenset({1, 2}), frozenset({0}), frozenset({0, 1})]
