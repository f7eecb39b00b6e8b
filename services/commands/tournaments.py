"""Tournaments (docs/tournaments.md): created by a registered player, joined by registering, played
in rounds of tables, each table a lobby match whose every seat is kept for its player (who joins it
to take its seat token), on a clock so a seat that never acts forfeits (services/commands/timeouts.py).

The tournament's own log (registrations, withdrawals, rounds, no-shows) is appended only at the
length it was decided at (services/store/tournaments.py), so two processes advancing a tournament
at once start one round: the other's matches are left unplayed, closed by the lobby as any match
nobody came to. A round starts at the start time (or when the host starts it), then each once the
last table of the one before has ended (and not before its time on a schedule): advanced by the
projector as a table's match ends and by every process's sweeper (the start, the schedule, the
no-shows: a seat not taken ``join_s`` after its round started). Standings are a projection of the
tables' results (projections/tournaments.py): kept live as each match ends, and ``rebuild`` reads
the same from the matches' logs. Where the deployment has an archive, a finished tournament leaves
Redis for it (its log and ranks, one object) as long after its end as a finished match does; it
stays on the list, and reads find it in the archive.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from typing import Any

import msgspec

from domain.games import online_game
from domain.kernel import Result, RulesError
from projections import tournaments as pure
from projections.tournaments import ELIMINATION, KINDS, Entry, Opened, Registered, RoundStarted, Table, Tournament
from services.commands import clocks
from services.commands.folds import Folds
from services.commands.matches import Match, Matches
from services.commands.player_events import TournamentTable
from services.commands.player_events import encode as encode_event
from services.commands.players import Player, Players
from services.commands.ratings import Ratings
from services.commands.refused import Refused
from services.ops import logs
from services.store.archive import Archive, compress, decompress, tournament_name
from services.store.lobby import LobbyListings
from services.store.player_events import PlayerEvents
from services.store.tournaments import TournamentBook

log = logs.get("tavern.tournaments")
ATTEMPTS = 20  # appends lost to another process before the caller is told to try again
LOOK_AGAIN_S = 30.0  # the sweepers look at a running tournament at least this often (a table's end missed)
ROUNDS_MAX = 20
# a seat that does not act in 2 minutes and a 10-minute bank, twice in a row, concedes: a no-show
# that took its seat still ends its table
CLOCK: dict[str, Any] = {"per_move_s": 120, "bank_s": 600, "limit": 2, "forfeit": True}
ARCHIVE_RETRY_S = 60.0  # a tournament's archiving that failed is tried again this much later
ARCHIVED_KEPT = 256  # archived tournaments kept in memory once read (they never change)
_encoder = msgspec.json.Encoder()


class ArchivedTournament(msgspec.Struct, frozen=True):
    """What the archive holds of a finished tournament (``tavern-tournament/1``)."""

    log: list[msgspec.Raw]  # its entries, as Redis held them
    results: dict[str, dict[str, int]]  # match id -> player -> rank at its table
    format: str = "tavern-tournament/1"


_archived_decoder = msgspec.json.Decoder(ArchivedTournament)


class NewTournament(msgspec.Struct, forbid_unknown_fields=True):
    game: str
    kind: str = pure.SWISS
    rounds: int = 0  # swiss: 1 to ROUNDS_MAX; an elimination plays as many as its bracket needs
    seats: int = 2  # per table; an elimination's are two
    options: dict[str, Any] = {}
    start_at: float | None = None  # unix seconds; None: started by its host (or in a day)
    round_every_s: float = 0.0
    join_s: float = 300.0
    clock: dict[str, Any] | None = None  # the tables' clock; None: CLOCK
    name: str = ""


class TableInfo(msgspec.Struct):
    match_id: str  # "" for a bye
    players: list[str]  # in seat order
    points: list[float] | None  # each player's score there, once scored
    absent: list[str]  # no-shows


class RoundInfo(msgspec.Struct):
    number: int
    started: float
    tables: list[TableInfo]


class TournamentInfo(msgspec.Struct):
    tournament_id: str
    name: str
    game: str
    kind: str
    seats: int
    rounds: int  # swiss: how many; elimination: 0 (as many as the bracket needs)
    options: dict[str, Any]
    start_at: float
    round_every_s: float
    join_s: float
    host: str
    status: str  # registering, running, finished
    players: list[str]  # registered, in order of registration (the withdrawn too)
    withdrawn: dict[str, str]  # player -> why (withdrew, no_show)
    standings: list[pure.StandingRow]
    pairings: list[RoundInfo]
    names: dict[str, str]  # player id -> name, of every registered player


class TournamentSummary(msgspec.Struct):
    tournament_id: str
    name: str
    game: str
    kind: str
    start_at: float
    status: str
    players: int
    round: int


def encode(entry: Entry) -> bytes:
    return _encoder.encode(entry)


def ranks_of(match: Match, result: Result) -> dict[str, int]:
    """Each player's rank at the table; an abandoned match (nobody played on) a draw."""
    abandoned = result.details.get("ended") == "abandoned"
    by_seat = {standing.seat: standing.rank for standing in result.standings}
    return {player: 1 if abandoned else by_seat[seat] for seat, player in match.players.items()}


