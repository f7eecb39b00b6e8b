"""Tournaments' state (docs/tournaments.md): each tournament's own log (a list of JSON entries,
``keys.tournament_log``, appended only at the length it was read at, tournament.lua) and the ranks
of its tables' ended matches (``keys.tournament_results``), both under its hash tag; beside each
table's match, which tournament it belongs to (``keys.match_tournament``); and two families of
partitions: every tournament by start time (its list) and when the sweepers look at each next."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from services.store import keys, resp
from services.store.connections import link_to
from services.store.deadlines import DeadlineSet
from services.store.event_store import Call, reply, run_scripts, script
from services.store.partitions import Partitions, Shares, page

_HERE = Path(__file__).parent


class TournamentBook:
    def __init__(self, redis: Any, partitions: Partitions, shares: Shares, link: resp.Link | None = None) -> None:
        self.link = link or link_to(redis)
        self.partitions = partitions
        self._append = redis.register_script(script(_HERE / "tournament.lua"))
        self.due = DeadlineSet(redis, partitions, shares, keys.TOURNAMENTS_DUE, self.link)

    async def append(self, tournament_id: str, length: int, entries: list[bytes]) -> bool:
        """Append the entries if the log still holds ``length`` (False: it moved, nothing appended)."""
        call = Call(self._append, [keys.tournament_log(tournament_id)], [length, *entries])
        (answer,) = await run_scripts(self.link, [call])
        return int(reply(answer)) >= 0

    async def log(self, tournament_id: str) -> list[bytes]:
        (answer,) = await self.link.exchange([["LRANGE", keys.tournament_log(tournament_id), 0, -1]], True)
        return list(reply(answer))

    async def add(self, tournament_id: str, start_at: float) -> None:
        """On the list of tournaments, by start time."""
        key = self.partitions.key(keys.TOURNAMENTS, tournament_id)
        (answer,) = await self.link.exchange([["ZADD", key, repr(start_at), tournament_id]])
        reply(answer)

    async def page(self, offset: int, count: int) -> list[str]:
        """Tournaments by start time, from ``offset``, at most ``count``."""
        return await page(self.link, self.partitions.keys(keys.TOURNAMENTS), offset, count)

    async def table(self, match_id: str, tournament_id: str) -> None:
        """The match is a table of the tournament."""
        (answer,) = await self.link.exchange([["SET", keys.match_tournament(match_id), tournament_id]])
        reply(answer)

    async def of_match(self, match_id: str) -> str | None:
        """The tournament the match is a table of, None if none."""
        (answer,) = await self.link.exchange([["GET", keys.match_tournament(match_id)]], True)
        found = reply(answer)
        return None if found is None else bytes(found).decode()

    async def record(self, tournament_id: str, match_id: str, ranks: bytes) -> None:
        """A table's match ended with these ranks (the same whoever records it, and however often)."""
        key = keys.tournament_results(tournament_id)
        (answer,) = await self.link.exchange([["HSET", key, match_id, ranks]])
        reply(answer)

    async def forget(self, tournament_id: str) -> None:
        """The tournament's log and ranks out of Redis (archived: services/commands/tournaments.py)."""
        named = [keys.tournament_log(tournament_id), keys.tournament_results(tournament_id)]
        (answer,) = await self.link.exchange([["DEL", *named]])
        reply(answer)

    async def results(self, tournament_id: str) -> dict[str, bytes]:
        (answer,) = await self.link.exchange([["HGETALL", keys.tournament_results(tournament_id)]], True)
        found = reply(answer)  # a dict from fakeredis, flat from a Redis
        pairs = found.items() if isinstance(found, dict) else zip(found[::2], found[1::2], strict=True)
        return {bytes(field).decode(): bytes(value) for field, value in pairs}
