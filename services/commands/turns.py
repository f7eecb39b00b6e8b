"""Whose turn it is at a projected entry, and which seats turned due there. The projector calls
``turns`` once per projected match with registered players (services/projector/projector.py): the
one point where the service learns that a seat must move. The inbox and the notifications
(services/projector/turns.py) are both kept from it, and whatever else must hear of a turn hooks
onto the same point and ``turned_due``. A seat is due while its clock runs
(``clocks.is_due``): it has legal commands, or a sealed prompt asks it."""

from __future__ import annotations

from dataclasses import dataclass

from domain.kernel.online import bot_seats
from services.commands import clocks
from services.commands.folds import Folded
from services.commands.matches import Match


@dataclass(frozen=True, slots=True)
class Turns:
    """The seats that must move at one version of a match, each with its deadline (None without a
    clock); none once the match is over."""

    version: int
    time: float  # the entry's
    due: dict[int, float | None]
    finished: bool
    bots: frozenset[int]  # seats a bot plays (created as bots, or taken over): no person's turn

    def waiting_deadline(self) -> float | None:
        """The earliest deadline of the seats due: when the match moves at the latest."""
        found = [deadline for deadline in self.due.values() if deadline is not None]
        return min(found) if found else None


def turns(match: Match, folded: Folded) -> Turns:
    game, state = match.game, folded.state
    finished = game.result(state) is not None
    due: dict[int, float | None] = {}
    if not finished:
        sealed = clocks.sealed_seats(game, state)
        for seat in range(match.setup.seats):
            if clocks.is_due(game, state, seat, sealed):
                clock = folded.clocks[seat] if match.clock is not None and folded.clocks else None
                due[seat] = clocks.deadline(match.clock, clock) if match.clock is not None and clock else None
    bots = frozenset({*match.bots, *bot_seats(state)})
    return Turns(folded.version, folded.last_time, due, finished, bots)


def turned_due(before: Turns | None, after: Turns) -> frozenset[int]:
    """The seats due at ``after`` that were not at ``before`` (every seat due when nothing is known
    of before: a projector's first sight of the match, which may tell a turn again)."""
    return frozenset(after.due) - (frozenset(before.due) if before is not None else frozenset())


def changed(before: Turns | None, after: Turns) -> bool:
    """Whether anything a player's inbox shows moved: who is due, a deadline, the end, a takeover."""
    return before is None or (before.due, before.finished, before.bots) != (after.due, after.finished, after.bots)
