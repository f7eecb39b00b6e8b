"""A match's log wherever it is: in Redis while it lives, in the archive once archived.

A hibernated match (services/commands/hibernation.py) is brought back by the first read that finds
its log gone (``current``), then read again from Redis as if it had never left.

The archive holds the export (``tavern-export/1``) as the gateway would have built it from Redis, so
every answer built from the records read back (events, replay, views, the export itself) is the same,
byte for byte. A gateway that cached a match's meta before it left Redis finds out on the first
empty read: the log key is gone, so it looks the match up again.
"""

from __future__ import annotations

import json

import msgspec

from projections.chain import Envelope, ExportEntry
from projections.receipts import SIGNATURE_LINE
from services.commands.folds import Folded, Folds, MatchLost
from services.commands.matches import Match, Matches
from services.store import archive
from services.store.event_store import EventStore, Record

_entry = msgspec.json.Decoder(ExportEntry)
_envelope = msgspec.json.Decoder(Envelope)


class History:
    def __init__(self, matches: Matches, store: EventStore, folds: Folds) -> None:
        self.matches = matches
        self.store = store
        self.folds = folds

    async def current(self, match: Match) -> Match:
        """The match as it is now: archived if its log has left Redis since ``match`` was read (woken,
        if it was asleep); MatchLost if Redis lost it (a request that began before a restart was
        noticed: the caches dropped meanwhile, a fold read afresh would be an empty log's)."""
        if match.archived or await self.store.holds(match.id):
            return match
        self.matches.forget(match.id)
        now = await self.matches.get(match.id)
        if now is None:  # its meta gone too, and not archived: lost (Redis restarted without it)
            self.matches.lost_once(match.id)  # said now, by this 410: whoever asks next hears 404
            raise MatchLost(match.id)
        return now

    async def _again(self, match: Match) -> tuple[Match, bool]:
        """After a read found nothing of the match's log: the match as it is now, and whether its log
        is back in Redis (it was asleep: woken)."""
        match = await self.current(match)
        return match, not match.archived and await self.store.holds(match.id)

    async def read(self, match: Match, after: int = 0, upto: int | None = None) -> list[Record]:
        """The entries with ``after < version <= upto`` (to the end without ``upto``)."""
        if not match.archived:
            records = await self.store.read(match.id, after, upto)
            if records:
                return records
            match, back = await self._again(match)
            if back:
                return await self.store.read(match.id, after, upto)
            if not match.archived:
                return records
        records = await self.archived(match)
        return [r for r in records if r.envelope.version > after and (upto is None or r.envelope.version <= upto)]

    async def load(self, match: Match) -> Folded:
        """The fold of the whole log."""
        if not match.archived:
            try:
                folded = await self.folds.load(match)
            except MatchLost:  # gone from Redis: archived or asleep since (else it was lost, and stays so)
                match, back = await self._again(match)
                if back:
                    return await self.folds.load(match)
                if not match.archived:
                    raise
            else:
                if folded.version:
                    return folded
                match, back = await self._again(match)
                if back:
                    return await self.folds.load(match)
                if not match.archived:
                    return folded
        return self.folds.keep(match, self.folds.apply(match, self.folds.start(match), await self.archived(match)))

    async def archived_export(self, match: Match) -> bytes:
        assert self.matches.archive is not None, "an archived match with no archive configured"
        stored = await self.matches.archive.get(archive.export_name(match.id))
        if stored is None:
            raise LookupError(f"match {match.id}: meta archived without its export")
        return archive.decompress(stored)

    async def archived(self, match: Match) -> list[Record]:
        return records_of_export(await self.archived_export(match))


def records_of_export(data: bytes) -> list[Record]:
    """The records of an export file, its body bytes and hashes as they were in Redis."""
    lines = data.splitlines()
    json.loads(lines[0])  # the header: checked to be JSON, its seed is the meta's
    records = []
    for line in lines[1:]:
        if line.startswith(SIGNATURE_LINE):
            break  # the signed head, last (projections/receipts.py): no entry
        entry = _entry.decode(line)
        body = entry.body.encode()
        records.append(Record(_envelope.decode(body), body, entry.hash))
    return records
