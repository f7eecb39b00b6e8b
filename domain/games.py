"""The registry of games by their public id (API.md); each game package exports ``GAME``."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from domain.bots.random_bot import RandomBot
from domain.bots.settings import WithoutSettings
from domain.kernel import Bot, Game, RulesError, Setup
from domain.kernel.online import online

_PACKAGES = {
    "heros-tavern": "domain.heros_tavern",
    "tavern-masters": "domain.tavern_masters",
    "mercenaries": "domain.mercenaries",
    "taverna": "domain.taverna",
}


def game_ids() -> list[str]:
    return list(_PACKAGES)


def get_game(game_id: str) -> Game:
    package = _PACKAGES.get(game_id)
    if package is None:
        raise RulesError("unknown_game", "no game {game!r}; games: {games}", game=game_id, games=", ".join(_PACKAGES))
    return importlib.import_module(package).GAME


def make_bot(game: Game, kind: str, options: Mapping[str, Any]) -> Bot:
    """A fresh bot of the named kind for a match with these options, as its setup records them (a
    match recorded before an option existed lacks it, and its rules read that as they do):
    ``random`` for every game (any legal command, settings too: it explores), others as the game
    offers, never offered a setting (``Game.setting``)."""
    if kind == "random":
        return RandomBot()
    factory = game.bots.get(kind)
    if factory is None:
        raise RulesError("unknown_bot", "{game} has no {kind!r} bot; bots: random, {bots}", game=game.name, kind=kind,
                         bots=", ".join(game.bots))
    bot = factory(options)
    return bot if game.setting is None else WithoutSettings(bot, game.setting)


# The bot a person's seat falls back to: the bot that tests/bench/bench_search_bot.py and
# tests/bench/bench_arena.py show strongest at that table: the search bot; where search gains nothing, the
# game's own stronger policy (Mercenaries' careful bot, Tavern Masters' planner: their RULINGS.md);
# elsewhere greedy.
FALLBACKS = {"heros-tavern": "search", "taverna": "search", "mercenaries": "careful", "tavern-masters": "planner"}
# (game, seats, its "mode" option or None) -> the fallback at the tables where another bot was
# measured stronger than the game's own: Tavern Masters' search beats the planner in competitive
# play at 3 and 4 seats, not at 2 (RULINGS.md 46; co-operative and solo play were measured with
# the planner)
STRONGER_AT: dict[tuple[str, int, Any], str] = {
    ("tavern-masters", 3, "competitive"): "search",
    ("tavern-masters", 4, "competitive"): "search",
}


def fallback_bot(game: Game, setup: Setup) -> str:
    """The kind of bot that plays for a person who timed out or left: the strongest the game has at
    that table."""
    kind = STRONGER_AT.get((game.id, setup.seats, setup.options.get("mode")), FALLBACKS.get(game.id, "greedy"))
    return kind if kind in game.bots else "random"


def fallback_tables(game: Game) -> dict[str, int]:
    """Every kind of bot that may play for a person in ``game`` (its default options), each with the
    fewest seats it plays for."""
    first: dict[str, int] = {}
    for seats in range(game.min_seats, game.max_seats + 1):
        first.setdefault(fallback_bot(game, game.setup(seats)), seats)
    return first


_online: dict[int, tuple[Game, Game]] = {}  # id of a game -> (that game, wrapped): built once each


def online_game(game_id: str) -> Game:
    """The game as the service plays it: with concede, leave and timeouts (domain/kernel/online.py),
    a timed-out seat's move chosen by the bot its ``TimedOut`` names."""
    game = get_game(game_id)
    known = _online.get(id(game))
    if known is None or known[0] is not game:
        known = _online[id(game)] = (game, online(game, lambda kind, options: make_bot(game, kind, options)))
    return known[1]
