"""What the conformance harness plays: each game with its seat counts and options."""

from __future__ import annotations

from typing import Any, NamedTuple


class Case(NamedTuple):
    game: str
    seats: int
    options: dict[str, Any]
    matches: int


CASES: list[Case] = [
    Case("heros-tavern", 3, {}, 200),
    Case("heros-tavern", 4, {}, 200),
    Case("heros-tavern", 5, {}, 200),
    Case("mercenaries", 2, {"best_of": 1}, 200),
    Case("mercenaries", 2, {"best_of": 3}, 200),
    Case("taverna", 2, {}, 200),
    Case("taverna", 3, {}, 200),
    Case("taverna", 4, {}, 200),
    Case("taverna", 5, {}, 200),
]
