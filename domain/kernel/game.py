"""The interface every game implements: the functional "decider" shape.

A game is a frozen bundle of pure functions over its own immutable state:

- ``initial(setup) -> State`` and ``evolve(State, Event) -> State``: the fold; a replay is only this.
- ``begin(State, rng) -> events``: the opening events (shuffles, deals) drawn at version 0.
- ``decide(State, Command, seat, rng) -> events``: the rules; raises ``RulesError`` to refuse.
- ``legal(State, seat) -> commands``: every command the seat may send now, complete.
- ``view(State, seat | None)``: what that seat (or a spectator, ``None``) may know.
- ``views(State)``: every seat's view and then the spectator's; a game whose views share a
  public part gives its own, which builds that part once (``all_views`` otherwise).
- ``event_view(Event, seat | None) -> Event | None``: an event as that seat may see it while the
  match runs (an allow-list: a game shows only what it names; ``None`` hides the whole event).
- ``hidden(State, seat | None) -> set[str]``: the identifiers that seat must not see right now
  (other hands, face-down picks, deck contents); the conformance harness checks every view,
  legal list and redacted event against them.
- ``result(State) -> Result | None``: ``None`` while the match runs.
- ``breakdown(State) -> ScoreLines | None``: a finished match's scores by category, the
  rulebook's scoring steps in its order (its package's ``breakdown.py``); each seat's points
  add up to its score in ``result``. ``None`` while the match runs.
- ``automatic(State, seat) -> Command | None`` (optional): the command a seat's own private setting
  sends for it now (Taverna's "always pass"); the service sends it as that seat's, in an entry of
  its own, so no other seat's command shows the setting.
- ``sealed(State) -> seats`` (optional): the seats a sealed prompt asks while it is open; each is
  shown as due (its clock running) until the prompt closes, answered or not.

Randomness comes only from the ``rng`` handed in, and its outcomes are written into the events,
so ``evolve`` never draws.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

import msgspec

from domain.kernel.errors import RulesError
from domain.kernel.rng import Rng

Seat = int


class Command(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag=True, forbid_unknown_fields=True):
    """Base of every command: a frozen Struct whose JSON carries its class name as ``type``."""


class Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag=True):
    """Base of every event: a frozen Struct whose JSON carries its class name as ``type``."""


class Setup(msgspec.Struct, frozen=True):
    """How a match was set up: the number of seats and the game's options (all filled in)."""

    seats: int
    options: dict[str, Any] = {}


class Standing(msgspec.Struct, frozen=True):
    seat: Seat
    rank: int  # 1 is best; tied seats share a rank
    score: int
    tiebreak: int = 0  # the value that broke ties (each game says which), shown for audit


class Result(msgspec.Struct, frozen=True):
    """A finished match: who won (several on a shared victory, all or none in co-operative play)."""

    winners: tuple[Seat, ...]
    standings: tuple[Standing, ...]
    details: dict[str, Any] = {}


class ScoreLine(msgspec.Struct, frozen=True):
    """One scoring category of a finished match and what each seat scored in it."""

    category: str  # the game's stable word for it (named in its content's ``scoring``)
    points: tuple[int, ...]  # per seat, in seat order


