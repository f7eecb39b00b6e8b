"""Tournaments, pure: the tournament's own log (registrations, withdrawals, rounds, no-shows), the
pairings of the next round, and the standings, a projection of the tables' results (docs/tournaments.md).

Everything here is a function of the log and of the results of the tables' matches (each player's
rank at its table, read from the match's own log), so the standings rebuilt from the logs are the
live ones. Ratings are those at registration, written into the log: a rating moved by a match of the
tournament does not change a later pairing's input.

Scoring: at a table of n seats a player scores, against each other seat, 1 if ranked better, 1/2 if
tied, 0 if worse, the sum divided by n - 1 (at two seats: 1, 1/2, 0). A bye, or a table whose
match never started because another seat did not come (a no-show), scores 1 to whoever came and 0
to whoever did not.

Tie-breaks, in order: Buchholz, and at tables of more than two seats its analogue, the sum over the
tables played of the mean final score of the others at that table (at two seats, the opponent's
score: Buchholz itself; a bye or a forfeit adds nothing); then the tables won (ranked first,
shared or not); then the rating at registration; then the player id. An elimination orders first by
how far a player got.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

import msgspec

SWISS = "swiss"
ELIMINATION = "elimination"
KINDS = (SWISS, ELIMINATION)
PAIRING_BUDGET = 20_000  # backtracking steps before a round accepts repeat pairings (never hit at 32 x 5)


class Opened(msgspec.Struct, frozen=True, tag="opened"):
    tournament_id: str
    game: str
    kind: str  # swiss or elimination
    seats: int  # per table
    min_seats: int  # the game's fewest: a smaller table is not dealt, its players get byes
    rounds: int  # swiss: how many; elimination: as many as the bracket needs (this is 0)
    options: dict[str, Any]  # the matches' game options
    start_at: float  # unix seconds: round 1 starts then (or earlier, by its host)
    round_every_s: (
        float  # 0: a round starts when the last table of the one before ends; else not before start + n x this
    )
    join_s: float  # a seat not taken this long after its round started is a no-show
    host: str
    created: float
    name: str = ""
    clock: dict[str, Any] | None = None  # the matches' clock (services/commands/clocks.py)


class Registered(msgspec.Struct, frozen=True, tag="registered"):
    player: str
    rating: float  # the player's ordinal in the game when it registered (0 for none)
    at: float


class Withdrew(msgspec.Struct, frozen=True, tag="withdrew"):
    player: str
    at: float
    why: str = "withdrew"  # or "no_show": it did not come to its table


class Table(msgspec.Struct, frozen=True):
    match_id: str  # "" for a bye (one player, no match)
    players: tuple[str, ...]  # in seat order


class RoundStarted(msgspec.Struct, frozen=True, tag="round"):
    number: int  # 1, 2, ...
    at: float
    tables: tuple[Table, ...]
    bracket: tuple[str, ...] = ()  # elimination: this round's entrants in bracket order ("" for nobody)


class NoShow(msgspec.Struct, frozen=True, tag="no_show"):
    match_id: str
    absent: tuple[str, ...]
    at: float


class Ended(msgspec.Struct, frozen=True, tag="ended"):
    at: float


Entry = Opened | Registered | Withdrew | RoundStarted | NoShow | Ended
ENTRY = msgspec.json.Decoder(Entry)


class Tournament(msgspec.Struct):
    """The fold of a tournament's log."""

    spec: Opened
    ratings: dict[str, float]  # registered players (withdrawn or not), in order of registration
    withdrawn: dict[str, str]  # player -> why
    rounds: list[RoundStarted]
    no_shows: dict[str, tuple[str, ...]]  # match id -> the players who did not come
    ended: bool = False
    ended_at: float = 0.0  # when it ended (unix s)

    @property
    def status(self) -> str:
        return "finished" if self.ended else "running" if self.rounds else "registering"

    def active(self) -> list[str]:
        return [player for player in self.ratings if player not in self.withdrawn]


