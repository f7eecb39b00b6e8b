"""Each registered player's inbox (``keys.inbox``): its running matches, each with whether its
seat must move and the time left, written by the projector as seats turn due or not
(services/projector/turns.py) and read by the inbox endpoints. Keyed per player (hash-tagged by
its id, beside its ``player`` hash), so the inboxes spread over a cluster's shards; the revision
counter beside it lets a stream see a change with one GET."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec

from services.store import keys, resp
from services.store.connections import link_to
from services.store.event_store import Call, reply, run_scripts, script

_HERE = Path(__file__).parent


class InboxEntry(msgspec.Struct, frozen=True):
    match_id: str
    game: str
    seat: int
    version: int  # of the match when this entry was written
    your_turn: bool  # the seat has legal commands now
    # your turn: the seat's own deadline; else the earliest deadline of those it waits on (unix
    # seconds); None without a clock
    deadline: float | None
    since: float  # the time of the entry at which it turned so


_encode = msgspec.json.Encoder().encode
_decode = msgspec.json.Decoder(InboxEntry).decode


class Inboxes:
    def __init__(self, redis: Any, link: resp.Link | None = None) -> None:
        self.link = link or link_to(redis)
        self._put = redis.register_script(script(_HERE / "inbox.lua"))

    async def put(self, player_id: str, entry: InboxEntry) -> bool:
        """Keep the entry (unless one of a newer version is kept); whether the inbox changed."""
        return await self._run(player_id, entry.match_id, entry.version, _encode(entry))

    async def remove(self, player_id: str, match_id: str, version: int) -> bool:
        """Take the match out (it finished at ``version``); whether the inbox changed."""
        return await self._run(player_id, match_id, version, b"")

    async def _run(self, player_id: str, match_id: str, version: int, entry: bytes) -> bool:
        names = [keys.inbox(player_id), keys.inbox_revision(player_id)]
        (answer,) = await run_scripts(self.link, [Call(self._put, names, [match_id, version, entry])])
        return bool(int(reply(answer)))

    async def entries(self, player_id: str) -> list[InboxEntry]:
        """Every entry kept, in no order."""
        (answer,) = await self.link.exchange([["HGETALL", keys.inbox(player_id)]], True)
        table = reply(answer)  # flat from a Redis (RESP2), a dict from the embedded fakeredis
        values = table.values() if isinstance(table, dict) else table[1::2]
        return [_decode(value.partition(b" ")[2]) for value in values]

    async def revision(self, player_id: str) -> int:
        """The inbox's revision: it moves with every change (0 for an inbox never written)."""
        (answer,) = await self.link.exchange([["GET", keys.inbox_revision(player_id)]], True)
        return int(reply(answer) or 0)