ScoreLines = tuple[ScoreLine, ...]


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One match option: its name, its allowed values and its default."""

    name: str
    choices: tuple[Any, ...]
    default: Any
    description: str = ""


S = TypeVar("S")  # a game's state
C = TypeVar("C", bound=Command)  # the union of its commands
E = TypeVar("E", bound=Event)  # the union of its events


class Bot(Protocol[C]):
    """A player that sees only what its seat sees: its view and its legal commands."""

    def choose(self, view: Any, legal: Sequence[C], rng: Rng) -> C: ...


def viewers(seats: int) -> list[Seat | None]:
    """Whom ``Game.all_views`` answers for, in its order: each seat, then the spectator."""
    return [*range(seats), None]


@dataclass(frozen=True, slots=True)
class Game(Generic[S, C, E]):
    id: str
    name: str
    rulebook: str
    min_seats: int
    max_seats: int
    options: tuple[OptionSpec, ...]
    command_type: Any  # the tagged union of this game's commands
    event_type: Any  # the tagged union of this game's events
    view_type: Any  # what view() returns
    initial: Callable[[Setup], S]
    begin: Callable[[S, Rng], list[E]]
    evolve: Callable[[S, E], S]
    decide: Callable[[S, C, Seat, Rng], list[E]]
    legal: Callable[[S, Seat], list[C]]
    view: Callable[[S, Seat | None], Any]
    event_view: Callable[[E, Seat | None], Event | None]
    hidden: Callable[[S, Seat | None], set[str]]
    result: Callable[[S], Result | None]
    breakdown: Callable[[S], ScoreLines | None]
    views: Callable[[S], list[Any]] | None = None  # see ``all_views``
    automatic: Callable[[S, Seat], C | None] | None = None
    # Whether a command is a person's setting (Taverna's "always pass"): it spares clicks and changes
    # no move, so no bot of the game's own is offered one (domain/games.py, make_bot); None: there are none
    setting: Callable[[C], bool] | None = None
    sealed: Callable[[S], tuple[Seat, ...]] | None = None
    # Bot[Any]: a game's own bots choose among its commands, the kernel's Search among any Command;
    # each made for a match's options (all filled in), which a bot that models the rules plays by
    bots: Mapping[str, Callable[[Mapping[str, Any]], Bot[Any]]] = field(default_factory=dict)
    # Each kind's generation, bumped whenever its moves change (a kind not named: its first): a
    # timed-out move is decided again by the audit only under the generation that chose it.
    bot_generations: Mapping[str, int] = field(default_factory=dict)
    # For a command the rules can no longer decide again exactly (a timed-out move chosen by a bot
    # generation this release does not have, domain/kernel/online.py): the events of each legal way it
    # may have gone, from fresh random streams of its position; None for a command decided exactly.
    alternatives: Callable[[S, C, Seat, Callable[[], Rng]], Iterator[list[E]] | None] | None = None
    # The rules version a match records at creation. An event schema change bumps it and adds an
    # upcaster keyed (old version, event type): event JSON object at that version -> the next version's.
    rules_version: int = 1
    # Which commands a seat may take back (domain/kernel/undo.py): given the state before a command, its
    # events and the state after, whether they drew nothing random and handed no other seat a move
    # (the game's RULINGS.md says which and why); None: no command may be
    undoable: Callable[[S, Sequence[E], S], bool] | None = None
    upcasters: Mapping[tuple[int, str], Callable[[dict[str, Any]], dict[str, Any]]] = field(default_factory=dict)

    def all_views(self, state: S, seats: int) -> list[Any]:
        """Each seat's view, then the spectator's: the same as ``view`` seat by seat (the
        conformance harness checks that), built at once where the game knows how."""
        if self.views is not None:
            return self.views(state)
        return [self.view(state, seat) for seat in viewers(seats)]

    def setup(self, seats: int, options: Mapping[str, Any] | None = None) -> Setup:
        """Check the seat count and options, filling in defaults; refuses with a RulesError."""
        if not self.min_seats <= seats <= self.max_seats:
            raise RulesError("bad_seats", "{game} seats {least} to {most}, not {seats}", game=self.name,
                             least=self.min_seats, most=self.max_seats, seats=seats)
        given = dict(options or {})
        known = {spec.name: spec for spec in self.options}
        unknown = sorted(set(given) - set(known))
        if unknown:
            raise RulesError("bad_option", "{game} has no option {options}", game=self.name, options=", ".join(unknown))
        chosen: dict[str, Any] = {}
        for spec in self.options:
            value = given.get(spec.name, spec.default)
            if value not in spec.choices or isinstance(value, bool) != isinstance(spec.default, bool):
                choices = ", ".join(map(str, spec.choices))
                raise RulesError("bad_option", "option {option} takes one of {choices}, not {value!r}",
                                 option=spec.name, choices=str(choices), value=value)
            chosen[spec.name] = value
        return Setup(seats=seats, options=chosen)

    def option_from_text(self, name: str, text: str) -> Any:
        """Parse ``KEY=VALUE`` text (from the command line) into the option's own type."""
        for spec in self.options:
            if spec.name == name:
                for choice in spec.choices:
                    if str(choice).lower() == text.lower():
                        return choice
                return text
        return text


# A game found by its id (domain/games.py): its state, commands and events are known at run time only.
AnyGame = Game[Any, Any, Any]
