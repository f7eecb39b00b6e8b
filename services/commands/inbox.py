"""A registered player's inbox (docs/online-play.md): its running matches, those where it is its
turn and those waiting on others, each ordered by the time left. Kept by the projector from each
match's turns (services/projector/turns.py) in the player's own keys (services/store/inbox.py)."""

from __future__ import annotations

import math

import msgspec

from services.commands.matches import Match
from services.commands.turns import Turns
from services.store.inbox import InboxEntry, Inboxes


class InboxPage(msgspec.Struct):
    revision: int  # moves with every change (the stream's event id)
    your_turn: list[InboxEntry]  # the least time left first; matches without a clock last, longest waiting first
    waiting: list[InboxEntry]  # ordered the same way, by the deadline of the seats waited on


def _order(entry: InboxEntry) -> tuple[float, float, str]:
    return (math.inf if entry.deadline is None else entry.deadline, entry.since, entry.match_id)


class Inbox:
    def __init__(self, inboxes: Inboxes) -> None:
        self.inboxes = inboxes

    async def page(self, player_id: str) -> InboxPage:
        revision = await self.inboxes.revision(player_id)
        entries = sorted(await self.inboxes.entries(player_id), key=_order)
        return InboxPage(revision, [e for e in entries if e.your_turn], [e for e in entries if not e.your_turn])

    async def revision(self, player_id: str) -> int:
        return await self.inboxes.revision(player_id)

    async def project(self, match: Match, turns: Turns) -> None:
        """Each registered player's entry for the match at these turns: its seat due (its own
        deadline) or waiting (the earliest deadline of the seats due); taken out once the match
        is over or a bot plays the seat."""
        waiting = turns.waiting_deadline()
        for seat, player_id in sorted(match.players.items()):
            if turns.finished or seat in turns.bots:
                await self.inboxes.remove(player_id, match.id, turns.version)
                continue
            mine = seat in turns.due
            entry = InboxEntry(match.id, match.game.id, seat, turns.version, mine,
                               turns.due[seat] if mine else waiting, turns.time)
            await self.inboxes.put(player_id, entry)
