"""The event store: one Redis stream per match, appended to by one Lua script (append.lua).

An entry's id is ``{version}-0``; its fields are ``b``, the envelope body (JSON: version, type,
event, the causing command itself, time, the previous entry's hash) and ``h``, the SHA-256 of ``b``. So
the log is a hash chain anyone can check from the first entry on; entry 1 chains to the
SHA-256 of the match's charter (projections/chain.py, docs/AUDIT.md).
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec
from redis.exceptions import NoScriptError

from projections.chain import LEGACY_GENESIS, Cause, Envelope
from services.store import keys, resp
from services.store.batching import Batched
from services.store.bucket import Bucket
from services.store.clients import Events
from services.store.idempotency import Idempotency

STAGED_TTL_MS = 60_000  # a staging hash left by a write cut off between its HSET and promote.lua
GENESIS = LEGACY_GENESIS  # the "previous hash" of version 1 in a log without a charter
_HERE = Path(__file__).parent


def script(path: Path, *preludes: str) -> str:
    """A Lua script's source: each script sits beside the module that loads it. ``preludes``: the
    shared functions it calls (bucket.lua, dirty.lua, held.lua here), put before its own body."""
    return "".join((_HERE / name).read_text() for name in preludes) + path.read_text()


class Record(msgspec.Struct, frozen=True):
    """One stored entry: its body decoded, the body's bytes and its hash."""

    envelope: Envelope
    body: bytes
    hash: str


@dataclass(frozen=True, slots=True)
class Appended:
    outcome: str  # "ok" | "conflict" | "duplicate" | "ended" | "limited"
    version: int = 0  # a limited one's: the milliseconds until its bucket holds a token
    prior: bytes = b""  # the remembered answer of a duplicate
    marked: bool = False  # marked dirty by the append itself (the projector's keys beside the log)


@dataclass(frozen=True, slots=True)
class Call:
    """A registered script with its keys and arguments."""

    script: Any
    keys: list[str]
    args: list[Any]


@dataclass(frozen=True, slots=True)
class ViewsAt:
    """A match's view envelopes at one version, by storage field (``s:{seat}``, ``spectator``)."""

    match_id: str
    version: int
    fields: dict[str, bytes]


_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(Envelope)


def seal(events: list[Any], first: int, prev: str, cause: Cause, now: float | None = None) -> list[Record]:
    """Envelopes for events to be appended from version ``first`` on, each chained to the last."""
    now = time.time() if now is None else now
    records = []
    for offset, event in enumerate(events):
        payload = msgspec.Raw(_encoder.encode(event))
        envelope = Envelope(first + offset, type(event).__struct_config__.tag, payload, cause, now, prev)
        body = _encoder.encode(envelope)
        prev = hashlib.sha256(body).hexdigest()
        records.append(Record(envelope, body, prev))
    return records


async def run_scripts(
    link: resp.Link, calls: list[Call], then: Sequence[list[Any]] = (), before: Sequence[list[Any]] = ()
) -> list[Any]:
    """Run registered scripts by EVALSHA in one write (services/store/resp.py; redis-py's script objects
    would first ask SCRIPT EXISTS, a round trip more); the plain commands ``then`` go last, and
    those ``before`` first (an error in one of either is raised). An error is answered in its
    call's place, for its caller alone. A script Redis does not know yet is loaded and only its
    calls are sent again, ``then`` after them once more (it follows every script: a notice after
    the views it announces): the others have run, and an append run twice would be a command
    decided twice."""
    answers: list[Any] = [None] * len(calls)
    todo = list(range(len(calls)))
    for attempt in (1, 2):
        commands = [["EVALSHA", calls[i].script.sha, len(calls[i].keys), *calls[i].keys, *calls[i].args] for i in todo]
        replies = await link.exchange([*before, *commands, *then])
        for answer in [*replies[: len(before)], *replies[len(replies) - len(then) :]]:
            reply(answer)
        replies = replies[len(before) : len(replies) - len(then)]
        before = ()
        missing = []
        for index, answer in zip(todo, replies, strict=True):
            if isinstance(answer, NoScriptError) and attempt == 1:
                missing.append(index)
            else:
                answers[index] = answer
        if not missing:
            return answers
        sources = {calls[index].script.script for index in missing}
        for loaded in await link.exchange([["SCRIPT", "LOAD", source] for source in sources]):
            reply(loaded)
        todo = missing
    raise AssertionError("unreachable")


