"""Deadlines' contract, on each backend: each set gives the matches due by a time, earliest first
and up to a count; ``set`` moves a deadline, ``set_once`` keeps the first; the clocks' and the
abandonments' deadlines are apart."""

from __future__ import annotations

import pytest

from services.store.deadlines import Deadlines
from tests.service.store.partitioned import PARTITIONS, shares

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize("kind", ["clocks", "abandonments"])
async def test_due_gives_the_matches_due_by_now_earliest_first_up_to_a_count(backend, kind):
    deadlines = getattr(Deadlines(backend.events, PARTITIONS, shares(backend)), kind)
    for match_id, at in (("c", 30.0), ("a", 10.0), ("b", 20.0), ("d", 40.5)):
        await deadlines.set(match_id, at)
    assert await deadlines.due(5.0, 10) == []
    assert await deadlines.due(30.0, 10) == ["a", "b", "c"]  # due at 30 counts
    assert await deadlines.due(100.0, 2) == ["a", "b"]


async def test_set_moves_a_deadline_and_drop_removes_it(backend):
    clocks = Deadlines(backend.events, PARTITIONS, shares(backend)).clocks
    assert await clocks.of("m") is None
    await clocks.set("m", 50.0)
    await clocks.set("m", 10.0)
    assert await clocks.due(20.0, 10) == ["m"]
    assert await clocks.of("m") == 10.0
    await clocks.set("m", 90.0)
    assert await clocks.due(20.0, 10) == []
    await clocks.drop("m")
    assert await clocks.due(1000.0, 10) == []
    assert await clocks.of("m") is None
    await clocks.drop("m")  # dropped again: no error


async def test_set_once_keeps_the_first_deadline(backend):
    abandonments = Deadlines(backend.events, PARTITIONS, shares(backend)).abandonments
    await abandonments.set_once("m", 100.0)
    await abandonments.set_once("m", 10.0)
    assert await abandonments.due(50.0, 10) == []
    assert await abandonments.due(100.0, 10) == ["m"]


async def test_the_clocks_and_the_abandonments_are_apart(backend):
    deadlines = Deadlines(backend.events, PARTITIONS, shares(backend))
    await deadlines.clocks.set("timed", 1.0)
    await deadlines.abandonments.set("deserted", 1.0)
    assert await deadlines.clocks.due(2.0, 10) == ["timed"]
    assert await deadlines.abandonments.due(2.0, 10) == ["deserted"]
