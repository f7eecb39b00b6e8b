"""A player's recent finished matches, on each backend: the newest first, a redo writing nothing
new, the oldest leaving past the cap (from both keys), players apart, each on its own shard."""

from __future__ import annotations

import pytest

from services.store import keys
from services.store.played import PlayedMatch, PlayedMatches

pytestmark = pytest.mark.anyio


def played(match_id: str, finished: float, rank: int = 1) -> PlayedMatch:
    return PlayedMatch(match_id, "mercenaries", finished, 0, 2, rank, 10, rank == 1, "", True, None)


async def test_the_newest_first_and_a_redo_changes_nothing(backend):
    book = PlayedMatches(backend.events)
    assert await book.recent("p1", 10) == []
    assert await book.record("p1", played("m1", 100.0))
    assert await book.record("p1", played("m2", 300.0, rank=2))
    assert await book.record("p1", played("m3", 200.0))
    assert not await book.record("p1", played("m2", 300.0, rank=2))  # the projector projected it again
    assert await book.record("p2", played("m2", 300.0))
    assert [m.match_id for m in await book.recent("p1", 10)] == ["m2", "m3", "m1"]
    assert await book.recent("p1", 2) == [played("m2", 300.0, rank=2), played("m3", 200.0)]
    assert await book.recent("p2", 10) == [played("m2", 300.0)]


async def test_past_the_cap_the_oldest_leave_both_keys(backend):
    book = PlayedMatches(backend.events, kept=3)
    for n in range(5):
        await book.record("p", played(f"m{n}", 100.0 + n))
    assert [m.match_id for m in await book.recent("p", 10)] == ["m4", "m3", "m2"]
    assert len(await backend.events.hgetall(keys.played_entries("p"))) == 3


async def test_a_players_list_sits_on_its_shard(backend):
    """Both keys carry the player's hash tag: one script writes them on one shard."""
    assert keys.played("abc").startswith("player:{abc}") and keys.played_entries("abc").startswith("player:{abc}")
    book = PlayedMatches(backend.events)
    for player in ("a", "b", "c", "d"):
        assert await book.record(player, played("m", 1.0))
        assert await backend.events.exists(keys.played(player), keys.played_entries(player)) == 2
