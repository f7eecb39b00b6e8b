"""The lobby: matches created with open seats wait here until their seats are filled.

Joining, leaving and starting change the match's meta under WATCH (two players racing for the
last seat: one wins, the other hears ``match_full``); the match is cached and its log opened only
once it starts, after which its seats never change hands except through events in its log.
Whoever joins gets that seat's token, answered to them only; the host never sees it.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import msgspec

from services.commands import tokens
from services.commands.clocks import ClockOption
from services.commands.folds import Folds
from services.commands.matches import Match, Matches, from_fields
from services.commands.open_matches import Holder
from services.commands.player_events import MatchStarted, RematchOffered, encode
from services.commands.players import Player, Players, at_table
from services.commands.refused import Refused
from services.ops import logs
from services.store.lobby import LobbyListings
from services.store.match_meta import MatchMetas
from services.store.player_events import PlayerEvents

log = logs.get("tavern.lobby")
# A match closed before its start keeps its meta this long, so that whoever looks at it hears
# match_closed, then leaves Redis: nothing was dealt, so there is nothing to archive.
CLOSED_KEPT_S = 3600
ATTEMPTS = 50  # reads of a lobby match's meta a change is decided on before it gives up (contention)


class Joined(msgspec.Struct):
    match_id: str
    seat: int
    token: str  # this seat's token: the only time it is ever sent
    started: bool


class Started(msgspec.Struct):
    match_id: str
    bots: list[int]


class Left(msgspec.Struct):
    match_id: str
    seat: int
    cancelled: bool  # the host left: the match is gone from the lobby


class SeatInfo(msgspec.Struct):
    seat: int
    name: str | None  # None for a free seat
    bot: bool


class LobbyEntry(msgspec.Struct):
    match_id: str
    game: str
    options: dict[str, Any]
    seats: list[SeatInfo]
    free: list[int]
    host: str
    created: float
    clock: ClockOption | None  # the match's clock (docs/online-play.md), None without one


class LobbyPage(msgspec.Struct):
    matches: list[LobbyEntry]
    next: int | None  # the offset of the next page, None on the last


class LiveEntry(msgspec.Struct):
    match_id: str
    game: str
    options: dict[str, Any]
    seats: list[SeatInfo]
    host: str
    created: float
    clock: ClockOption | None
    spectator_token: str  # a public match's: its live table and replay, as a spectator sees them


class LivePage(msgspec.Struct):
    matches: list[LiveEntry]
    next: int | None  # the offset of the next page, None on the last


@dataclass(frozen=True, slots=True)
class _Change:
    fields: dict[str, str]
    removed: list[str]
    answer: Any


class Lobby:
    def __init__(
        self,
        listings: LobbyListings,
        metas: MatchMetas,
        matches: Matches,
        players: Players,
        folds: Folds,
        events: PlayerEvents | None = None,
    ) -> None:
        self.events = events  # each seated player hears its match started (docs/bots.md)
        self.listings = listings
        self.metas = metas
        self.matches = matches
        self.players = players
        self.folds = folds

    async def listed(self, match: Match) -> None:
        """Put a just created lobby match on the lists: the waiting one, and if public the lobby's."""
        if match.lobby == "open":
            await self.listings.add(match.id, match.game.id, match.created, public=not match.invite)

    async def close_waiting(self, now: float, older_than_s: float, batch: int) -> int:
        """Close the lobby matches created more than ``older_than_s`` ago and still waiting for
        players (nobody came): as if the host had left, their creators' quota slots given back.
        How many were looked at (a full batch: sweep again)."""
        due = await self.listings.waiting_since(now - older_than_s, batch)
        for match_id in due:
            if not await self.close(match_id):  # started, closed or gone meanwhile: only its listing is left to clear
                await self._unlist(match_id)
                continue
            log.info("lobby_expired", match_id=match_id)
        return len(due)

    async def close(self, match_id: str) -> bool:
        """Close a lobby match still waiting for players, as if its host had left (its quota slots
        given back); False if it has started, closed or gone meanwhile."""
        try:
            await self._change(match_id, _close_waiting)
        except Refused:
            return False
        await self._closed(match_id)
        return True

    async def page(self, game: str | None, offset: int, limit: int) -> LobbyPage:
        ids = await self.listings.page(game, offset, limit + 1)
        more = len(ids) > limit
        entries = []
        for match_id in ids[:limit]:
            match = await self.matches.get(match_id)
            if match is None or match.lobby != "open":
                continue  # started or cancelled since: _unlist took it off, or is about to
            entries.append(await self.entry(match))
        return LobbyPage(entries, offset + limit if more else None)

    async def live(self, game: str | None, offset: int, limit: int) -> LivePage:
        """The public matches being played, the latest started first, each with its spectator token."""
        ids = await self.listings.live(game, offset, limit + 1)
        entries = []
        for match_id in ids[:limit]:
            match = await self.matches.get(match_id)
            if match is None or not match.watch:
                continue  # gone (archived and evicted) since; its listing left with its end
            listed = await self.entry(match)
            entries.append(LiveEntry(match.id, listed.game, listed.options, listed.seats, listed.host, listed.created,
                                     listed.clock, match.watch))
        return LivePage(entries, offset + limit if len(ids) > limit else None)

    async def ended(self, match: Match) -> None:
        """A public match ended: off the lists of matches being played (a redo removes nothing more)."""
        if match.watch:
            await self.listings.remove_live(match.id, match.game.id)

    async def entry(self, match: Match) -> LobbyEntry:
        seats = range(match.setup.seats)
        names = at_table([await self.players.name(match.players.get(seat)) for seat in seats])
        free = [seat for seat in match.open_seats if seat not in match.players]
        host = next((names[seat] for seat in seats if match.players.get(seat) == match.host), None)
        bot = f"Bot ({match.bot_kind})"
        shown = [SeatInfo(s, bot, True) if s in match.bots else SeatInfo(s, names[s], False) for s in seats]
        options = match.setup.options
        return LobbyEntry(match.id, match.game.id, options, shown, free, host or "", match.created, match.clock)

    async def join(self, match_id: str, player: Player, seat: int | None, invite: str | None) -> Joined:
        token = tokens.new_token()

        def change(match: Match) -> _Change:
            if match.invite and (invite is None or tokens.digest(invite) != match.invite):
                raise Refused("not_found", "unknown_invite", "a private match is joined with its invite code")
            held = [s for s, holder in match.players.items() if holder == player.id]
            if held:
                return _rejoin(match, held[0], seat, token)
            if player.bot:  # docs/bots.md: a bot plays the matches of the challenges it accepted
                raise Refused("forbidden", "bot_lobby", "a bot account plays through challenges, not the lobby")
            free = [s for s in match.open_seats if s not in match.players]
            if not free:  # the last join started it: full, rather than started by its host with bots
                raise Refused("conflict", "match_full", "every seat of this match is taken")
            _must_be_open(match)
            mine = [s for s in free if match.reserved.get(s) == player.id]
            anyones = [s for s in free if s not in match.reserved]
            taken = (mine or anyones or free)[0] if seat is None else seat
            if taken not in free:
                code = "seat_taken" if taken in match.open_seats else "not_open_seat"
                raise Refused("conflict", code, "seat {seat} is not free to join", seat=taken)
            if match.reserved.get(taken, player.id) != player.id:
                raise Refused("conflict", "seat_reserved", "seat {seat} is kept for another player", seat=taken)
            fields = {f"player:{taken}": player.id, f"token:{taken}": tokens.digest(token)}
            full = len(free) == 1
            if full:
                fields["lobby"] = "started"
            return _Change(fields, [], Joined(match.id, taken, token, full))

        joined: Joined = await self._change(match_id, change)
        log.info("joined", match_id=match_id, seat=joined.seat, player=player.id)
        if joined.started:
            await self._open(match_id)
        return joined

    async def leave(self, match_id: str, player: Player) -> Left:
        def change(match: Match) -> _Change:
            _must_be_open(match)
            seats = [seat for seat, held in match.players.items() if held == player.id]
            if not seats:
                raise Refused("conflict", "not_seated", "this player holds no seat of this match")
            if player.id == match.host:  # the table goes with its host
                return _Change({"lobby": "cancelled"}, [], Left(match.id, seats[0], True))
            return _Change({}, [f"player:{seats[0]}", f"token:{seats[0]}"], Left(match.id, seats[0], False))

        left: Left = await self._change(match_id, change)
        if left.cancelled:
            await self._closed(match_id)
        log.info("left", match_id=match_id, seat=left.seat, player=player.id, cancelled=left.cancelled)
        return left

    async def start(self, match_id: str, player: Player) -> Started:
        """The host starts now: every free seat is played by a bot."""

        def change(match: Match) -> _Change:
            if match.host != player.id:
                raise Refused("forbidden", "not_host", "only the match's host starts it")
            _must_be_open(match)
            bots = sorted({*match.bots, *(s for s in match.open_seats if s not in match.players)})
            return _Change({"lobby": "started", "bots": json.dumps(bots)}, [], Started(match.id, bots))

        started: Started = await self._change(match_id, change)
        log.info("started", match_id=match_id, bots=started.bots)
        await self._open(match_id)
        return started

    async def rematch(self, match_id: str, player: Player, holders: tuple[Holder, ...] = ()) -> Joined:
        """The finished match again: same game, options, clock and players, the seats rotated by one.
        The first to ask creates it (the others' seats kept for them), in its ``holders``' quotas
        of open matches; everyone who asks joins it and hears its own seat's token."""
        match = await self.matches.get(match_id)
        if match is None:
            raise Refused("not_found", "no_such_match", "no such match")
        folded = await self.folds.load(match)
        if match.game.result(folded.state) is None:
            raise Refused("conflict", "match_running", "a rematch follows a finished match")
        seats = match.setup.seats
        if player.id not in match.players.values():
            raise Refused("forbidden", "not_a_player", "only a registered player of the match asks for its rematch")
        existing = await self.metas.field(match.id, "rematch")
        if existing is None:
            moved = {(seat + 1) % seats: held for seat, held in match.players.items()}
            bots = sorted((seat + 1) % seats for seat in match.bots)
            mine = next(seat for seat, held in moved.items() if held == player.id)
            created = await self.matches.create(
                match.game.id, seats, match.setup.options, bots, match.bot_kind,
                open_seats=[seat for seat in range(seats) if seat not in bots and seat != mine],
                host=player.id, clock=msgspec.to_builtins(match.clock) if match.clock else None,
                reserved={seat: held for seat, held in moved.items() if seat != mine}, holders=holders,
                rated=not match.unrated, public=bool(match.watch),
            )
            if await self.metas.set_once(match.id, "rematch", created.match.id):
                token = created.seat_tokens[mine]
                assert token is not None
                log.info("rematch", match_id=match.id, rematch=created.match.id)
                if self.events is not None:  # the others hear it on their event streams
                    offer = encode(RematchOffered(match.id, created.match.id, match.game.id, player.id))
                    for other in sorted(set(match.players.values()) - {player.id}):
                        await self.events.push(other, offer)
                if created.match.lobby == "open":  # kept for its players, not listed: it waits for them
                    await self.listings.add(created.match.id, match.game.id, created.match.created, public=False)
                return Joined(created.match.id, mine, token, not created.match.lobby)
            await self.metas.set_field(created.match.id, "lobby", "cancelled")  # another was first
            await self._closed(created.match.id)
            existing = await self.metas.field(match.id, "rematch")
            assert existing is not None, "set by whoever was first"
        return await self.join(existing, player, None, None)

    async def _change(self, match_id: str, change: Callable[[Match], _Change]) -> Any:
        """Read the lobby match, decide the change and write it unless the meta moved meanwhile."""

        def decide(fields: dict[str, str] | None) -> _Change:
            if fields is None:
                raise Refused("not_found", "no_such_match", "no such match")
            return change(from_fields(match_id, fields))

        decided = await self.metas.edit(match_id, decide, ATTEMPTS)
        if decided is not None:
            return decided.answer
        raise Refused("conflict", "contention", "the match changed under every attempt; send it again")

    async def _open(self, match_id: str) -> None:
        await self._unlist(match_id)
        match = await self.matches.get(match_id)
        assert match is not None and match.lobby == "started"
        if not await self.matches.open(match):
            return  # another process opened it
        if match.watch:
            await self.listings.add_live(match.id, match.game.id, time.time())
        if self.events is not None:
            for seat, player in sorted(match.players.items()):
                await self.events.push(player, encode(MatchStarted(match.id, match.game.id, seat)))

    async def _closed(self, match_id: str) -> None:
        """A lobby match just closed before its start: off the lists, its quota slots given back, its
        meta gone after a while."""
        await self._unlist(match_id)
        await self.metas.keep_for(match_id, CLOSED_KEPT_S)
        closed = await self.matches.get(match_id)
        if closed is not None:
            await self.matches.give_back(closed)

    async def _unlist(self, match_id: str) -> None:
        match = await self.matches.get(match_id)
        await self.listings.remove(match_id, match.game.id if match is not None else None)


def _rejoin(match: Match, held: int, seat: int | None, token: str) -> _Change:
    """A seated player who joins again (its answer was lost: a timeout, a dropped connection) gets
    its seat back with a new token, and the old one stops working: the seat's token is kept only as
    a digest, so it cannot be sent twice. Only before the start: a started match's meta is cached
    by every gateway, and its tokens must not change under them."""
    if match.lobby in ("started", "") or seat not in (None, held):
        raise Refused("conflict", "already_seated", "this player already holds seat {seat} of this match", seat=held)
    _must_be_open(match)
    return _Change({f"token:{held}": tokens.digest(token)}, [], Joined(match.id, held, token, False))


def _close_waiting(match: Match) -> _Change:
    _must_be_open(match)
    return _Change({"lobby": "cancelled"}, [], None)


def _must_be_open(match: Match) -> None:
    if match.lobby in ("started", ""):
        raise Refused("conflict", "match_started", "this match has started: its seats are no longer open")
    if match.lobby != "open":
        raise Refused("conflict", "match_closed", "the host closed this match")
