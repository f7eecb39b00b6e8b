"""The sentences of online play's own events (domain/kernel/online.py), the same in every game:
each names the seat's player, as the game's own sentences do."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.kernel.online import Abandoned, Conceded, Reclaimed, SeatTimedOut, StreakEnded, TakenOver, VacationTaken
from domain.kernel.undo import Undone
from projections.narration.names import Names


def _taken_over(e: TakenOver, n: Names) -> str:
    if e.reason == "left":
        return n._("{seat} left the table: a bot plays the seat from now on.", seat=n.seat(e.seat))
    return n._("{seat} ran out of time too often: a bot plays the seat from now on.", seat=n.seat(e.seat))


SENTENCES: dict[type, Callable[[Any, Names], str]] = {
    Conceded: lambda e, n: n._("{seat} conceded.", seat=n.seat(e.seat)),
    TakenOver: _taken_over,
    Reclaimed: lambda e, n: n._("{seat} took the seat back from the bot.", seat=n.seat(e.seat)),
    SeatTimedOut: lambda e, n: n.n_(
        "{seat} ran out of time: a bot chose the move ({count} time in a row).",
        "{seat} ran out of time: a bot chose the move ({count} times in a row).",
        e.streak,
        seat=n.seat(e.seat),
    ),
    StreakEnded: lambda e, n: n._("{seat} is back and played the move themselves.", seat=n.seat(e.seat)),
    Undone: lambda e, n: n._("{seat} took back their last move.", seat=n.seat(e.seat)),
    Abandoned: lambda e, n: n._("The match was abandoned: nobody played it any more."),
    VacationTaken: lambda e, n: n.n_(
        "{seat} ran out of time and took a vacation day: one more day for this move ({count} day taken).",
        "{seat} ran out of time and took a vacation day: one more day for this move ({count} days taken).",
        e.day,
        seat=n.seat(e.seat),
    ),
}
