"""A bot offered a seat's moves without the game's settings (``Game.setting``): a setting spares a
person clicks and changes no move, so a bot gains nothing by it. Offered one, a search valued it on
and off alike, noise around the same value, and could toggle it at each new version it was asked
again at, for ever: Taverna's search kept a conceded seat's match from ending."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from domain.kernel import Bot, Command, Rng


@dataclass(frozen=True, slots=True)
class WithoutSettings:
    bot: Bot[Any]
    setting: Callable[[Any], bool]

    def choose(self, view: Any, legal: Sequence[Command], rng: Rng) -> Command:
        moves = [command for command in legal if not self.setting(command)]
        return self.bot.choose(view, moves or legal, rng)
