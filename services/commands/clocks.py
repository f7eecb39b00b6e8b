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

A correspondence clock (an hour or more per move, e.g. ``per_move_s: 259200`` for three days) may
give each seat ``vacation_days``: at a deadline, a seat with days left takes one (``VacationTaken``,
sent by the service as ``TakeVacation``) rather than timing out, and its deadline for that move moves
a day later; only once they are spent does it time out.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import msgspec

from domain.kernel import Game, RulesError
from domain.kernel.online import SeatTimedOut, VacationTaken

DAY_S = 86400
WEEK_S = 7 * DAY_S
MAX_PER_MOVE_S = 14 * DAY_S  # lichess's longest correspondence clock
CORRESPONDENCE_S = 3600  # a clock of an hour or more per move is a correspondence clock: vacation days allowed
MAX_VACATION_DAYS = 30


class ClockOption(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    per_move_s: float
    bank_s: float = 0.0
    limit: int = 3  # timeouts in a row before the seat is given up
    forfeit: bool = False  # at the limit: the seat concedes (True) or a bot plays it for good (False)
    vacation_days: int = 0  # correspondence: days each seat may add, one at a deadline, before timing out


class ClockView(msgspec.Struct):
    """A seat's clock as the envelope shows it (unix seconds)."""

    deadline: float | None  # None while the seat has nothing to do
    bank_s: float
    vacation_days_left: int = 0


@dataclass(frozen=True, slots=True)
class SeatClock:
    due_since: float | None
    bank: float
    until: float | None = None  # asked by an open sealed prompt: the prompt's deadline, shared by all asked
    vacation_s: float = 0.0  # vacation days taken for the move owed now, in seconds
    vacation_days: int = 0  # vacation days taken in the match


def option(raw: dict[str, Any] | None) -> ClockOption | None:
    """The checked clock option, or a RulesError ``bad_clock``."""
    if not raw:
        return None
    try:
        clock = msgspec.convert(raw, ClockOption)
    except msgspec.ValidationError as problem:
        raise RulesError("bad_clock", "clock: {problem}", problem=str(problem)) from problem
    if not 5 <= clock.per_move_s <= MAX_PER_MOVE_S or not 0 <= clock.bank_s <= WEEK_S or not 1 <= clock.limit <= 20:
        raise RulesError("bad_clock", "clock: per_move_s 5 to {most}, bank_s 0 to {week}, limit 1 to 20",
                         most=MAX_PER_MOVE_S, week=WEEK_S)
    if not 0 <= clock.vacation_days <= MAX_VACATION_DAYS or (clock.vacation_days and not correspondence(clock)):
        raise RulesError("bad_clock", "clock: vacation_days 0 to {most}, and only with {hour} s or more per move",
                         most=MAX_VACATION_DAYS, hour=CORRESPONDENCE_S)
    return clock


def correspondence(clock: ClockOption) -> bool:
    return clock.per_move_s >= CORRESPONDENCE_S


def vacation_left(clock: ClockOption, seat_clock: SeatClock) -> int:
    return max(0, clock.vacation_days - seat_clock.vacation_days)


def start(clock: ClockOption, seats: int) -> tuple[SeatClock, ...]:
    return tuple(SeatClock(None, clock.bank_s) for _ in range(seats))


def _sealed(game: Game, state: Any) -> set[int]:
    """The seats an open sealed prompt asks (``Game.sealed``), none once the match is over."""
    return set(game.sealed(state)) if game.sealed is not None and game.result(state) is None else set()


def due_seats(game: Game, state: Any, seats: int) -> frozenset[int]:
    """Whose turn it is: the one answer the service gives, to the clocks here and, through
    services/commands/turns.py, to the inboxes and the notifications. The seats with legal commands,
    and every seat an open sealed prompt asks, answered or not: no seat learns who has answered from
    another's clock, inbox entry or notification. None once the match is over."""
    if game.result(state) is not None:
        return frozenset()
    sealed = _sealed(game, state)
    return frozenset(seat for seat in range(seats) if seat in sealed or game.legal(state, seat))


def advance(
    game: Game, clock: ClockOption, clocks: tuple[SeatClock, ...], state: Any, now: float, events: list[Any]
) -> tuple[SeatClock, ...]:
    """The clocks after one command's entries (``events``, appended at ``now``) led to ``state``."""
    timed_out = {event.seat for event in events if isinstance(event, SeatTimedOut)}
    vacations = {event.seat: event.day for event in events if isinstance(event, VacationTaken)}
    sealed, due_now = _sealed(game, state), due_seats(game, state, len(clocks))
    out = []
    for seat, was in enumerate(clocks):
        due = seat in due_now
        if seat in vacations:  # a day more for the move it owes, counted from its deadline, not the sweep
            out.append(SeatClock(was.due_since, was.bank, None, was.vacation_s + DAY_S, vacations[seat]))
        elif seat in timed_out:  # its bank is spent; a move still owed gets a fresh per-move window
            out.append(SeatClock(now if due else None, 0.0, vacation_days=was.vacation_days))
        elif was.due_since is None:
            out.append(SeatClock(now if due else None, was.bank, vacation_days=was.vacation_days))
        elif due:
            out.append(was)
        else:
            overtime = max(0.0, now - was.due_since - clock.per_move_s - was.vacation_s)
            out.append(SeatClock(None, max(0.0, was.bank - overtime), vacation_days=was.vacation_days))
    if not sealed:
        return tuple(out)
    shared = min(_own_deadline(clock, out[seat]) for seat in sealed)
    return tuple(replace(c, until=shared if seat in sealed else None) for seat, c in enumerate(out))


def _own_deadline(clock: ClockOption, seat_clock: SeatClock) -> float:
    assert seat_clock.due_since is not None
    return seat_clock.due_since + clock.per_move_s + seat_clock.bank + seat_clock.vacation_s


def deadline(clock: ClockOption, seat_clock: SeatClock) -> float | None:
    if seat_clock.due_since is None:
        return None
    return seat_clock.until if seat_clock.until is not None else _own_deadline(clock, seat_clock)


def shown(clock: ClockOption, seat_clock: SeatClock) -> ClockView:
    return ClockView(deadline(clock, seat_clock), seat_clock.bank, vacation_left(clock, seat_clock))
