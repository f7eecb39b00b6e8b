"""Bot seats: each bot decides from its seat's view (as stored for that seat) and legal only."""

from __future__ import annotations

from typing import Any, Generic, TypeVar

import msgspec

from domain.games import make_bot
from domain.kernel import Rng
from projections.views import field
from services import logs
from services.handling import Handler
from services.matches import Matches
from services.store import EventStore

V = TypeVar("V")
C = TypeVar("C")
log = logs.get("tavern.bots")


class SeatView(msgspec.Struct, Generic[V, C]):
    """The part of a stored view envelope a bot reads, decoded into the game's own types."""

    version: int
    view: V
    legal: list[C]


class Bots:
    def __init__(self, matches: Matches, store: EventStore, handler: Handler) -> None:
        self.matches = matches
        self.store = store
        self.handler = handler
        self._types: dict[str, Any] = {}

    async def play(self, match_id: str, version: int) -> None:
        """Every bot seat that may act in the views of ``version`` sends one command."""
        match = await self.matches.get(match_id)
        if match is None:
            return
        game = match.game
        decoder = self._types.get(game.id)
        if decoder is None:
            decoder = self._types[game.id] = msgspec.json.Decoder(SeatView[game.view_type, game.command_type])
        for seat in match.bots:
            raw = await self.store.view(match_id, field(seat))
            if raw is None:
                continue
            seen = decoder.decode(raw)
            if seen.version != version or not seen.legal:
                continue  # a newer projection queues its own bot job
            bot = make_bot(game, match.bot_kind)
            command = bot.choose(seen.view, seen.legal, Rng(match.seed, version, f"bot:{seat}"))
            # the key makes a redone job (a worker killed after sending) send nothing twice
            answer = await self.handler.submit(match, seat, command, idempotency=f"bot:{version}")
            if answer.status != 200:
                log.info("bot_refused", match_id=match_id, seat=seat, status=answer.status)
