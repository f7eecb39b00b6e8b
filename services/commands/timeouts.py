"""Timeouts: every process's sweeper sends ``TimedOut`` for the seats whose deadline has passed,
and ``Abandon`` for the matches nobody plays any more.

The deadlines wait in Redis (services/store/deadlines.py, kept by the projector), so whichever process
sweeps first after a deadline acts on it, and a restart loses none. Each timeout is a command like
any other, decided by the rules core, appended at the version its deadline was read at (a seat
that moved meanwhile is not timed out) and under an idempotency key (two sweepers time a seat out
once).

A match is abandoned in one way, whatever the reason: ``Abandon`` through the command path, so the
log ends with ``Abandoned`` (no winner, not rated) that replays and ``tavern audit`` see. Two
things lead there: every seat a person played has walked away and a grace period has passed
(here), or nothing happened in the match for the idle limit (services/projector/archiver.py).
"""

from __future__ import annotations

from typing import Any

from domain.games import fallback_bot
from domain.kernel import Command
from domain.kernel.online import Abandon, TakeVacation, TimedOut, bot_label, bot_seats, left_seats
from services.commands import clocks
from services.commands.folds import Folded, Folds
from services.commands.handling import Handler
from services.commands.matches import Match, Matches
from services.commands.outcomes import Accepted, Outcome
from services.ops import logs
from services.store.deadlines import Deadlines

log = logs.get("tavern.timeouts")
GRACE_S = 120.0  # how long a match whose every played seat has gone waits for one to come back


def deserted(match: Match, state: Any) -> bool:
    """Every seat a person played has walked away (Leave): the bots wait for the grace period,
    then the match is abandoned. (A seat taken over for its timeouts has not walked away: the
    bots play it on.)"""
    people = set(range(match.setup.seats)) - set(match.bots)
    return bool(people) and people <= left_seats(state) and match.game.result(state) is None


def deadlines(match: Match, folded: Folded) -> dict[int, float]:
    """Each played seat's deadline (bots have none), for the seats that must act: a seat shown due
    by a sealed prompt it has answered already has nothing to time out (clocks.py)."""
    if match.clock is None:
        return {}
    bots = {*match.bots, *bot_seats(folded.state)}
    return {
        seat: deadline
        for seat, seat_clock in enumerate(folded.clocks)
        if seat not in bots and (deadline := clocks.deadline(match.clock, seat_clock)) is not None
        and match.game.legal(folded.state, seat)
    }


def overdue(clock: clocks.ClockOption, seat_clock: clocks.SeatClock, match: Match) -> Command:
    """What the service sends for a seat past its deadline: a vacation day while it has one left
    (correspondence clocks), else a timeout."""
    if clocks.vacation_left(clock, seat_clock):
        return TakeVacation(allowance=clock.vacation_days)
    bot = bot_label(match.game, fallback_bot(match.game, match.setup))  # its generation too: the audit's to match
    return TimedOut(limit=clock.limit, forfeit=clock.forfeit, bot=bot)


class Timeouts:
    def __init__(
        self, deadlines: Deadlines, matches: Matches, folds: Folds, handler: Handler, grace_s: float = GRACE_S
    ) -> None:
        self.grace_s = grace_s
        self.clocks = deadlines.clocks
        self.abandonments = deadlines.abandonments
        self.matches = matches
        self.folds = folds
        self.handler = handler

    async def sweep(self, now: float, batch: int = 100) -> int:
        """Time out every seat whose deadline is before ``now``, abandon every deserted match whose
        grace period is over; answers how many commands were appended."""
        count = await self._abandon(now, batch)
        for match_id in await self.clocks.due(now, batch):
            match = await self.matches.get(match_id)
            if match is None or match.clock is None:
                await self.clocks.drop(match_id)
                continue
            count += await self._match(match, now)
        return count

    async def deserted(self, match: Match, now: float) -> None:
        """After the views of a deserted match: abandon it after the grace period (kept once)."""
        await self.abandonments.set_once(match.id, now + self.grace_s)

    async def _abandon(self, now: float, batch: int) -> int:
        count = 0
        for match_id in await self.abandonments.due(now, batch):
            match = await self.matches.get(match_id)
            if match is not None:
                folded = await self.folds.load(match)
                if deserted(match, folded.state):
                    if not isinstance(await self.abandon(match, folded, "deserted"), Accepted):
                        continue  # it moved: looked at again on the next sweep
                    count += 1
            await self.abandonments.drop(match_id)
        return count

    async def abandon(self, match: Match, folded: Folded, why: str) -> Outcome:
        """Append ``Abandoned`` at the version read (a match that moved meanwhile is not abandoned)."""
        answer = await self.handler.submit(
            match, 0, Abandon(), expected=folded.version, idempotency=f"abandon:{folded.version}", system=True
        )
        log.info("abandon", match_id=match.id, why=why, accepted=isinstance(answer, Accepted))
        return answer

    async def abandon_idle(self, match: Match) -> str:
        """End a match nobody touched for the idle limit: "abandoned", or "moved" (an event came
        meanwhile), or "ended" (it had, or was closed by the meta's mark of an earlier version)."""
        if match.ended:
            return "ended"
        folded = await self.folds.load(match)
        if match.game.result(folded.state) is not None:
            return "ended"
        return "abandoned" if isinstance(await self.abandon(match, folded, "idle"), Accepted) else "moved"

    async def track(self, match: Match, folded: Folded) -> None:
        """After a clocked match's views are written: keep its earliest deadline for the sweepers."""
        due = deadlines(match, folded)
        if due:
            await self.clocks.set(match.id, min(due.values()))
        else:
            await self.clocks.drop(match.id)

    async def _match(self, match: Match, now: float) -> int:
        folded = await self.folds.load(match)
        version, count = folded.version, 0
        assert match.clock is not None
        for seat, deadline in sorted(deadlines(match, folded).items()):
            if deadline > now:
                continue
            command = overdue(match.clock, folded.clocks[seat], match)
            answer = await self.handler.submit(
                match, seat, command, expected=version, idempotency=f"timeout:{version}", system=True
            )
            event = "vacation_taken" if isinstance(command, TakeVacation) else "timed_out"
            log.info(event, match_id=match.id, seat=seat, accepted=isinstance(answer, Accepted))
            if not isinstance(answer, Accepted):
                return count  # the match moved: the projector writes its new deadline
            version = answer.version
            count += 1
        if count == 0:
            await self.track(match, folded)  # nothing overdue after all: a seat acted in time
        return count