def reply(answer: Any) -> Any:
    """A script's answer from ``run_scripts``, raised if it is an error."""
    if isinstance(answer, Exception):
        raise answer
    return answer


def records_of(entries: list[Any]) -> list[Record]:
    """The records of an XRANGE reply as Redis sends it: [id, [field, value, ...]] per entry."""
    found = []
    for _, flat in entries:
        fields = dict(zip(flat[::2], flat[1::2], strict=True))
        found.append(Record(_decoder.decode(fields[b"b"]), fields[b"b"], fields[b"h"].decode()))
    return found


def _xrange(match_id: str, after: int, upto: int | None = None) -> list[str]:
    """The XRANGE of a match's entries with ``after < version <= upto`` (to the end without ``upto``)."""
    return ["XRANGE", keys.log(match_id), f"{after + 1}-0", "+" if upto is None else f"{upto}-0"]


class EventStore:
    def __init__(
        self,
        redis: Events,
        idempotency_ttl_s: int,
        marks_dirty: bool = False,
        link: resp.Link | None = None,
        refusal_ttl_s: int = 60,
        acked: resp.Link | None = None,
    ) -> None:
        self.redis = redis
        self.link = link or resp.Pooled(redis)  # the reads' and views' path
        self.acked = acked or self.link  # the appends': on a cluster, answered once replicas hold them (WAIT)
        self.waits = self.acked is not self.link  # whether a write through ``acked`` waits for replicas
        self.ttl = idempotency_ttl_s  # an accepted command's answer
        self.refusal_ttl = refusal_ttl_s  # a refusal's: it changes nothing, a retry decides it again
        # with the projector's keys on this Redis, an append marks its match dirty in the same
        # call, rather than the command waiting for a second round trip before it is answered
        self.marks_dirty = marks_dirty
        # EVALSHA, loaded on first NOSCRIPT
        self._append = redis.register_script(script(_HERE / "append.lua", "bucket.lua", "dirty.lua"))
        self._promote = redis.register_script(script(_HERE / "promote.lua"))
        self._appends: Batched[Call, Any] = Batched(lambda calls: run_scripts(self.acked, calls))

    async def append(
        self,
        match_id: str,
        expected: int,
        records: list[Record],
        idempotency: Idempotency | None,
        answer: bytes,
        limit: Bucket | None = None,
    ) -> Appended:
        """Run append.lua, in one write with the appends of other commands sent meanwhile. ``limit``:
        the sender's bucket on the match's hash tag, a token taken from it by the append itself
        (none, and nothing appended, when it is empty: "limited")."""
        log = keys.log(match_id)
        marks = (keys.DIRTY, keys.WAKE) if self.marks_dirty else ()
        bucket = limit.key if limit is not None else log
        names = [log, keys.meta(match_id), idempotency.name if idempotency else log, bucket, *marks]
        after = records[0].envelope.prev if records else ""
        rate = (limit.per_s, limit.burst) if limit is not None else (0, 0)
        args: list[Any] = [expected, after, answer, self.ttl, time.time(), match_id, *rate]
        for record in records:
            args += (record.body, record.hash)
        result = reply(await self._appends(Call(self._append, names, args)))
        outcome, value = result[0].decode(), result[1]
        if outcome == "duplicate":
            return Appended(outcome, prior=value)
        if outcome == "ok" and self.marks_dirty:
            return Appended(outcome, int(value), marked=True)
        return Appended(outcome, version=int(value))

    async def run(
        self, calls: list[Call], before: Sequence[list[Any]] = (), then: Sequence[list[Any]] = ()
    ) -> list[Any]:
        """The scripts' answers (or errors), sent in one write: run_scripts."""
        return await run_scripts(self.link, calls, then, before)

    async def read(self, match_id: str, after: int = 0, upto: int | None = None) -> list[Record]:
        """The entries with ``after < version <= upto`` (to the end without ``upto``)."""
        (entries,) = await self.link.exchange([_xrange(match_id, after, upto)], reads=True)
        return records_of(reply(entries))

    async def holds(self, match_id: str) -> bool:
        """Whether Redis holds the match's log (an archived one's has left)."""
        return bool(await self.redis.exists(keys.log(match_id)))

    async def read_tails(self, since: dict[str, int]) -> dict[str, list[Record]]:
        """Each match's entries after the version given for it, all in one round trip."""
        commands = [_xrange(match_id, after) for match_id, after in since.items()]
        replies = await self.link.exchange(commands, reads=True)
        return {match_id: records_of(reply(entries)) for match_id, entries in zip(since, replies, strict=True)}

    async def remember(self, idempotency: Idempotency, answer: bytes) -> bytes:
        """Keep a refusal under its idempotency key unless an answer is there already; the kept one.
        Kept ``refusal_ttl`` seconds (not at all with 0): one per fresh key would otherwise pile up."""
        if self.refusal_ttl <= 0:
            return await self.redis.get(idempotency.name) or answer
        if await self.redis.set(idempotency.name, answer, ex=self.refusal_ttl, nx=True):
            return answer
        return await self.redis.get(idempotency.name) or answer

    async def recall(self, idempotency: Idempotency) -> bytes | None:
        answer: bytes | None = await self.redis.get(idempotency.name)
        return answer

    async def confirm(self, idempotency: Idempotency, kept: bytes) -> None:
        """Raise Unreplicated (a 503) unless the replicas WAIT asks for hold what a replayed acceptance
        reports. The first try may have been answered 503 with its write held by its primary alone (a
        primary just promoted has no replica yet): read back plainly, its retry would acknowledge that.
        WAIT counts what this connection wrote, and a read writes nothing, so the kept answer is
        written again as it is (same bytes, same TTL): a write after the acceptance, whose WAIT covers it."""
        if self.waits:
            (answer,) = await self.acked.exchange([["SET", idempotency.name, kept, "XX", "KEEPTTL"]])
            reply(answer)

    async def write_views(self, written: list[ViewsAt], notices: list[bytes], also: Sequence[list[Any]] = ()) -> None:
        """Write each match's views with their checkpoint, only forwards (staged by a plain HSET,
        then promote.lua; views ahead of the log itself are replaced), and publish each match's
        notice on its own channel (after its views: a notice never runs ahead of what it announces),
        in one round trip, with the plain commands ``also`` (their errors raised). A notice may
        announce views that another worker had already written: each is the fold of the same log,
        and listeners keep the newest."""
        token = secrets.token_hex(4)  # a staging hash of this write's own
        staging: list[list[Any]] = []
        calls = []
        for views in written:
            staged = keys.staged_views(views.match_id, token)
            command: list[Any] = ["HSET", staged, "v", views.version]
            for field, value in views.fields.items():
                command += (field, value)
            # a staging hash outlives its write only if the connection drops between the two
            staging += (command, ["PEXPIRE", staged, STAGED_TTL_MS])
            promoted = [keys.views(views.match_id), staged, keys.log(views.match_id)]
            calls.append(Call(self._promote, promoted, [views.version]))
        # SPUBLISH: a shard channel keyed like the match, so a cluster sends it to the match's node only
        publish = [["SPUBLISH", keys.notices(at.match_id), notice] for at, notice in zip(written, notices, strict=True)]
        for answer in await self.run(calls, before=[*staging, *also], then=publish):
            reply(answer)

    async def view(self, match_id: str, field: str) -> bytes | None:
        view: bytes | None = await self.redis.hget(keys.views(match_id), field)
        return view
