"""The matchmaker's pools (docs/matchmaking.md): one per game, its keys under the pool's hash tag
(``keys.pool``), so the scripts beside this module see a whole pool at once and move tickets
atomically: a ticket is taken into one table at most, however many workers form tables at once.

A pool is a game's, not a player's: a table is made of tickets of several players, and only one
shard can answer atomically which of them are still free. A game's pool on one shard is a bounded
load (its waiting tickets, read once a second by each process); the matches it makes spread over
the cluster by their own ids.

A player may wait in several pools, which are apart, so no script sees a player's tickets in all
of them: a table first holds each of its players (``hold``: a lease per player, on the player's
shard), and the pool that loses a player to another pool's table seats nobody this sweep."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from services.store import keys, resp
from services.store.clients import Events
from services.store.connections import link_to
from services.store.event_store import Call, reply, run_scripts, script

WAITING = "waiting"
HOLD_MS = 10_000  # past any seating's few round trips: a holder that died lets its players go then
_HERE = Path(__file__).parent
_LEASE = script(_HERE / "lease.lua")  # a player's hold: the same lease as a partition's


@dataclass(frozen=True, slots=True)
class Stored:
    ticket_id: str
    ask: bytes  # the ticket as asked (JSON), never changed
    state: str  # waiting, matched <table>, cancelled, lapsed
    seen: float  # when its player was last heard (while it waits)
    found: bytes | None  # its table's match and seat (JSON), once made


@dataclass(frozen=True, slots=True)
class Moved:
    """A ticket as a move names it."""

    ticket_id: str
    player: str
    created: float


class Pools:
    def __init__(self, redis: Events, link: resp.Link | None = None) -> None:
        self.redis = redis
        self.link = link or link_to(redis)
        self._add, self._move, self._read, self._list, self._tables = (
            redis.register_script(script(_HERE / f"pool_{name}.lua"))
            for name in ("add", "move", "read", "list", "tables")
        )
        self._lease = redis.register_script(_LEASE)

    async def _run(self, call: Call) -> object:
        (answer,) = await run_scripts(self.link, [call])
        return reply(answer)

    async def add(self, game: str, ticket_id: str, player: str, ask: bytes, now: float) -> str | None:
        """A waiting ticket; None, or the id of the player's ticket waiting already (nothing added)."""
        parts = _keys(game, "waiting", "players", "tickets", "seen", "state")
        held = await self._run(Call(self._add, parts, [ticket_id, player, ask, now]))
        assert isinstance(held, bytes)
        return held.decode() or None

    async def get(self, game: str, ticket_id: str, now: float | None) -> Stored | None:
        """The ticket; read with ``now``, its player is heard then (the ticket is kept from lapsing)."""
        parts = _keys(game, "tickets", "seen", "state", "found")
        found = await self._run(Call(self._read, parts, [ticket_id, "" if now is None else now]))
        assert isinstance(found, list)
        if not found:
            return None
        ask, state, seen, table = found
        return Stored(ticket_id, ask, state.decode(), float(seen or 0), table or None)

    async def move(
        self, game: str, tickets: list[Moved], source: str, target: str, now: float, unheard_since: float | None = None
    ) -> bool:
        """Move every ticket from state ``source`` to ``target``, or none (False: one was not in
        ``source``, or, with ``unheard_since``, its player was heard since then)."""
        parts = _keys(game, "waiting", "players", "seen", "state", "ended")
        args: list[object] = [source, target, now, "" if unheard_since is None else unheard_since]
        for ticket in tickets:
            args += [ticket.ticket_id, ticket.player, ticket.created]
        return await self._run(Call(self._move, parts, args)) == 1

    async def waiting(self, game: str, most: int, ended_before: float) -> list[tuple[str, bytes, float]]:
        """The pool's oldest ``most`` waiting tickets (id, ask, when last heard); the tickets that
        ended before ``ended_before`` are dropped on the way."""
        parts = _keys(game, "waiting", "tickets", "seen", "state", "found", "ended")
        flat = await self._run(Call(self._list, parts, [most, ended_before]))
        assert isinstance(flat, list)
        return [(flat[i].decode(), flat[i + 1], float(flat[i + 2])) for i in range(0, len(flat), 3)]

    async def found(self, game: str, ticket_id: str, table: bytes) -> None:
        """What a matched ticket's table came to (its match and seat, JSON)."""
        await self.redis.hset(keys.pool(game, "found"), mapping={ticket_id: table})

    async def table_made(self, game: str, match_id: str, tickets: bytes, now: float) -> None:
        """A table made a match at ``now``: its tickets (JSON) kept until ``tables_due`` hands them out."""
        await self._run(Call(self._tables, _keys(game, "tables", "due"), ["add", match_id, tickets, now]))

    async def tables_due(self, game: str, made_before: float, most: int) -> list[tuple[str, bytes]]:
        """The tables made before ``made_before`` (match id, tickets), each handed out once, to one caller."""
        flat = await self._run(Call(self._tables, _keys(game, "tables", "due"), ["due", made_before, most]))
        assert isinstance(flat, list)
        return [(flat[i].decode(), flat[i + 1]) for i in range(0, len(flat), 2)]

    async def held(self, game: str, player: str) -> str | None:
        """The id of the player's waiting ticket in the pool, if any."""
        held = await self.redis.hget(keys.pool(game, "players"), player)
        return held.decode() if held else None

    async def hold(self, players: list[str], table: str, ms: int = HOLD_MS) -> bool:
        """Every player held by ``table`` while it is seated (a table of another pool holding one
        of them first: none held, False). Given back by ``release``, or lapsing after ``ms``."""
        taken = [reply(answer) == 1 for answer in await run_scripts(self.link, self._leases(players, table, ms))]
        if all(taken):
            return True
        await self.release([player for player, held in zip(players, taken, strict=True) if held], table)
        return False

    async def renew(self, players: list[str], table: str, ms: int = HOLD_MS) -> None:
        """The players' holds by ``table`` kept ``ms`` more (one that lapsed and is free, taken again)."""
        await run_scripts(self.link, self._leases(players, table, ms))

    async def release(self, players: list[str], table: str) -> None:
        """The players held by ``table`` let go (those another holds now are left to it)."""
        if players:
            await run_scripts(self.link, self._leases(players, table, 0))

    def _leases(self, players: list[str], table: str, ms: int) -> list[Call]:
        """lease.lua on each player's hold, for ``ms`` (0: given back)."""
        return [Call(self._lease, [keys.seating(player)], [table, str(ms)]) for player in players]


def _keys(game: str, *parts: str) -> list[str]:
    return [keys.pool(game, part) for part in parts]
