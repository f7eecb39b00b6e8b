"""Hibernation (docs/hibernation.md): a match being played with no event for TAVERN_HIBERNATE_AFTER_S
leaves Redis for the archive, and comes back on the next read or command.

Asleep: its log, as an unsigned export, and a snapshot of the rest Redis held (its meta, views, seats'
entropy, the idempotency records it can name, each with when it lapses) are written to the archive
under a fresh token, read back and checked; then hibernate.lua deletes its keys and leaves one index
key holding the token, only if no entry was appended meanwhile (else it stays awake: a command
arriving while it is put to sleep is never lost). Its listing moves from the live to the asleep list.

Awake again: whoever finds it missing (``Matches.get`` without its meta, a read of an empty log, an
append told the match has no meta) reads the token's objects and runs wake.lua, which puts every key
back as it was (stream entries under the same ids: same versions, same chain) only if the index
key still holds that token; two wakers race harmlessly, the second finds it awake. Then it is marked
dirty, so the projector writes its views again. The archive away: ``ArchiveDown``, a 503, and the
match sleeps on, whole.

The sweep runs in every process's upkeep (services/projector/upkeep.py), on its share of the
sweepers' partitions, at most every ``every_s``; its time is given, so tests move it on.
"""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import time
from collections.abc import Awaitable, Callable, Iterator

from domain.games import game_ids
from projections.chain import export_lines
from services.commands.bots import idempotency_key
from services.commands.history import records_of_export
from services.ops import logs, metrics
from services.store import archive
from services.store.event_store import Record
from services.store.hibernation import Awake, Bed, Beds, Kept
from services.store.idempotency import Idempotency
from services.store.lifecycle import Lifecycle
from services.store.outage import ArchiveDown
from services.store.partitions import Shares

log = logs.get("tavern.hibernation")
FORMAT = "tavern-hibernated/1"
WAKE_ATTEMPTS = 3  # a wake that finds another token (woken and asleep again meanwhile) reads again


class Missing(ArchiveDown):
    """A sleep's objects are not in the archive: dropped by a waker that came first, or lost."""


def idempotency_of(fields: dict[str, str], records: list[Record]) -> Iterator[tuple[int, str]]:
    """The idempotency records a match may hold that can be named, as (seat, key): its logged
    commands' and its bots'. A refusal kept under a player's own key is in no log: it lapses by itself."""
    for record in records:
        if (cause := record.envelope.command).seat is not None and cause.idempotency_key is not None:
            yield cause.seat, cause.idempotency_key
    for seat in json.loads(fields["bots"]):
        yield from ((seat, idempotency_key(v)) for v in range(len(records) + 1))


