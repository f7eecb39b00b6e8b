"""Table chat (docs/chat.md): per match, the seats talk on the players' channel and the holders of
the spectator token on the spectators'; a message is no event of the match (its log, and so every
audit's chain, never holds one) and is exported beside it (``tavern-chat/1``). A seat may block a
sender: that sender's lines are never given to it. Anyone at the table may report a line of its
channel; a moderator's removal is kept as a line of the channel, and readers are given the removed
line without its text."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import contextmanager

import msgspec

from projections.i18n import M_, N_
from services.commands.matches import Match
from services.commands.refused import Refused
from services.ops import logs
from services.store import archive
from services.store.chat import CHANNELS, REMOVED, ChatLog, Closed, Line
from services.store.moderation import OpenReports
from services.store.stream_ids import later

log = logs.get("tavern.chat")
PLAYERS, SPECTATORS = CHANNELS
NAME_MAX = 40  # a spectator's name as it gives it (a seat's is its player's)
REASON_MAX = 500
FORMAT = "tavern-chat/1"


class ChatLine(msgspec.Struct):
    """A line as the API gives it: ``said`` a message, ``removed`` a moderator's removal of ``target``;
    a message removed since has ``removed`` true and no text."""

    id: str
    kind: str
    sender: str  # a seat ("0", "1"...), a spectator ("v" and 10 hex digits: per match and address), "moderator"
    name: str  # "" for a seat with no registered player, or a spectator that gave none
    text: str
    at: int  # ms since the epoch
    target: str = ""
    removed: bool = False


class ChatPage(msgspec.Struct):
    channel: str
    lines: list[ChatLine]
    blocked: list[str]  # the senders the caller blocked (a seat's): their lines are not in ``lines``


class Blocked(msgspec.Struct):
    blocked: list[str]


class Reported(msgspec.Struct):
    report: str  # the report's id


class Report(msgspec.Struct):
    """What a moderator reads: the line reported as it was said, by whom, and why."""

    channel: str
    line: ChatLine
    reporter: str
    reason: str


class StoredReport(msgspec.Struct):
    id: str
    report: Report


class Reports(msgspec.Struct):
    reports: list[StoredReport]


class OpenReport(msgspec.Struct):
    """A report on the moderators' open list: its match, its id there, when it was made."""

    match_id: str
    id: str
    at: int  # ms since the epoch
    report: Report


class OpenReportsPage(msgspec.Struct):
    reports: list[OpenReport]  # the oldest first
    open: int  # how many are open in all
    next: int | None  # the offset of the next page, None on the last


class TranscriptHeader(msgspec.Struct):
    format: str
    match_id: str
    channels: list[str]


class TranscriptLine(msgspec.Struct):
    channel: str
    line: ChatLine


def channel_of(seat: int | None) -> str:
    return SPECTATORS if seat is None else PLAYERS


def sender_of(match: Match, seat: int | None, address: str) -> str:
    """A seat is its number; spectators share one token, so each is told apart by its address, as a
    digest salted with the match (no address kept, and none followed from match to match)."""
    if seat is not None:
        return str(seat)
    return "v" + hashlib.blake2b(f"{match.id}|{address}".encode(), digest_size=5).hexdigest()


def shown(line: Line, removed: dict[str, str]) -> ChatLine:
    if line.id in removed:
        return ChatLine(line.id, line.kind, line.sender, line.name, "", line.at, line.target, True)
    return ChatLine(line.id, line.kind, line.sender, line.name, line.text, line.at, line.target)


def _text(text: str, most: int, code: str, what: str) -> str:
    """``text`` without its surrounding blanks, at most ``most`` characters, else refused."""
    text = text.strip()
    if len(text) > most:
        raise Refused("invalid", code, "{what} is at most {most} characters", what=M_(what), most=most)
    return text


