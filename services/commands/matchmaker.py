"""The matchmaker (docs/matchmaking.md): a registered player's ticket (game, seats, options, rated
or not, rating window, bots after a wait or never) waits in its game's pool
(services/store/matchmaking.py) until ``sweep``, which every process runs once a second in its
upkeep (services/projector/upkeep.py), forms it into a table (services/commands/matching.py).

A table is taken from the pool atomically, then made a match whose seats are kept for its players
(a lobby match off the lobby's pages, as an accepted challenge's): each hears ``match_found`` on
its event stream (and reads it on its ticket), joins its seat and so hears its own token; the last
join starts it; one not started ``JOIN_S`` after it was made is closed, and its tickets lapse. A
ticket lapses when its player has not been heard for ``LAPSE_S``: heard means its ticket read
(GET) or an event stream of its open (GET /v1/events)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec

from domain.games import game_ids, online_game
from domain.kernel import RulesError
from services.commands import matching
from services.commands.matches import Matches
from services.commands.players import Player
from services.commands.ratings import Ratings
from services.commands.refused import Refused
from services.ops import logs
from services.store.lobby import LobbyListings
from services.store.matchmaking import HOLD_MS, WAITING, Moved, Pools
from services.store.outage import REDIS_DOWN
from services.store.player_events import PlayerEvents

log = logs.get("tavern.matchmaker")
LAPSE_S = 30.0  # a ticket whose player has not been heard for this long lapses
JOIN_S = 60.0  # a table whose players have not all joined this long after it was made is closed
KEPT_S = 600.0  # an ended ticket is kept this long for its player to read what came of it
POOL_MOST = 500  # a pool's oldest waiting tickets looked at in one sweep
RATING = 25.0  # the rating (openskill's mu) of a player not rated yet in the game
WINDOW = 2.0  # default rating window, either side (mu points), at first
MAX_WINDOW = 8.0  # default widest window
MOST_BOTS_AFTER_S = 3600.0


class NewTicket(msgspec.Struct, forbid_unknown_fields=True):
    game: str
    seats: list[int] | None = None  # [fewest, most] seats accepted; the game's whole range if absent
    options: dict[str, Any] = {}
    rated: bool = True  # a rated ticket shares a table only with rated ones, and never with bots
    window: float = WINDOW
    max_window: float | None = MAX_WINDOW  # None: it widens without end
    bots_after_s: float | None = None  # seated with bots after this wait (unrated only); None: never


class Ask(msgspec.Struct):
    """A ticket as stored, never changed."""

    player: str
    game: str
    seats: list[int]
    options: dict[str, Any]
    rated: bool
    rating: float
    window: float
    max_window: float | None
    bots_after_s: float | None
    created: float


class Found(msgspec.Struct):
    match_id: str
    seat: int  # the ticket's player's: join it (POST /v1/matches/{id}/join) to hear its token
    seats: int
    bots: list[int]


class Ticket(msgspec.Struct):
    ticket_id: str
    game: str
    seats: list[int]
    options: dict[str, Any]
    rated: bool
    rating: float  # the player's rating in the game when it asked
    window: float  # its window now, widened by its wait (at its end, the last)
    max_window: float | None
    bots_after_s: float | None
    created: float
    status: str  # waiting, matched, cancelled, lapsed
    match_id: str | None = None  # once matched
    seat: int | None = None


class MatchFound(msgspec.Struct, tag="match_found"):
    """On the player's event stream (docs/bots.md): its ticket's table is a match, its seat kept."""

    ticket_id: str
    match_id: str
    game: str
    seat: int


class TicketLapsed(msgspec.Struct, tag="ticket_lapsed"):
    """Its player was not heard for 30 s, or its table was closed: not everyone joined within 60 s."""

    ticket_id: str


class TicketWithdrawn(msgspec.Struct, tag="ticket_withdrawn"):
    """Its player was seated at a table of another game (``match_id``): a player seeking several
    games at once plays the first found, and is not sent to a second table."""

    ticket_id: str
    match_id: str


# what the matchmaker tells a player on its event stream (docs/matchmaking.md)
TICKET_EVENTS = (MatchFound, TicketLapsed, TicketWithdrawn)


class _Made(msgspec.Struct):
    """A table made, kept in its pool until its players are due to have joined."""

    state: str  # its tickets' ("matched <table>")
    tickets: list[tuple[str, str, float]]  # id, player, when made


_ask = msgspec.json.Decoder(Ask)
_found = msgspec.json.Decoder(Found)
_made = msgspec.json.Decoder(_Made)
_encode = msgspec.json.encode


def ticket_game(ticket_id: str) -> str:
    """A ticket's id names its pool: ``{game}.{random}``."""
    return ticket_id.rpartition(".")[0]


