"""A claim brings the claimed matches' tails after their views' checkpoint (claim.lua): the fold
takes them without a read of its own when its cache reaches the tail's start, reads otherwise,
and applies no entry twice."""

from __future__ import annotations

import asyncio
import time

import pytest

from services.folds import Folds, Tail
from services.runtime import Runtime
from tests.service.client import create, view

pytestmark = pytest.mark.anyio


class Reads:
    """The tails a Folds asks its store for."""

    def __init__(self, runtime: Runtime) -> None:
        self.asked: list[dict[str, int]] = []
        self.store = runtime.store

    async def read_tails(self, since: dict[str, int]):
        self.asked.append(dict(since))
        return await self.store.read_tails(since)


async def logged(app, api):
    """A match its bots have played to the end: a log that no longer moves."""
    runtime: Runtime = app.state.runtime
    created = await create(api, seats=3, bots=[0, 1, 2])
    deadline = time.monotonic() + 60
    while (await view(api, created, created["spectator_token"]))["status"] != "finished":
        assert time.monotonic() < deadline
        await asyncio.sleep(0.05)
    match = await runtime.matches.get(created["match_id"])
    records = await runtime.store.read(match.id)
    assert len(records) > 3
    return runtime, match, records


async def test_a_cache_at_the_tails_start_reads_nothing(app, api):
    runtime, match, records = await logged(app, api)
    reads = Reads(runtime)
    folds = Folds(reads)  # type: ignore[arg-type]
    folds.keep(match, folds.apply(match, folds.start(match), records[:2]))
    (folded,) = await folds.load_many([match], {match.id: Tail(2, records[2:])})
    assert reads.asked == []
    assert folded.version == records[-1].envelope.version
    assert folded.state == (await Folds(runtime.store).load(match)).state


async def test_a_cache_past_the_tails_start_applies_no_entry_twice(app, api):
    runtime, match, records = await logged(app, api)
    reads = Reads(runtime)
    folds = Folds(reads)  # type: ignore[arg-type]
    folds.keep(match, folds.apply(match, folds.start(match), records[:3]))
    (folded,) = await folds.load_many([match], {match.id: Tail(1, records[1:])})
    assert reads.asked == []
    assert folded.state == (await Folds(runtime.store).load(match)).state


async def test_a_cache_short_of_the_tails_start_reads_from_where_it_stands(app, api):
    runtime, match, records = await logged(app, api)
    reads = Reads(runtime)
    folds = Folds(reads)  # type: ignore[arg-type]
    (folded,) = await folds.load_many([match], {match.id: Tail(2, records[2:])})
    assert reads.asked == [{match.id: 0}]
    assert folded.state == (await Folds(runtime.store).load(match)).state
