"""Ratings kept per player, each rated match costing the same whatever came before it:

- each player's ratings in a hash of its own (``keys.rating``: game -> JSON), hash-tagged by the
  player, with the set of rated matches already counted in them (``keys.rated_by``): rating.lua
  moves one player's rating by one match, once, and only from the rating the new one was computed
  from (else it answers "moved", and the caller computes it again);
- the history, append-only: each rated match's outcome (``Outcome``: the match, each player's
  rating before and after) written once (HSETNX) in the game's partition of its match id
  (``keys.rated``), so a redo, or a second worker, applies the outcome the first one fixed;
- the leaderboard, a zset per partition of player ids (``keys.leaderboard``, ascending by minus
  the ordinal), read as a merged page; leaderboard.lua lists only a newer rating than the one
  listed.

A match's writes touch its own partition, its players' keys and their leaderboard partitions:
none is shared by all of a game's matches, and none is read whole."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import Enum
from pathlib import Path
from typing import Any

import msgspec

from services.store import keys, resp
from services.store.connections import link_to
from services.store.event_store import Call, reply, run_scripts, script
from services.store.partitions import Partitions, page

_HERE = Path(__file__).parent


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


class Outcome(msgspec.Struct, frozen=True):
    """A rated match and what it does to its players' ratings, fixed by the first to compute it."""

    rated: Rated
    before: dict[str, Rating]  # the players who had a rating in the game
    after: dict[str, Rating]  # every player


class Applied(Enum):
    APPLIED = 1
    COUNTED = 0  # counted already
    MOVED = -1  # the player's rating moved since the new one was computed


class RatingBook:
    def __init__(self, redis: Any, partitions: Partitions, link: resp.Link | None = None) -> None:
        self.link = link or link_to(redis)
        self.partitions = partitions
        self._rating = redis.register_script(script(_HERE / "rating.lua"))
        self._listing = redis.register_script(script(_HERE / "leaderboard.lua"))

    async def outcome(self, game: str, match_id: str) -> Outcome | None:
        """The match's outcome, if one was fixed."""
        (raw,) = await self.link.exchange([["HGET", self.partitions.key(keys.rated(game), match_id), match_id]], True)
        return None if reply(raw) is None else msgspec.json.decode(raw, type=Outcome)

    async def fix(self, game: str, outcome: Outcome) -> Outcome:
        """Fix the match's outcome, unless one was fixed already: the one kept."""
        match_id = outcome.rated.match_id
        key = self.partitions.key(keys.rated(game), match_id)
        written, kept = await self.link.exchange(
            [["HSETNX", key, match_id, msgspec.json.encode(outcome)], ["HGET", key, match_id]]
        )
        reply(written)
        return msgspec.json.decode(reply(kept), type=Outcome)

    async def current(self, game: str, players: Sequence[str]) -> dict[str, Rating]:
        """The ratings these players have in the game now (those without one left out)."""
        if not players:
            return {}  # a link is never sent no command: a Wire would wait for a reply
        found = await self.link.exchange([["HGET", keys.rating(player), game] for player in players], True)
        return {
            player: msgspec.json.decode(raw, type=Rating)
            for player, raw in zip(players, found, strict=True)
            if reply(raw) is not None
        }

    async def apply(self, game: str, match_id: str, player: str, counted: int, after: Rating) -> Applied:
        """Move the player's rating to ``after`` for this match, if it still counts ``counted``
        matches (the one ``after`` was computed from); listed on the leaderboard when it moved."""
        args = [game, match_id, counted, msgspec.json.encode(after)]
        call = Call(self._rating, [keys.rating(player), keys.rated_by(player)], args)
        (answer,) = await run_scripts(self.link, [call])
        applied = Applied(int(reply(answer)))
        if applied is Applied.APPLIED:
            await self.place(game, player, after)
        return applied

    async def place(self, game: str, player: str, rating: Rating) -> None:
        """The player's place on the game's leaderboard, unless a newer rating is listed."""
        names = [self.partitions.key(family(game), player) for family in (keys.leaderboard, keys.leaderboard_played)]
        args = [player, repr(-rating.ordinal), rating.matches]
        (answer,) = await run_scripts(self.link, [Call(self._listing, names, args)])
        reply(answer)

    async def put(self, game: str, player: str, rating: Rating, match_ids: Sequence[str]) -> None:
        """Set the player's rating outright, counting these matches (a migration's)."""
        await self._checked([
            ["HSET", keys.rating(player), game, msgspec.json.encode(rating)],
            *([["SADD", keys.rated_by(player), *match_ids]] if match_ids else []),
        ])
        await self.place(game, player, rating)

    async def leaderboard(self, game: str, limit: int) -> list[tuple[str, Rating]]:
        """The best ``limit`` players by ordinal (ties by id): each partition's best, merged."""
        players = await page(self.link, self.partitions.keys(keys.leaderboard(game)), 0, limit)
        ratings = await self.current(game, players)
        return [(player, ratings[player]) for player in players if player in ratings]

    async def of(self, player_id: str, games: Iterable[str]) -> dict[str, Rating]:
        """The player's rating in each of these games it has one in."""
        games = list(games)
        (found,) = await self.link.exchange([["HMGET", keys.rating(player_id), *games]], True)
        return {
            game: msgspec.json.decode(raw, type=Rating) for game, raw in zip(games, reply(found), strict=True) if raw
        }

    async def players(self, game: str) -> list[str]:
        """Every player rated in the game (a migration's or a check's: reads every partition whole)."""
        names = self.partitions.keys(keys.leaderboard(game))
        found = await self.link.exchange([["ZRANGE", name, 0, -1] for name in names], True)
        return sorted(raw.decode() for listed in found for raw in reply(listed))

    async def history(self, game: str) -> list[Rated]:
        """The game's rated matches in the order they finished (reads every partition whole)."""
        found = await self.link.exchange([["HVALS", key] for key in self.partitions.keys(keys.rated(game))], True)
        rated = [msgspec.json.decode(raw, type=Outcome).rated for values in found for raw in reply(values)]
        return sorted(rated, key=lambda match: (match.finished, match.match_id))

    async def legacy(self, game: str) -> tuple[list[Rated], dict[str, Rating]] | None:
        """The game's ratings as kept before per player (``keys.legacy_ratings``), if still there."""
        (fields,) = await self.link.exchange([["HGETALL", keys.legacy_ratings(game)]], True)
        table = reply(fields)  # flat from a Redis (RESP2), a dict from the embedded fakeredis
        if not table:
            return None
        if isinstance(table, list):
            table = dict(zip(table[::2], table[1::2], strict=True))
        history = msgspec.json.decode(table.get(b"history", b"[]"), type=list[Rated])
        ratings = {
            name.decode().removeprefix("player:"): msgspec.json.decode(value, type=Rating)
            for name, value in table.items()
            if name.startswith(b"player:")
        }
        return history, ratings

    async def drop_legacy(self, game: str) -> None:
        await self._checked([["DEL", keys.legacy_ratings(game)]])

    async def _checked(self, commands: list[list[Any]]) -> None:
        for answer in await self.link.exchange(commands):
            reply(answer)

