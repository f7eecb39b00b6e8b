"""Each player's own events (``keys.player_events``): a capped Redis stream on the player's shard,
which the player's event stream reads (docs/bots.md): challenges, their answers, matches started."""

from __future__ import annotations

from typing import Any

from services.store import keys, resp
from services.store.clients import Events
from services.store.connections import link_to
from services.store.event_store import reply

EVENTS_KEPT = 100  # a player's newest events kept (a stream that reconnects resumes within them)
EVENTS_KEPT_S = 86_400  # a player's events lapse a day after the newest


class PlayerEvents:
    def __init__(self, redis: Events, link: resp.Link | None = None) -> None:
        self.redis = redis
        self.link = link or link_to(redis)

    async def push(self, player_id: str, event: bytes) -> None:
        """One more event (JSON) on the player's stream: the oldest beyond ``EVENTS_KEPT`` dropped."""
        key = keys.player_events(player_id)
        await self.redis.xadd(key, {"e": event}, maxlen=EVENTS_KEPT, approximate=False)
        await self.redis.expire(key, EVENTS_KEPT_S)

    async def events(self, player_id: str, after: str, count: int) -> list[tuple[str, bytes]]:
        """The player's events after the id ``after`` ("0-0": from the oldest kept), at most ``count``:
        (id, event JSON), oldest first."""
        command: list[Any] = ["XRANGE", keys.player_events(player_id), f"({after}", "+", "COUNT", count]
        (entries,) = await self.link.exchange([command], True)
        found = []
        for entry_id, flat in reply(entries):
            fields = dict(zip(flat[::2], flat[1::2], strict=True))
            found.append((entry_id.decode(), fields[b"e"]))
        return found
