"""Building Tavern Masters states by hand, and sending commands to them."""

from __future__ import annotations

from typing import Any

import pytest
from msgspec.structs import replace

from domain.kernel import Rng, RulesError
from domain.tavern_masters import GAME
from domain.tavern_masters.content import deck_cards
from domain.tavern_masters.state import Player, State

DECKS = ("tavern", "patron", "deed")


def make(seats: int = 2, players: list[dict[str, Any]] | None = None, **fields: Any) -> State:
    """A state in any phase: seats' hands and Taverns as given, the decks holding every other card in
    a fixed order (unless ``decks`` is given)."""
    options = {k: fields.pop(k) for k in ("mode", "challenge", "dirty_deeds") if k in fields}
    state = GAME.initial(GAME.setup(seats, options))
    given = [Player(**p) for p in (players or [])]
    given += [Player() for _ in range(seats - len(given))]
    given = [replace(p, seen=p.seen or p.tavern) for p in given]
    used = {c for p in given for c in (*p.hand, *p.tavern, *p.packet)}
    decks = {d: tuple(c for c in deck_cards(d, state.dirty_deeds) if c not in used) for d in DECKS}
    defaults = {"phase": "day", "round": 2, "decks": decks, "discards": {d: () for d in DECKS}}
    return replace(state, players=tuple(given), **{**defaults, **fields})


def send(state: State, seat: int, command: Any, seed: str = "test") -> tuple[State, list]:
    """Decide and fold one command; returns the new state and the events."""
    events = GAME.decide(state, command, seat, Rng(seed, 0))
    for event in events:
        state = GAME.evolve(state, event)
    return state, events


def refused(state: State, seat: int, command: Any, code: str) -> None:
    with pytest.raises(RulesError) as error:
        GAME.decide(state, command, seat, Rng("test", 0))
    assert error.value.code == code, error.value.message
