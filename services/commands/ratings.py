"""Ratings per game for registered players: a projection of the finished matches' logs.

A match counts if it is rated: finished, every seat a different registered player, no seat created
as a bot, not created unrated (a challenge's choice, docs/bots.md), competitive (co-operative and
solo matches are not rated). A seat handed to a bot later
(it left, or timed out too often) still counts with the rank its bot reached: leaving must not be a
way out of a loss; a conceded seat ranks last, and so does a forfeited one (the clock's
``forfeit`` is a concession: domain/kernel/online.py). The model is openskill's Plackett-Luce, which rates free-for-all
matches of any size; a leaderboard orders by the ordinal (mu - 3 sigma).

Each rated match moves its players' ratings once, in the order the matches are recorded (as they
are projected), at a cost that does not grow with the matches before it (services/store/ratings.py):
its outcome is computed from its players' ratings then, fixed once for the match, and applied to
each player; a player whose rating another match moved meanwhile has its own new rating computed
again from the one now kept (the others' as fixed). Recorded in the order they finished, which is
what one worker projecting them does, the ratings are those ``rebuild`` folds from the logs alone;
two matches of one player finishing together may count in either order (the ratings of a model
like this one depend a little on the order).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from openskill.models import PlackettLuce

from services.commands.folds import Folded
from services.commands.matches import Match
from services.ops import logs
from services.store.ratings import Applied, Outcome, Rated, Rating, RatingBook

log = logs.get("tavern.ratings")

_MODEL = PlackettLuce()


def rated(match: Match, folded: Folded) -> Rated | None:
    """The match as a rated one, or None if it does not count."""
    result = match.game.result(folded.state)
    seats = match.setup.seats
    if result is None or seats < 2 or match.bots or match.unrated or result.details.get("ended") == "abandoned":
        return None
    if match.setup.options.get("mode", "competitive") != "competitive":
        return None
    players = [player for seat in range(seats) if (player := match.players.get(seat)) is not None]
    if len(set(players)) != seats:  # a seat without a player, or one player in two seats
        return None
    rank = {standing.seat: standing.rank for standing in result.standings}
    return Rated(folded.last_time, match.id, [(players[seat], rank[seat]) for seat in range(seats)])


def fold(history: Iterable[Rated]) -> dict[str, Rating]:
    """The ratings after these matches, in the order given."""
    ratings: dict[str, Rating] = {}
    for match in history:
        apply(ratings, match)
    return ratings


def apply(ratings: dict[str, Rating], match: Rated) -> None:
    teams = []
    for player, _ in match.ranks:
        known = ratings.get(player)
        teams.append([_MODEL.rating(mu=known.mu, sigma=known.sigma) if known else _MODEL.rating()])
    after = _MODEL.rate(teams, ranks=[rank for _, rank in match.ranks])
    for (player, _), (new,) in zip(match.ranks, after, strict=True):
        played = ratings[player].matches if player in ratings else 0
        ratings[player] = Rating(new.mu, new.sigma, played + 1)


def order(history: Iterable[Rated]) -> list[Rated]:
    return sorted(history, key=lambda match: (match.finished, match.match_id))


class Ratings:
    def __init__(self, book: RatingBook) -> None:
        self.book = book

    async def record(self, game: str, match: Rated) -> bool:
        """Count one rated match (once: False if it was counted already)."""
        outcome = await self.book.outcome(game, match.match_id)
        if outcome is None:
            before = await self.book.current(game, [player for player, _ in match.ranks])
            after = dict(before)
            apply(after, match)
            outcome = await self.book.fix(game, Outcome(match, before, after))
        applied = [await self._apply(game, outcome, player) for player, _ in match.ranks]
        return Applied.APPLIED in applied

    async def _apply(self, game: str, outcome: Outcome, player: str) -> Applied:
        """The outcome applied to one player: from the rating it was computed from, else (another
        match moved it meanwhile) computed again from the rating kept now."""
        if player not in outcome.after:  # a migrated match's (``migrate``): counted in the table of before
            return Applied.COUNTED
        known = outcome.before.get(player)
        counted, after = (known.matches if known else 0), outcome.after[player]
        while (applied := await self.book.apply(game, outcome.rated.match_id, player, counted, after)) is Applied.MOVED:
            now = await self.book.current(game, [player])
            ratings = {**outcome.before, **now}
            apply(ratings, outcome.rated)
            counted, after = now[player].matches, ratings[player]
        return applied

    async def all(self, game: str) -> dict[str, Rating]:
        """Every player's rating in the game (reads every leaderboard partition: a check's, not a request's)."""
        return await self.book.current(game, await self.book.players(game))

    async def history(self, game: str) -> list[Rated]:
        return await self.book.history(game)

    async def of(self, player_id: str, games: Iterable[str]) -> dict[str, Rating]:
        return await self.book.of(player_id, games)

    async def leaderboard(self, game: str, limit: int) -> list[tuple[str, Rating]]:
        return await self.book.leaderboard(game, limit)

    async def migrate(self, games: Iterable[str]) -> None:
        """Ratings kept as one table per game (before this version) copied into the per-player
        keys, then the table deleted: at start-up, by every process (each copy writes the same)."""
        for game in games:
            legacy = await self.book.legacy(game)
            if legacy is None:
                continue
            history, ratings = legacy
            rated_by: dict[str, list[str]] = {}
            for match in history:  # the history alone: its players count it already (``put`` below)
                await self.book.fix(game, Outcome(match, {}, {}))
                for player, _ in match.ranks:
                    rated_by.setdefault(player, []).append(match.match_id)
            for player, rating in ratings.items():
                await self.book.put(game, player, rating, rated_by.get(player, []))
            await self.book.drop_legacy(game)
            log.info("ratings_migrated", game=game, matches=len(history), players=len(ratings))


async def rebuild(matches: Any, folds: Any, match_ids: Iterable[str], game: str) -> dict[str, Rating]:
    """The ratings of ``game`` from the logs of these matches alone (those not rated are left out)."""
    history = []
    for match_id in match_ids:
        match = await matches.get(match_id)
        if match is not None and match.game.id == game and (counted := rated(match, await folds.load(match))):
            history.append(counted)
    return fold(order(history))
