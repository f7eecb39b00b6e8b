"""The quota of open matches per creator (docs/LIMITS.md): each creation takes a slot from every
holder it names (its client address, its player, its API key), or from none; a slot is given back
when the match finishes, is abandoned, archived or closed in the lobby.

The slots live on the queue's Redis (global keys, beside the rate buckets: a plain Redis even in
cluster mode), one zset per holder, taken in one script (open_matches.lua), so the quota holds
across every gateway. Nothing leaks for good: a slot lapses once its match would have been ended
as idle, and a holder found full first gives back the slots of its oldest matches that are no
longer open (finished, ended, closed, gone from Redis, or never created: a gateway that died
between taking a slot and writing the match).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from services.commands import tokens
from services.commands.refused import Refused
from services.store import keys

_SCRIPT = (Path(__file__).parent / "open_matches.lua").read_text()
PENDING_S = 60.0  # a slot whose match is not in Redis yet is a creation under way this long
RECONCILED = 100  # how many of a full holder's oldest slots are looked at before refusing


@dataclass(frozen=True, slots=True)
class Holder:
    name: str  # in keys and in the match's meta: a digest, never an address, token or key itself
    quota: int


def holder(kind: str, who: str, quota: int) -> Holder:
    return Holder(f"{kind}:{tokens.digest(who)[:24]}", quota)


class OpenMatches:
    def __init__(self, queue: Any, events: Any, hold_s: float) -> None:
        self.queue = queue  # the slots, and the finished matches (keys.FINISHED)
        self.events = events  # the matches' metas
        self.hold_ms = max(1, round(hold_s * 1000))
        self._take = queue.register_script(_SCRIPT)

    async def take(self, match_id: str, holders: Iterable[Holder]) -> None:
        """A slot of each holder with a quota, or the API's 429 ``open_matches_quota``."""
        counted = [held for held in holders if held.quota > 0]
        if not counted:
            return
        names = [keys.open_matches(held.name) for held in counted]
        args = [match_id, self.hold_ms, *(held.quota for held in counted)]
        for attempt in range(2):
            full = int(await self._take(keys=names, args=args))
            if not full:
                return
            if attempt == 0 and not await self.reconcile(counted[full - 1].name):
                break  # every slot looked at is a match still open: no second try
        raise Refused(429, "open_matches_quota", f"at most {counted[full - 1].quota} open matches per creator: "
                      "finish, leave or wait out one first")

    async def release(self, match_id: str, names: Iterable[str]) -> None:
        names = list(names)
        if names:
            async with self.queue.pipeline(transaction=False) as pipe:
                for name in names:
                    pipe.zrem(keys.open_matches(name), match_id)
                await pipe.execute()

    async def reconcile(self, name: str) -> int:
        """Give back the slots among the holder's oldest whose match is no longer open; how many."""
        key = keys.open_matches(name)
        slots = await self.queue.zrange(key, 0, RECONCILED - 1, withscores=True)
        if not slots:
            return 0
        seconds, micros = await self.queue.time()
        pending_since_ms = seconds * 1000 + micros // 1000 - PENDING_S * 1000
        ids = [raw.decode() for raw, _ in slots]
        metas = await asyncio.gather(*(self.events.hmget(keys.meta(match_id), ["game", "ended", "lobby"])
                                       for match_id in ids))
        async with self.queue.pipeline(transaction=False) as pipe:
            for match_id in ids:
                pipe.zscore(keys.FINISHED, match_id)
            finished = await pipe.execute()
        gone = [
            match_id
            for match_id, (_, taken_ms), (game, ended, lobby), done in zip(ids, slots, metas, finished, strict=True)
            if (game is None and taken_ms < pending_since_ms) or ended or lobby == b"cancelled" or done is not None
        ]
        if gone:
            await self.queue.zrem(key, *gone)
        return len(gone)
