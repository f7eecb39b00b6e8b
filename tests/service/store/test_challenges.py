"""ChallengeBook's, PlayerEvents' and the bots' list of PlayerRegistry's contract, on each
backend: a challenge lapses unanswered, moves from pending once, and a player's events are read
after an id, oldest first, the oldest beyond the cap dropped."""

from __future__ import annotations

import pytest

from services.store import keys, player_events
from services.store.challenges import ChallengeBook
from services.store.connections import link_to
from services.store.partitions import Partitions
from services.store.player_events import PlayerEvents
from services.store.players import Player, PlayerRegistry

pytestmark = pytest.mark.anyio


async def ttl(backend, key: str) -> int:
    (left,) = await link_to(backend.events).exchange([["TTL", key]], True)
    return int(left)


async def test_a_challenge_moves_from_pending_once_and_is_kept_as_long_as_told(backend):
    book = ChallengeBook(backend.events)
    await book.add("c1", b'{"game": "taverna"}', 60)
    stored = await book.get("c1")
    assert stored is not None and (stored.asked, stored.status, stored.match_id) == (
        b'{"game": "taverna"}',
        "pending",
        "",
    )
    assert 0 < await ttl(backend, keys.challenge("c1")) <= 60
    before = await book.answer("c1", "accepted", 600)
    assert before is not None and before.status == "pending"
    assert 60 < await ttl(backend, keys.challenge("c1")) <= 600
    again = await book.answer("c1", "cancelled", 600)  # too late: nothing changes
    assert again is not None and again.status == "accepted"
    await book.settle("c1", "accepted", "m1")
    settled = await book.get("c1")
    assert settled is not None and (settled.status, settled.match_id) == ("accepted", "m1")


async def test_an_unknown_or_lapsed_challenge_is_none(backend):
    book = ChallengeBook(backend.events)
    assert await book.get("nope") is None
    assert await book.answer("nope", "declined", 600) is None
    await book.add("c2", b"{}", 1)
    await backend.events.delete(keys.challenge("c2"))  # as its time to live would
    assert await book.answer("c2", "declined", 600) is None


async def test_a_players_events_are_read_after_an_id_oldest_first_and_capped(backend):
    book = PlayerEvents(backend.events)
    for n in range(player_events.EVENTS_KEPT + 30):
        await book.push("p1", b'{"n": %d}' % n)
    found = await book.events("p1", "0-0", 1000)
    assert len(found) == player_events.EVENTS_KEPT
    assert found[-1][1] == b'{"n": %d}' % (player_events.EVENTS_KEPT + 29)
    middle = found[len(found) // 2][0]
    after = await book.events("p1", middle, 5)
    assert [raw for _, raw in after] == [raw for _, raw in found[len(found) // 2 + 1 : len(found) // 2 + 6]]
    assert await book.events("p1", found[-1][0], 5) == []
    assert await book.events("nobody", "0-0", 5) == []
    assert 0 < await ttl(backend, keys.player_events("p1")) <= player_events.EVENTS_KEPT_S


async def test_bot_accounts_are_flagged_and_listed_first_registered_first_across_partitions(backend):
    registry = PlayerRegistry(backend.events, Partitions(4))
    people = [Player(f"{n:016x}", f"P{n}", 100.0 + n) for n in range(3)]
    bots = [Player(f"b{n:015x}", f"Bot {n}", 200.0 + n, bot=True) for n in range(6)]
    for player in [*people, *bots]:
        await registry.add(player, f"{player.id:0>64}")
    assert await registry.get(bots[0].id) == bots[0] and (await registry.get(people[0].id)) == people[0]
    assert await registry.bots(0, 10) == [bot.id for bot in bots]
    assert await registry.bots(2, 3) == [bot.id for bot in bots[2:5]]
