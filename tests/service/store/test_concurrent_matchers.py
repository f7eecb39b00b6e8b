"""Several matchmakers sweeping one pool at the same moments, on each backend (the upkeep of every
gateway and worker does): no ticket is taken into two tables, every table made is told to each of
its players once, and the tickets left are only those no table could take."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from services.commands.matchmaker import Matchmaker, NewTicket
from services.store.matchmaking import Pools
from services.store.player_events import PlayerEvents
from services.store.players import Player
from tests.service.store.matchmaking_fakes import Ratings, Tables

pytestmark = pytest.mark.anyio
TICKETS = 120
MATCHERS = 4


class Racing(Pools):
    """A pool that counts the tables refused because another matcher had taken one of their tickets."""

    refused = 0

    async def move(self, game: str, tickets: Any, source: str, target: str, now: float, **since: Any) -> bool:
        moved = await super().move(game, tickets, source, target, now, **since)
        Racing.refused += not moved and target.startswith("matched")
        return moved


async def test_concurrent_matchers_never_take_a_ticket_twice(backend):
    draw = random.Random(35)
    players = [Player(f"p{n:03d}", f"P{n}", 0.0) for n in range(TICKETS)]
    ratings = Ratings({player.id: draw.gauss(25.0, 4.0) for player in players})
    tables, events = Tables(), PlayerEvents(backend.events)
    matchers = [
        Matchmaker(Racing(backend.events), ratings, tables, tables, events, tables.close) for _ in range(MATCHERS)
    ]
    Racing.refused = 0
    now = 1000.0
    for n, player in enumerate(players):
        asked = NewTicket("taverna", seats=[2, 4], rated=False, bots_after_s=20.0 if n % 10 == 0 else None)
        await matchers[n % MATCHERS].ask(player, asked, now + n * 0.05)
    for step in range(32):  # every matcher sweeps at each simulated second, all at once
        now += 1.0
        if step % 10 == 0:
            for player in players:  # everyone stays connected
                held = await matchers[0].pools.held("taverna", player.id)
                if held is not None:
                    await matchers[0].pools.get("taverna", held, now)
        await asyncio.gather(*(matcher.sweep_pool("taverna", now) for matcher in matchers))
    seated = [player for table in tables.made for player in table]
    assert len(seated) == len(set(seated)), "a ticket was taken into two tables"
    assert len(tables.made) >= TICKETS // 4
    assert Racing.refused > 0  # the matchers did race for the same tickets
    left = {ticket_id for ticket_id, _, _ in await matchers[0].pools.waiting("taverna", 1000, 0.0)}
    assert len(left) + len(seated) == TICKETS
    for player in players:
        found = [raw for _, raw in await events.events(player.id, "0-0", 10) if b"match_found" in raw]
        assert len(found) == (player.id in seated)


class Slow(Pools):
    """A pool whose tables' moves yield first, as a round trip to another shard would: two pools'
    sweeps, run at once, each reach their move before either's seating is done."""

    async def move(self, game: str, tickets: Any, source: str, target: str, now: float, **since: Any) -> bool:
        await asyncio.sleep(0)
        return await super().move(game, tickets, source, target, now, **since)


async def test_two_pools_sweeping_at_once_seat_a_player_once(backend):
    """Players seeking two games at once, both pools swept in the same instant (by two processes):
    each player is seated at one table, and its ticket in the other pool is withdrawn or left."""
    players = [Player(f"q{n}", f"Q{n}", 0.0) for n in range(9)]
    ratings = Ratings(dict.fromkeys((player.id for player in players), 25.0))
    tables, events = Tables(), PlayerEvents(backend.events)
    matchers = [Matchmaker(Slow(backend.events), ratings, tables, tables, events, tables.close) for _ in range(2)]
    games = ("taverna", "heros-tavern")
    now = 1000.0
    for player in players:
        for game in games:
            await matchers[0].ask(player, NewTicket(game, seats=[3, 3], rated=False), now)
    now += 1.0
    made = await asyncio.gather(*(matcher.sweep_pool(game, now) for matcher, game in zip(matchers, games, strict=True)))
    seated = [player for table in tables.made for player in table]
    assert sum(made) == len(tables.made) > 0
    assert len(seated) == len(set(seated)), f"a player was seated at two tables: {tables.made}"
    for player in players:
        found = [raw for _, raw in await events.events(player.id, "0-0", 10) if b"match_found" in raw]
        assert len(found) == (player.id in seated)


class SlowTables(Tables):
    """A match made slower than a table's hold lasts (a shard failing over, say)."""

    async def create(self, *made: Any, **kept: Any) -> Any:
        await asyncio.sleep(0.8)
        return await super().create(*made, **kept)


async def test_a_seating_slower_than_its_hold_keeps_its_players_held(backend):
    """The hold is renewed while the table is seated, so another pool's table cannot take its
    players however long the match takes to make; it is given back once they are seated."""
    players = [Player(f"s{n}", f"S{n}", 0.0) for n in range(3)]
    tables = SlowTables()
    ratings = Ratings(dict.fromkeys((player.id for player in players), 25.0))
    matcher = Matchmaker(Pools(backend.events), ratings, tables, tables, PlayerEvents(backend.events), tables.close)
    matcher.hold_ms = 200
    for player in players:
        await matcher.ask(player, NewTicket("taverna", seats=[3, 3], rated=False), 1000.0)
    seating = asyncio.create_task(matcher.sweep_pool("taverna", 1001.0))
    await asyncio.sleep(0.6)  # three holds into the match's making
    assert not tables.made
    assert not await matcher.pools.hold([players[0].id], "another pool's table", 200)
    assert await seating == 1
    assert await matcher.pools.hold([players[0].id], "another pool's table", 200)
