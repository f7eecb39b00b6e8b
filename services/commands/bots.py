"""Bot seats: played by the projection job right after it writes a match's views, each bot
deciding from its seat's view envelope (what that seat's player would see) and its legal commands only. The
same job sends the commands a person's own private setting sends for it (``Game.automatic``:
Taverna's "always pass"), each as that seat's command in entries of its own.

Played there, a bot turn is under the projector's lease: a worker killed after the views and
before the bot's command is redone by the next job, and the idempotency key stops a double."""

from __future__ import annotations

from typing import Any, Generic, TypeVar

import msgspec

from domain.games import fallback_bot, make_bot
from domain.kernel import Rng
from domain.kernel.online import bot_seats
from projections.views import field
from services.commands.handling import Handler
from services.commands.matches import Match
from services.commands.outcomes import Accepted
from services.commands.timeouts import deserted
from services.ops import logs

V = TypeVar("V")
log = logs.get("tavern.bots")


class SeatView(msgspec.Struct, Generic[V]):
    """The part of a stored view envelope a bot reads, decoded into the game's own types."""

    version: int
    view: V


def idempotency_key(version: int) -> str:
    """A bot's idempotency key for its turn in the views at ``version`` (the archiver deletes them)."""
    return f"bot:{version}"


class Bots:
    def __init__(self, handler: Handler) -> None:
        self.handler = handler
        self._types: dict[str, Any] = {}

    async def play(self, match: Match, version: int, views: dict[str, bytes], state: Any) -> None:
        """Every bot seat that may act in these views (just written, at ``version``, of ``state``)
        sends one command: those created as bots and those the log has handed to a bot since."""
        game = match.game
        decoder = self._types.get(game.id)
        if decoder is None:
            view: Any = SeatView[game.view_type]  # type: ignore[name-defined]  # generic at run time
            decoder = self._types[game.id] = msgspec.json.Decoder(view)
        if deserted(match, state):
            return  # every person has gone: the bots do not play on for nobody (timeouts.py abandons it)
        played = {*match.bots, *bot_seats(state)}
        for seat in sorted(played):
            # the seat's legal commands (its player's envelope shows none while a bot plays it)
            legal = game.legal(state, seat)
            if not legal:
                continue
            seen = decoder.decode(views[field(seat)])  # the seat's own view: all a bot may know
            # a seat created as a bot plays the kind the match was created with; a person's seat
            # handed to a bot (left, timed out for good, conceded) the strongest the game has
            kind = match.bot_kind if seat in match.bots else fallback_bot(game, match.setup)
            bot = make_bot(game, kind, match.setup.options)
            command = bot.choose(seen.view, legal, Rng(match.seed, version, f"bot:{seat}"))
            await self.send(match, seat, command, version)
        if game.automatic is not None:
            for seat in sorted(set(range(match.setup.seats)) - played):
                if (command := game.automatic(state, seat)) is not None:
                    await self.send(match, seat, command, version)

    async def send(self, match: Match, seat: int, command: Any, version: int) -> None:
        # the key makes a redo (a worker killed after sending) send nothing twice
        outcome = await self.handler.submit(match, seat, command, idempotency=idempotency_key(version), system=True)
        if not isinstance(outcome, Accepted):
            log.info("bot_refused", match_id=match.id, seat=seat, code=outcome.code)
