"""A match held in memory: the fold of its events, and bot play to the end.

This is the pure core of everything that runs a match: the simulator, the conformance harness,
the audit. The service does the same with the log kept in Redis.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from domain.kernel.game import AnyGame, Bot, C, Command, E, Event, Game, S, Seat, Setup
from domain.kernel.rng import Rng


class StuckError(Exception):
    """A running match in which no seat has a legal command: always a bug in a game."""


def fold(game: Game[S, C, E], setup: Setup, events: Iterable[E]) -> S:
    state = game.initial(setup)
    for event in events:
        state = game.evolve(state, event)
    return state


class Table:
    """One match in memory: its setup, seed, events so far and the state they fold to."""

    def __init__(self, game: AnyGame, setup: Setup, seed: str) -> None:
        self.game = game
        self.setup = setup
        self.seed = seed
        self.events: list[Event] = []
        self.state = game.initial(setup)
        self._append(game.begin(self.state, self.rng()))

    @property
    def version(self) -> int:
        return len(self.events)

    def rng(self, label: str = "rules") -> Rng:
        """The random stream of the current position: what the next decide draws from."""
        return Rng(self.seed, self.version, label)

    def _append(self, events: Sequence[Event]) -> None:
        for event in events:
            self.state = self.game.evolve(self.state, event)
        self.events.extend(events)

    def submit(self, seat: Seat, command: Command) -> list[Event]:
        """Decide and apply one command; a RulesError leaves the table as it was."""
        events = self.game.decide(self.state, command, seat, self.rng())
        self._append(events)
        return events

    def actors(self) -> list[Seat]:
        """The seats that may act now, in seat order."""
        return [seat for seat in range(self.setup.seats) if self.game.legal(self.state, seat)]

    def next_actor(self) -> Seat:
        """Who acts next: at random (the position's "table" stream) among the seats that may."""
        actors = self.actors()
        if not actors:
            raise StuckError(f"{self.game.id}: no seat can act at version {self.version}")
        return self.rng("table").choice(actors)

    @property
    def finished(self) -> bool:
        return self.game.result(self.state) is not None


def bot_turn(table: Table, bots: Sequence[Bot[Any]]) -> tuple[Seat, Command]:
    """Pick who acts next (``Table.next_actor``) and what that seat's bot sends."""
    seat = table.next_actor()
    legal = table.game.legal(table.state, seat)
    view = table.game.view(table.state, seat)
    return seat, bots[seat].choose(view, legal, table.rng(f"bot:{seat}"))


def play(game: AnyGame, setup: Setup, seed: str, bots: Sequence[Bot[Any]], max_commands: int = 100_000) -> Table:
    """Play one match with the given bots (one per seat) to its end."""
    table = Table(game, setup, seed)
    for _ in range(max_commands):
        if table.finished:
            return table
        table.submit(*bot_turn(table, bots))
    raise StuckError(f"{game.id}: no end after {max_commands} commands")
