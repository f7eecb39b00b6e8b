"""The data lifecycle's lists on the events' Redis (services/projector/archiver.py), each split
into partitions by match id (services/store/partitions.py), of which each archiver sweeps its
share: the matches still being played, per game by the time of their newest event (the sizes
summed are the game's active count; the idle ones are ended as abandoned), and the finished ones
by when (archived and evicted after a grace). A match being played that hibernates is listed apart
while it sleeps (``keys.asleep``, services/commands/hibernation.py), still counted and still ended
as abandoned once idle past the limit; that list is split further, into ``asleep_buckets`` per
partition (``keys.asleep``), so that each stays small enough for Redis to keep compact, whatever
the number of sleeping matches the deployment is sized for. A match leaving play gives its
creators' open-matches quota slots back in the same write."""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from services.store import keys, resp
from services.store.connections import link_to
from services.store.event_store import reply
from services.store.partitions import Partitions, Shares, earliest


@dataclass(frozen=True, slots=True)
class Played:
    """A match still being played, as of its newest event."""

    game_id: str
    match_id: str
    at: float  # the time of its newest event (unix s)


@dataclass(frozen=True, slots=True)
class Ended:
    """A match first projected with a result."""

    game_id: str
    match_id: str
    quota: Sequence[str]  # its creators' quota holders, whose slots it gives back