class Chat:
    def __init__(
        self, lines: ChatLog, chars: int, archived: archive.Archive | None = None, listed: OpenReports | None = None
    ) -> None:
        self.lines = lines
        self.listed = listed  # the moderators' open list, across matches
        self.chars = chars  # a message's most characters (TAVERN_CHAT_CHARS)
        self.archive = archived  # where an archived match's chat went with it

    async def transcript(self, match_id: str) -> bytes:
        """The match's chat as exported beside its log (``tavern-chat/1``): a header, then each channel's
        lines in order as readers are given them (a removed message without its text, its removal
        kept). JSON Lines; no chain covers it: no part of what an audit checks."""
        encode = msgspec.json.encode
        out = [encode(TranscriptHeader(FORMAT, match_id, list(CHANNELS)))]
        for channel in CHANNELS:
            page = await self.lines.read(match_id, channel)
            out += [encode(TranscriptLine(channel, shown(line, page.removed))) for line in page.lines]
        return b"".join(line + b"\n" for line in out)

    async def archived(self, match_id: str) -> tuple[bytes, bytes]:
        """What the archiver archives of the chat: its transcript and its reports (``Reports``' JSON),
        the chat closed first, so no line nor report is taken after this read (it would be evicted
        with the match, unarchived): the store refuses both once it is closed."""
        await self.lines.close(match_id)
        reports = _reports(await self.lines.reports(match_id))
        return await self.transcript(match_id), msgspec.json.encode(reports)

    async def exported(self, match: Match) -> bytes:
        """The transcript from Redis, or once archived from the archive (a match archived before chat
        was kept there: its header alone)."""
        if not match.archived:
            return await self.transcript(match.id)
        assert self.archive is not None, "an archived match with no archive configured"
        stored = await self.archive.get(archive.chat_name(match.id))
        if stored is None:
            return msgspec.json.encode(TranscriptHeader(FORMAT, match.id, list(CHANNELS))) + b"\n"
        return archive.decompress(stored)

    async def say(self, match: Match, seat: int | None, sender: str, name: str, text: str) -> ChatLine:
        """A message on the caller's channel: a seat's under its player's name (``name``, from the
        table), a spectator's under the name it gives."""
        _open(match)
        text = _text(text, self.chars, "chat_too_long", N_("a chat message"))
        if not text:
            raise Refused("invalid", "chat_empty", "a chat message holds some text")
        if seat is None:
            name = _text(name, NAME_MAX, "bad_request", N_("a name"))
        channel = channel_of(seat)
        with _unless_closed():
            line = await self.lines.say(match.id, channel, sender, name, text)
        log.info("chat_said", match_id=match.id, seat=seat, channel=channel, line=line.id, chars=len(text))
        return shown(line, {})

    async def read(self, match: Match, seat: int | None, channel: str, after: str) -> ChatPage:
        """The lines of ``channel`` after ``after``, but those of the senders the caller blocked."""
        blocked = await self.lines.blocked(match.id, str(seat)) if seat is not None else set()
        page = await self.lines.read(match.id, channel, _line_id(after))
        lines = [shown(line, page.removed) for line in page.lines if line.sender not in blocked]
        return ChatPage(channel, lines, sorted(blocked))

    async def block(self, match: Match, seat: int | None, sender: str, blocked: bool) -> Blocked:
        """A seat blocks (or unblocks) a sender of this match: none of its lines are given to the seat since."""
        if seat is None:
            raise Refused("forbidden", "chat_seats_only", "only a seat blocks a sender: a spectator mutes")
        if sender == str(seat) or not sender or len(sender) > 16:
            raise Refused("invalid", "chat_bad_sender", "no sender of this match to block")
        _open(match)
        await self.lines.block(match.id, str(seat), sender, blocked)
        log.info("chat_blocked" if blocked else "chat_unblocked", match_id=match.id, seat=seat, sender=sender)
        return Blocked(sorted(await self.lines.blocked(match.id, str(seat))))

    async def report(self, match: Match, seat: int | None, reporter: str, line_id: str, reason: str) -> Reported:
        """A report of a line of the caller's channel, kept for the moderators."""
        _open(match)
        reason = _text(reason, REASON_MAX, "bad_request", N_("a reason"))
        channel = channel_of(seat)
        line = await self.lines.line(match.id, channel, _line_id(line_id))
        if line is None or line.kind == REMOVED:
            raise Refused("not_found", "no_such_line", "no such message in this channel")
        report = msgspec.json.encode(Report(channel, shown(line, {}), reporter, reason))
        with _unless_closed():
            kept = await self.lines.report(match.id, report)
        if self.listed is not None:  # (kept in the match's reports first: a retry after an outage here lists it)
            await self.listed.add(match.id, kept, report)
        log.warning("chat_reported", match_id=match.id, seat=seat, channel=channel, line=line.id, report=kept)
        return Reported(kept)

    async def reports(self, match: Match, after: str) -> Reports:
        """The reports after the id ``after``: from Redis, or once archived from the archive (a
        match archived before its reports were kept there: none)."""
        after = _line_id(after)
        if not match.archived:
            return _reports(await self.lines.reports(match.id, after))
        assert self.archive is not None, "an archived match with no archive configured"
        stored = await self.archive.get(archive.reports_name(match.id))
        kept = msgspec.json.decode(archive.decompress(stored), type=Reports).reports if stored else []
        return Reports([report for report in kept if later(report.id, after)])

    async def open_reports(self, offset: int, limit: int) -> OpenReportsPage:
        """The moderators' open list, across matches, the oldest first: ``limit`` from ``offset``."""
        assert self.listed is not None, "no open list configured"
        listed = await self.listed.page(offset, limit + 1)
        shown = [OpenReport(match_id, kept, at, msgspec.json.decode(raw, type=Report))
                 for match_id, kept, at, raw in listed[:limit]]  # fmt: skip
        return OpenReportsPage(shown, await self.listed.count(), offset + limit if len(listed) > limit else None)

    async def handled(self, match_id: str, report_id: str) -> None:
        """The report off the open list (it stays in the match's reports), or not_found."""
        assert self.listed is not None, "no open list configured"
        if not await self.listed.handled(match_id, _line_id(report_id)):
            raise Refused("not_found", "no_such_report", "no such open report in this match")
        log.info("chat_report_handled", match_id=match_id, report=report_id)

    async def remove(self, match: Match, channel: str, line_id: str, reason: str) -> ChatLine:
        """A moderator's removal of a message, kept as a line of its channel."""
        _open(match)
        if channel not in CHANNELS:
            raise Refused("invalid", "bad_request", "channel is players or spectators")
        reason = _text(reason, REASON_MAX, "bad_request", N_("a reason"))
        with _unless_closed():
            removal = await self.lines.remove(match.id, channel, _line_id(line_id), reason)
        if removal is None:
            raise Refused("not_found", "no_such_line", "no such message in this channel")
        log.warning("chat_removed", match_id=match.id, channel=channel, line=removal.target, removal=removal.id)
        return shown(removal, {})


def _reports(found: list[tuple[str, bytes]]) -> Reports:
    """The reports as the store keeps them, (id, report JSON), decoded."""
    return Reports([StoredReport(kept, msgspec.json.decode(raw, type=Report)) for kept, raw in found])


def _open(match: Match) -> None:
    if match.archived:  # its chat is in the archive with it, no longer written to
        raise _closed()


def _closed() -> Refused:
    return Refused("conflict", "chat_closed", "this match is archived: its chat is closed")


@contextmanager
def _unless_closed() -> Iterator[None]:
    """A line, removal or report the store refused because the chat closed meanwhile (the archiver
    read it for the archive): refused as an archived match's chat."""
    try:
        yield
    except Closed:
        raise _closed() from None


def _line_id(text: str) -> str:
    """A stream id as a line's (``ms-n``), else refused."""
    ms, _, n = text.partition("-")
    if not (ms.isdigit() and n.isdigit() and len(text) <= 41):
        raise Refused("invalid", "bad_query", "a chat line's id is two integers joined by '-'")
    return text

