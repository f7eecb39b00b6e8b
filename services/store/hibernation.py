"""A hibernated match's keys (services/commands/hibernation.py): what a snapshot of an awake match
reads, the script that puts it to sleep (hibernate.lua: its keys deleted and one index key,
``keys.hibernated``, left in their place) and the one that wakes it (wake.lua: every key back as
it was, stream entry ids included), each guarded by the snapshot's token, all under the match's
hash tag (one Cluster slot)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from redis.exceptions import ResponseError

from services.store import keys, resp
from services.store.clients import Events
from services.store.connections import link_to
from services.store.event_store import Call, Record, records_of, reply, run_scripts, script

_HERE = Path(__file__).parent


@dataclass(frozen=True, slots=True)
class Awake:
    """What Redis holds of an awake match."""

    meta: dict[str, str]
    records: list[Record]
    views: dict[str, bytes]
    entropy: dict[str, str]


@dataclass(frozen=True, slots=True)
class Kept:
    """An idempotency record: its answer and how long it has left (ms; -1: no expiry)."""

    answer: bytes
    ttl_ms: int


@dataclass(frozen=True, slots=True)
class Asleep:
    """A match's index key as read, and whether its meta is in Redis (awake, unless ended)."""

    token: str | None
    awake: bool


@dataclass(frozen=True, slots=True)
class Bed:
    """What wake.lua puts back: the records, meta, views, entropy and idempotency records by name."""

    records: list[Record]
    meta: dict[str, str]
    views: dict[str, bytes]
    entropy: dict[str, str]
    kept: dict[str, Kept]


def _match_keys(match_id: str) -> list[str]:
    """hibernate.lua's and wake.lua's KEYS[1..5]."""
    return [keys.log(match_id), keys.meta(match_id), keys.views(match_id), keys.entropy(match_id),
            keys.hibernated(match_id)]


def _pairs(answer: Any) -> dict[bytes, bytes]:
    """An HGETALL's answer: a dict through redis-py's pool, a flat list through a Wire."""
    return dict(answer) if isinstance(answer, dict) else dict(zip(answer[::2], answer[1::2], strict=True))


def _flat(mapping: dict[str, Any]) -> list[Any]:
    return [len(mapping), *(part for pair in mapping.items() for part in pair)]


class Beds:
    def __init__(self, redis: Events, link: resp.Link | None = None, acked: resp.Link | None = None) -> None:
        self.link = link or link_to(redis)  # the reads'
        self.acked = acked or self.link  # the scripts': on a cluster, answered once replicas hold them
        self._sleep = redis.register_script(script(_HERE / "hibernate.lua"))
        self._wake = redis.register_script(script(_HERE / "wake.lua"))

    async def awake(self, match_id: str) -> Awake | None:
        """The match as Redis holds it, in one round trip; None without its meta."""
        commands = [
            ["HGETALL", keys.meta(match_id)],
            ["XRANGE", keys.log(match_id), "-", "+"],
            ["HGETALL", keys.views(match_id)],
            ["HGETALL", keys.entropy(match_id)],
        ]
        meta, log, views, entropy = [reply(answer) for answer in await self.link.exchange(commands, reads=True)]
        if not meta:
            return None
        decoded = {name.decode(): value.decode() for name, value in _pairs(meta).items()}
        return Awake(
            decoded,
            records_of(log),
            {name.decode(): value for name, value in _pairs(views).items()},
            {name.decode(): value.decode() for name, value in _pairs(entropy).items()},
        )

    async def kept(self, names: list[str]) -> dict[str, Kept]:
        """The idempotency records of these names (one match's) that Redis holds."""
        if not names:
            return {}
        commands = [command for name in names for command in (["GET", name], ["PTTL", name])]
        answers = [reply(answer) for answer in await self.link.exchange(commands, reads=True)]
        found = zip(names, answers[::2], answers[1::2], strict=True)
        return {name: Kept(answer, int(ttl)) for name, answer, ttl in found if answer is not None}

    async def sleep(self, match_id: str, version: int, token: str, kept: list[str]) -> str:
        """hibernate.lua: 'ok' | 'moved' | 'gone'."""
        call = Call(self._sleep, [*_match_keys(match_id), *kept], [version, token])
        (answer,) = await run_scripts(self.acked, [call])
        return str(reply(answer).decode())

    async def asleep(self, match_id: str) -> Asleep:
        """The match's index key, and whether its meta is there (one round trip)."""
        commands = [["GET", keys.hibernated(match_id)], ["HMGET", keys.meta(match_id), "game", "ended"]]
        token, (game, ended) = [reply(answer) for answer in await self.link.exchange(commands, reads=True)]
        return Asleep(None if token is None else token.decode(), game is not None and ended is None)

    async def wake(self, match_id: str, token: str, bed: Bed) -> str:
        """wake.lua: 'woken' | 'awake' | 'gone' | 'stale'."""
        args: list[Any] = [token, len(bed.records)]
        for record in bed.records:
            args += (f"{record.envelope.version}-0", record.body, record.hash)
        args += (*_flat(bed.meta), *_flat(bed.views), *_flat(bed.entropy))
        for kept in bed.kept.values():
            args += (kept.answer, kept.ttl_ms)
        call = Call(self._wake, [*_match_keys(match_id), *bed.kept], args)
        (answer,) = await run_scripts(self.acked, [call])
        return str(reply(answer).decode())

    async def footprint(self, match_id: str) -> int | None:
        """MEMORY USAGE of the match's index key (bytes; 0 if there is none), what a hibernated match
        keeps in Redis; None where the server cannot say (the embedded fakeredis has no MEMORY)."""
        (used,) = await self.link.exchange([["MEMORY", "USAGE", keys.hibernated(match_id)]], reads=True)
        if isinstance(used, ResponseError):
            return None
        return int(reply(used) or 0)
