"""Who sits where, for the envelope's ``players``: names, bots and clocks. Whether a seat has an
open stream is the gateway's to say as it sends the envelope (services/gateway/presence.py)."""

from __future__ import annotations

import asyncio

from domain.kernel.online import bot_seats, taken_reason
from projections.views import TablePlayer
from services.commands import clocks
from services.commands.folds import Folded
from services.commands.matches import Match
from services.commands.players import Players, at_table


class Seating:
    def __init__(self, players: Players) -> None:
        self.players = players

    async def names(self, match: Match) -> list[str | None]:
        """The seats' names as the table shows them (None: no registered player), for the narration."""
        seats = range(match.setup.seats)
        if not match.players:  # no registered player: no name to read (a gather's tasks cost more than the views)
            return [None] * match.setup.seats
        return at_table(list(await asyncio.gather(*(self.players.name(match.players.get(seat)) for seat in seats))))

    async def of(self, match: Match, folded: Folded) -> list[TablePlayer]:
        seats = range(match.setup.seats)
        bots = {*match.bots, *bot_seats(folded.state)}
        names = await self.names(match)
        out = []
        for seat in seats:
            clock = None
            if match.clock is not None and folded.clocks and seat not in bots:
                clock = clocks.shown(match.clock, folded.clocks[seat])
            taken = taken_reason(folded.state, seat)
            out.append(TablePlayer(seat, names[seat], seat in bots, False, clock, taken, match.players.get(seat)))
        return out
