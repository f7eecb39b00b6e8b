"""The projector claims the matches dirty longest first (claim.lua on the zset dirty.lua keeps): a
match marked again keeps its place, and a lapsed claim (its worker died) goes back to the front."""

from __future__ import annotations

import pytest

from services.projector.projector import SCRIPTS_DIR
from services.store import keys
from services.store.event_store import Call, marking, reply, run_scripts, script

pytestmark = pytest.mark.anyio


@pytest.fixture
async def queue(linked):
    """A redis-py client (scripts registered on it) and the link they run through, on a clean queue."""
    client, _ = linked
    await client.delete(keys.DIRTY, keys.CLAIMED, keys.ACTIVE, keys.WAKE)
    yield linked
    await client.delete(keys.DIRTY, keys.CLAIMED, keys.ACTIVE, keys.WAKE)


async def mark(queue, now: float, *match_ids: str) -> None:
    client, link = queue
    marker = client.register_script(marking(SCRIPTS_DIR / "mark.lua"))
    (answer,) = await run_scripts(link, [Call(marker, [keys.DIRTY, keys.ACTIVE, keys.WAKE], [now, *match_ids])])
    reply(answer)


async def claim(queue, now: float, count: int, lease_s: float = 5.0) -> list[str]:
    client, link = queue
    claimer = client.register_script(script(SCRIPTS_DIR / "claim.lua"))
    args = [now, lease_s, count, "job", 0]
    (answer,) = await run_scripts(link, [Call(claimer, [keys.DIRTY, keys.CLAIMED, keys.ACTIVE], args)])
    ids, _ = reply(answer)
    return [match_id.decode() for match_id in ids]


async def test_the_longest_dirty_are_claimed_first(queue):
    await mark(queue, 100.0, "c", "d")
    await mark(queue, 90.0, "a")
    await mark(queue, 95.0, "b")
    await mark(queue, 101.0, "a")  # already dirty: keeps its place from 90
    assert await claim(queue, 102.0, 2) == ["a", "b"]
    assert await claim(queue, 102.0, 5) == ["c", "d"]
    assert await claim(queue, 102.0, 5) == []


async def test_a_lapsed_claim_goes_back_to_the_front(queue):
    await mark(queue, 100.0, "stalled")
    assert await claim(queue, 100.0, 1, lease_s=5.0) == ["stalled"]  # its worker dies holding it
    await mark(queue, 101.0, "fresh")
    assert await claim(queue, 106.0, 1) == ["stalled"]  # the lease lapsed at 105
    assert await claim(queue, 106.0, 1) == ["fresh"]


async def test_a_claim_brings_each_matchs_tail(queue):
    """Where the logs live beside the queue, a claim brings each match's tail after its views'
    checkpoint (the projector does not read it in a round trip of its own)."""
    client, link = queue
    await client.xadd(keys.log("a"), {"e": b"1"}, id="1-0")
    await mark(queue, 100.0, "a")
    claimer = client.register_script(script(SCRIPTS_DIR / "claim.lua"))
    args = [101.0, 5.0, 10, "job", 1]
    (answer,) = await run_scripts(link, [Call(claimer, [keys.DIRTY, keys.CLAIMED, keys.ACTIVE], args)])
    ids, tails = reply(answer)
    assert ids == [b"a"]
    assert tails == [[0, [[b"1-0", [b"e", b"1"]]]]]
