"""Each registered player's recent finished matches (``keys.played``, ``keys.played_entries``),
written by the projector as a match ends and read by the player's profile: under the player's
hash tag, beside its ``player`` hash, so one script keeps both keys on one shard; capped, the
oldest leaving first, so a profile's read costs the same however many matches a player played."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec

from services.store import keys, resp
from services.store.connections import link_to
from services.store.event_store import Call, reply, run_scripts, script

_HERE = Path(__file__).parent
KEPT = 50  # a player's list: its newest matches, at most this many


class PlayedMatch(msgspec.Struct, frozen=True):
    match_id: str
    game: str
    finished: float  # unix seconds, the time of the match's last event
    seat: int
    seats: int
    rank: int  # 1 is best; tied seats share a rank
    score: int
    won: bool
    ended: str  # "" played to the end, "conceded" or "abandoned"
    rated: bool  # counted in the ratings
    watch_token: str | None  # a public match's spectator token (its replay, for anyone); None for a private one


_encode = msgspec.json.Encoder().encode
_decode = msgspec.json.Decoder(PlayedMatch).decode


class PlayedMatches:
    def __init__(self, redis: Any, link: resp.Link | None = None, kept: int = KEPT) -> None:
        self.link = link or link_to(redis)
        self.kept = kept
        self._record = redis.register_script(script(_HERE / "played.lua"))

    async def record(self, player_id: str, played: PlayedMatch) -> bool:
        """Put the match on the player's list (a redo writes the same); whether it was new there."""
        names = [keys.played(player_id), keys.played_entries(player_id)]
        args = [played.match_id, repr(played.finished), _encode(played), self.kept]
        (answer,) = await run_scripts(self.link, [Call(self._record, names, args)])
        return bool(int(reply(answer)))

    async def recent(self, player_id: str, limit: int) -> list[PlayedMatch]:
        """The player's newest ``limit`` matches, the newest first."""
        (ids,) = await self.link.exchange([["ZREVRANGE", keys.played(player_id), 0, limit - 1]], True)
        match_ids = reply(ids)
        if not match_ids:
            return []  # HMGET takes at least one field
        (found,) = await self.link.exchange([["HMGET", keys.played_entries(player_id), *match_ids]], True)
        return [_decode(raw) for raw in reply(found) if raw is not None]
