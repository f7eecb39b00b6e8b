"""A match's table chat (docs/chat.md): a capped Redis stream per channel (players', spectators'),
the removals' index, the seats' blocks and the reports, every key under the match's hash tag (its
shard) and none in its log. A line is a message (``said``) or a moderator's removal of one
(``removed``, naming it): a removal is a line of its own, so the chat's history keeps it; a
reader finds the removed lines in one hash read with the page (one round trip, one slot)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from services.store import keys, resp
from services.store.connections import link_to
from services.store.event_store import Call, reply, run_scripts, script
from services.store.notices import CHATTED

CHANNELS = ("players", "spectators")
KEPT = 500  # a channel's newest lines kept (XADD MAXLEN ~: trimmed by whole nodes, so a few more)
REPORTS_KEPT = 1000
SAID, REMOVED = "said", "removed"


@dataclass(frozen=True, slots=True)
class Line:
    id: str  # the stream's entry id: its order in the channel
    kind: str  # SAID or REMOVED
    sender: str  # a seat ("0", "1"...), a spectator ("v" + digest), or "moderator"
    name: str  # as shown
    text: str  # a message's; a removal's reason
    at: int  # ms since the epoch (Redis's clock)
    target: str = ""  # a removal: the id of the line it removes


@dataclass(frozen=True, slots=True)
class Page:
    lines: list[Line]
    removed: dict[str, str]  # the id of every line of this channel removed -> its removal's id


def _fields(flat: list[bytes] | dict[bytes, bytes]) -> dict[str, str]:
    """A flat reply of field, value... as a dict (an HGETALL through redis-py's pool comes as one already)."""
    pairs = flat.items() if isinstance(flat, dict) else zip(flat[::2], flat[1::2], strict=True)
    return {name.decode(): value.decode() for name, value in pairs}


def _lines(entries: list[Any]) -> list[Line]:
    found = []
    for entry_id, flat in entries:
        fields = _fields(flat)
        found.append(Line(entry_id.decode(), fields["k"], fields["s"], fields["n"], fields["t"],
                          int(entry_id.split(b"-")[0]), fields.get("r", "")))
    return found


def _removed(channel: str, line_id: str) -> str:
    """A removal's field: the channel with the line, as two channels' streams may give one id (same ms)."""
    return f"{channel}/{line_id}"


class Closed(Exception):
    """The match's chat is closed: it is being archived (no line nor report is taken after its last read)."""


class ChatLog:
    def __init__(self, redis: Any, link: resp.Link | None = None) -> None:
        self.link = link or link_to(redis)  # XADD, XRANGE and hashes, routed to the match's shard
        self._add_script = redis.register_script(script(Path(__file__).parent / "chat_add.lua"))

    async def close(self, match_id: str) -> None:
        """No line is taken from now on (the archiver's, before it reads the chat for the archive)."""
        await self.link.exchange([["SET", keys.chat_closed(match_id), 1]])

    async def say(self, match_id: str, channel: str, sender: str, name: str, text: str) -> Line:
        """A message at the end of ``channel``, the oldest beyond ``KEPT`` trimmed."""
        return await self._add(match_id, channel, {"k": SAID, "s": sender, "n": name, "t": text})

    async def remove(self, match_id: str, channel: str, target: str, reason: str) -> Line | None:
        """A moderator's removal of the line ``target`` of ``channel``, kept as a line of its own;
        None when the channel holds no such message (never was, trimmed, or a removal)."""
        said = await self.line(match_id, channel, target)
        if said is None or said.kind != SAID:
            return None
        removal = await self._add(match_id, channel, {"k": REMOVED, "s": "moderator", "n": "", "t": reason,
                                                      "r": target})
        await self.link.exchange([["HSETNX", keys.chat_removed(match_id), _removed(channel, target), removal.id]])
        return removal

    async def line(self, match_id: str, channel: str, line_id: str) -> Line | None:
        """The line ``line_id`` of ``channel``, None if it holds none (never was, or trimmed)."""
        (found,) = await self.link.exchange([["XRANGE", keys.chat(match_id, channel), line_id, line_id]], reads=True)
        lines = _lines(reply(found))
        return lines[0] if lines else None

    async def _add(self, match_id: str, channel: str, fields: dict[str, str]) -> Line:
        flat = [part for pair in fields.items() for part in pair]
        key = keys.chat(match_id, channel)
        # and told on the match's notices channel (notices.py), where the gateways streaming it listen
        told = ["SPUBLISH", keys.notices(match_id), CHATTED + channel.encode()]
        entry_id = await self._append(match_id, key, KEPT, flat, told)  # (closed: a notice of nothing new)
        return Line(entry_id.decode(), fields["k"], fields["s"], fields["n"], fields["t"],
                    int(entry_id.split(b"-")[0]), fields.get("r", ""))

    async def read(self, match_id: str, channel: str, after: str = "0-0", count: int = KEPT) -> Page:
        """Up to ``count`` lines of ``channel`` after the id ``after`` ("0-0": from the oldest kept),
        oldest first, and the channel's removals."""
        commands: list[list[Any]] = [
            ["XRANGE", keys.chat(match_id, channel), f"({after}", "+", "COUNT", count],
            ["HGETALL", keys.chat_removed(match_id)],
        ]
        entries, removed = (reply(answer) for answer in await self.link.exchange(commands, reads=True))
        mark = _removed(channel, "")
        return Page(_lines(entries), {field[len(mark):]: removal for field, removal in _fields(removed).items()
                                      if field.startswith(mark)})

    async def block(self, match_id: str, blocker: str, sender: str, blocked: bool) -> None:
        field = f"{blocker}>{sender}"
        key = keys.chat_blocks(match_id)
        await self.link.exchange([["HSET", key, field, 1] if blocked else ["HDEL", key, field]])

    async def blocked(self, match_id: str, blocker: str) -> set[str]:
        """The senders ``blocker`` blocked in this match."""
        (flat,) = await self.link.exchange([["HGETALL", keys.chat_blocks(match_id)]], reads=True)
        mark = f"{blocker}>"
        return {pair[len(mark):] for pair in _fields(reply(flat)) if pair.startswith(mark)}

    async def report(self, match_id: str, report: bytes) -> str:
        """A report (JSON) kept for the moderators: its id."""
        entry_id = await self._append(match_id, keys.chat_reports(match_id), REPORTS_KEPT, [b"r", report])
        return str(entry_id.decode())

    async def _append(self, match_id: str, key: str, kept: int, flat: list[Any], *then: list[Any]) -> bytes:
        """XADD to one of the match's chat streams (``then`` sent after it), Closed once its chat is."""
        added = Call(self._add_script, [key, keys.chat_closed(match_id)], [kept, *flat])
        (entry_id,) = await run_scripts(self.link, [added], then=then)
        if (entry_id := reply(entry_id)) is None:
            raise Closed(match_id)
        return bytes(entry_id)

    async def reports(self, match_id: str, after: str = "0-0", count: int = REPORTS_KEPT) -> list[tuple[str, bytes]]:
        """The match's reports after the id ``after``, oldest first: (id, report JSON)."""
        command: list[Any] = ["XRANGE", keys.chat_reports(match_id), f"({after}", "+", "COUNT", count]
        (entries,) = await self.link.exchange([command], reads=True)
        return [(entry_id.decode(), dict(zip(flat[::2], flat[1::2], strict=True))[b"r"])
                for entry_id, flat in reply(entries)]
