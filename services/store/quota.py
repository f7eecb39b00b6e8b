"""The open-matches quota's slots (docs/LIMITS.md), on the events' Redis (a cluster's too): one
zset per holder (``keys.open_matches``, hash-tagged by the holder, so the holders spread over the
slots), match id -> ms when its slot was taken (Redis's clock), taken per holder by quota.lua so
that the quota holds across every gateway."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from services.store import keys, resp
from services.store.connections import link_to
from services.store.event_store import Call, reply, run_scripts, script
from services.store.partitions import with_scores

_HERE = Path(__file__).parent
_CLOCK = "local now = redis.call('TIME') return {now[1], now[2]}"


class QuotaSlots:
    def __init__(self, redis: Any, link: resp.Link | None = None) -> None:
        self.link = link or link_to(redis)
        self._take = redis.register_script(script(_HERE / "quota.lua"))
        self._clock = redis.register_script(_CLOCK)

    async def take(self, match_id: str, holders: Sequence[tuple[str, int]], hold_ms: int) -> int:
        """A slot for the match from each holder (name, quota), or from none if one is full: 0 when
        taken, else the 1-based index of the first full holder. Slots older than ``hold_ms`` lapse
        first, and each holder's zset outlives its newest slot by as long. The holders' zsets sit
        on slots of their own: each is taken in turn, and those taken before a full one given back."""
        for index, (name, quota) in enumerate(holders, start=1):
            call = Call(self._take, [keys.open_matches(name)], [match_id, hold_ms, quota])
            (answer,) = await run_scripts(self.link, [call])
            if int(reply(answer)):
                await self.release(match_id, [taken for taken, _ in holders[: index - 1]])
                return index
        return 0

    async def release(self, match_id: str, names: Iterable[str]) -> None:
        """Give the match's slot back to each of these holders."""
        commands = [["ZREM", keys.open_matches(name), match_id] for name in names]
        for answer in await self.link.exchange(commands) if commands else []:
            reply(answer)

    async def oldest(self, name: str, count: int) -> list[tuple[str, float]]:
        """The holder's oldest slots, at most ``count``: (match id, ms when taken)."""
        (answer,) = await self.link.exchange([["ZRANGE", keys.open_matches(name), 0, count - 1, "WITHSCORES"]], True)
        return [(raw.decode(), taken_ms) for raw, taken_ms in with_scores(reply(answer))]

    async def drop(self, name: str, match_ids: Sequence[str]) -> None:
        """Give back these slots of the holder."""
        if match_ids:
            (answer,) = await self.link.exchange([["ZREM", keys.open_matches(name), *match_ids]])
            reply(answer)

    async def clock_ms(self) -> int:
        """Now by the slots' own clock (Redis's: on a cluster, any primary's), in ms."""
        (answer,) = await run_scripts(self.link, [Call(self._clock, [], [])])
        seconds, micros = reply(answer)
        return int(seconds) * 1000 + int(micros) // 1000
