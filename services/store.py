"""The event store: one Redis stream per match, appended to by one Lua script (append.lua).

An entry's id is ``{version}-0``; its fields are ``b``, the envelope body (JSON: version, type,
event, the causing command, time, the previous entry's hash) and ``h``, the SHA-256 of ``b``. So
the log is a hash chain anyone can check from the first entry on.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec
from redis.exceptions import NoScriptError

from services import keys

GENESIS = "0" * 64  # the "previous hash" of version 1
_HERE = Path(__file__).parent


def script(name: str) -> str:
    return (_HERE / name).read_text()


class Cause(msgspec.Struct, frozen=True):
    """The command behind an event (None fields for the opening events written at creation)."""

    id: str | None = None
    seat: int | None = None
    idempotency_key: str | None = None


class Envelope(msgspec.Struct, frozen=True):
    version: int
    type: str
    event: msgspec.Raw  # the game's event as JSON, decoded lazily with the game's event type
    command: Cause
    time: float
    prev: str


class Record(msgspec.Struct, frozen=True):
    """One stored entry: its body decoded, the body's bytes and its hash."""

    envelope: Envelope
    body: bytes
    hash: str


@dataclass(frozen=True, slots=True)
class Appended:
    outcome: str  # "ok" | "conflict" | "duplicate"
    version: int = 0
    prior: bytes = b""  # the remembered answer of a duplicate
    also: Any = None  # the answer of the script sent along (see ``append``)


@dataclass(frozen=True, slots=True)
class Call:
    """A registered script with its keys and arguments."""

    script: Any
    keys: list[str]
    args: list[Any]


_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(Envelope)


def seal(events: list[Any], first: int, prev: str, cause: Cause, now: float | None = None) -> list[Record]:
    """Envelopes for events to be appended from version ``first`` on, each chained to the last."""
    now = time.time() if now is None else now
    records = []
    for offset, event in enumerate(events):
        payload = msgspec.Raw(_encoder.encode(event))
        envelope = Envelope(first + offset, type(event).__name__, payload, cause, now, prev)
        body = _encoder.encode(envelope)
        prev = hashlib.sha256(body).hexdigest()
        records.append(Record(envelope, body, prev))
    return records


class EventStore:
    def __init__(self, redis: Any, idempotency_ttl_s: int) -> None:
        self.redis = redis
        self.ttl = idempotency_ttl_s
        self._append = redis.register_script(script("append.lua"))  # EVALSHA, loaded on first NOSCRIPT
        self._views = redis.register_script(script("views.lua"))

    async def append(
        self,
        match_id: str,
        expected: int,
        records: list[Record],
        idempotency: str | None,
        answer: bytes,
        also: Call | None = None,
    ) -> Appended:
        """Run append.lua; ``also``, a script on the same Redis, goes in the same round trip right
        after it (the projector's dirty mark: harmless after a refused append)."""
        log = keys.log(match_id)
        args: list[Any] = [expected, answer, self.ttl]
        for record in records:
            args += (record.body, record.hash)
        append = Call(self._append, [log, idempotency or log], args)
        if also is None:
            result, also_result = await append.script(keys=append.keys, args=append.args), None
        else:
            result, also_result = await self._pipelined(append, also)
        outcome, value = result[0].decode(), result[1]
        if outcome == "duplicate":
            return Appended(outcome, prior=value, also=also_result)
        return Appended(outcome, version=int(value), also=also_result)

    async def _pipelined(self, *calls: Call) -> list[Any]:
        # EVALSHA by hand: redis-py's pipeline would first ask SCRIPT EXISTS, a round trip more
        for attempt in (1, 2):
            async with self.redis.pipeline(transaction=False) as pipe:
                for call in calls:
                    pipe.evalsha(call.script.sha, len(call.keys), *call.keys, *call.args)
                try:
                    return await pipe.execute()
                except NoScriptError:
                    if attempt == 2:
                        raise
                    for call in calls:
                        await self.redis.script_load(call.script.script)
        raise AssertionError("unreachable")

    async def read(self, match_id: str, after: int = 0, upto: int | None = None) -> list[Record]:
        """The entries with ``after < version <= upto`` (to the end without ``upto``)."""
        end = "+" if upto is None else f"{upto}-0"
        entries = await self.redis.xrange(keys.log(match_id), f"{after + 1}-0", end)
        return [Record(_decoder.decode(fields[b"b"]), fields[b"b"], fields[b"h"].decode()) for _, fields in entries]

    async def remember(self, idempotency: str, answer: bytes) -> bytes:
        """Keep a refusal under its idempotency key unless an answer is there already; the kept one."""
        if await self.redis.set(idempotency, answer, ex=self.ttl, nx=True):
            return answer
        return await self.redis.get(idempotency) or answer

    async def recall(self, idempotency: str) -> bytes | None:
        return await self.redis.get(idempotency)

    async def write_views(self, match_id: str, version: int, fields: dict[str, bytes], notice: bytes) -> bool:
        args: list[Any] = [version, keys.NOTICES, notice]
        for field, value in fields.items():
            args += (field, value)
        return bool(await self._views(keys=[keys.views(match_id)], args=args))

    async def view(self, match_id: str, field: str) -> bytes | None:
        return await self.redis.hget(keys.views(match_id), field)
