"""Registered players: a checked display name and a bearer token, stored only as its SHA-256.

A player token identifies a person across matches (lobby, join, rematch, ratings); a seat token
still identifies one seat of one match, and anonymous play with seat tokens alone keeps working.
"""

from __future__ import annotations

import re
import secrets
import time
import unicodedata
from dataclasses import dataclass
from typing import Any

from domain.kernel import RulesError
from services.commands import tokens

NAME_MAX = 24
# letters of any script, digits, and a few joiners; no leading or trailing space
_NAME = re.compile(r"^[^\W_](?:[\w .'-]*[^\W_])?$")
# a name must not pass for a bot seat: "bot", "Bot 2", "greedy_bot", "BOT-x" (but "Abbott", "Robotnik" are fine)
_BOT = re.compile(r"(?:^|[^a-z])bots?(?:[^a-z]|$)", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Player:
    id: str
    name: str
    created: float


def check_name(name: str) -> str:
    """The name, trimmed, or a RulesError with a stable code."""
    name = name.strip()
    if not name:
        raise RulesError("bad_name", "a name has at least one character")
    if len(name) > NAME_MAX:
        raise RulesError("name_too_long", f"a name has at most {NAME_MAX} characters")
    if not _NAME.fullmatch(name) or "  " in name:
        raise RulesError("bad_name", "a name holds letters, digits, and single spaces, dots, dashes or apostrophes")
    if _BOT.search(name):
        raise RulesError("bot_name", "a player's name may not pass for a bot")
    return name


def at_table(names: list[str | None]) -> list[str | None]:
    """The names as one table shows them: names are not unique, so a name a seat before has
    (compared as a reader would: case and width aside) is followed by " (2)", " (3)", ... in seat
    order. No registered name holds parentheses: "Ann (2)" is nobody's own."""
    held: dict[str, int] = {}
    shown: list[str | None] = []
    for name in names:
        if name is None:
            shown.append(None)
            continue
        key = unicodedata.normalize("NFKC", name).casefold()
        held[key] = held.get(key, 0) + 1
        shown.append(name if held[key] == 1 else f"{name} ({held[key]})")
    return shown


def _key(player_id: str) -> str:
    return f"player:{{{player_id}}}"


def _token_key(token_digest: str) -> str:
    return f"player-token:{token_digest}"


class Players:
    """Players by id and by token; a player's name never changes, so it is cached."""

    def __init__(self, redis: Any) -> None:
        self.redis = redis
        self._names: dict[str, Player] = {}

    async def register(self, name: str) -> tuple[Player, str]:
        """A new player and its token (answered once, then only its hash is kept)."""
        player = Player(secrets.token_hex(8), check_name(name), time.time())
        token = tokens.new_token()
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hset(_key(player.id), mapping={"name": player.name, "created": repr(player.created)})
            pipe.set(_token_key(tokens.digest(token)), player.id)
            await pipe.execute()
        self._names[player.id] = player
        return player, token

    async def get(self, player_id: str) -> Player | None:
        player = self._names.get(player_id)
        if player is None:
            fields = await self.redis.hgetall(_key(player_id))
            if not fields:
                return None
            player = Player(player_id, fields[b"name"].decode(), float(fields[b"created"]))
            if len(self._names) > 100_000:
                self._names.clear()
            self._names[player_id] = player
        return player

    async def name(self, player_id: str | None) -> str | None:
        """A seat's player's own name (None for an anonymous seat or a bot)."""
        player = await self.get(player_id) if player_id else None
        return player.name if player else None

    async def by_token(self, token: str) -> Player | None:
        # looked up by the token's hash: the token has 256 random bits, nothing to learn from timing
        found = await self.redis.get(_token_key(tokens.digest(token)))
        return None if found is None else await self.get(found.decode())
