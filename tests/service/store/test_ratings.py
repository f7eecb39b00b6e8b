"""Ratings per player (services/store/ratings.py, services/commands/ratings.py), on each backend:
a rated match moves each of its players' ratings once (recorded twice, nothing changes), the
leaderboard is the players by ordinal then id across its partitions, the history every rated
match in the order they finished, a rating moved by another match meanwhile is computed again
from the one kept; the ratings kept as one table per game are migrated; and a rated match costs
the same Redis calls and bytes after 10 as after 1,000 earlier rated matches."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from services.commands.ratings import Ratings, apply, fold
from services.store import keys, resp
from services.store.connections import link_to
from services.store.ratings import Applied, Rated, Rating, RatingBook
from tests.service.store.direct import events_of
from tests.service.store.partitioned import PARTITIONS

pytestmark = pytest.mark.anyio


def ratings_on(backend, link: resp.Link | None = None) -> Ratings:
    return Ratings(RatingBook(backend.events, PARTITIONS, link))


def match(n: int, *players: str, at: float | None = None) -> Rated:
    ranks = [(player, rank) for rank, player in enumerate(players, 1)]
    return Rated(float(n) if at is None else at, f"m{n:05d}", ranks)


async def test_nothing_rated_reads_empty(backend):
    ratings = ratings_on(backend)
    assert await ratings.history("g") == []
    assert await ratings.all("g") == {}
    assert await ratings.of("ann", ["g", "h"]) == {}
    assert await ratings.leaderboard("g", 10) == []


async def test_rated_matches_move_their_players_ratings_as_the_fold_does(backend):
    ratings, played = ratings_on(backend), [match(1, "ann", "bo"), match(2, "bo", "cy", "ann"), match(3, "cy", "ann")]
    for rated in played:
        assert await ratings.record("g", rated) is True
    assert await ratings.history("g") == played
    assert await ratings.all("g") == fold(played)
    assert await ratings.of("ann", ["g", "other"]) == {"g": fold(played)["ann"]}
    stored = msgspec.json.decode(events_of(backend).hget(keys.rating("ann"), "g"))
    assert set(stored) == {"mu", "sigma", "matches"} and stored["matches"] == 3


async def test_a_match_recorded_twice_counts_once(backend):
    ratings, first = ratings_on(backend), match(1, "ann", "bo")
    assert await ratings.record("g", first) is True
    assert await ratings.record("g", first) is False
    await ratings.record("g", match(2, "bo", "ann"))
    assert await ratings.record("g", first) is False  # a late redo, after another match: still nothing
    assert await ratings.all("g") == fold([first, match(2, "bo", "ann")])
    assert [rated.match_id for rated in await ratings.history("g")] == ["m00001", "m00002"]


async def test_the_leaderboard_is_by_ordinal_then_id_across_partitions(backend):
    ratings = ratings_on(backend)
    players = [f"p{n:02d}" for n in range(12)]
    for n in range(0, 12, 2):
        await ratings.record("g", match(n, players[n], players[n + 1]))
    everyone = await ratings.all("g")
    best = sorted(everyone.items(), key=lambda item: (-item[1].ordinal, item[0]))
    assert len({PARTITIONS.of(player) for player in players}) > 1
    assert await ratings.leaderboard("g", 5) == best[:5]
    assert await ratings.leaderboard("g", 50) == best
    assert await ratings.leaderboard("h", 5) == []  # games apart


async def test_a_rating_moved_meanwhile_is_computed_again_from_the_one_kept(backend):
    """Two workers: one fixed a match's outcome, the other counted another match of a player before it applied."""
    book = RatingBook(backend.events, PARTITIONS)
    ratings = Ratings(book)
    first, second = match(1, "ann", "bo"), match(2, "ann", "cy")
    await ratings.record("g", first)
    before = await book.current("g", ["ann", "cy"])
    moved_ann = Rating(30.0, 5.0, before["ann"].matches)
    assert await book.apply("g", "elsewhere", "ann", before["ann"].matches, moved_ann) is Applied.APPLIED
    assert await book.apply("g", "elsewhere", "ann", moved_ann.matches, moved_ann) is Applied.COUNTED
    assert await ratings.record("g", second) is True
    expected = {"ann": moved_ann, "cy": Rating(25.0, 25.0 / 3, 0)}  # cy as before: none, openskill's default
    apply(expected, second)
    now = await book.current("g", ["ann", "cy"])
    assert now["ann"] == Rating(expected["ann"].mu, expected["ann"].sigma, moved_ann.matches + 1)


async def test_a_game_table_of_before_is_migrated_once(backend):
    played = [match(1, "ann", "bo"), match(2, "bo", "cy")]
    table = {f"player:{player}": msgspec.json.encode(rating) for player, rating in fold(played).items()}
    events_of(backend).hset(keys.legacy_ratings("g"), mapping={**table, "history": msgspec.json.encode(played)})
    ratings = ratings_on(backend)
    await ratings.migrate(["g", "h"])
    assert await ratings.all("g") == fold(played)
    assert await ratings.history("g") == played
    assert events_of(backend).exists(keys.legacy_ratings("g")) == 0
    assert await ratings.record("g", played[0]) is False  # counted before the migration: still counted
    await ratings.migrate(["g"])  # nothing left to migrate
    assert await ratings.all("g") == fold(played)


class Counting:
    """A link that counts the commands sent through it and their bytes, both ways (RESP)."""

    def __init__(self, link: resp.Link) -> None:
        self.link = link
        self.calls = self.sent = self.received = 0

    async def exchange(self, commands: list[list[Any]], reads: bool = False) -> list[Any]:
        self.calls += len(commands)
        self.sent += len(resp.pack(commands))
        answers = await self.link.exchange(commands, reads)
        self.received += sum(_size(answer) for answer in answers)
        return answers

    def close(self) -> None:
        pass


def _size(answer: Any) -> int:
    """The reply's bytes as RESP2 carries them (near enough: its bulk strings and arrays)."""
    if isinstance(answer, list | tuple):
        return 8 + sum(map(_size, answer))
    return 8 + len(answer if isinstance(answer, bytes) else str(answer).encode())


async def cost_after(backend, game: str, earlier: int) -> tuple[int, int]:
    """Calls and bytes of one rated match of two players after ``earlier`` rated matches among 50."""
    ratings = ratings_on(backend)
    players = [f"p{n:02d}" for n in range(50)]
    for n in range(earlier):
        await ratings.record(game, match(n, players[n % 50], players[(n * 7 + 1) % 50], at=1.0 + n))
    counting = Counting(link_to(backend.events))
    await ratings_on(backend, counting).record(game, match(99_999 - earlier, "p00", "p01", at=1e9))
    return counting.calls, counting.sent + counting.received


async def test_a_rated_match_costs_the_same_after_10_as_after_1000_earlier(backend):
    calls_10, bytes_10 = await cost_after(backend, "ten", 10)
    calls_1000, bytes_1000 = await cost_after(backend, "thousand", 1000)
    print(f"\n{backend.kind}, a rated match: after 10, {calls_10} calls {bytes_10} B;", end=" ")
    print(f"after 1000, {calls_1000} calls {bytes_1000} B")
    assert calls_10 == calls_1000
    assert abs(bytes_10 - bytes_1000) <= 0.05 * bytes_10  # the digits of its players' match counts
