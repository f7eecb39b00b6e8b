"""Ratings per game for registered players: a projection of the finished matches' logs.

A match counts if it is rated: finished, every seat a different registered player, no seat created
as a bot, competitive (co-operative and solo matches are not rated). A seat handed to a bot later
(it left, or timed out too often) still counts with the rank its bot reached: leaving must not be a
way out of a loss; a conceded seat ranks last, and so does a forfeited one (the clock's
``forfeit`` is a concession: domain/kernel/online.py). The model is openskill's Plackett-Luce, which rates free-for-all
matches of any size; a leaderboard orders by the ordinal (mu - 3 sigma).

The ratings are a pure function of the rated matches in the order they finished (time of their
last entry, then id), so ``rebuild`` from the logs alone gives what ``record`` kept step by step;
a match that finished before one already counted (two workers, a late projection) makes ``record``
fold the whole list again rather than apply it out of order.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec
from openskill.models import PlackettLuce
from redis.exceptions import WatchError

from services.commands.folds import Folded
from services.commands.matches import Match

_MODEL = PlackettLuce()


class Rated(msgspec.Struct, frozen=True):
    """One rated match as the ratings need it: when it finished and each player's rank."""

    finished: float
    match_id: str
    ranks: list[tuple[str, int]]  # (player id, rank) per seat


class Rating(msgspec.Struct):
    mu: float
    sigma: float
    matches: int

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


def _key(game: str) -> str:
    return f"ratings:{{{game}}}"  # hash: "history" (the rated matches, in order) and "player:ID" -> Rating


def rated(match: Match, folded: Folded) -> Rated | None:
    """The match as a rated one, or None if it does not count."""
    result = match.game.result(folded.state)
    seats = match.setup.seats
    if result is None or seats < 2 or match.bots or result.details.get("ended") == "abandoned":
        return None
    if match.setup.options.get("mode", "competitive") != "competitive":
        return None
    players = [match.players.get(seat) for seat in range(seats)]
    if None in players or len(set(players)) != seats:
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
    def __init__(self, redis: Any) -> None:
        self.redis = redis

    async def record(self, game: str, match: Rated) -> bool:
        """Count one rated match (once: False if it was counted already)."""
        key = _key(game)
        async with self.redis.pipeline(transaction=True) as pipe:
            while True:
                try:
                    await pipe.watch(key)
                    history = _history(await pipe.hget(key, "history"))
                    if any(known.match_id == match.match_id for known in history):
                        return False
                    ratings = await self.all(game, pipe)
                    if history and (match.finished, match.match_id) < (history[-1].finished, history[-1].match_id):
                        history = order([*history, match])
                        ratings = fold(history)
                    else:
                        history.append(match)
                        apply(ratings, match)
                    pipe.multi()
                    pipe.hset(key, mapping=_fields(history, ratings))
                    await pipe.execute()
                    return True
                except WatchError:
                    continue

    async def all(self, game: str, client: Any = None) -> dict[str, Rating]:
        fields = await (client or self.redis).hgetall(_key(game))
        return {
            name.decode().removeprefix("player:"): msgspec.json.decode(value, type=Rating)
            for name, value in fields.items()
            if name.startswith(b"player:")
        }

    async def history(self, game: str) -> list[Rated]:
        return _history(await self.redis.hget(_key(game), "history"))

    async def of(self, player_id: str, games: Iterable[str]) -> dict[str, Rating]:
        found = {}
        for game in games:
            raw = await self.redis.hget(_key(game), f"player:{player_id}")
            if raw is not None:
                found[game] = msgspec.json.decode(raw, type=Rating)
        return found

    async def leaderboard(self, game: str, limit: int) -> list[tuple[str, Rating]]:
        ratings = await self.all(game)
        return sorted(ratings.items(), key=lambda item: (-item[1].ordinal, item[0]))[:limit]


async def rebuild(matches: Any, folds: Any, match_ids: Iterable[str], game: str) -> dict[str, Rating]:
    """The ratings of ``game`` from the logs of these matches alone (those not rated are left out)."""
    history = []
    for match_id in match_ids:
        match = await matches.get(match_id)
        if match is not None and match.game.id == game and (counted := rated(match, await folds.load(match))):
            history.append(counted)
    return fold(order(history))


def _history(raw: bytes | None) -> list[Rated]:
    return [] if raw is None else msgspec.json.decode(raw, type=list[Rated])


def _fields(history: list[Rated], ratings: dict[str, Rating]) -> dict[str, bytes]:
    fields = {f"player:{player}": msgspec.json.encode(rating) for player, rating in ratings.items()}
    fields["history"] = msgspec.json.encode(history)
    return fields

