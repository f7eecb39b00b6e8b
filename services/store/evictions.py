"""The one DEL that takes an archived match out of the events' Redis (services/projector/archiver.py):
its log, views and meta, its table chat (archived beside the export), the tournament it was a table
of, and the idempotency records it can name, all at once (a reader then finds the match in the
archive)."""

from __future__ import annotations

from collections.abc import Iterable

from services.store import keys
from services.store.chat import CHANNELS
from services.store.clients import Events


class Evictions:
    def __init__(self, redis: Events) -> None:
        self.redis = redis  # the events' Redis

    async def evict(self, match_id: str, idempotency: Iterable[tuple[int, str]]) -> None:
        """One DEL: the match's log, views, meta, chat, tournament and the idempotency records of ``(seat, key)``."""
        named = sorted({keys.idempotency(match_id, seat, key) for seat, key in idempotency})
        chat = keys.chat_keys(match_id, CHANNELS)
        own = keys.log(match_id), keys.views(match_id), keys.meta(match_id), keys.match_tournament(match_id)
        await self.redis.delete(*own, *chat, *named)