def fold(entries: Iterable[Entry]) -> Tournament:
    found = iter(entries)
    spec = next(found)
    assert isinstance(spec, Opened), "a tournament's log opens with its spec"
    tournament = Tournament(spec, {}, {}, [], {})
    for entry in found:
        if isinstance(entry, Registered):
            tournament.ratings[entry.player] = entry.rating
            tournament.withdrawn.pop(entry.player, None)  # registered again before the start
        elif isinstance(entry, Withdrew):
            tournament.withdrawn[entry.player] = entry.why
        elif isinstance(entry, RoundStarted):
            tournament.rounds.append(entry)
        elif isinstance(entry, NoShow):
            tournament.no_shows[entry.match_id] = entry.absent
        elif isinstance(entry, Ended):
            tournament.ended, tournament.ended_at = True, entry.at
    return tournament


Results = Mapping[str, Mapping[str, int]]  # match id -> player -> rank at its table (1 best)


def table_points(table: Table, tournament: Tournament, results: Results) -> dict[str, Fraction] | None:
    """Each player's score at the table; None while it is being played."""
    if not table.match_id:
        return {table.players[0]: Fraction(1)}
    absent = tournament.no_shows.get(table.match_id)
    if absent is not None:
        return {player: Fraction(0 if player in absent else 1) for player in table.players}
    ranks = results.get(table.match_id)
    if ranks is None:
        return None
    others = len(table.players) - 1
    return {player: _against(player, table.players, ranks) / others for player in table.players}


def _against(player: str, players: tuple[str, ...], ranks: Mapping[str, int]) -> Fraction:
    """1 for each other seat ranked worse, 1/2 for each tied."""
    better = sum(ranks[player] < ranks[other] for other in players)
    tied = sum(ranks[player] == ranks[other] for other in players if other != player)
    return Fraction(2 * better + tied, 2)


def round_over(tournament: Tournament, results: Results) -> bool:
    last = tournament.rounds[-1] if tournament.rounds else None
    return last is not None and all(table_points(table, tournament, results) is not None for table in last.tables)


class StandingRow(msgspec.Struct):
    rank: int
    player_id: str
    points: float
    buchholz: float  # its multi-player analogue at tables of more than two seats (the module's docstring)
    wins: int  # tables ranked first at
    played: int  # tables played (byes and forfeits not counted)
    byes: int  # byes and forfeit wins
    rating: float  # at registration
    reached: int  # the last round it was in
    withdrawn: bool


def standings(tournament: Tournament, results: Results) -> list[StandingRow]:
    """Every registered player, best first (finished tables only)."""
    points = {player: Fraction(0) for player in tournament.ratings}
    met: dict[str, list[list[str]]] = {player: [] for player in tournament.ratings}  # the others, per table played
    wins = dict.fromkeys(tournament.ratings, 0)
    byes = dict.fromkeys(tournament.ratings, 0)
    reached = dict.fromkeys(tournament.ratings, 0)
    for round_ in tournament.rounds:
        for table in round_.tables:
            for player in table.players:
                reached[player] = round_.number
            scored = table_points(table, tournament, results)
            if scored is None:
                continue
            for player, score in scored.items():
                points[player] += score
            if not table.match_id or table.match_id in tournament.no_shows:
                for player, score in scored.items():
                    byes[player] += score == 1
                continue
            ranks = results[table.match_id]
            for player in table.players:
                met[player].append([other for other in table.players if other != player])
                wins[player] += ranks[player] == 1
    if tournament.spec.kind == ELIMINATION and tournament.ended and tournament.rounds:
        for player in champions(tournament, results):
            reached[player] += 1  # won the final
    buchholz = {
        player: sum((sum((points[o] for o in others), Fraction(0)) / len(others) for others in tables), Fraction(0))
        for player, tables in met.items()
    }

    def key(player: str) -> tuple:
        by = (-points[player], -buchholz[player], -wins[player], -tournament.ratings[player], player)
        return (-reached[player], *by) if tournament.spec.kind == ELIMINATION else by

    ordered = sorted(tournament.ratings, key=key)
    return [
        StandingRow(n + 1, player, float(points[player]), float(buchholz[player]), wins[player], len(met[player]),
            byes[player], tournament.ratings[player], reached[player], player in tournament.withdrawn)
        for n, player in enumerate(ordered)
    ]  # fmt: skip


