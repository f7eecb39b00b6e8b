"""Who sits where, for the envelope's ``players``: names, bots, open streams and clocks."""

from __future__ import annotations

from typing import Any

from domain.kernel.online import bot_seats
from projections.views import TablePlayer
from services.commands import clocks
from services.commands.folds import Folded
from services.commands.matches import Match
from services.commands.players import Players
from services.store import keys


class Seating:
    def __init__(self, redis: Any, players: Players) -> None:
        self.redis = redis
        self.players = players

    async def of(self, match: Match, folded: Folded) -> list[TablePlayer]:
        seats = range(match.setup.seats)
        here = await self.redis.mget([keys.presence(match.id, seat) for seat in seats])
        bots = {*match.bots, *bot_seats(folded.state)}
        out = []
        for seat in seats:
            player_id = match.players.get(seat)
            player = await self.players.get(player_id) if player_id else None
            clock = None
            if match.clock is not None and folded.clocks and seat not in bots:
                clock = clocks.shown(match.clock, folded.clocks[seat])
            out.append(TablePlayer(seat, player.name if player else None, seat in bots, here[seat] is not None, clock))
        return out
