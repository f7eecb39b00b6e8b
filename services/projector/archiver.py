"""The data lifecycle: finished matches leave Redis for the archive (services/store/archive.py).

The projector lists every match it projects (services/store/lifecycle.py): still playing, by the
time of its newest event, or finished, by when. A worker sweeps both every few seconds:

- a match idle past ``idle_s`` is ended as abandoned: ``Abandoned`` is appended through the command
  path (services/commands/timeouts.py), so replays and ``tavern audit`` see it; once projected it
  is finished like any other;
- a lobby match still waiting for players ``idle_s`` after its creation is closed, as if its host
  had left (services/commands/lobby.py), which gives its creators' quota slots back;
- a match finished more than ``grace_s`` ago is archived: its export, its table chat and meta are
  written to the archive, read back and checked, and only then are its keys deleted, all in one DEL.

So a worker killed at any instant leaves every match whole in Redis (the DEL has not run: the next
sweep archives it again, writing the same bytes) or whole in the archive (the DEL ran). The same DEL
takes the idempotency keys it can name: those of the commands in the log and every bot turn's. A
refusal remembered under a player's own key is in no log; it expires by itself
(``Settings.idempotency_ttl_s``), as finding it would take an index on the command path or a scan
of the whole keyspace.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
from collections.abc import Awaitable, Callable

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from domain.games import game_ids
from projections.chain import export_lines
from services.commands.hibernation import idempotency_of
from services.commands.matches import Match, Matches, quota_of
from services.ops import logs, metrics
from services.store import archive
from services.store.event_store import EventStore
from services.store.evictions import Evictions
from services.store.lifecycle import Lifecycle
from services.store.outage import redis_error

log = logs.get("tavern.archiver")
FORMAT = "tavern-archive/1"


class Archiver:
    def __init__(
        self,
        evictions: Evictions,
        lifecycle: Lifecycle,
        matches: Matches,
        store: EventStore,
        archived: archive.Archive,
        grace_s: float,
        idle_s: float,
        abandon: Callable[[Match], Awaitable[str]],
        close_waiting: Callable[[float, float, int], Awaitable[int]],
        signer: Ed25519PrivateKey,
        chat: Callable[[str], Awaitable[tuple[bytes, bytes]]],
        batch: int = 100,
    ) -> None:
        # a match's table chat and its reports, archived beside its export (services/commands/chat.py)
        self.chat = chat
        self.signer = signer  # signs the head of a finished match's export (projections/receipts.py)
        self.abandon_match = abandon  # appends Abandoned (Timeouts.abandon_idle)
        self.close_waiting = close_waiting  # closes lobby matches nobody came to (Lobby.close_waiting)
        self.evictions = evictions
        self.lifecycle = lifecycle
        self.matches = matches
        self.store = store
        self.archive = archived
        self.grace_s = grace_s
        self.idle_s = idle_s
        self.batch = batch

    async def run_forever(self, every_s: float) -> None:
        while True:
            try:
                while await self.sweep() >= self.batch:
                    pass  # a backlog: sweep again at once
            except Exception as problem:
                redis_error("archiver", problem)
                log.exception("archive_sweep_failed")
            await asyncio.sleep(every_s)

    async def sweep(self, now: float | None = None) -> int:
        """Close the lobby matches nobody came to, end the idle matches, archive those finished long
        enough ago; the larger of how many were closed and archived (a full batch: sweep again)."""
        now = time.time() if now is None else now
        closed = await self.close_waiting(now, self.idle_s, self.batch)
        for game_id in game_ids():
            for match_id in await self.lifecycle.idle(game_id, now - self.idle_s, self.batch):
                await self.abandon(game_id, match_id, now)
        due = await self.lifecycle.due(now - self.grace_s, self.batch)
        for match_id in due:
            await self.archive_match(match_id)
        return max(closed, len(due))

    async def abandon(self, game_id: str, match_id: str, now: float) -> None:
        match = await self.matches.get(match_id)
        outcome = "ended" if match is None else await self.abandon_match(match)
        if outcome == "moved":  # listed again by its newest event
            return
        # over either way: its creators' slots are free at once; when abandoned just now, listed
        # finished (the projector lists it so once it has projected Abandoned)
        quota = quota_of(await self.matches.metas.field(match_id, "quota"))
        await self.lifecycle.ended_idle(game_id, match_id, quota, outcome == "ended", now)

    async def archive_match(self, match_id: str) -> None:
        fields = await self.matches.metas.read(match_id) or {}
        if not fields and self.matches.wake is not None and await self.matches.wake(match_id):
            fields = await self.matches.metas.read(match_id) or {}  # asleep (hibernation.py): archived awake
        if fields:
            records = await self.store.read(match_id)
            ended = "abandoned" if records and records[-1].envelope.type == "Abandoned" else "finished"
            # the meta's mark: an idle match closed by an earlier version, whose log stops short of an
            # end; its export is not signed (a signature says: this is where the match ended)
            over = "ended" not in fields
            ended = fields.get("ended", ended)
            bodies = [(record.body, record.hash) for record in records]
            export = export_lines(fields["charter"], fields["seed"], bodies, self.signer if over else None)
            packed = archive.compress(export)
            chat, reports = await self.chat(match_id)
            meta = json.dumps(
                {
                    "format": FORMAT,
                    "ended": ended,
                    "version": len(records),
                    "export_sha256": hashlib.sha256(export).hexdigest(),
                    "export_bytes": len(packed),
                    "chat_sha256": hashlib.sha256(chat).hexdigest(),
                    "fields": fields,
                },
                sort_keys=True,
            ).encode()
            written = {
                archive.export_name(match_id): packed,
                archive.chat_name(match_id): archive.compress(chat),
                archive.reports_name(match_id): archive.compress(reports),
                archive.meta_name(match_id): meta,  # last: the mark that it is whole
            }
            for name, data in written.items():
                await self.archive.put(name, data)
            await self._verify(match_id, written)
            # one DEL: the match leaves Redis all at once (a reader then finds it in the archive)
            await self.evictions.evict(match_id, idempotency_of(fields, records))
            metrics.ARCHIVED.labels(ended).inc()
            log.info("match_archived", match_id=match_id, ended=ended, version=len(records), bytes=len(packed))
        elif await self.archive.get(archive.meta_name(match_id)) is None:
            log.warning("archive_missing", match_id=match_id)  # listed, but neither in Redis nor archived
        await self.lifecycle.archived(match_id, fields.get("game"), quota_of(fields.get("quota")))

    async def _verify(self, match_id: str, written: dict[str, bytes]) -> None:
        """Read the objects back: the keys are deleted only if the archive gives the same bytes."""
        for name, data in written.items():
            if await self.archive.get(name) != data:
                raise RuntimeError(f"match {match_id}: the archive did not give back what was written")
