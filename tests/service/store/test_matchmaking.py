"""The matchmaker's pools (services/store/matchmaking.py) on each backend: one waiting ticket per
player and game, a ticket moved from waiting once (into one table, or cancelled, or lapsed),
all of a table's tickets or none, a table put back, a read keeping its ticket alive, and the ended
tickets dropped after their keeping."""

from __future__ import annotations

import pytest

from services.store.matchmaking import WAITING, Moved, Pools

pytestmark = pytest.mark.anyio
GAME = "taverna"


async def waiting_ids(pools: Pools) -> list[str]:
    return [ticket_id for ticket_id, _, _ in await pools.waiting(GAME, 100, 0.0)]


async def test_one_waiting_ticket_per_player_and_game(backend):
    pools = Pools(backend.events)
    assert await pools.add(GAME, "t1", "p1", b'{"n": 1}', 100.0) is None
    assert await pools.add(GAME, "t2", "p1", b'{"n": 2}', 101.0) == "t1"  # nothing added
    assert await pools.add("mercenaries", "t3", "p1", b"{}", 101.0) is None  # another game's pool
    assert await pools.held(GAME, "p1") == "t1"
    assert await pools.waiting(GAME, 10, 0.0) == [("t1", b'{"n": 1}', 100.0)]
    stored = await pools.get(GAME, "t1", None)
    assert stored is not None and (stored.ask, stored.state, stored.seen, stored.found) == (
        b'{"n": 1}', WAITING, 100.0, None)  # fmt: skip
    assert await pools.get(GAME, "t2", None) is None


async def test_a_table_takes_all_its_tickets_or_none_and_once(backend):
    pools = Pools(backend.events)
    tickets = [Moved(f"t{n}", f"p{n}", 100.0 + n) for n in range(4)]
    for ticket in tickets:
        await pools.add(GAME, ticket.ticket_id, ticket.player, b"{}", ticket.created)
    assert await pools.move(GAME, tickets[:2], WAITING, "matched a", 110.0)
    # another worker's table with one of them: refused whole, t2 still waits
    assert not await pools.move(GAME, tickets[1:3], WAITING, "matched b", 110.0)
    assert await waiting_ids(pools) == ["t2", "t3"]
    assert await pools.held(GAME, "p0") is None  # a matched player may seek again
    assert await pools.add(GAME, "t9", "p0", b"{}", 111.0) is None
    assert not await pools.move(GAME, tickets[:1], WAITING, "cancelled", 112.0)  # matched already
    await pools.found(GAME, "t0", b'{"match_id": "m"}')
    stored = await pools.get(GAME, "t0", 120.0)
    assert stored is not None and (stored.state, stored.found) == ("matched a", b'{"match_id": "m"}')


async def test_a_table_put_back_waits_again_unless_its_player_seeks_anew(backend):
    pools = Pools(backend.events)
    tickets = [Moved(f"t{n}", f"p{n}", 100.0 + n) for n in range(2)]
    for ticket in tickets:
        await pools.add(GAME, ticket.ticket_id, ticket.player, b"{}", ticket.created)
    assert await pools.move(GAME, tickets, WAITING, "matched a", 110.0)
    assert await pools.add(GAME, "t5", "p1", b"{}", 111.0) is None  # p1 seeks again meanwhile
    assert not await pools.move(GAME, tickets, "matched b", WAITING, 112.0)  # not that table's
    assert await pools.move(GAME, tickets, "matched a", WAITING, 112.0)
    assert await waiting_ids(pools) == ["t0", "t5"]  # t0 in its place by age; t1 ended
    stored = await pools.get(GAME, "t1", None)
    assert stored is not None and stored.state == "lapsed"


async def test_a_read_keeps_a_ticket_alive_and_a_lapse_spares_one_heard_since(backend):
    pools = Pools(backend.events)
    ticket = Moved("t1", "p1", 100.0)
    await pools.add(GAME, "t1", "p1", b"{}", 100.0)
    await pools.get(GAME, "t1", 130.0)  # its player polls it
    assert not await pools.move(GAME, [ticket], WAITING, "lapsed", 131.0, unheard_since=120.0)
    assert await pools.move(GAME, [ticket], WAITING, "lapsed", 200.0, unheard_since=170.0)
    stored = await pools.get(GAME, "t1", 201.0)
    assert stored is not None and stored.state == "lapsed" and stored.seen == 0.0  # no longer heard
    assert await waiting_ids(pools) == []


async def test_ended_tickets_are_dropped_after_their_keeping(backend):
    pools = Pools(backend.events)
    await pools.add(GAME, "t1", "p1", b"{}", 100.0)
    await pools.add(GAME, "t2", "p2", b"{}", 100.0)
    assert await pools.move(GAME, [Moved("t1", "p1", 100.0)], WAITING, "cancelled", 110.0)
    await pools.waiting(GAME, 10, 110.0)  # ended at 110: kept still
    assert await pools.get(GAME, "t1", None) is not None
    assert await pools.waiting(GAME, 10, 111.0) == [("t2", b"{}", 100.0)]
    assert await pools.get(GAME, "t1", None) is None


async def test_a_made_table_is_handed_out_once_when_due(backend):
    pools = Pools(backend.events)
    await pools.table_made(GAME, "m1", b'{"n": 1}', 100.0)
    await pools.table_made(GAME, "m2", b'{"n": 2}', 150.0)
    assert await pools.tables_due(GAME, 100.0, 10) == []
    assert await pools.tables_due(GAME, 160.0, 1) == [("m1", b'{"n": 1}')]
    assert await pools.tables_due(GAME, 160.0, 10) == [("m2", b'{"n": 2}')]
    assert await pools.tables_due(GAME, 1000.0, 10) == []  # each once
