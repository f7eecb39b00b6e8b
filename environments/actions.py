"""The fixed action spaces: which command each index of ``Discrete(size)`` sends.

Two ways, chosen per game (docs/research.md says which and why):

- ``Catalogue``: every command the game can ever allow, listed once from its content (Hero's
  Tavern: a pick and a purchase per card, and "finish"). An index always means the same command;
  the mask marks those in ``legal``.
- ``LegalSlots``: index i sends the i-th command of ``legal`` as the rules list it (the order the
  service's envelope shows), for games whose commands carry free combinations (a group of
  attackers, an offer's cards and Gold, a dignitary's one to three favours) too many to list. The
  bound is well above the longest ``legal`` measured (tests/bench/bench_environments.py); a longer one
  is refused with an error rather than cut short, since cutting it would change the game. The
  observation describes each slot (its command type and card) so that a slot's meaning is seen.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from domain.kernel import Command
from environments.encoding import Features

MASK_DTYPE = np.int8


class ActionError(Exception):
    """An index the mask does not allow, or a ``legal`` longer than the game's bound."""


@dataclass(frozen=True)
class Catalogue:
    commands: tuple[Command, ...]
    index: dict[Command, int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "index", {command: i for i, command in enumerate(self.commands)})
        assert len(self.index) == len(self.commands), "a command listed twice"

    @property
    def size(self) -> int:
        return len(self.commands)

    def mask(self, legal: Sequence[Command]) -> np.ndarray:
        out = np.zeros(self.size, dtype=MASK_DTYPE)
        for command in legal:
            out[self.index[command]] = 1  # a KeyError here: the catalogue misses a command the rules allow
        return out

    def command(self, action: int, legal: Sequence[Command]) -> Command:
        command = self.commands[action]
        if command not in legal:
            raise ActionError(f"action {action} ({command}) is not legal now")
        return command

    def describe(self, features: Features, legal: Sequence[Command]) -> None:
        """An index means one command always: nothing to describe."""


@dataclass(frozen=True)
class LegalSlots:
    size: int
    types: tuple[type, ...]  # the game's command classes: a slot's type is 1 + its position here (0: empty)
    card_of: Callable[[Command], int]  # 1 + the vocabulary index of the card a command names, 0 for none
    cards: int  # the vocabulary's size

    def _check(self, legal: Sequence[Command]) -> None:
        if len(legal) > self.size:
            raise ActionError(f"{len(legal)} legal commands, more than the {self.size} this environment indexes")

    def mask(self, legal: Sequence[Command]) -> np.ndarray:
        self._check(legal)
        out = np.zeros(self.size, dtype=MASK_DTYPE)
        out[: len(legal)] = 1
        return out

    def command(self, action: int, legal: Sequence[Command]) -> Command:
        self._check(legal)
        if not 0 <= action < len(legal):
            raise ActionError(f"action {action} is not legal now: {len(legal)} legal commands")
        return legal[action]

    def describe(self, features: Features, legal: Sequence[Command]) -> None:
        self._check(legal)
        features.numbers("slot_type", (1 + self.types.index(type(c)) for c in legal), self.size, len(self.types))
        features.numbers("slot_card", (self.card_of(c) for c in legal), self.size, self.cards)
