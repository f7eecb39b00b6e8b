"""Building positions by hand, with the dice fixed, for the rule tests."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from msgspec.structs import replace

from domain.kernel import Command, Event, Rng, RulesError
from domain.mercenaries import GAME
from domain.mercenaries.commands import ATTACK
from domain.mercenaries.content import deck_of
from domain.mercenaries.state import AFTERNOON, Merc, Player, State, evolve, initial


class Dice(Rng):
    """A random source whose dice are given in order (the rulebook's examples); shuffles stay seeded."""

    def __init__(self, *dice: int) -> None:
        super().__init__("fixed-dice", 0)
        self.dice = list(dice)

    def die(self, sides: int = 6) -> int:
        return self.dice.pop(0)


def card(seat: int, rank: str, suit: str = "hearts") -> str:
    return f"mc-{seat}-{suit}-{rank.lower()}"


def merc(seat: int, rank: str, suit: str = "hearts", position: str = ATTACK, turn: int = 0) -> Merc:
    return Merc(card=card(seat, rank, suit), position=position, turn=turn)


def player(seat: int, *, hand: Sequence[str] = (), field: Sequence[Merc] = (), trash: Sequence[str] = (),
           deck: int | None = None, **fields: Any) -> Player:
    """A player whose deck holds the rest of its own 52 cards (or only the first ``deck`` of them)."""
    placed = set(hand) | {m.card for m in field} | set(trash)
    rest = tuple(c for c in deck_of(seat) if c not in placed)
    return Player(hp=fields.pop("hp", 100), gold=fields.pop("gold", 100), hand=tuple(hand), field=tuple(field),
                  trash=tuple(trash), deck=rest if deck is None else rest[:deck], **fields)


def position(p0: Player | None = None, p1: Player | None = None, *, best_of: int = 1, **fields: Any) -> State:
    """A game in progress (game 1, turn 5, seat 0 in its Afternoon unless told otherwise)."""
    base = initial(GAME.setup(2, {"best_of": best_of}))
    players = (p0 or player(0), p1 or player(1))
    defaults: dict[str, Any] = {"number": 1, "active": 0, "turn": 5, "phase": AFTERNOON}
    fields = {**defaults, **fields}
    fields.setdefault("dawn_gold", players[fields["active"]].gold)  # as TurnBegan records it
    return replace(base, players=players, **fields)


def send(state: State, seat: int, command: Command, rng: Rng | None = None) -> tuple[list[Event], State]:
    events = GAME.decide(state, command, seat, rng or Rng("test", 0))
    for event in events:
        state = evolve(state, event)
    return events, state


def refused(state: State, seat: int, command: Command) -> str:
    with pytest.raises(RulesError) as caught:
        GAME.decide(state, command, seat, Rng("test", 0))
    assert command not in GAME.legal(state, seat)
    return caught.value.code


def of_type(events: Sequence[Event], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]