class Tournaments:
    def __init__(
        self,
        book: TournamentBook,
        matches: Matches,
        folds: Folds,
        ratings: Ratings,
        listings: LobbyListings,
        players: Players,
        events: PlayerEvents,
        archive: Archive | None = None,
        grace_s: float = 3600.0,
    ) -> None:
        self.archive = archive  # where a finished tournament goes ``grace_s`` after its end (None: it stays)
        self.grace_s = grace_s
        self._archived: dict[str, ArchivedTournament] = {}  # read from the archive, the latest last
        self.book = book
        self.events = events  # each player's: a round's table is announced there
        self.players = players
        self.matches = matches
        self.folds = folds
        self.ratings = ratings
        self.listings = listings

    async def create(self, host: Player, asked: NewTournament) -> TournamentInfo:
        """A new tournament, registering; a RulesError if its tables could not be made."""
        game = online_game(asked.game)
        game.setup(asked.seats, asked.options)  # raises what creating a table would
        clocks.option(asked.clock or CLOCK)
        if asked.kind not in KINDS:
            raise RulesError("bad_kind", "kind is one of {kinds}", kinds=", ".join(KINDS))
        if asked.kind == ELIMINATION and asked.seats != 2:
            raise RulesError("elimination_needs_two", "an elimination is played at tables of two seats")
        if asked.kind != ELIMINATION and not 1 <= asked.rounds <= ROUNDS_MAX:
            raise RulesError("bad_rounds", "a Swiss tournament has 1 to {most} rounds", most=ROUNDS_MAX)
        if not 10 <= asked.join_s <= 86400 or not 0 <= asked.round_every_s <= clocks.WEEK_S:
            raise RulesError("bad_schedule", "join_s is 10 to 86400 s, round_every_s 0 to a week")
        if len(asked.name) > 80:
            raise RulesError("name_too_long", "a name has at most {most} characters", most=80)
        now = time.time()
        start_at = now + 86400 if asked.start_at is None else asked.start_at
        if not now - 60 <= start_at <= now + 365 * 86400:
            raise RulesError("bad_start", "start_at is a time within the coming year")
        tournament_id = secrets.token_hex(8)
        opened = Opened(
            tournament_id, game.id, asked.kind, asked.seats, game.min_seats,
            0 if asked.kind == ELIMINATION else asked.rounds, game.setup(asked.seats, asked.options).options,
            start_at, asked.round_every_s, asked.join_s, host.id, now, asked.name, asked.clock or CLOCK,
        )  # fmt: skip
        await self.book.append(tournament_id, 0, [encode(opened)])
        await self.book.add(tournament_id, start_at)
        await self.book.due.set(tournament_id, start_at)
        log.info("tournament_created", tournament=tournament_id, game=game.id, kind=asked.kind, host=host.id)
        return await self.info(tournament_id)

    async def register(self, tournament_id: str, player: Player) -> TournamentInfo:
        if player.bot:
            raise Refused("forbidden", "bot_tournament", "a bot account plays through challenges, not tournaments")

        async def entries(tournament: Tournament) -> list[Entry]:
            if tournament.rounds or tournament.ended:
                raise Refused("conflict", "registration_closed", "this tournament has started")
            if player.id in tournament.ratings and player.id not in tournament.withdrawn:
                raise Refused("conflict", "registered_already", "this player is registered already")
            rating = (await self.ratings.of(player.id, [tournament.spec.game])).get(tournament.spec.game)
            return [Registered(player.id, rating.ordinal if rating else 0.0, time.time())]

        await self._append(tournament_id, entries)
        log.info("tournament_registered", tournament=tournament_id, player=player.id)
        return await self.info(tournament_id)

    async def withdraw(self, tournament_id: str, player: Player) -> TournamentInfo:
        """Out of the rounds to come (a table being played is played on, or conceded)."""

        async def entries(tournament: Tournament) -> list[Entry]:
            if player.id not in tournament.ratings or player.id in tournament.withdrawn:
                raise Refused("conflict", "not_registered", "this player is not registered in this tournament")
            if tournament.ended:
                raise Refused("conflict", "tournament_over", "this tournament is over")
            return [pure.Withdrew(player.id, time.time())]

        await self._append(tournament_id, entries)
        log.info("tournament_withdrawn", tournament=tournament_id, player=player.id)
        return await self.info(tournament_id)

    async def start(self, tournament_id: str, player: Player) -> TournamentInfo:
        """The host starts it now rather than at its start time."""
        tournament, _ = await self._read(tournament_id)
        if tournament.spec.host != player.id:
            raise Refused("forbidden", "not_host", "only the tournament's host starts it")
        if tournament.rounds or tournament.ended:
            raise Refused("conflict", "tournament_started", "this tournament has started")
        await self._look_again(tournament_id, await self.advance(tournament_id, time.time(), start=True))
        return await self.info(tournament_id)

    async def info(self, tournament_id: str) -> TournamentInfo:
        tournament, _ = await self._read(tournament_id)
        results = await self.live_results(tournament_id, tournament.ended)
        spec = tournament.spec
        names = await asyncio.gather(*(self.players.name(player) for player in tournament.ratings))
        return TournamentInfo(
            spec.tournament_id, spec.name, spec.game, spec.kind, spec.seats, spec.rounds, spec.options, spec.start_at,
            spec.round_every_s, spec.join_s, spec.host, tournament.status, list(tournament.ratings),
            tournament.withdrawn, pure.standings(tournament, results),
            [_round(round_, tournament, results) for round_ in tournament.rounds],
            {player: name or "" for player, name in zip(tournament.ratings, names, strict=True)},
        )  # fmt: skip

    async def page(self, offset: int, count: int) -> list[TournamentSummary]:
        shown = []
        for tournament_id in await self.book.page(offset, count):
            tournament, _ = await self._read(tournament_id)
            spec = tournament.spec
            summary = TournamentSummary(
                spec.tournament_id, spec.name, spec.game, spec.kind, spec.start_at, tournament.status,
                len(tournament.active()), len(tournament.rounds),
            )  # fmt: skip
            shown.append(summary)
        return shown

    async def live_results(self, tournament_id: str, ended: bool = False) -> dict[str, dict[str, int]]:
        """Each ended table's ranks; of a tournament that ``ended``, from the archive once it left Redis."""
        kept = await self.book.results(tournament_id)
        if not kept and ended and (archived := await self._from_archive(tournament_id)) is not None:
            return archived.results
        return {match_id: msgspec.json.decode(ranks, type=dict[str, int]) for match_id, ranks in kept.items()}

    async def rebuild(self, tournament_id: str) -> list[pure.StandingRow]:
        """The standings from the logs alone: the tournament's and each table's match's."""
        tournament, _ = await self._read(tournament_id)
        results = {}
        for round_ in tournament.rounds:
            for table in round_.tables:
                match = await self.matches.get(table.match_id) if table.match_id else None
                if match is None:
                    continue
                result = match.game.result((await self.folds.load(match)).state)
                if result is not None:
                    results[match.id] = ranks_of(match, result)
        return pure.standings(tournament, results)

    async def ended(self, match: Match, result: Result) -> None:
        """A match ended (the projector's call for each): if it is a tournament's table, its ranks
        recorded and the tournament due now. The sweepers advance it within a sweep, not the
        projector's step: a round's next tables (16 match creations for 32 players) would hold up
        the projection of every match in that step."""
        tournament_id = await self.book.of_match(match.id)
        if tournament_id is None:
            return
        await self.book.record(tournament_id, match.id, _encoder.encode(ranks_of(match, result)))
        log.info("tournament_table_ended", tournament=tournament_id, match_id=match.id)
        await self._look_again(tournament_id, time.time())

    async def sweep(self, now: float, batch: int = 20) -> int:
        """Advance the tournaments of this process's share that are due; how many were looked at."""
        due = await self.book.due.due(now, batch)
        for tournament_id in due:
            await self._look_again(tournament_id, await self.advance(tournament_id, now))
        return len(due)

    async def _look_again(self, tournament_id: str, at: float | None) -> None:
        """The sweepers look at the tournament next at ``at`` (None: never, it is over)."""
        if at is None:
            await self.book.due.drop(tournament_id)
        else:
            await self.book.due.set(tournament_id, at)

    async def advance(self, tournament_id: str, now: float, start: bool = False) -> float | None:
        """Whatever is due now: the first round, the no-shows, the next round, the end. When to look
        again (None: it is over)."""
        for _ in range(ATTEMPTS):
            tournament, length = await self._read(tournament_id)
            if tournament.ended:
                return await self._archived_by(tournament_id, tournament, now)
            spec = tournament.spec
            if not tournament.rounds and not start and now < spec.start_at:
                return spec.start_at
            entries = await self._no_shows(tournament, now) if tournament.rounds else []
            if entries:  # appended or not, read again: the round may be over now
                await self.book.append(tournament_id, length, [encode(entry) for entry in entries])
                continue
            results = await self.live_results(tournament_id)
            if tournament.rounds and not pure.round_over(tournament, results):
                seated_by = tournament.rounds[-1].at + spec.join_s  # then the no-shows are looked for
                return min(now + LOOK_AGAIN_S, seated_by) if now < seated_by else now + LOOK_AGAIN_S
            scheduled = spec.start_at + len(tournament.rounds) * spec.round_every_s
            if tournament.rounds and spec.round_every_s and now < scheduled:
                return scheduled
            planned = pure.plan(tournament, results)
            if planned is None:
                if await self.book.append(tournament_id, length, [encode(pure.Ended(now))]):
                    log.info("tournament_ended", tournament=tournament_id)
                    return None if self.archive is None else now + self.grace_s
                continue
            number = len(tournament.rounds) + 1
            tables = [Table(await self._table(tournament, players), players) for players in planned.tables]
            tables += [Table("", (bye,)) for bye in planned.byes]
            entry = RoundStarted(number, now, tuple(tables), planned.bracket)
            if await self.book.append(tournament_id, length, [encode(entry)]):
                log.info("tournament_round", tournament=tournament_id, round=number, tables=len(planned.tables))
                for table in tables:
                    for seat, player in enumerate(table.players if table.match_id else ()):
                        told = TournamentTable(tournament_id, number, table.match_id, spec.game, seat)
                        await self.events.push(player, encode_event(told))
                return now + min(LOOK_AGAIN_S, spec.join_s)
        raise Refused("conflict", "contention", "the tournament changed under every attempt; send it again")

    async def _table(self, tournament: Tournament, players: tuple[str, ...]) -> str:
        """A table's match: every seat kept for its player, who joins it (if the round is lost to
        another process, nobody is told of it: the lobby closes it as a match nobody came to)."""
        spec = tournament.spec
        created = await self.matches.create(
            spec.game, len(players), spec.options, [], open_seats=list(range(len(players))),
            clock=spec.clock, reserved=dict(enumerate(players)),
        )  # fmt: skip
        match = created.match
        await self.listings.add(match.id, spec.game, match.created, public=False)
        await self.book.table(match.id, spec.tournament_id)
        return match.id

    async def _no_shows(self, tournament: Tournament, now: float) -> list[Entry]:
        """The tables of the last round not started ``join_s`` after it: who did not come."""
        last = tournament.rounds[-1]
        if now < last.at + tournament.spec.join_s:
            return []
        entries: list[Entry] = []
        for table in last.tables:
            if not table.match_id or table.match_id in tournament.no_shows:
                continue
            match = await self.matches.get(table.match_id)
            if match is not None and match.lobby in ("started", ""):
                continue  # open still, or closed by the lobby as waiting too long: its seats are who came
            came = set(match.players.values()) if match is not None else set()
            absent = tuple(player for player in table.players if player not in came)
            entries.append(pure.NoShow(table.match_id, absent, now))
            entries += [
                pure.Withdrew(player, now, "no_show") for player in absent if player not in tournament.withdrawn
            ]
            log.info("tournament_no_show", tournament=tournament.spec.tournament_id, match_id=table.match_id)
        return entries

    async def _archived_by(self, tournament_id: str, tournament: Tournament, now: float) -> float | None:
        """A finished tournament ``grace_s`` after its end: its log and ranks written to the archive,
        read back whole, then taken out of Redis (None: it is, or stays, where it is for good;
        else when to look again)."""
        if self.archive is None:
            return None
        if now < tournament.ended_at + self.grace_s:
            return tournament.ended_at + self.grace_s
        entries = await self.book.log(tournament_id)
        if not entries:
            return None  # archived already: read from there
        results = await self.live_results(tournament_id)
        data = compress(_encoder.encode(ArchivedTournament([msgspec.Raw(entry) for entry in entries], results)))
        name = tournament_name(tournament_id)
        try:
            await self.archive.put(name, data)
            if await self.archive.get(name) != data:
                raise OSError(f"the archive gave back other bytes than written for {name}")
        except Exception:  # the archive away: the tournament stays in Redis until a later sweep
            log.exception("tournament_archive_failed", tournament=tournament_id)
            return now + ARCHIVE_RETRY_S
        await self.book.forget(tournament_id)
        log.info("tournament_archived", tournament=tournament_id, entries=len(entries), tables=len(results))
        return None

    async def _from_archive(self, tournament_id: str) -> ArchivedTournament | None:
        if self.archive is None:
            return None
        archived = self._archived.get(tournament_id)
        if archived is None:
            data = await self.archive.get(tournament_name(tournament_id))
            if data is None:
                return None
            archived = _archived_decoder.decode(decompress(data))
            if len(self._archived) >= ARCHIVED_KEPT:
                del self._archived[next(iter(self._archived))]
            self._archived[tournament_id] = archived
        return archived

    async def _read(self, tournament_id: str) -> tuple[Tournament, int]:
        raw: list[bytes] = await self.book.log(tournament_id)
        if not raw and (archived := await self._from_archive(tournament_id)) is not None:
            raw = [bytes(entry) for entry in archived.log]
        if not raw:
            raise Refused("not_found", "no_such_tournament", "no such tournament")
        return pure.fold(pure.ENTRY.decode(entry) for entry in raw), len(raw)

    async def _append(self, tournament_id: str, decide: Any) -> None:
        for _ in range(ATTEMPTS):
            tournament, length = await self._read(tournament_id)
            entries = await decide(tournament)
            if await self.book.append(tournament_id, length, [encode(entry) for entry in entries]):
                return
        raise Refused("conflict", "contention", "the tournament changed under every attempt; send it again")


def _round(round_: RoundStarted, tournament: Tournament, results: dict[str, dict[str, int]]) -> RoundInfo:
    tables = []
    for table in round_.tables:
        scored = pure.table_points(table, tournament, results)
        points = None if scored is None else [float(scored[player]) for player in table.players]
        tables.append(
            TableInfo(table.match_id, list(table.players), points, list(tournament.no_shows.get(table.match_id, ())))
        )
    return RoundInfo(round_.number, round_.at, tables)
