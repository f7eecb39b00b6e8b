"""A claim brings the claimed matches' tails after their views' checkpoint (claim.lua): the fold
takes them without a read of its own when its cache reaches the tail's start, reads otherwise,
and applies no entry twice."""

from __future__ import annotations

import asyncio
import time

import pytest

from services.commands.folds import Folds, Tail
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


@pytest.mark.parametrize(
    ("cached", "after", "read_from"),
    [
        pytest.param(2, 2, None, id="a cache at the tail's start reads nothing"),
        pytest.param(3, 1, None, id="a cache past the tail's start applies no entry twice"),
        pytest.param(0, 2, 0, id="a cache short of the tail's start reads from where it stands"),
    ],
)
async def test_the_fold_of_a_claimed_tail(app, api, cached, after, read_from):
    runtime, match, records = await logged(app, api)
    reads = Reads(runtime)
    folds = Folds(reads)  # type: ignore[arg-type]
    if cached:
        folds.keep(match, folds.apply(match, folds.start(match), records[:cached]))
    (folded,) = await folds.load_many([match], {match.id: Tail(after, records[after:])})
    assert reads.asked == ([] if read_from is None else [{match.id: read_from}])
    assert folded.version == records[-1].envelope.version
    assert folded.state == (await Folds(runtime.store).load(match)).state