class Hibernation:
    def __init__(
        self,
        beds: Beds,
        lifecycle: Lifecycle,
        archived: archive.Archive,
        shares: Shares,
        after_s: float,
        every_s: float,
        marked: Callable[[str], Awaitable[None]],
        batch: int = 100,
    ) -> None:
        self.beds = beds
        self.lifecycle = lifecycle
        self.archive = archived
        self.shares = shares  # the sweepers' partitions this process sweeps
        self.after_s = after_s  # 0: never
        self.every_s = every_s
        self.marked = marked  # marks a match dirty (Upkeep.appended): its views are written again
        self.batch = batch
        self._next_at = 0.0

    async def tick(self, now: float) -> None:
        """The upkeep's duty: a sweep, if ``every_s`` has passed since the last."""
        if self.after_s > 0 and now >= self._next_at:
            self._next_at = now + self.every_s
            await self.sweep(now)

    async def sweep(self, now: float | None = None) -> int:
        """Put this process's share of the matches idle since ``now - after_s`` to sleep; how many slept."""
        now = time.time() if now is None else now
        slept = 0
        for game_id in game_ids():
            for match_id in await self.lifecycle.drowsy(game_id, now - self.after_s, self.batch, self.shares):
                try:
                    outcome = await self.sleep(match_id)
                except Exception:  # this match stays awake; the others are not held up behind it
                    log.exception("hibernate_failed", match_id=match_id)
                    continue
                slept += outcome == "ok"
                if outcome == "gone" and (await self.beds.asleep(match_id)).token is not None:
                    # asleep, but a sweep cut short left it listed live: listed asleep now
                    await self.lifecycle.hibernated(game_id, match_id, now - self.after_s)
        return slept

    async def sleep(self, match_id: str) -> str:
        """Put one match to sleep: 'ok'; 'moved' (an entry appended meanwhile, or its views behind:
        it stays awake); 'gone' (not in Redis); 'kept' (a lobby still open, or ended: not hibernated)."""
        awake = await self.beds.awake(match_id)
        if awake is None:
            return "gone"
        if awake.meta.get("lobby") == "open" or "ended" in awake.meta or not awake.records:
            return "kept"
        version = len(awake.records)
        if awake.views.get("v") != str(version).encode():
            return "moved"  # the projector is behind: its views would not be those of the log
        named = idempotency_of(awake.meta, awake.records)
        names = sorted({Idempotency(match_id, seat, key).name for seat, key in named})
        kept = await self.beds.kept(names)
        # a number: Redis keeps it as an integer (72 bytes for the whole index key, 104 with 16 hex digits)
        token = str(secrets.randbits(62))
        bodies = [(record.body, record.hash) for record in awake.records]
        exported = export_lines(awake.meta["charter"], awake.meta["seed"], bodies)
        snapshot = _snapshot(match_id, token, awake, exported, kept)
        log_name, snapshot_name = archive.hibernated_log_name(match_id, token), archive.snapshot_name(match_id, token)
        await self.archive.put(log_name, archive.compress(exported))
        await self.archive.put(snapshot_name, archive.compress(snapshot))  # last: the mark that it is whole
        packed_log, packed_snapshot = await self.archive.get(log_name), await self.archive.get(snapshot_name)
        if packed_log is None or packed_snapshot is None or (
            archive.decompress(packed_log), archive.decompress(packed_snapshot)
        ) != (exported, snapshot):
            raise RuntimeError(f"match {match_id}: the archive did not give back what was written")
        outcome = await self.beds.sleep(match_id, version, token, list(kept))
        if outcome != "ok":  # it stays awake: the objects just written are nobody's
            await self._drop(match_id, token)
        else:
            game = awake.meta["game"]
            await self.lifecycle.hibernated(game, match_id, awake.records[-1].envelope.time)
            metrics.HIBERNATED.labels(game).inc()
            log.info("match_hibernated", match_id=match_id, version=version, token=token, bytes=len(exported))
        return outcome

    async def wake(self, match_id: str) -> bool:
        """Bring the match back if it sleeps: whether Redis holds it (awake) now. ArchiveDown if
        the archive cannot be read (nothing changed)."""
        for _ in range(WAKE_ATTEMPTS):
            asleep = await self.beds.asleep(match_id)
            if asleep.token is None:
                return asleep.awake
            started = time.perf_counter()
            try:
                bed, game, at = await self._bed(match_id, asleep.token)
            except Missing:
                if (await self.beds.asleep(match_id)).token != asleep.token:
                    continue  # woken meanwhile by another, who dropped these objects: read again
                log.error("hibernated_missing", match_id=match_id, token=asleep.token)
                raise
            outcome = await self.beds.wake(match_id, asleep.token, bed)
            if outcome == "woken":
                await self._drop(match_id, asleep.token)  # Redis holds it again: the sleep's objects are spent
                await self.lifecycle.woken(game, match_id, at)
                await self.marked(match_id)  # the projector writes its views again
                metrics.WOKEN.labels(game).inc()
                metrics.WAKE.observe(time.perf_counter() - started)
                log.info("match_woken", match_id=match_id, version=len(bed.records))
            if outcome != "stale":
                return outcome in ("woken", "awake")
        return False

    async def _drop(self, match_id: str, token: str) -> None:
        """Delete a sleep's two objects (a woken match's, or one that stayed awake): an archive that
        fails here costs a few KB left behind, never the match."""
        for name in (archive.snapshot_name(match_id, token), archive.hibernated_log_name(match_id, token)):
            try:
                await self.archive.delete(name)
            except Exception as problem:  # whatever the archive's client raises (OSError, botocore's)
                log.warning("hibernated_not_deleted", match_id=match_id, object=name, error=str(problem))

    async def _bed(self, match_id: str, token: str) -> tuple[Bed, str, float]:
        """What wake.lua puts back, from the archive; its game and the time of its newest event."""
        try:
            packed_snapshot = await self.archive.get(archive.snapshot_name(match_id, token))
            packed_log = await self.archive.get(archive.hibernated_log_name(match_id, token))
        except Exception as problem:  # whatever the archive's client raises (OSError, botocore's)
            log.warning("archive_unavailable", match_id=match_id, error=str(problem))
            raise ArchiveDown(f"match {match_id} cannot be woken: the archive cannot be read") from problem
        if packed_snapshot is None or packed_log is None:
            raise Missing(f"match {match_id} cannot be woken: its snapshot is not in the archive")
        snapshot = json.loads(archive.decompress(packed_snapshot))
        exported = archive.decompress(packed_log)
        if hashlib.sha256(exported).hexdigest() != snapshot["log_sha256"]:
            raise ArchiveDown(f"match {match_id} cannot be woken: its archived log is not the one snapshotted")
        now_ms = int(time.time() * 1000)
        kept = {
            name: Kept(base64.b64decode(answer), -1 if until < 0 else max(0, until - now_ms))
            for name, (answer, until) in snapshot["kept"].items()
        }
        views = {name: view.encode() for name, view in snapshot["views"].items()}
        bed = Bed(records_of_export(exported), snapshot["meta"], views, snapshot["entropy"], kept)
        return bed, snapshot["meta"]["game"], snapshot["at"]


def _snapshot(match_id: str, token: str, awake: Awake, exported: bytes, kept: dict[str, Kept]) -> bytes:
    """The snapshot object: all Redis held of the match but its log (archived beside it)."""
    now_ms = int(time.time() * 1000)
    return json.dumps(
        {
            "format": FORMAT,
            "match_id": match_id,
            "token": token,
            "version": len(awake.records),
            "at": awake.records[-1].envelope.time,
            "log_sha256": hashlib.sha256(exported).hexdigest(),
            "meta": awake.meta,
            "views": {name: view.decode() for name, view in awake.views.items()},
            "entropy": awake.entropy,
            # answer, and when it lapses (unix ms; -1: never): time runs on while the match sleeps
            "kept": {
                name: [base64.b64encode(held.answer).decode(), -1 if held.ttl_ms < 0 else now_ms + held.ttl_ms]
                for name, held in kept.items()
            },
        },
        sort_keys=True,
    ).encode()
