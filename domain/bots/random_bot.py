"""The random bot: any legal command, uniformly; it plays every game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.kernel import Command, Rng


class RandomBot:
    def choose(self, view: Any, legal: Sequence[Command], rng: Rng) -> Command:
        return rng.choice(legal)