class Lifecycle:
    def __init__(
        self, redis: Any, partitions: Partitions, shares: Shares, asleep_buckets: int, link: resp.Link | None = None
    ) -> None:
        self.link = link or link_to(redis)  # the projector's listings: the hot path's connection
        self.partitions = partitions
        self.shares = shares  # the archivers'
        self.asleep_buckets = asleep_buckets  # TAVERN_ASLEEP_BUCKETS

    def _live(self, game_id: str, match_id: str) -> str:
        return self.partitions.key(keys.live(game_id), match_id)

    def _asleep(self, game_id: str, match_id: str) -> str:
        bucket = self.partitions.bucket(match_id, self.asleep_buckets)
        return self.partitions.key(keys.asleep(game_id, bucket), match_id)

    def asleep_lists(self, game_id: str, held: list[int] | None = None) -> list[str]:
        """The game's asleep lists in these partitions (None: all), every bucket of each."""
        families = [keys.asleep(game_id, bucket) for bucket in range(self.asleep_buckets)]
        return [name for family in families for name in self.partitions.keys(family, held)]

    def _finished(self, match_id: str) -> str:
        return self.partitions.key(keys.FINISHED, match_id)

    def listing(self, played: Sequence[Played]) -> list[list[Any]]:
        """The commands that list ``played``, to ride in the views' write (view_writes.py)."""
        return [["ZADD", self._live(match.game_id, match.match_id), repr(match.at), match.match_id] for match in played]

    async def finish(self, ended: Sequence[Ended], now: float | None = None) -> list[bool]:
        """List each match as finished (once: a redo does not list it again) and give its quota
        slots back; for each, whether it was listed just now."""
        now = time.time() if now is None else now
        commands: list[list[Any]] = []
        for match in ended:
            commands.append(["ZREM", self._live(match.game_id, match.match_id), match.match_id])
            commands.append(["ZREM", self._asleep(match.game_id, match.match_id), match.match_id])
            commands.append(["ZADD", self._finished(match.match_id), "NX", repr(now), match.match_id])
            commands += _give_back(match.match_id, match.quota)
        answers = iter(await self._run(commands))
        listed = []
        for match in ended:
            _, _, added, *_ = (next(answers) for _ in range(3 + len(match.quota)))
            listed.append(bool(added))
        return listed

    async def idle(self, game_id: str, since: float, count: int) -> list[str]:
        """Up to ``count`` of the game's matches in this process's share with no event since
        ``since``, hibernated ones too (to be ended as abandoned)."""
        held = await self.shares.held()
        names = [*self.partitions.keys(keys.live(game_id), held), *self.asleep_lists(game_id, held)]
        return await earliest(self.link, names, since, count)

    async def drowsy(self, game_id: str, since: float, count: int, shares: Shares) -> list[str]:
        """Up to ``count`` of the game's awake matches in the share ``shares`` gives this process
        with no event since ``since`` (to hibernate)."""
        return await earliest(self.link, self.partitions.keys(keys.live(game_id), await shares.held()), since, count)

    async def hibernated(self, game_id: str, match_id: str, at: float) -> None:
        """The match sleeps: listed as asleep, by the time of its newest event ``at``, not as live.
        In whole seconds, rounded up (never ended as idle early): a listpack keeps an integral score
        in 5 bytes, a fraction as its 17 or so digits."""
        await self._run([
            ["ZREM", self._live(game_id, match_id), match_id],
            ["ZADD", self._asleep(game_id, match_id), math.ceil(at), match_id],
        ])

    async def woken(self, game_id: str, match_id: str, at: float) -> None:
        """The match is awake again: listed as live, by the time of its newest event ``at``."""
        await self._run([
            ["ZREM", self._asleep(game_id, match_id), match_id],
            ["ZADD", self._live(game_id, match_id), repr(at), match_id],
        ])

    async def due(self, before: float, count: int) -> list[str]:
        """Up to ``count`` matches of this process's share finished before ``before``: to archive."""
        return await earliest(self.link, self.partitions.keys(keys.FINISHED, await self.shares.held()), before, count)

    async def last_played(self, matches: Sequence[tuple[str, str]]) -> list[float | None]:
        """When each (game id, match id) had its newest event (unix s), if it is listed as being
        played (awake or asleep)."""
        commands = [
            ["ZSCORE", listed(game_id, match_id), match_id]
            for game_id, match_id in matches
            for listed in (self._live, self._asleep)
        ]
        found = await self._run(commands, reads=True)
        either = (live if live is not None else asleep for live, asleep in zip(found[::2], found[1::2], strict=True))
        return [None if at is None else float(at) for at in either]

    async def finished(self, match_ids: Sequence[str]) -> list[bool]:
        """Whether each match has finished (or was ended as abandoned), waiting to be archived."""
        found = await self._run([["ZSCORE", self._finished(match_id), match_id] for match_id in match_ids], reads=True)
        return [done is not None for done in found]

    async def ended_idle(self, game_id: str, match_id: str, quota: Sequence[str], listed: bool, now: float) -> None:
        """An idle match is over: its quota slots given back at once, and, when ``listed`` (its
        abandonment still to be projected), moved from the played to the finished. Each write
        may be done again (the archiver's next sweep does, if this one is cut short)."""
        commands = _give_back(match_id, quota)
        if listed:
            commands += [
                ["ZREM", self._live(game_id, match_id), match_id],
                ["ZREM", self._asleep(game_id, match_id), match_id],
                ["ZADD", self._finished(match_id), "NX", repr(now), match_id],
            ]
        await self._run(commands)

    async def archived(self, match_id: str, game_id: str | None, quota: Sequence[str]) -> None:
        """The match left Redis (or was never there: ``game_id`` None): off every list."""
        commands = [*_give_back(match_id, quota), ["ZREM", self._finished(match_id), match_id]]
        if game_id is not None:
            commands.append(["ZREM", self._live(game_id, match_id), match_id])
            commands.append(["ZREM", self._asleep(game_id, match_id), match_id])
        await self._run(commands)

    async def playing(self, game_ids: Sequence[str]) -> dict[str, int]:
        """How many matches of each game are being played, awake or asleep (a ZCARD per partition,
        list and game)."""
        names = {
            game_id: [*self.partitions.keys(keys.live(game_id)), *self.asleep_lists(game_id)]
            for game_id in game_ids
        }
        counts = iter(await self._run([["ZCARD", name] for found in names.values() for name in found], reads=True))
        return {game_id: sum(int(next(counts)) for _ in found) for game_id, found in names.items()}

    async def _run(self, commands: list[list[Any]], reads: bool = False) -> list[Any]:
        return [reply(answer) for answer in await self.link.exchange(commands, reads)] if commands else []


def _give_back(match_id: str, quota: Sequence[str]) -> list[list[Any]]:
    return [["ZREM", keys.open_matches(holder), match_id] for holder in quota]
