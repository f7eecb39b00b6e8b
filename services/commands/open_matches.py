"""The quota of open matches per creator (docs/LIMITS.md): each creation takes a slot from every
holder it names (its client address, its player, its API key), or from none; a slot is given back
when the match finishes, is abandoned, archived or closed in the lobby.

The slots live on the queue's Redis (services/store/quota.py), taken in one script, so the quota
holds across every gateway. Nothing leaks for good: a slot lapses once its match would have been ended
as idle, and a holder found full first gives back the slots of its oldest matches that are no
longer open (finished, ended, closed, gone from Redis, or never created: a gateway that died
between taking a slot and writing the match) or have had no event for ``idle_s``
(``TAVERN_OPEN_MATCHES_IDLE_S``): idle matches lock their creator out no longer than that, however
long the match itself is kept before it is ended as abandoned.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from services.commands import tokens
from services.commands.refused import Refused
from services.store.lifecycle import Lifecycle
from services.store.match_meta import MatchMetas
from services.store.quota import QuotaSlots

PENDING_S = 60.0  # a slot whose match is not in Redis yet is a creation under way this long
RECONCILED = 100  # how many of a full holder's oldest slots are looked at before refusing


@dataclass(frozen=True, slots=True)
class Holder:
    name: str  # in keys and in the match's meta: a digest, never an address, token or key itself
    quota: int


def holder(kind: str, who: str, quota: int) -> Holder:
    return Holder(f"{kind}:{tokens.digest(who)[:24]}", quota)


class OpenMatches:
    def __init__(
        self, slots: QuotaSlots, lifecycle: Lifecycle, metas: MatchMetas, hold_s: float, idle_s: float = 0.0
    ) -> None:
        self.slots = slots
        self.lifecycle = lifecycle  # which matches have finished, and when each had its newest event
        self.metas = metas
        self.hold_ms = max(1, round(hold_s * 1000))
        self.idle_ms = round(idle_s * 1000)  # TAVERN_OPEN_MATCHES_IDLE_S; 0: only hold_ms lapses a slot

    async def take(self, match_id: str, holders: Iterable[Holder]) -> None:
        """A slot of each holder with a quota, or the API's 429 ``open_matches_quota``."""
        counted = [held for held in holders if held.quota > 0]
        if not counted:
            return
        for attempt in range(2):
            full = await self.slots.take(match_id, [(held.name, held.quota) for held in counted], self.hold_ms)
            if not full:
                return
            if attempt == 0 and not await self.reconcile(counted[full - 1].name):
                break  # every slot looked at is a match still open: no second try
        raise Refused("too_many", "open_matches_quota",
                      "at most {quota} open matches per creator: finish, leave or wait out one first",
                      quota=counted[full - 1].quota)

    async def release(self, match_id: str, names: Iterable[str]) -> None:
        await self.slots.release(match_id, names)

    async def reconcile(self, name: str) -> int:
        """Give back the slots among the holder's oldest whose match is no longer open; how many."""
        slots = await self.slots.oldest(name, RECONCILED)
        if not slots:
            return 0
        now_ms = await self.slots.clock_ms()
        ids = [match_id for match_id, _ in slots]
        metas = await self.metas.fields_of(ids, ["game", "ended", "lobby"])
        finished = await self.lifecycle.finished(ids)
        known = [(game, match_id) for match_id, (game, _, _) in zip(ids, metas, strict=True) if game is not None]
        played = dict(zip([match_id for _, match_id in known], await self.lifecycle.last_played(known), strict=True))
        gone = []
        for match_id, (_, taken_ms), (game, ended, lobby), done in zip(ids, slots, metas, finished, strict=True):
            # idle since its newest event, or since its creation if it has none listed (a lobby's)
            idle = self.idle_ms > 0 and max(taken_ms, (played.get(match_id) or 0) * 1000) < now_ms - self.idle_ms
            if (game is None and taken_ms < now_ms - PENDING_S * 1000) or ended or lobby == "cancelled" or done or idle:
                gone.append(match_id)
        await self.slots.drop(name, gone)
        return len(gone)
