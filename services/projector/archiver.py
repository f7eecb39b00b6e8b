"""The data lifecycle: finished matches leave Redis for the archive (services/store/archive.py).

The projector lists every match it projects: still playing (``keys.live(game)``, by the time of its newest
event) or finished (``keys.FINISHED``, by when). A worker sweeps both every few seconds:

- a match idle past ``idle_s`` is ended as abandoned: ``Abandoned`` is appended through the command
  path (services/commands/timeouts.py), so replays and ``tavern audit`` see it; once projected it
  is finished like any other;
- a lobby match still waiting for players ``idle_s`` after its creation is closed, as if its host
  had left (services/commands/lobby.py), which gives its creators' quota slots back;
- a match finished more than ``grace_s`` ago is archived: its export and meta are written to the
  archive, read back and checked, and only then are its keys deleted, all in one DEL.

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
from typing import Any

from domain.games import game_ids
from projections.chain import export_lines
from services.commands import bots
from services.commands.matches import Match, Matches
from services.ops import logs, metrics
from services.store import archive, keys
from services.store.event_store import EventStore, Record

log = logs.get("tavern.archiver")
FORMAT = "tavern-archive/1"


class Archiver:
    def __init__(
        self,
        events: Any,
        queue: Any,
        matches: Matches,
        store: EventStore,
        archived: archive.Archive,
        grace_s: float,
        idle_s: float,
        abandon: Callable[[Match], Awaitable[str]],
        close_waiting: Callable[[float, float, int], Awaitable[int]],
        batch: int = 100,
    ) -> None:
        self.abandon_match = abandon  # appends Abandoned (Timeouts.abandon_idle)
        self.close_waiting = close_waiting  # closes lobby matches nobody came to (Lobby.close_waiting)
        self.events = events
        self.queue = queue
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
                metrics.redis_error("archiver", problem)
                log.exception("archive_sweep_failed")
            await asyncio.sleep(every_s)

    async def sweep(self, now: float | None = None) -> int:
        """Close the lobby matches nobody came to, end the idle matches, archive those finished long
        enough ago; the larger of how many were closed and archived (a full batch: sweep again)."""
        now = time.time() if now is None else now
        closed = await self.close_waiting(now, self.idle_s, self.batch)
        for game_id in game_ids():
            idle = await self.queue.zrangebyscore(
                keys.live(game_id), "-inf", now - self.idle_s, start=0, num=self.batch
            )
            for raw in idle:
                await self.abandon(game_id, raw.decode(), now)
        due = await self.queue.zrangebyscore(keys.FINISHED, "-inf", now - self.grace_s, start=0, num=self.batch)
        for raw in due:
            await self.archive_match(raw.decode())
        return max(closed, len(due))

    async def abandon(self, game_id: str, match_id: str, now: float) -> None:
        match = await self.matches.get(match_id)
        outcome = "ended" if match is None else await self.abandon_match(match)
        if outcome == "moved":  # listed again by its newest event
            return
        quota = await self.events.hget(keys.meta(match_id), "quota")
        async with self.queue.pipeline(transaction=True) as pipe:
            _give_back(pipe, match_id, quota)  # over either way: its creators' slots are free at once
            if outcome == "ended":  # abandoned: the projector lists it once it has projected Abandoned
                pipe.zrem(keys.live(game_id), match_id).zadd(keys.FINISHED, {match_id: now}, nx=True)
            await pipe.execute()

    async def archive_match(self, match_id: str) -> None:
        fields = {k.decode(): v.decode() for k, v in (await self.events.hgetall(keys.meta(match_id))).items()}
        if fields:
            records = await self.store.read(match_id)
            export = export_lines(fields["charter"], fields["seed"], [(record.body, record.hash) for record in records])
            packed = archive.compress(export)
            ended = "abandoned" if records and records[-1].envelope.type == "Abandoned" else "finished"
            ended = fields.get("ended", ended)  # the meta's mark: an idle match closed by an earlier version
            meta = json.dumps(
                {
                    "format": FORMAT,
                    "ended": ended,
                    "version": len(records),
                    "export_sha256": hashlib.sha256(export).hexdigest(),
                    "export_bytes": len(packed),
                    "fields": fields,
                },
                sort_keys=True,
            ).encode()
            await self.archive.put(archive.export_name(match_id), packed)
            await self.archive.put(archive.meta_name(match_id), meta)  # last: the mark that it is whole
            await self._verify(match_id, export, meta)
            # one DEL: the match leaves Redis all at once (a reader then finds it in the archive)
            names = [
                keys.log(match_id),
                keys.views(match_id),
                keys.meta(match_id),
                *_idempotency(match_id, fields, records),
            ]
            await self.events.delete(*names)
            metrics.ARCHIVED.labels(ended).inc()
            log.info("match_archived", match_id=match_id, ended=ended, version=len(records), bytes=len(packed))
        elif await self.archive.get(archive.meta_name(match_id)) is None:
            log.warning("archive_missing", match_id=match_id)  # listed, but neither in Redis nor archived
        async with self.queue.pipeline(transaction=True) as pipe:
            if fields:
                pipe.zrem(keys.live(fields["game"]), match_id)
                _give_back(pipe, match_id, fields.get("quota"))
            await pipe.zrem(keys.FINISHED, match_id).execute()

    async def _verify(self, match_id: str, export: bytes, meta: bytes) -> None:
        """Read both objects back: the keys are deleted only if the archive gives the same bytes."""
        packed = await self.archive.get(archive.export_name(match_id))
        stored_meta = await self.archive.get(archive.meta_name(match_id))
        if packed is None or archive.decompress(packed) != export or stored_meta != meta:
            raise RuntimeError(f"match {match_id}: the archive did not give back what was written")


def _give_back(pipe: Any, match_id: str, quota: str | bytes | None) -> None:
    """The match's slots of its creators' open-matches quotas (its meta's ``quota``), given back."""
    for holder in json.loads(quota or "[]"):
        pipe.zrem(keys.open_matches(holder), match_id)


def _idempotency(match_id: str, fields: dict[str, str], records: list[Record]) -> list[str]:
    """The idempotency keys a match may hold that can be named: its logged commands' and its bots'."""
    named = {
        keys.idempotency(match_id, cause.seat, cause.idempotency_key)
        for record in records
        if (cause := record.envelope.command).seat is not None and cause.idempotency_key is not None
    }
    for seat in json.loads(fields["bots"]):
        named.update(keys.idempotency(match_id, seat, bots.idempotency_key(v)) for v in range(len(records) + 1))
    return sorted(named)
