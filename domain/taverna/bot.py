"""The greedy bot: placeholder until written."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.kernel import Command, Rng


class GreedyBot:
    def choose(self, view: Any, legal: Sequence[Command], rng: Rng) -> Command:
        return legal[0]
