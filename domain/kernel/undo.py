"""Undo, in the Board Game Arena spirit: a seat takes back its own last command while nothing hidden
was revealed, nothing random drawn and no other seat acted since (domain/kernel/online.py wires it).

The fold keeps, for the last ``TRAIL`` events, the state each one was folded onto (``Step``); an
``Undone`` event names how many events it takes back and the fold returns to the state before
them, so a replay, the projector and the audit reach the same state from the log alone.

Which events may be taken back is each game's ruling (``Game.undoable``, stated with its reason in
the game's RULINGS.md); on top of it, whatever a game allows, nothing hidden from a seat before the
command may be visible to it after (the game's own ``hidden``). That the events taken back are one
command of the seat undoing, the last in the log, is a fact of the log, not of the state: the
service fills ``Undo.events`` in from its log (services/commands/folds.py) and ``tavern audit``
checks it against the log's entries (projections/audit.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from domain.kernel.errors import RulesError
from domain.kernel.game import AnyGame, Command, Event, Seat
from domain.kernel.rng import Rng

TRAIL = 16  # events whose prior state the fold keeps: a command of more events cannot be taken back


class Undo(Command, frozen=True):
    # the events of the seat's last command, the last in the log: filled in by the service from the
    # log (a client sends ``{"type": "Undo"}``), checked against the log by the audit
    events: int = 0


class Undone(Event, frozen=True):
    seat: Seat
    events: int  # the events taken back: the fold returns to the state before them


class Step(msgspec.Struct, frozen=True):
    """One event of the trail and the state it was folded onto (without a trail of its own)."""

    before: Any
    event: Any


def only(*kinds: type) -> Callable[[Any, Sequence[Any], Any], bool]:
    """A game's ``undoable``: a command may be taken back when each of its events is of these kinds."""
    allowed = frozenset(kinds)

    def undoable(before: Any, events: Sequence[Any], after: Any) -> bool:
        return all(type(event) in allowed for event in events)

    return undoable


def nothing_revealed(game: AnyGame, seats: int, before: Any, after: Any) -> bool:
    """Whether every seat (and a spectator) is kept from all it was kept from before: a card drawn,
    turned up or played from a hand is seen by someone who did not see it."""
    return all(game.hidden(before, seat) <= game.hidden(after, seat) for seat in [*range(seats), None])


def undoer(game: AnyGame, state: Any, last: tuple[Seat, int] | None, asking: Seat | None = None) -> Seat | None:
    """The seat that may send Undo now (its view shows it), given the log's last own move (``undo_for``);
    ``asking``: only that seat's envelope is built, so the rules are not asked if it is not the mover."""
    if last is None or (asking is not None and asking != last[0]):
        return None
    try:
        game.decide(state, Undo(events=last[1]), last[0], Rng("undo", 0))  # an undo draws nothing
    except RulesError:
        return None
    return last[0]


def undo_for(last: tuple[Seat, int] | None, seat: Seat) -> Undo:
    """The ``Undo`` of ``seat``, given the seat and event count of the log's last command when it is
    a seat's own move (None: the log ends with anything else: an opening, an undo, the service's)."""
    if last is None or last[0] != seat:
        raise RulesError("nothing_to_undo", "the last move in the log is not this seat's own: there is nothing "
                         "to take back")
    return Undo(events=last[1])
