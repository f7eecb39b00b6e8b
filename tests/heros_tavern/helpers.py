"""Building Hero's Tavern tables by hand: named cards, and states at a chosen moment."""

from __future__ import annotations

from collections.abc import Sequence

from domain.heros_tavern import GAME
from domain.heros_tavern.content import DECK, Tokens
from domain.heros_tavern.events import ScoreRow
from domain.heros_tavern.state import DRAFT, PURCHASE, State
from domain.kernel import Rng


class Cards:
    """Hands out unused card ids of a kind (optionally of an exact cost), each id once."""

    def __init__(self) -> None:
        self.used: set[str] = set()

    def take(self, kind: str, n: int = 1, cost: Tokens | None = None) -> list[str]:
        ids = [c.id for c in DECK.values() if c.kind == kind and c.id not in self.used and cost in (None, c.cost)]
        assert len(ids) >= n, f"not {n} unused {kind} cards costing {cost}"
        self.used.update(ids[:n])
        return ids[:n]

    def rest(self) -> tuple[str, ...]:
        return tuple(sorted(set(DECK) - self.used))


def last_pick(
    cards: Cards,
    taverns: Sequence[Sequence[str]],
    hands: Sequence[str],
    *,
    round: int = 1,
    purchased: Sequence[Sequence[str]] | None = None,
    tokens: Sequence[Tokens] | None = None,
) -> State:
    """A draft with one card left in every hand (``hands[seat]``), each tavern already drafted."""
    n = len(taverns)
    owned = tuple(tuple(p) for p in purchased) if purchased else ((),) * n
    return State(
        seats=n, options={"shopkeeper_cap": False}, round=round, phase=DRAFT, picks_made=6,
        draw=cards.rest(), hands=tuple((c,) for c in hands), picks=(None,) * n,
        taverns=tuple((*o, *t) for o, t in zip(owned, taverns, strict=True)), purchased=owned,
        tokens=tuple(tokens) if tokens else (Tokens(),) * n, finished=(False,) * n,
        pads=tuple(((ScoreRow(),) * (round - 1)) for _ in range(n)),
    )


def purchasing(
    cards: Cards,
    taverns: Sequence[Sequence[str]],
    purchased: Sequence[Sequence[str]],
    tokens: Sequence[Tokens],
    pads: Sequence[Sequence[ScoreRow]],
    *,
    round: int = 5,
    finished: Sequence[bool] | None = None,
) -> State:
    """The purchase phase, every seat's tavern its purchased cards then ``taverns[seat]``."""
    n = len(taverns)
    return State(
        seats=n, options={"shopkeeper_cap": False}, round=round, phase=PURCHASE, picks_made=7,
        draw=cards.rest(), hands=((),) * n, picks=(None,) * n,
        taverns=tuple((*p, *t) for p, t in zip(purchased, taverns, strict=True)),
        purchased=tuple(tuple(p) for p in purchased), tokens=tuple(tokens),
        finished=tuple(finished) if finished else (False,) * n, pads=tuple(tuple(p) for p in pads),
    )


def run(state: State, *moves: tuple[int, object]) -> tuple[State, list]:
    """Decide and fold each (seat, command) in turn; the state and all the events."""
    events: list = []
    for seat, command in moves:
        new = GAME.decide(state, command, seat, Rng("test", len(events)))
        for event in new:
            state = GAME.evolve(state, event)
        events.extend(new)
    return state, events


def of_type(events: Sequence[object], kind: type) -> list:
    return [e for e in events if isinstance(e, kind)]