class Matchmaker:
    def __init__(
        self,
        pools: Pools,
        ratings: Ratings,
        matches: Matches,
        listings: LobbyListings,
        events: PlayerEvents,
        close: Callable[[str], Awaitable[bool]],
    ) -> None:
        self.pools = pools
        self.ratings = ratings
        self.matches = matches
        self.listings = listings
        self.events = events
        self.close = close  # closes a lobby match not started yet (Lobby.close)
        self.hold_ms = HOLD_MS  # a table's hold of its players, renewed a third of the way through until seated

    async def ask(self, player: Player, asked: NewTicket, now: float | None = None) -> Ticket:
        """A waiting ticket; a RulesError if the tables it asks for are not matches of the game."""
        now = time.time() if now is None else now
        if player.bot:
            raise Refused("forbidden", "bot_matchmaking", "a bot account plays through challenges, not the matchmaker")
        game = online_game(asked.game)
        seats = asked.seats or [game.min_seats, game.max_seats]
        low, high = (seats * 2)[:2] if len(seats) in (1, 2) else (0, 0)  # [n] is [n, n]
        if not game.min_seats <= low <= high <= game.max_seats:
            raise RulesError("bad_seats", "seats is [fewest, most] within {low} to {high}",
                             low=game.min_seats, high=game.max_seats)  # fmt: skip
        options = game.setup(low, asked.options).options  # filled in: the defaults asked or not are one kind
        for count in range(low + 1, high + 1):
            game.setup(count, asked.options)  # raises what creating such a match would
        if not 0 <= asked.window <= 1000 or (asked.max_window is not None and not 0 <= asked.max_window <= 1000):
            raise RulesError("bad_window", "a rating window is 0 to 1000 either side")
        if asked.bots_after_s is not None and not 0 <= asked.bots_after_s <= MOST_BOTS_AFTER_S:
            raise RulesError("bad_bots_after", "bots_after_s is 0 to {most}", most=int(MOST_BOTS_AFTER_S))
        if asked.rated and asked.bots_after_s is not None:
            raise RulesError("rated_no_bots", "a rated ticket is never seated with bots: ask rated false")
        rating = (await self.ratings.of(player.id, [game.id])).get(game.id)
        ask = Ask(player.id, game.id, [low, high], options, asked.rated, rating.mu if rating else RATING,
                  asked.window, asked.max_window, asked.bots_after_s, now)  # fmt: skip
        ticket_id = f"{game.id}.{secrets.token_hex(8)}"
        held = await self.pools.add(game.id, ticket_id, player.id, _encode(ask), now)
        if held is not None:
            raise Refused("conflict", "ticket_waiting", "this player has a ticket waiting for {game} already: {ticket}",
                          game=game.id, ticket=held)  # fmt: skip
        log.info("ticket", ticket=ticket_id, player=player.id, game=game.id)
        return _ticket(ticket_id, ask, WAITING, None, now)

    async def get(self, ticket_id: str, player: Player, now: float | None = None) -> Ticket:
        """The ticket as it stands, to its player only (who is heard by asking)."""
        now = time.time() if now is None else now
        stored, ask = await self._found(ticket_id, player, now)
        return _ticket(ticket_id, ask, stored.state, stored.found, now)

    async def cancel(self, ticket_id: str, player: Player, now: float | None = None) -> Ticket:
        now = time.time() if now is None else now
        _, ask = await self._found(ticket_id, player, None)
        if not await self.pools.move(ask.game, [Moved(ticket_id, player.id, ask.created)], WAITING, "cancelled", now):
            stored, ask = await self._found(ticket_id, player, None)
            status = _status(stored.state)
            raise Refused("conflict", "ticket_ended", "this ticket is {status} already", status=status)
        log.info("ticket_cancelled", ticket=ticket_id, player=player.id)
        return _ticket(ticket_id, ask, "cancelled", None, now)

    async def heard(self, player_id: str, now: float | None = None) -> None:
        """The player is connected (its event stream is open): its waiting tickets do not lapse."""
        now = time.time() if now is None else now
        for game in game_ids():
            held = await self.pools.held(game, player_id)
            if held is not None:
                await self.pools.get(game, held, now)

    async def sweep(self, now: float) -> int:
        """Every pool once: lapse the tickets of players not heard, form tables, make their
        matches. How many tables were made."""
        made = 0
        for game in game_ids():
            made += await self.sweep_pool(game, now)
        return made

    async def sweep_pool(self, game: str, now: float) -> int:
        listed = await self.pools.waiting(game, POOL_MOST, now - KEPT_S)
        waiting = []
        for ticket_id, raw, seen in listed:
            ask = _ask.decode(raw)
            if seen < now - LAPSE_S:
                await self._lapse(ticket_id, ask, now)
            else:
                waiting.append(_waiting(ticket_id, ask))
        made = 0
        for table in matching.form(waiting, now):
            made += await self._seat(game, table, now)
        for match_id, raw in await self.pools.tables_due(game, now - JOIN_S, POOL_MOST):
            await self._unjoined(game, match_id, _made.decode(raw), now)
        return made

    async def _unjoined(self, game: str, match_id: str, made: _Made, now: float) -> None:
        """A table due to have started: if it has not, closed, and its tickets lapse (those who
        came may ask again; those who did not are not kept waiting for)."""
        match = await self.matches.get(match_id)
        if match is None or match.lobby != "open" or not await self.close(match_id):
            return  # started (or gone)
        tickets = [Moved(*ticket) for ticket in made.tickets]
        await self.pools.move(game, tickets, made.state, "lapsed", now)
        for ticket in tickets:
            await self.events.push(ticket.player, _encode(TicketLapsed(ticket.ticket_id)))
        log.info("table_closed", match_id=match_id, game=game, came=sorted(match.players.values()))

    async def _lapse(self, ticket_id: str, ask: Ask, now: float) -> None:
        moved = Moved(ticket_id, ask.player, ask.created)
        if await self.pools.move(ask.game, [moved], WAITING, "lapsed", now, unheard_since=now - LAPSE_S):
            await self.events.push(ask.player, _encode(TicketLapsed(ticket_id)))
            log.info("ticket_lapsed", ticket=ticket_id, player=ask.player)

    async def _seat(self, game_id: str, table: matching.Table, now: float) -> int:
        """Take the table's tickets from the pool (none if another worker took one first) and make its match."""
        taken = f"matched {secrets.token_hex(6)}"
        players = sorted({ticket.player for ticket in table.tickets})
        # held across the pools while seated: a player another pool's table holds is not seated here too
        if not await self.pools.hold(players, taken, self.hold_ms):
            return 0
        holding = asyncio.create_task(self._keep_holding(players, taken))  # a seating slowed by an outage
        try:
            return await self._seat_held(game_id, table, taken, now)
        finally:
            holding.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await holding
            await self.pools.release(players, taken)

    async def _keep_holding(self, players: list[str], taken: str) -> None:
        while True:
            await asyncio.sleep(self.hold_ms / 3000)
            try:
                await self.pools.renew(players, taken, self.hold_ms)
            except REDIS_DOWN as problem:  # tried again a third of a hold later
                log.warning("hold_renewal_failed", error=str(problem), players=players)

    async def _seat_held(self, game_id: str, table: matching.Table, taken: str, now: float) -> int:
        moved = [Moved(t.ticket_id, t.player, t.created) for t in table.tickets]
        if not await self.pools.move(game_id, moved, WAITING, taken, now):
            return 0
        seats = list(range(table.seats))
        secrets.SystemRandom().shuffle(seats)  # who sits first is drawn, as a table's places are
        places = {ticket.ticket_id: seat for ticket, seat in zip(table.tickets, seats, strict=False)}
        bots = sorted(seats[len(table.tickets) :])
        rated, _, options = table.tickets[0].kind.partition("|")  # as _waiting made it
        try:
            created = await self.matches.create(
                game_id, table.seats, json.loads(options), bots, open_seats=sorted(places.values()),
                reserved={places[t.ticket_id]: t.player for t in table.tickets}, rated=rated == "rated" and not bots,
            )  # fmt: skip
        except BaseException:
            await self.pools.move(game_id, moved, taken, WAITING, now)  # back to waiting, in their places
            raise
        match = created.match
        # listed as waiting (not on the lobby's pages), as any lobby match; closed by the sweep past JOIN_S
        await self.listings.add(match.id, game_id, match.created, public=False)
        await self.pools.table_made(
            game_id, match.id, _encode(_Made(taken, [(m.ticket_id, m.player, m.created) for m in moved])), now
        )
        for ticket in table.tickets:
            found = Found(match.id, places[ticket.ticket_id], table.seats, bots)
            await self.pools.found(game_id, ticket.ticket_id, _encode(found))
            told = MatchFound(ticket.ticket_id, match.id, game_id, places[ticket.ticket_id])
            await self.events.push(ticket.player, _encode(told))
        log.info("table_made", match_id=match.id, game=game_id, tickets=[t.ticket_id for t in table.tickets],
                 bots=bots, spread=matching.spread(table))  # fmt: skip
        for ticket in table.tickets:
            await self._withdraw_others(ticket.player, game_id, match.id, now)
        return 1

    async def _withdraw_others(self, player_id: str, seated_in: str, match_id: str, now: float) -> None:
        """Cancel the player's tickets waiting in the other games' pools: seated at one table, it is
        not sent to a second (while this runs, the player is held: another pool's table waits)."""
        for game in game_ids():
            if game == seated_in or (held := await self.pools.held(game, player_id)) is None:
                continue
            if (stored := await self.pools.get(game, held, None)) is None:
                continue
            moved = Moved(held, player_id, _ask.decode(stored.ask).created)
            if await self.pools.move(game, [moved], WAITING, "cancelled", now):
                await self.events.push(player_id, _encode(TicketWithdrawn(held, match_id)))
                log.info("ticket_withdrawn", ticket=held, player=player_id, match_id=match_id)

    async def _found(self, ticket_id: str, player: Player, now: float | None) -> tuple[Any, Ask]:
        game = ticket_game(ticket_id)
        stored = await self.pools.get(game, ticket_id, now) if game in game_ids() else None
        ask = _ask.decode(stored.ask) if stored is not None else None
        if stored is None or ask is None or ask.player != player.id:
            raise Refused("not_found", "no_such_ticket", "no such ticket (an ended one is kept ten minutes)")
        return stored, ask


def _waiting(ticket_id: str, ask: Ask) -> matching.Waiting:
    """The ticket as the forming sees it: its kind ``rated|{options}`` or ``unrated|{options}``."""
    kind = f"{'rated' if ask.rated else 'unrated'}|{json.dumps(ask.options, sort_keys=True)}"
    low, high = ask.seats
    return matching.Waiting(ticket_id, ask.player, ask.rating, low, high, kind, ask.window, ask.max_window,
                            ask.bots_after_s, ask.created)  # fmt: skip


def _status(state: str) -> str:
    return "matched" if state.startswith("matched") else state


def _ticket(ticket_id: str, ask: Ask, state: str, found: bytes | None, now: float) -> Ticket:
    table = _found.decode(found) if found else None
    status = _status(state)
    # a waiting ticket's window as widened now; an ended one's as asked
    window = matching.window(_waiting(ticket_id, ask), now if status == WAITING else ask.created)
    return Ticket(ticket_id, ask.game, ask.seats, ask.options, ask.rated, ask.rating, window, ask.max_window,
                  ask.bots_after_s, ask.created, status, table.match_id if table else None,
                  table.seat if table else None)  # fmt: skip
