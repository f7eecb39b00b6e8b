"""The moderators' open list of chat reports, across matches (docs/chat.md): each report, beside
its match's own (``keys.chat_reports``), until a moderator marks it handled. Two families of
partitions under one hash tag each: a zset of the reports by time (member: the match id and the
report's id) and a hash of each one's JSON, so a page is read without a read per match, archived
or not."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from services.store import keys, resp
from services.store.connections import link_to
from services.store.event_store import Call, reply, run_scripts, script
from services.store.partitions import Partitions, page

OPEN_KEPT = 10_000  # open reports a partition keeps: past it the oldest leave the list
_ADD = script(Path(__file__).parent / "report_add.lua")


def member(match_id: str, report_id: str) -> str:
    return f"{match_id} {report_id}"


def _ms(report_id: str) -> int:
    """When a report was made: its id's stream time (ms since the epoch)."""
    return int(report_id.partition("-")[0])


class OpenReports:
    def __init__(
        self, redis: Any, partitions: Partitions, link: resp.Link | None = None, kept: int = OPEN_KEPT
    ) -> None:
        self.link = link or link_to(redis)
        self.partitions = partitions
        self.kept = kept
        self._add = redis.register_script(_ADD)

    def _keys(self, match_id: str) -> list[str]:
        number = self.partitions.of(match_id)
        return [keys.partition(keys.OPEN_REPORTS, number), keys.partition(keys.OPEN_REPORT_BODIES, number)]

    async def add(self, match_id: str, report_id: str, report: bytes) -> None:
        """The match's report ``report_id`` (JSON ``report``) on the open list, by when it was made."""
        args = [member(match_id, report_id), _ms(report_id), report, self.kept]
        (answer,) = await run_scripts(self.link, [Call(self._add, self._keys(match_id), args)])
        reply(answer)

    async def page(self, offset: int, count: int) -> list[tuple[str, str, int, bytes]]:
        """The open reports from ``offset``, oldest first, at most ``count``: (match id, report id,
        its ms, its JSON); one handled while this reads is left out."""
        members = await page(self.link, self.partitions.keys(keys.OPEN_REPORTS), offset, count)
        if not members:
            return []
        commands = [["HGET", self._keys(found.partition(" ")[0])[1], found] for found in members]
        bodies = [reply(answer) for answer in await self.link.exchange(commands, True)]
        listed = []
        for found, body in zip(members, bodies, strict=True):
            if body is not None:
                match_id, _, report_id = found.partition(" ")
                listed.append((match_id, report_id, _ms(report_id), bytes(body)))
        return listed

    async def count(self) -> int:
        """How many reports are open."""
        commands = [["ZCARD", name] for name in self.partitions.keys(keys.OPEN_REPORTS)]
        return sum(int(reply(answer)) for answer in await self.link.exchange(commands, True))

    async def handled(self, match_id: str, report_id: str) -> bool:
        """The report off the open list (False: it was not on it)."""
        zset, bodies = self._keys(match_id)
        found = member(match_id, report_id)
        removed, _ = await self.link.exchange([["ZREM", zset, found], ["HDEL", bodies, found]])
        return int(reply(removed)) == 1
