"""Which seats of a match turned due with its latest projection (it became their turn), for the
notifications (services/commands/notifications.py), from the projector's one turn check
(services/commands/turns.py); each due seat's mark keeps the version it turned due at, so a redo,
or a later version of the same turn, is no new turn."""

from __future__ import annotations

from services.commands.matches import Match
from services.commands.turns import Turns
from services.store.notifications import NotificationBook


async def seats_turned_due(book: NotificationBook, match: Match, now: Turns) -> dict[int, int]:
    """The registered players' seats that turned due since the match was last seen (seat -> the
    version of this turn), its marks brought up to date; none once it has ended."""
    due = {seat for seat in match.players if seat in now.due}
    marks = await book.turns(match.id)
    turned = {seat: now.version for seat in due if seat not in marks}
    await book.mark_turns(match.id, turned, [seat for seat in marks if seat not in due])
    return turned
