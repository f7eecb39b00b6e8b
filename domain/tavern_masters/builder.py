"""Decide's scratch pad: events appended one by one, each folded at once so later rules see it."""

from __future__ import annotations

from domain.kernel import Event, Rng
from domain.kernel.seats import clockwise_from, left_of
from domain.tavern_masters import events as ev
from domain.tavern_masters.state import State, evolve


class Builder:
    def __init__(self, state: State) -> None:
        self.state = state
        self.events: list[Event] = []

    def emit(self, *events: Event) -> None:
        for event in events:
            self.state = evolve(self.state, event)
            self.events.append(event)

    def draw(self, seat: int, deck: str, count: int, to: str, rng: Rng) -> None:
        """Deal from the top of a deck; a short deck takes its shuffled discard pile underneath; when
        both run out, the seat gets what there is."""
        state = self.state
        if len(state.decks[deck]) < count and state.discards.get(deck):
            order = tuple(rng.shuffle(state.discards[deck]))
            self.emit(ev.Reshuffled(deck=deck, order=order, count=len(order)))
        cards = self.state.decks[deck][:count]
        if cards:
            self.emit(ev.Dealt(seat=seat, deck=deck, cards=cards, count=len(cards), to=to))

    def deal_all(self, deck: str, count: int, to: str, rng: Rng) -> None:
        """Every seat draws, clockwise from the left of the Server (the rulebook's order)."""
        for seat in turn_order(self.state):
            self.draw(seat, deck, count, to, rng)


def turn_order(state: State) -> list[int]:
    """Clockwise from the seat to the left of the Server."""
    return clockwise_from(left_of(state.server, state.seats), state.seats)