# Pairing


def _order(players: Iterable[str], points: Mapping[str, Fraction], ratings: Mapping[str, float]) -> list[str]:
    """Best first: by score, then rating, then id."""
    return sorted(players, key=lambda player: (-points.get(player, Fraction(0)), -ratings[player], player))


def met_pairs(tournament: Tournament) -> set[frozenset[str]]:
    """Every two players who shared a table (a match, not a bye)."""
    pairs = set()
    for round_ in tournament.rounds:
        for table in round_.tables:
            if table.match_id:
                pairs |= {frozenset((a, b)) for a in table.players for b in table.players if a != b}
    return pairs


def had_bye(tournament: Tournament) -> set[str]:
    return {table.players[0] for r in tournament.rounds for table in r.tables if not table.match_id}


def pair_two(
    order: Sequence[str], met: set[frozenset[str]], bye_had: set[str]
) -> tuple[list[tuple[str, str]], str | None]:
    """Two-seat Swiss pairings of players ``order``ed best first: each plays the next in order it has
    not met (backtracking down the order), the bye to the lowest who has had none; repeats only
    where no pairing without them exists (or the search's budget ran out)."""
    candidates: list[str | None] = [None]
    if len(order) % 2:
        candidates = [p for p in reversed(order) if p not in bye_had] or [order[-1]]
    for bye in candidates:
        rest = [p for p in order if p != bye]
        budget = [PAIRING_BUDGET]
        pairs = _pairs(rest, met, budget)
        if pairs is not None:
            return pairs, bye
    bye = candidates[0]
    rest = [p for p in order if p != bye]
    return [(rest[i], rest[i + 1]) for i in range(0, len(rest), 2)], bye


def _pairs(order: list[str], met: set[frozenset[str]], budget: list[int]) -> list[tuple[str, str]] | None:
    if not order:
        return []
    first, rest = order[0], order[1:]
    for i, other in enumerate(rest):
        budget[0] -= 1
        if budget[0] < 0:
            return None
        if frozenset((first, other)) in met:
            continue
        tail = _pairs(rest[:i] + rest[i + 1 :], met, budget)
        if tail is not None:
            return [(first, other), *tail]
    return None


