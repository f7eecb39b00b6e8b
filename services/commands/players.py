"""Registered players: a checked display name and a bearer token, stored only as its SHA-256.

A player token identifies a person across matches (lobby, join, rematch, ratings); a seat token
still identifies one seat of one match, and anonymous play with seat tokens alone keeps working.
"""

from __future__ import annotations

import re
import secrets
import time
import unicodedata

from domain.kernel import RulesError
from projections.i18n import LANGUAGES
from services.commands import tokens
from services.store.players import Player, PlayerRegistry

NAME_MAX = 24
# letters of any script, digits, and a few joiners; no leading or trailing space
_NAME = re.compile(r"^[^\W_](?:[\w .'-]*[^\W_])?$")
# a name must not pass for a bot seat: "bot", "Bot 2", "greedy_bot", "BOT-x" (but "Abbott", "Robotnik" are fine)
_BOT = re.compile(r"(?:^|[^a-z])bots?(?:[^a-z]|$)", re.IGNORECASE)


def check_name(name: str, bot: bool = False) -> str:
    """The name, trimmed, or a RulesError with a stable code. A bot account may say it is one."""
    name = name.strip()
    if not name:
        raise RulesError("bad_name", "a name has at least one character")
    if len(name) > NAME_MAX:
        raise RulesError("name_too_long", "a name has at most {most} characters", most=NAME_MAX)
    if not _NAME.fullmatch(name) or "  " in name:
        raise RulesError("bad_name", "a name holds letters, digits, and single spaces, dots, dashes or apostrophes")
    if not bot and _BOT.search(name):
        raise RulesError("bot_name", "a player's name may not pass for a bot")
    return name


def check_language(language: str) -> str:
    """One of projections.i18n.LANGUAGES, or "" (no choice), or a RulesError."""
    if language and language not in LANGUAGES:
        raise RulesError("bad_language", "a language is one of {languages}", languages=", ".join(LANGUAGES))
    return language


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


class Players:
    """Players by id and by token; a player's name never changes, so it is cached."""

    def __init__(self, registry: PlayerRegistry) -> None:
        self.registry = registry
        self._names: dict[str, Player] = {}

    async def register(self, name: str, bot: bool = False, language: str = "") -> tuple[Player, str]:
        """A new player (a bot account if ``bot``) and its token (answered once, then only its hash is kept)."""
        named, language = check_name(name, bot), check_language(language)
        player = Player(secrets.token_hex(8), named, time.time(), bot=bot, language=language)
        token = tokens.new_token()
        await self.registry.add(player, tokens.digest(token))
        self._names[player.id] = player
        return player, token

    async def get(self, player_id: str) -> Player | None:
        player = self._names.get(player_id)
        if player is None:
            player = await self.registry.get(player_id)
            if player is None:
                return None
            if len(self._names) > 100_000:
                self._names.clear()
            self._names[player_id] = player
        return player

    async def name(self, player_id: str | None) -> str | None:
        """A seat's player's own name (None for an anonymous seat or a bot)."""
        player = await self.get(player_id) if player_id else None
        return player.name if player else None

    async def bots(self, offset: int, count: int) -> list[Player]:
        """Bot accounts, the first registered first."""
        found = [await self.get(player_id) for player_id in await self.registry.bots(offset, count)]
        return [player for player in found if player is not None]

    async def language(self, player_id: str | None) -> str:
        """The language the player chose ("" for none, or no player): read each time, as another
        gateway may have set it."""
        return await self.registry.language(player_id) if player_id else ""

    async def set_language(self, player: Player, language: str) -> None:
        await self.registry.set_language(player.id, check_language(language))
        self._names.pop(player.id, None)

    async def by_token(self, token: str) -> Player | None:
        # looked up by the token's hash: the token has 256 random bits, nothing to learn from timing
        found = await self.registry.by_token(tokens.digest(token))
        return None if found is None else await self.get(found)
