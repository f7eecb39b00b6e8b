"""Clocks (docs/online-play.md): a match option ``clock: {"per_move_s": 60, "bank_s": 300}``.

Each seat's clock is folded from the log's own times, never from a timer: a seat turns due at the
time of the entry after which it has legal commands, and stops being due at the entry after which
it has none. Time beyond ``per_move_s`` comes off its bank. Its deadline is then
``due_since + per_move_s + bank``; once that has passed, the service sends the rules core a
``TimedOut`` for the seat (services/commands/timeouts.py). Simultaneous phases time every seat
that has not acted, each on its own clock.

A sealed prompt (``Game.sealed``: Taverna's instant-spell answers) shows nothing of who has answered:
every seat it asks is due from its opening to its close, answered or not, so each is charged the
prompt's whole time, and all show one deadline, the earliest of theirs. At that deadline the seats
still owing an answer are timed out (the others have no legal command: nothing to time out).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec

from domain.kernel import Game, RulesError
from domain.kernel.online import SeatTimedOut

WEEK_S = 7 * 86400


class ClockOption(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    per_move_s: float
    bank_s: float = 0.0
    limit: int = 3  # timeouts in a row before the seat is given up
    forfeit: bool = False  # at the limit: the seat concedes (True) or a bot plays it for good (False)


class ClockView(msgspec.Struct):
    """A seat's clock as the envelope shows it (unix seconds)."""

    deadline: float | None  # None while the seat has nothing to do
    bank_s: float


@dataclass(frozen=True, slots=True)
class SeatClock:
    due_since: float | None
    bank: float
    until: float | None = None  # asked by an open sealed prompt: the prompt's deadline, shared by all asked


def option(raw: dict[str, Any] | None) -> ClockOption | None:
    """The checked clock option, or a RulesError ``bad_clock``."""
    if not raw:
        return None
    try:
        clock = msgspec.convert(raw, ClockOption)
    except msgspec.ValidationError as problem:
        raise RulesError("bad_clock", "clock: {problem}", problem=str(problem)) from problem
    if not 5 <= clock.per_move_s <= WEEK_S or not 0 <= clock.bank_s <= WEEK_S or not 1 <= clock.limit <= 20:
        raise RulesError("bad_clock", "clock: per_move_s 5 to {week}, bank_s 0 to {week}, limit 1 to 20", week=WEEK_S)
    return clock


def start(clock: ClockOption, seats: int) -> tuple[SeatClock, ...]:
    return tuple(SeatClock(None, clock.bank_s) for _ in range(seats))


def sealed_seats(game: Game, state: Any) -> set[int]:
    """The seats an open sealed prompt asks (``Game.sealed``), none once the match is over."""
    return set(game.sealed(state)) if game.sealed is not None and game.result(state) is None else set()


def is_due(game: Game, state: Any, seat: int, sealed: set[int]) -> bool:
    """Whether the seat's clock runs, as every seat sees it: it has legal commands, or a sealed
    prompt asks it (answered or not)."""
    return game.result(state) is None and (seat in sealed or bool(game.legal(state, seat)))


def advance(
    game: Game, clock: ClockOption, clocks: tuple[SeatClock, ...], state: Any, now: float, events: list[Any]
) -> tuple[SeatClock, ...]:
    """The clocks after one command's entries (``events``, appended at ``now``) led to ``state``."""
    timed_out = {event.seat for event in events if isinstance(event, SeatTimedOut)}
    sealed = sealed_seats(game, state)
    out = []
    for seat, was in enumerate(clocks):
        due = is_due(game, state, seat, sealed)
        if seat in timed_out:  # its bank is spent; a move still owed gets a fresh per-move window
            out.append(SeatClock(now if due else None, 0.0))
        elif was.due_since is None:
            out.append(SeatClock(now if due else None, was.bank))
        elif due:
            out.append(was)
        else:
            overtime = max(0.0, now - was.due_since - clock.per_move_s)
            out.append(SeatClock(None, max(0.0, was.bank - overtime)))
    if not sealed:
        return tuple(out)
    shared = min(_own_deadline(clock, out[seat]) for seat in sealed)
    return tuple(SeatClock(c.due_since, c.bank, shared if seat in sealed else None) for seat, c in enumerate(out))


def _own_deadline(clock: ClockOption, seat_clock: SeatClock) -> float:
    assert seat_clock.due_since is not None
    return seat_clock.due_since + clock.per_move_s + seat_clock.bank


def deadline(clock: ClockOption, seat_clock: SeatClock) -> float | None:
    if seat_clock.due_since is None:
        return None
    return seat_clock.until if seat_clock.until is not None else _own_deadline(clock, seat_clock)


def shown(clock: ClockOption, seat_clock: SeatClock) -> ClockView:
    return ClockView(deadline(clock, seat_clock), seat_clock.bank)
