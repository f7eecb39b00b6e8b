"""Inboxes' contract, on each backend: entries kept per player and match, an older version never
over a newer, a finished match taken out, and the revision moving with each change only."""

from __future__ import annotations

import pytest

from services.store import keys
from services.store.inbox import InboxEntry, Inboxes

pytestmark = pytest.mark.anyio


def entry(match_id: str, version: int, your_turn: bool = True, deadline: float | None = 100.0) -> InboxEntry:
    return InboxEntry(match_id, "mercenaries", 1, version, your_turn, deadline, 10.0 * version)


async def test_entries_are_kept_per_player_and_match_and_newer_wins(backend):
    inboxes = Inboxes(backend.events)
    assert await inboxes.entries("p1") == [] and await inboxes.revision("p1") == 0
    assert await inboxes.put("p1", entry("m1", 3))
    assert await inboxes.put("p1", entry("m2", 5, your_turn=False, deadline=None))
    assert await inboxes.put("p2", entry("m1", 3, your_turn=False))
    assert sorted(await inboxes.entries("p1"), key=lambda e: e.match_id) == [
        entry("m1", 3), entry("m2", 5, your_turn=False, deadline=None)]
    assert await inboxes.revision("p1") == 2 and await inboxes.revision("p2") == 1
    assert not await inboxes.put("p1", entry("m1", 2, your_turn=False))  # older: ignored
    assert not await inboxes.put("p1", entry("m1", 3))  # the same: nothing changes
    assert await inboxes.revision("p1") == 2
    assert await inboxes.put("p1", entry("m1", 4, your_turn=False))
    assert await inboxes.remove("p1", "m2", 6)
    assert not await inboxes.remove("p1", "m2", 6)
    assert await inboxes.entries("p1") == [entry("m1", 4, your_turn=False)]
    assert await inboxes.revision("p1") == 4
    assert await inboxes.entries("p2") == [entry("m1", 3, your_turn=False)]


async def test_a_players_inbox_sits_on_its_shard(backend):
    """Both keys carry the player's hash tag: one script touches them on one shard."""
    assert keys.inbox("abc").startswith("player:{abc}") and keys.inbox_revision("abc").startswith("player:{abc}")
    inboxes = Inboxes(backend.events)
    for player in ("a", "b", "c", "d"):
        assert await inboxes.put(player, entry("m", 1))
        assert await backend.events.exists(keys.inbox(player), keys.inbox_revision(player)) == 2