def table_sizes(count: int, seats: int, least: int) -> tuple[list[int], int]:
    """Tables of ``seats`` (some one or more smaller, never under ``least``) for ``count`` players,
    as few byes as that allows: the sizes and the number of byes."""
    for byes in range(count + 1):
        playing = count - byes
        tables = -(-playing // seats)
        if tables and playing // tables >= least:
            base, extra = divmod(playing, tables)
            return [base + 1] * extra + [base] * (tables - extra), byes
    return [], count


def group_tables(
    order: Sequence[str], seats: int, least: int, met: set[frozenset[str]], bye_had: set[str]
) -> tuple[list[list[str]], list[str]]:
    """Multi-seat Swiss tables of players ``order``ed best first, grouped by score: the byes to the
    lowest who have had none; each table filled, down the order, with players who have met none of
    those at it yet, else the next ones."""
    sizes, bye_count = table_sizes(len(order), seats, least)
    fresh = [p for p in reversed(order) if p not in bye_had]
    byes = (fresh + [p for p in reversed(order) if p in bye_had])[:bye_count]
    left = [p for p in order if p not in byes]
    tables = []
    for size in sizes:
        table = [left.pop(0)]
        while len(table) < size:
            new = next((p for p in left if all(frozenset((p, q)) not in met for q in table)), left[0])
            left.remove(new)
            table.append(new)
        tables.append(table)
    return tables, byes


def seat_order(players: Sequence[str], tournament: Tournament) -> tuple[str, ...]:
    """A table's players in seat order, the early seats to those who had them least. Seat 0 plays
    first in most of the games (Taverna's first player, Tavern Masters' first Server), and pairing
    lists the better ranked first: as a Swiss alternates colours, each player's early and late
    seats are kept even instead. A player's lean is, over its tables played, +1 for a first seat, -1
    for a last, between for the others; the least lean sits first; at equal leans, the one seated
    later at its last table; then the order given (round one's: by rating)."""
    lean: dict[str, float] = dict.fromkeys(players, 0.0)
    last: dict[str, float] = dict.fromkeys(players, 0.5)  # where at its last table: 0 first .. 1 last
    for round_ in tournament.rounds:
        for table in round_.tables:
            if not table.match_id or len(table.players) < 2:
                continue  # a bye: no seat
            for index, player in enumerate(table.players):
                if player in lean:
                    at = index / (len(table.players) - 1)
                    lean[player] += 1 - 2 * at
                    last[player] = at
    given = {player: index for index, player in enumerate(players)}
    return tuple(sorted(players, key=lambda player: (lean[player], -last[player], given[player])))


def bracket_positions(size: int) -> list[int]:
    """Seed numbers (0-based) in bracket order for a bracket of ``size`` (a power of two): seeds 1
    and 2 meet in the final at the earliest, 1 plays the last, and so on."""
    order = [0]
    while len(order) < size:
        span = 2 * len(order)
        order = [seed for first in order for seed in (first, span - 1 - first)]
    return order


def champions(tournament: Tournament, results: Results) -> list[str]:
    last = tournament.rounds[-1]
    return [winner for winner in _advancing(last, tournament, results) if winner]


def _advancing(round_: RoundStarted, tournament: Tournament, results: Results) -> list[str]:
    """Of each pair of the bracket, who goes on ("" for nobody): a table's winner (a tie: the
    higher seed, first in the bracket), a bye's player; nobody from a table nobody came to."""
    on = []
    for i in range(0, len(round_.bracket), 2):
        pair = [p for p in round_.bracket[i : i + 2] if p]  # in bracket order: the higher seed first
        table = next((t for t in round_.tables if pair and t.players[0] in pair), None)
        if table is None:
            on.append("")
            continue
        scored = table_points(table, tournament, results)
        assert scored is not None, "only a round over is advanced from"
        best = max(scored.values())
        on.append("" if best == 0 else next(p for p in pair if scored[p] == best))  # a tie: the higher seed
    return on


class Plan(msgspec.Struct, frozen=True):
    """The next round: its tables (players in seat order; their matches yet to be made) and byes."""

    tables: Sequence[tuple[str, ...]]
    byes: list[str]
    bracket: tuple[str, ...] = ()  # elimination: the round's entrants in bracket order ("" for nobody)


def plan(tournament: Tournament, results: Results) -> Plan | None:
    """The next round, once the last is over (``round_over``); None: the tournament is over."""
    if tournament.spec.kind == ELIMINATION:
        return _elimination(tournament, results)
    spec, active = tournament.spec, tournament.active()
    if len(tournament.rounds) >= spec.rounds or len(active) < 2:
        return None
    points = {row.player_id: Fraction(row.points).limit_denominator(1000) for row in standings(tournament, results)}
    order = _order(active, points, tournament.ratings)
    met, bye_had = met_pairs(tournament), had_bye(tournament)
    if spec.seats == 2:
        pairs, bye = pair_two(order, met, bye_had)
        return Plan([seat_order(pair, tournament) for pair in pairs], [bye] if bye else [])
    tables, byes = group_tables(order, spec.seats, spec.min_seats, met, bye_had)
    return Plan([seat_order(table, tournament) for table in tables], byes)


def _elimination(tournament: Tournament, results: Results) -> Plan | None:
    if tournament.rounds:
        going = _advancing(tournament.rounds[-1], tournament, results)
        bracket = tuple("" if p in tournament.withdrawn else p for p in going)
    else:
        active = tournament.active()
        size = 1
        while size < len(active):
            size *= 2
        seeded = _order(active, {}, tournament.ratings)
        bracket = tuple(seeded[s] if s < len(seeded) else "" for s in bracket_positions(size))
    if len(bracket) < 2 or sum(map(bool, bracket)) < 2:
        return None
    tables: list[tuple[str, ...]] = []
    byes: list[str] = []
    for i in range(0, len(bracket), 2):
        pair = tuple(p for p in bracket[i : i + 2] if p)
        if len(pair) == 2:
            tables.append(seat_order(pair, tournament))
        elif pair:
            byes.append(pair[0])
    return Plan(tables, byes, bracket)
