"""Registered players (``keys.player``: name, time of creation, ``bot`` for a bot account, the
language they chose) and their tokens, found by the token's SHA-256 (``keys.player_token``): the
token itself is never stored. Bot accounts are listed too (``keys.BOTS``, partitioned by player id)
for the lobby."""

from __future__ import annotations

from dataclasses import dataclass

from services.store import keys, resp
from services.store.clients import Events
from services.store.connections import link_to
from services.store.partitions import Partitions, page


@dataclass(frozen=True, slots=True)
class Player:
    id: str
    name: str
    created: float
    bot: bool = False  # a bot account (docs/bots.md): plays through challenges, flagged wherever shown
    language: str = ""  # the language the player chose for their texts ("": none, Accept-Language decides)


class PlayerRegistry:
    def __init__(self, redis: Events, partitions: Partitions | None = None, link: resp.Link | None = None) -> None:
        self.redis = redis
        self.partitions = partitions or Partitions(1)
        self.link = link or link_to(redis)

    async def add(self, player: Player, token_digest: str) -> None:
        """Keep the player, found by its id and by its token's digest (a bot on the bots' list too)."""
        # only what is set is stored: a player kept before bots and languages reads the same
        fields = {"name": player.name, "created": repr(player.created)}
        fields |= {"bot": "1"} if player.bot else {}
        fields |= {"language": player.language} if player.language else {}
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hset(keys.player(player.id), mapping=fields)
            pipe.set(keys.player_token(token_digest), player.id)
            await pipe.execute()
        if player.bot:
            await self.redis.zadd(self.partitions.key(keys.BOTS, player.id), {player.id: player.created})

    async def get(self, player_id: str) -> Player | None:
        fields = await self.redis.hgetall(keys.player(player_id))
        if not fields:
            return None
        return Player(
            player_id,
            fields[b"name"].decode(),
            float(fields[b"created"]),
            bot=fields.get(b"bot") == b"1",
            language=fields.get(b"language", b"").decode(),
        )

    async def language(self, player_id: str) -> str:
        """The language the player chose ("" for none, or no such player)."""
        found = await self.redis.hget(keys.player(player_id), "language")
        return "" if found is None else found.decode()

    async def set_language(self, player_id: str, language: str) -> None:
        await self.redis.hset(keys.player(player_id), mapping={"language": language})

    async def by_token(self, token_digest: str) -> str | None:
        """The id of the player whose token has this digest."""
        found = await self.redis.get(keys.player_token(token_digest))
        return None if found is None else found.decode()

    async def bots(self, offset: int, count: int) -> list[str]:
        """Bot accounts' ids, the first registered first, from ``offset``, at most ``count``."""
        return await page(self.link, self.partitions.keys(keys.BOTS), offset, count)
