"""Chained appends: a command decided after one of the same process still in flight leaves in the
same pipeline; append.lua takes it only onto the very entry it was decided after (version and
hash), so when the one before it fails, it fails too and is decided again."""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

import msgspec
import pytest

from domain.kernel import Rng
from projections.chain import Cause
from services.commands.handling import decode_command
from services.commands.outcomes import Accepted, Stale
from services.runtime import Runtime
from services.store.event_store import seal
from tests.service.client import create, seat_token, view

pytestmark = pytest.mark.anyio


@pytest.fixture
def embedded_worker() -> bool:
    return False  # the gateway's fold cache moves only by its own commands and reads


@pytest.fixture
async def other(settings, app):
    """A second gateway's runtime on the same store, with its own caches."""
    runtime = Runtime(settings, server=getattr(app.state.runtime, "server", None))
    yield runtime
    await runtime.events.aclose()


def recorded(runtime: Runtime) -> list[list[Any]]:
    """Record the replies of each pipeline of appends the runtime sends."""
    batches: list[list[Any]] = []
    batched = runtime.store._appends
    send = batched._send

    async def spy(calls: list[Any]) -> list[Any]:
        replies = await send(calls)
        batches.append([reply[0].decode() for reply in replies])
        return replies

    batched._send = spy
    return batches


async def picks(api, created: dict, seats: range) -> tuple[int, list[bytes]]:
    """The match's version and a legal command of each seat."""
    views = [await view(api, created, seat_token(created, seat)) for seat in seats]
    return views[0]["version"], [msgspec.json.encode(seen["legal"][0]) for seen in views]


async def submit(runtime: Runtime, match_id: str, seat: int, body: bytes, exact: bool = False):
    match = await runtime.matches.get(match_id)
    command, expected = decode_command(match, body)
    return await runtime.handler.submit(match, seat, command, expected, exact=exact)


def versioned(body: bytes, version: int) -> bytes:
    return body[:-1] + b',"expected_version":%d}' % version


async def chain_is_whole(runtime: Runtime, match_id: str) -> list[int]:
    records = await runtime.store.read(match_id)
    for before, after in itertools.pairwise(records):
        assert after.envelope.prev == before.hash, f"version {after.envelope.version} does not follow its predecessor"
    return [record.envelope.version for record in records]


async def test_simultaneous_seats_share_one_pipeline(app, api):
    runtime = app.state.runtime
    created = await create(api)
    start, bodies = await picks(api, created, range(4))  # the views warm the fold cache
    batches = recorded(runtime)
    answers = await asyncio.gather(*(submit(runtime, created["match_id"], s, b) for s, b in enumerate(bodies)))
    assert all(isinstance(answer, Accepted) for answer in answers), answers
    versions = sorted(answer.version for answer in answers)
    end = await chain_is_whole(runtime, created["match_id"])
    assert versions[-1] == end[-1] and len(set(versions)) == 4 and versions[0] > start
    assert max(len(batch) for batch in batches) > 1, batches  # not one round trip per seat


async def behind(api, runtime: Runtime, other: Runtime) -> tuple[str, int, list[bytes], Accepted]:
    """A match whose fold ``runtime`` caches, then a command of seat 0 appended by ``other``: the
    match's id, the version cached, seats 0 to 2's commands and the other's acceptance."""
    created = await create(api)
    start, bodies = await picks(api, created, range(3))  # this gateway's fold cache is current now
    taken = await submit(other, created["match_id"], 0, bodies[0])  # the other gateway appends after it
    assert isinstance(taken, Accepted)
    return created["match_id"], start, bodies, taken


async def test_a_command_chained_after_a_failed_one_is_decided_again(app, api, other):
    runtime = app.state.runtime
    match_id, _, bodies, taken = await behind(api, runtime, other)
    batches = recorded(runtime)
    # seat 1 is decided on the stale cache, seat 2 after it: the first fails on the version; the
    # second names a version that exists, but follows another entry: it must fail too
    answers = await asyncio.gather(submit(runtime, match_id, 1, bodies[1]), submit(runtime, match_id, 2, bodies[2]))
    assert batches[0] == ["conflict", "conflict"]
    assert all(isinstance(answer, Accepted) for answer in answers), answers
    versions = sorted(answer.version for answer in answers)
    end = await chain_is_whole(runtime, match_id)
    assert versions[0] > taken.version and versions[-1] == end[-1]


async def test_a_command_for_the_version_an_append_in_flight_passes_waits_for_its_answer(app, api):
    """Every stale version refused (Prefer: handling=strict): the seats that chose from the version
    the first pick moves past are answered from that pick's append, with no append of their own."""
    runtime = app.state.runtime
    created = await create(api)
    match_id = created["match_id"]
    start, bodies = await picks(api, created, range(4))
    batches = recorded(runtime)
    first = asyncio.create_task(submit(runtime, match_id, 0, bodies[0]))
    await asyncio.sleep(0)  # decided, its append in flight
    stale = [submit(runtime, match_id, seat, versioned(bodies[seat], start), exact=True) for seat in (1, 2, 3)]
    taken, *answers = await asyncio.gather(first, *stale)
    assert isinstance(taken, Accepted) and answers == [Stale(taken.version)] * 3, answers
    assert batches == [["ok"]]


async def test_a_command_waiting_on_an_append_that_failed_is_decided_on_what_it_saw(app, api, other):
    runtime = app.state.runtime
    match_id, start, bodies, taken = await behind(api, runtime, other)
    batches = recorded(runtime)
    first = asyncio.create_task(submit(runtime, match_id, 1, bodies[1]))  # decided on the stale cache
    await asyncio.sleep(0)
    waiting = await submit(runtime, match_id, 2, versioned(bodies[2], start), exact=True)
    assert waiting == Stale(taken.version)  # its own append tried once the first failed: the log moved on
    assert isinstance(await first, Accepted)
    assert batches[:2] == [["conflict"], ["conflict"]], batches


async def test_an_append_after_another_entry_of_the_same_version_conflicts(app, api):
    runtime = app.state.runtime
    created = await create(api)
    match = await runtime.matches.get(created["match_id"])
    folded = await runtime.folds.load(match)
    _, (body,) = await picks(api, created, range(1))
    command, _ = decode_command(match, body)
    events = match.game.decide(folded.state, command, 0, Rng(folded.seed, folded.version))
    forged = seal(events, folded.version + 1, "0" * 64, Cause("forged", 0, None, command))
    appended = await runtime.store.append(match.id, folded.version, forged, None, b"")
    assert (appended.outcome, appended.version) == ("conflict", folded.version)
    assert (await chain_is_whole(runtime, match.id))[-1] == folded.version

