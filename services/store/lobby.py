"""The lobby's lists, zsets of match id -> when created, each split into partitions by match id
(services/store/partitions.py): the public matches waiting for players, for all games and per
game (``keys.lobby``), read as merged pages, the public matches being played, to watch
(``keys.lobby_live``, the same way), and every lobby match not yet started nor closed,
private ones too (``keys.LOBBY_WAITING``), which the archivers close in their shares when nobody
came to them."""

from __future__ import annotations

from typing import Any

from services.store import keys, resp
from services.store.connections import link_to
from services.store.event_store import reply
from services.store.partitions import Partitions, Shares, earliest, page


class LobbyListings:
    def __init__(self, redis: Any, partitions: Partitions, shares: Shares, link: resp.Link | None = None) -> None:
        self.link = link or link_to(redis)
        self.partitions = partitions
        self.shares = shares  # the archivers'

    async def add(self, match_id: str, game: str, created: float, public: bool) -> None:
        """List a match waiting for players; a public one on the lobby's pages too."""
        lists = [keys.LOBBY_WAITING, *((keys.lobby(None), keys.lobby(game)) if public else ())]
        await self._run([["ZADD", self.partitions.key(family, match_id), repr(created), match_id] for family in lists])

    async def waiting_since(self, before: float, count: int) -> list[str]:
        """The oldest matches of this process's share waiting since before ``before``, at most ``count``."""
        names = self.partitions.keys(keys.LOBBY_WAITING, await self.shares.held())
        return await earliest(self.link, names, before, count)

    async def page(self, game: str | None, offset: int, count: int) -> list[str]:
        """Public matches, oldest first, from ``offset``, at most ``count``; of one game or of all."""
        return await page(self.link, self.partitions.keys(keys.lobby(game)), offset, count)

    async def remove(self, match_id: str, game: str | None) -> None:
        """Off every list; ``game`` None where the match is not known any more (its game's list is
        then left as it is)."""
        lists = [keys.LOBBY_WAITING, keys.lobby(None), *((keys.lobby(game),) if game is not None else ())]
        await self._run([["ZREM", self.partitions.key(family, match_id), match_id] for family in lists])

    async def add_live(self, match_id: str, game: str, started: float) -> None:
        """List a public match that just started, to be watched (scored by minus its start: the
        latest started first)."""
        lists = (keys.lobby_live(None), keys.lobby_live(game))
        await self._run([["ZADD", self.partitions.key(family, match_id), repr(-started), match_id] for family in lists])

    async def live(self, game: str | None, offset: int, count: int) -> list[str]:
        """Public matches being played, the latest started first, from ``offset``, at most ``count``."""
        return await page(self.link, self.partitions.keys(keys.lobby_live(game)), offset, count)

    async def remove_live(self, match_id: str, game: str) -> None:
        """Off the lists of matches being played (it ended)."""
        lists = (keys.lobby_live(None), keys.lobby_live(game))
        await self._run([["ZREM", self.partitions.key(family, match_id), match_id] for family in lists])

    async def _run(self, commands: list[list[Any]]) -> None:
        for answer in await self.link.exchange(commands):
            reply(answer)
